"""The records ``identify`` passes from step to step: each card it will answer, with what its
outline showed that the later steps (cards found by their index, lower cards of a pile) ask."""

from __future__ import annotations

from dataclasses import dataclass

from vision.quads import CardQuad, whole
from vision.reader import Reading, Warped
from vision.seen import SeenCard


@dataclass(frozen=True)
class Candidate:
    """One card of a frame as the steps so far answer it.

    A card read through an outline keeps that outline, its reading and its face: a later step
    may name an unsure one or doubt a read one on that evidence. A card a later step answers
    anew (found by its index, read under others, named, doubted) starts a new record with no
    outline: the evidence was the old answer's."""

    card: SeenCard
    outline: CardQuad | None = None  # the outline it was read through
    reading: Reading | None = None  # ... what that outline read
    face: Warped | None = None  # ... and the card as the reader asked it
    held: bool = False  # read for sure, then doubted as a lower card of a pile: stays unsure
    loose: bool = False  # read for sure on one corner only, lying against others or not whole: checked by index
    # named through outlines the finder did not draw round it: a row's split (``vision.fans``), or
    # its own nudged (``identify.nudged_looks``), whose corners may hold a lower card's index
    guessed: bool = False

    @property
    def open(self) -> bool:
        """An unsure outline a later step may still name (not one held unsure)."""
        return self.card.code is None and self.reading is not None and not self.held

    @property
    def lies_whole(self) -> bool:
        """Whether its outline is an edge all round (``quads.whole``) and read as drawn (not
        ``guessed``: a row's split may take the row's cards' sides for its own)."""
        return self.outline is not None and not self.guessed and whole(self.outline)


def answers(candidates: list[Candidate]) -> list[SeenCard]:
    """The cards the candidates answer, in order."""
    return [c.card for c in candidates]

"""The deck's card size in one camera's pixels, learnt from the frames it has read: one deck's
cards are one size and an overhead camera changes that little, so an outline drawn off that
size was drawn off its card (``identify``'s ``card_size``)."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

import numpy as np

from vision.quads import card_sides
from vision.seen import SeenCard
from vision.tuning import tuned


@dataclass(frozen=True)
class CardSizeTuning:
    """The tuned numbers of learning the cards' size, each with its unit and why it has its value
    (``vision.tuning``: a test or an experiment reads with others)."""

    remembered: int = 40  # the outlines of cards read surely lately whose sides are kept (a camera moved: 40 cards on)
    least: int = 8  # ... at least this many before a size is said: a few outlines drawn off do not move the median


TUNING = CardSizeTuning()


class CardSizes:
    """The short and long sides of the cards read surely lately (faces and backs, not cards
    lying under others: their outlines are inferred), and their median."""

    def __init__(self) -> None:
        tune = tuned(TUNING)
        self._sides: deque[np.ndarray] = deque(maxlen=tune.remembered)

    def add(self, cards: list[SeenCard]) -> None:
        """The cards one frame read."""
        self._sides.extend(card_sides(c.corners) for c in cards if c.code is not None and not c.covered)

    def typical(self) -> np.ndarray | None:
        """The cards' short and long sides in pixels, or None until ``least`` were read."""
        tune = tuned(TUNING)
        return np.median(np.array(self._sides), axis=0) if len(self._sides) >= tune.least else None

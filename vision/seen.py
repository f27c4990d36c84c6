"""What ``identify`` answers for each card it sees, and how the cards seen lie on each other."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from vision.quads import CardQuad


@dataclass(frozen=True)
class SeenCard:
    """One card in one frame: what it reads (None when unsure: show it again) and where it lies."""

    code: str | None  # a card code, "back", or None when unsure
    confidence: float
    corners: np.ndarray  # 4 x 2 image pixels, clockwise, first side short
    covered: bool = False  # partly under other cards: never a pile's top card (its hidden part inferred)
    indices: tuple[tuple[float, float], ...] = ()  # a covered card known by its index: where they show (``lies_over``)

    @property
    def center(self) -> tuple[float, float]:
        c = self.corners.mean(axis=0)
        return float(c[0]), float(c[1])

    @property
    def short_side(self) -> float:
        """Its outline's first side: a short one (the corners' order says so)."""
        return float(np.linalg.norm(self.corners[1] - self.corners[0]))

    def to_json(self) -> dict[str, object]:
        return {
            "code": self.code,
            "confidence": round(self.confidence, 3),
            "corners": [[round(float(x), 1), round(float(y), 1)] for x, y in self.corners],
            "covered": self.covered,
        }


def lies_over(card: SeenCard, other: SeenCard) -> bool:
    """Whether ``card`` lies over ``other`` where their outlines overlap: a card on top over every
    covered one but one whose index shows inside its outline, and a covered card over another
    whose outline holds an index it was known by (that index shows) while its own outline holds
    none of the other's. In a fan of cards each known by an index, the part of each that shows is
    its outline less the cards over it. An outline drawn round a whole pile, or round a game's
    box a card lies on, holds the index that card was known by: it hides none of that card."""
    if card.covered != other.covered:
        return not card.covered and not any(holds(card, at) for at in other.indices)
    return any(holds(other, at) for at in card.indices) and not any(holds(card, at) for at in other.indices)


def bottom_up(cards: Sequence[SeenCard]) -> list[SeenCard]:
    """Cards lying over one another (a pile fanned out, a trick), the lowest first: each after
    every card it lies over (``lies_over``), as far as their outlines tell."""
    over = [sum(lies_over(card, other) for other in cards if other is not card) for card in cards]
    return [card for _, _, card in sorted(zip(over, range(len(cards)), cards, strict=True), key=lambda t: t[:2])]


def holds(card: SeenCard | CardQuad, point: tuple[float, float]) -> bool:
    """Whether a card's outline holds a point (image pixels), on its edge too."""
    return cv2.pointPolygonTest(card.corners.astype(np.float32), point, False) >= 0

"""Which of two cards read as lying whole, one over the other, is on top.

A card thrown on a pile at an angle leaves the card under it showing both its index corners:
an outline drawn round the lower card reads it surely, and its middle, the top card's, may not
contradict it (a five over a four of its suit counts one pip off). Two whole cards cannot
overlap, so one of them lies under the other. The picture says which: the top card's sides show
as edges where they cross the lower card, and the lower card's sides under the top one do not.
The lower card is then answered as covered, known by the index corners that show.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np

from vision.by_index import WARPED
from vision.detect import CARD_H, CARD_W
from vision.quads import CardQuad, boxes, edges_inside, iou
from vision.reader import BACK, corner_box
from vision.seen import SeenCard, holds
from vision.tuning import tuned


@dataclass(frozen=True)
class OnTopTuning:
    """The tuned numbers of telling which card lies on top, each with its unit and why it has its value
    (``vision.tuning``: a test or an experiment reads with others)."""

    piled: float = 0.4  # two outlines whose boxes overlap this much (over their union) lie one on the other
    side_points: int = 8  # each outline has at least this many side points inside the other, or nothing is said
    on_top: float = 0.8  # the top card's sides inside the other are edges at this share at least ...
    apart: float = 0.15  # ... and at this much more than the other's


TUNING = OnTopTuning()


def one_on_top(
    gray: np.ndarray, lines_over: Callable[[list[np.ndarray]], np.ndarray], cards: list[SeenCard]
) -> list[SeenCard]:
    """The cards, each read card lying whole under another whole one (by the picture's edges)
    answered as covered. ``lines_over`` draws the frame's line map over boxes (a faint white-on-white
    side is a line, not a step)."""
    tune = tuned(TUNING)
    read = [n for n, c in enumerate(cards) if not c.covered and c.code not in (None, BACK)]
    if len(read) < 2:
        return cards
    spans = boxes([CardQuad(cards[n].corners, 1.0) for n in read])
    under: dict[int, int] = {}  # a lower card's place, and the card over it
    for i, n in enumerate(read):
        overlaps = iou(spans[i], spans)
        for j in range(i + 1, len(read)):
            if overlaps[j] < tune.piled:
                continue
            m = read[j]
            lines = lines_over([spans[i], spans[j]])
            top = _top_of(gray, lines, cards[n], cards[m])
            if top is not None:
                lower, upper = (m, n) if top == 0 else (n, m)
                under.setdefault(lower, upper)
    if not under:
        return cards
    out = list(cards)
    for lower, upper in under.items():
        card = cards[lower]
        shows = tuple(p for p in index_points(card.corners) if not holds(cards[upper], p))
        out[lower] = SeenCard(card.code, card.confidence, card.corners, covered=True, indices=shows)
    return out


def _top_of(gray: np.ndarray, lines: np.ndarray, a: SeenCard, b: SeenCard) -> int | None:
    """0 when ``a`` lies on ``b``, 1 when ``b`` lies on ``a``, None when the picture does not say."""
    tune = tuned(TUNING)
    shares = []
    for card, other in ((a, b), (b, a)):
        inside, edges = edges_inside(gray, card.corners, other.corners, lines)
        if inside < tune.side_points:
            return None
        shares.append(edges / inside)
    best = int(np.argmax(shares))
    return best if shares[best] >= tune.on_top and shares[best] - shares[1 - best] >= tune.apart else None


def index_points(corners: np.ndarray) -> tuple[tuple[float, float], tuple[float, float]]:
    """The middles of an outline's two index corners (top-left, then bottom-right), in the frame's pixels."""
    to_frame = cv2.getPerspectiveTransform(WARPED, corners.astype(np.float32))
    middles = []
    for n in (0, 1):
        top, bottom, left, right = corner_box(CARD_H, CARD_W, n)
        middles.append(np.float32([[[(left + right) / 2, (top + bottom) / 2]]]))
    points = (cv2.perspectiveTransform(m, to_frame)[0, 0] for m in middles)
    return tuple((float(p[0]), float(p[1])) for p in points)  # type: ignore[return-value]

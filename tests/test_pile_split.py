"""The top card of a tight pile: its sides lie inside the pile's outline, not on it."""

from __future__ import annotations

import cv2
import numpy as np

from vision.detect import _edge_lines, _straight_edges, split_pile
from vision.quads import edge_support, edge_supports

CARD = (100, 140)  # short and long side, working pixels


def _card(centre: tuple[float, float], angle: float) -> np.ndarray:
    return cv2.boxPoints((centre, CARD, angle)).astype(np.float32)


def _tight_pile() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A dark table and white cards of one size: four lower ones, turned a little and pushed
    out towards the four corners, stick out all round the top card. The lower cards lie a little
    in its shade, so its edge is a step in brightness. Returns the picture, the pile's outline
    and the top card's corners."""
    gray = np.full((300, 300), 60, np.uint8)
    for dx, dy, angle in ((-14, -14, 8), (14, -14, -6), (14, 14, 5), (-14, 14, -9)):
        lower = _card((150 + dx, 150 + dy), angle)
        cv2.fillPoly(gray, [np.round(lower).astype(np.int32)], 195)
        cv2.polylines(gray, [np.round(lower).astype(np.int32)], True, 150, 2)
    top = _card((150, 150), 0)
    cv2.fillPoly(gray, [np.round(top).astype(np.int32)], 235)
    mask = (gray > 120).astype(np.uint8)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    return cv2.GaussianBlur(gray, (3, 3), 0), max(contours, key=cv2.contourArea), top


def _distance(found: np.ndarray, corners: np.ndarray) -> float:
    """The largest distance from a corner to the nearest found corner."""
    return float(max(np.linalg.norm(found - c, axis=1).min() for c in corners))


def test_the_top_card_s_four_sides_are_found_as_straight_edges_inside_a_tight_pile() -> None:
    """The sides ``split_pile(..., inner_edges=True)`` builds card-shaped rectangles on."""
    gray, outline, top = _tight_pile()
    x0, y0, w, h = cv2.boundingRect(outline)
    region = np.zeros((h + 2, w + 2), np.uint8)
    cv2.drawContours(region, [outline - [x0 - 1, y0 - 1]], -1, 1, thickness=cv2.FILLED)
    lines, _ = _edge_lines(gray, (x0 - 1, y0 - 1), region.shape)
    found = _straight_edges(lines, region, (x0 - 1, y0 - 1), 35)
    for i in range(4):
        a, b = top[i], top[(i + 1) % 4]
        # Some edge runs along this side (within 4 pixels) over at least 80% of its length.
        along = [
            (s, e)
            for s, e in found
            if max(_off_line(s, a, b), _off_line(e, a, b)) < 4 and np.linalg.norm(e - s) > 0.8 * np.linalg.norm(b - a)
        ]
        assert along, f"side {i} of the top card not found among {found}"


def _off_line(p: np.ndarray, a: np.ndarray, b: np.ndarray) -> float:
    d = b - a
    return float(abs(d[0] * (p[1] - a[1]) - d[1] * (p[0] - a[0])) / np.linalg.norm(d))


def test_the_outline_alone_does_not_show_a_tight_pile_s_top_card() -> None:
    """Why the edges inside are asked: every side of the outline belongs to a lower card."""
    gray, outline, top = _tight_pile()
    assert all(_distance(q.corners, top) > 15 for q in split_pile(outline, gray))


def test_a_card_s_side_over_another_card_counts_as_an_edge_where_a_line_runs_along_it() -> None:
    """White on white, the step across a top card's side is faint; the thin line a card's edge
    casts is what shows it, and ``split_pile`` counts the lines it finds as edges."""
    gray = np.full((200, 200), 40, np.uint8)
    cv2.rectangle(gray, (20, 20), (180, 180), 230, -1)  # the card underneath
    quad = np.float32([[60, 40], [140, 40], [140, 160], [60, 160]])  # the top card, white on it
    cv2.polylines(gray, [quad.astype(np.int32)], True, 200, 1)  # its edge: a faint line
    assert edge_support(gray, quad) == 0.0
    lines = cv2.dilate(cv2.Canny(gray, 30, 90), np.ones((3, 3), np.uint8))
    assert edge_supports(gray, quad[None], lines)[0] == 1.0
    # A rectangle where no line runs is no better for them.
    elsewhere = quad + np.float32([15, 0])
    assert edge_supports(gray, elsewhere[None], lines)[0] < 0.2

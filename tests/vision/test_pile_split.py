"""The top card of a tight pile: its sides lie inside the pile's outline, not on it."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

import vision.detect
from vision.detect import edge_lines, split_pile, straight_edges
from vision.quads import CardQuad, boxes, corner_rectangles, edge_support, edge_supports, iou

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
    lines, _ = edge_lines(gray, (x0 - 1, y0 - 1), region.shape)
    found = straight_edges(lines, region, (x0 - 1, y0 - 1), 35)
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


def _pile_turned_over_two() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A top card turned 35 degrees over two lower cards that stick out on several sides: one
    of its corners makes the pile's outline, and no side of the outline is one of its sides
    whole. Its sides over the lower cards are faint lines, white on white. Returns the picture,
    the pile's outline and the top card's corners."""
    gray = np.full((320, 320), 50, np.uint8)
    for centre, angle in (((150, 150), 0), ((150, 175), -10)):
        lower = np.round(_card(centre, angle)).astype(np.int32)
        cv2.fillPoly(gray, [lower], 215)
        cv2.polylines(gray, [lower], True, 175, 1)
    top = _card((165, 160), 35)
    cv2.fillPoly(gray, [np.round(top).astype(np.int32)], 225)
    cv2.polylines(gray, [np.round(top).astype(np.int32)], True, 190, 1)
    contours, _ = cv2.findContours((gray > 120).astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    return cv2.GaussianBlur(gray, (3, 3), 0), max(contours, key=cv2.contourArea), top


def test_a_top_card_turned_over_the_pile_is_found_from_where_its_sides_meet(monkeypatch: pytest.MonkeyPatch) -> None:
    gray, outline, top = _pile_turned_over_two()
    found = split_pile(outline, gray, inner_edges=True)
    assert len(found) == 1 and _distance(found[0].corners, top) < 3
    # Without the rectangles drawn on its corners, the search settles on a lower card.
    monkeypatch.setattr(vision.detect, "corner_rectangles", lambda segments, gap: np.zeros((0, 4, 2), np.float32))
    assert all(_distance(q.corners, top) > 20 for q in split_pile(outline, gray, inner_edges=True))


def test_rectangles_are_drawn_on_two_edges_meeting_at_a_right_angle() -> None:
    """A card's corner at (10, 20): its whole short side along x, half its long side along y.
    The rectangle reaching as far as the short side asks is the card; more come with the other
    ratio and the other way round."""
    short = np.float32([[12, 20], [110, 20]])  # ends a little before the corner: corners are round
    long = np.float32([[10, 22], [10, 90]])
    found = corner_rectangles(np.stack([short, long]), gap=10)
    card = np.float32([[10, 20], [110, 20], [110, 160], [10, 160]])
    assert len(found) == 4
    assert min(_distance(q, card) for q in found) < 0.5


@pytest.mark.parametrize(
    "second",
    [
        np.float32([[60, 0], [60, 80]]),  # crossing the first in its middle: no corner
        np.float32([[12, 20], [110, 30]]),  # nearly parallel
        np.float32([[10, 60], [10, 120]]),  # square to it, but starting far from where they would meet
    ],
)
def test_edges_that_make_no_corner_draw_no_rectangle(second: np.ndarray) -> None:
    first = np.float32([[12, 20], [110, 20]])
    assert len(corner_rectangles(np.stack([first, second]), gap=10)) == 0


def test_an_edge_of_no_length_is_no_side() -> None:
    """A degenerate segment (both ends one point) is left out, not divided by."""
    point = np.float32([[5, 5], [5, 5]])
    short, long = np.float32([[12, 20], [110, 20]]), np.float32([[10, 22], [10, 90]])
    with np.errstate(all="raise"):
        found = corner_rectangles(np.stack([point, short, long]), gap=10)
    assert len(found) == 4


def test_a_region_found_at_several_whiteness_levels_is_searched_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same region, point for point, in two paper masks: its search (milliseconds) runs once
    and the outlines found are the same as from one mask."""
    from sim.render import CardPlacement, SceneSpec, render_scene

    # Spread wide enough that no whiteness level shows the top card alone, clean: a region of
    # several cards (a tight pile's region is explained by such an outline, and not searched).
    pile = tuple(
        CardPlacement(code, 400 + 40 * n, 300 + 30 * n, 4 * n, 230) for n, code in enumerate(("7C", "9H", "KD"))
    )
    image, _truth = render_scene(SceneSpec(cards=pile, seed=3, table="felt"))
    masks = vision.detect.paper_masks
    calls: list[int] = []
    search = vision.detect.split_pile
    monkeypatch.setattr(vision.detect, "split_pile", lambda *a, **k: calls.append(1) or search(*a, **k))

    def outlines() -> list[np.ndarray]:
        return [f.quad.corners for f in vision.detect.find_card_outlines(image)]

    once = outlines()
    searched = len(calls)
    monkeypatch.setattr(vision.detect, "paper_masks", lambda small: masks(small) * 2)  # every region twice
    twice = outlines()
    assert searched > 0 and len(calls) == 2 * searched
    assert len(once) == len(twice) and all(np.array_equal(a, b) for a, b in zip(once, twice, strict=True))
    contour = np.array([[[0, 0]], [[5, 0]], [[5, 5]]], np.int32)
    assert len(vision.detect.distinct_outlines([contour, contour.copy(), contour + 1])) == 2


def test_a_region_the_outlines_found_cover_together_is_not_split_again() -> None:
    """Two cards lying together show as one region at one whiteness level and as most of it at
    another: once the first is split, the cards found cover the second, which is not split
    again (measured: a rendered frame of eight cards, 32 -> 25 ms). Half covered, it is; and
    pieces of a card (smaller than the cards found) explain no region: it may show that card."""
    left = CardQuad(np.float32([[10, 10], [60, 10], [60, 80], [10, 80]]), 0.85)
    right = CardQuad(np.float32([[55, 20], [105, 20], [105, 90], [55, 90]]), 0.85)
    region = np.zeros((120, 120), np.uint8)
    for quad in (left, right):
        cv2.fillPoly(region, [quad.corners.astype(np.int32)], 255)
    (contour,) = cv2.findContours(region, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)[0]
    card = left.area
    assert vision.detect.explained(contour, [left, right], card)
    assert not vision.detect.explained(contour, [left], card)  # no one outline covers most of its box
    assert not vision.detect.explained(contour, [], card)
    assert not vision.detect.explained(contour, [left, right], 2 * card)  # pieces of bigger cards


def test_a_tight_pile_whose_top_card_shows_clean_is_not_searched(monkeypatch: pytest.MonkeyPatch) -> None:
    """A tight pile's region fills its rectangle loosely (the lower cards stick out), which may
    hide its top card; but where a stricter whiteness level shows that card alone, clean, the
    region is explained and not searched again (on rendered tables of eight cards, a third of
    the finder's time)."""
    from sim.render import CardPlacement, SceneSpec, render_scene

    pile = tuple(CardPlacement(code, 400 + 6 * n, 300 + 5 * n, 4 * n, 230) for n, code in enumerate(("7C", "9H", "KD")))
    image, truth = render_scene(SceneSpec(cards=pile, seed=3, table="felt"))
    calls: list[int] = []
    search = vision.detect.split_pile
    monkeypatch.setattr(vision.detect, "split_pile", lambda *a, **k: calls.append(1) or search(*a, **k))
    found = vision.detect.find_cards(image)
    (top,) = [t for t in truth if t.code == "KD"]
    assert not calls
    assert iou(boxes([CardQuad(top.corners, 1.0)])[0], boxes(found)).max() > 0.9


def test_box_overlaps_each_with_each_are_the_one_box_overlaps_row_by_row() -> None:
    rng = np.random.default_rng(3)
    corner = rng.uniform(0, 200, (12, 2)).astype(np.float32)
    a = np.concatenate([corner, corner + rng.uniform(1, 80, (12, 2)).astype(np.float32)], axis=1)
    b = a[::2] + np.float32(5)
    matrix = iou(a, b)
    assert matrix.shape == (12, 6)
    assert np.array_equal(matrix, np.stack([iou(box, b) for box in a]))
    assert np.allclose(np.diag(iou(a, a)), 1.0) and iou(a[:0], b).shape == (0, 6)

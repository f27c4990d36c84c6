"""Cards lying partly under others (a trick laid down, a hand spread): found from the strip that
shows beside the card on top, read from the one index the strip shows, never the top card's."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from sim.render import CardPlacement, SceneSpec, card_corners, render_scene
from vision.covered import covered_cards, hide, lay_card
from vision.identify import SeenCard, identify
from vision.quads import CardQuad, portrait_corners
from vision.tracker import CardTracker

SHORT, LONG = 100.0, 140.0


def _card(x: float, y: float, angle: float = 0.0) -> np.ndarray:
    return card_corners(x, y, angle, LONG)


def _region(*cards: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The region several cards make together (a mask) and its outline."""
    mask = np.zeros((400, 500), np.uint8)
    for corners in cards:
        cv2.fillPoly(mask, [np.round(corners).astype(np.int32)], 1)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    return mask, max(contours, key=cv2.contourArea)


def _overlap(a: np.ndarray, b: np.ndarray) -> float:
    """How much two quadrilaterals overlap, over their union (rasterised)."""
    ma, mb = np.zeros((400, 500), np.uint8), np.zeros((400, 500), np.uint8)
    cv2.fillPoly(ma, [np.round(a).astype(np.int32)], 1)
    cv2.fillPoly(mb, [np.round(b).astype(np.int32)], 1)
    return float((ma & mb).sum() / max(1, (ma | mb).sum()))


@pytest.mark.parametrize(("shift", "angle"), [(45, 0.0), (60, 15.0), (40, -30.0), (55, 90.0)])
def test_the_card_under_another_is_laid_over_the_strip_that_shows(shift: float, angle: float) -> None:
    a = math.radians(angle)
    lower = _card(200, 200, angle)
    upper = _card(200 + shift * math.cos(a), 200 - shift * math.sin(a), angle)
    _, outline = _region(lower, upper)
    tops = [CardQuad(portrait_corners(upper), 1.0)]
    found = covered_cards([outline], tops)
    assert len(found) == 1
    assert found[0].over == (0,)
    assert _overlap(found[0].quad.corners, lower) > 0.9


def test_a_strip_too_narrow_to_show_an_index_is_no_card() -> None:
    lower, upper = _card(200, 200), _card(215, 200)  # 15% of the width shows
    _, outline = _region(lower, upper)
    assert covered_cards([outline], [CardQuad(portrait_corners(upper), 1.0)]) == []


def test_a_card_lying_on_nothing_is_not_covered() -> None:
    _, outline = _region(_card(200, 200))
    other = CardQuad(portrait_corners(_card(420, 200)), 1.0)
    assert covered_cards([outline], [other]) == []


def test_no_card_fits_a_strip_that_is_no_card_edge() -> None:
    """A tab sticking out of a card's side (something white beside it), shorter than any card:
    no card of the size of the one on top can cover it and stay inside the region."""
    top = _card(200, 200)  # 100 x 140, its right side at x = 250
    tab = np.float32([[250, 170], [290, 170], [290, 230], [250, 230]])
    mask, outline = _region(top, tab)
    assert covered_cards([outline], [CardQuad(portrait_corners(top), 1.0)]) == []
    strip = np.zeros_like(mask)
    cv2.fillPoly(strip, [np.round(tab).astype(np.int32)], 1)
    strips, _ = cv2.findContours(strip, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    assert lay_card(strips[0], mask, SHORT, LONG) is None
    longer = np.float32([[250, 130], [290, 130], [290, 270], [250, 270]])  # a card's whole side: a card fits
    mask, outline = _region(top, longer)
    assert len(covered_cards([outline], [CardQuad(portrait_corners(top), 1.0)])) == 1


def test_what_lies_under_the_card_on_top_is_painted_out() -> None:
    lower, upper = _card(200, 200), _card(250, 200)
    image = np.full((400, 500, 3), 40, np.uint8)
    cv2.fillPoly(image, [np.round(lower).astype(np.int32)], (230, 230, 230))
    cv2.fillPoly(image, [np.round(upper).astype(np.int32)], (0, 0, 200))  # the top card, all "ink"
    quad, over = CardQuad(portrait_corners(lower), 1.0), (CardQuad(portrait_corners(upper), 1.0),)
    m = cv2.getPerspectiveTransform(quad.corners, np.float32([[0, 0], [249, 0], [249, 349], [0, 349]]))
    card = cv2.warpPerspective(image, m, (250, 350))
    shown = hide(card, quad, over)
    assert shown is not None
    assert (card[:, :, 0] < 100).any()  # the top card reaches into the warp...
    assert not (shown[:, :, 0] < 100).any()  # ... and none of it is left
    assert (shown[:, :60] == card[:, :60]).all()  # the strip is as it was
    everything = (CardQuad(portrait_corners(lower), 1.0),)
    assert hide(card, quad, everything) is None


PAIRS = [  # (table, seed, shift in pixels, angle): a nine of hearts with a king of spades over it
    ("wood", 1, 90, 0),
    ("wood", 0, 80, 20),
    ("grey", 1, 70, -35),
    ("cloth", 2, 80, 20),
    ("felt", 1, 90, 0),
    ("cloth", 0, 70, -35),
]


def _pair(table: str, seed: int, shift: float, angle: float) -> np.ndarray:
    a = math.radians(angle)
    top = CardPlacement("KS", 330 + shift * math.cos(a), 300 - shift * math.sin(a), angle, 260)
    image, _ = render_scene(SceneSpec(table=table, seed=seed, cards=(CardPlacement("9H", 330, 300, angle, 260), top)))
    return image


def test_the_card_under_another_is_read_from_its_strip() -> None:
    right = 0
    for table, seed, shift, angle in PAIRS:
        cards = identify(_pair(table, seed, shift, angle))
        on_top = [c for c in cards if not c.covered]
        under = [c for c in cards if c.covered]
        assert [c.code for c in on_top] == ["KS"], (table, seed)
        assert all(c.code in ("9H", None) for c in under), (table, seed, under)
        right += any(c.code == "9H" for c in under)
    assert right >= 5


def test_a_card_mostly_under_another_is_seen_only_by_the_index_it_shows() -> None:
    """Too little of the nine shows to read from its strip; its index still shows, read surely:
    it is reported, as covered, never as what lies on top."""
    cards = identify(_pair("wood", 1, 25, 0))
    assert [(c.code, c.covered) for c in cards if not c.covered] == [("KS", False)]
    assert [c.code for c in cards if c.covered] in ([], ["9H"])


def test_a_covered_card_is_never_what_a_zone_shows_on_top() -> None:
    corners = portrait_corners(_card(200, 200))
    top = SeenCard("KS", 0.8, corners)
    under = SeenCard("9H", 0.99, corners, covered=True)
    tracker = CardTracker()
    events = [e for t in range(3) for e in tracker.update(t, [under, top])]
    assert [str(e.card) for e in events] == ["KS"]
    assert under.to_json()["covered"] is True and top.to_json()["covered"] is False

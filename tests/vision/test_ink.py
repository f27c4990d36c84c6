"""A card's planes are computed once and cut by each witness: cutting must equal computing
(but the darkest channel, flattened against the light across the whole card it was taken from)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.render_cards import DECK_STYLES, render_card
from vision.detect import CARD_H, CARD_W
from vision.ink import TUNING as INK_TUNING
from vision.ink import Planes, darkest, flattened, ink_redness, inks, labelled, median_redness
from vision.middle import centre_count, centre_witnesses
from vision.reader import Warped, corner_image, corner_planes


def _card(code: str, style: str = "classic") -> np.ndarray:
    face = render_card(code, DECK_STYLES[style])[:, :, :3]
    return cv2.resize(face, (CARD_W, CARD_H), interpolation=cv2.INTER_AREA)


def _same(a: Planes, b: Planes, names: tuple[str, ...] = ("bgr", "low", "redness", "hsv")) -> None:
    for name in names:
        assert np.array_equal(getattr(a, name), getattr(b, name)), name


@pytest.mark.parametrize("box", [(21, 329, 48, 202), (0, 126, 0, 62), (70, 280, 25, 225)])
def test_a_cut_of_the_planes_is_the_planes_of_the_cut(box: tuple[int, int, int, int]) -> None:
    card = _card("QH")
    top, bottom, left, right = box
    whole = Planes.of(card)
    _same(whole.cut(*box), Planes.of(card[top:bottom, left:right]), ("bgr", "redness", "hsv"))
    assert np.array_equal(whole.cut(*box).low, whole.low[top:bottom, left:right])


def test_the_planes_turned_are_the_planes_of_the_card_turned() -> None:
    card = _card("7D")
    _same(Planes.of(card).turned(), Planes.of(cv2.rotate(card, cv2.ROTATE_180)))


@pytest.mark.parametrize("style", list(DECK_STYLES))
@pytest.mark.parametrize("code", ["10H", "9S", "8D", "7C", "6H", "5S"])
@pytest.mark.parametrize("edge", [0.4, 0.6])
def test_pips_in_a_shadow_across_the_card_are_counted(style: str, code: str, edge: float) -> None:
    """A hard shadow across the card (a window's bar, a hand, ``edge`` of the way down): the
    pips in it are ink against their own paper, and all are counted (one threshold over the
    whole middle took the shaded paper for ink)."""
    card = _card(code, style).astype(np.float32)
    light = np.ones((CARD_H, 1, 1), np.float32)
    light[round(edge * CARD_H) :] = 0.6
    assert centre_count(np.clip(card * light, 0, 255).astype(np.uint8)) == code[:-1]


def test_flattening_keeps_ink_dark_and_evens_the_paper() -> None:
    low = np.full((240, 192), 230, np.uint8)
    low[120:] = 130  # the lower half in shade
    low[40:60, 80:96] = 60  # a pip in the light
    low[190:210, 80:96] = 34  # one in the shade: as dark against its paper
    out = flattened(low)
    assert abs(int(out[10, 10]) - int(out[230, 10])) <= 3  # paper alike in light and shade
    assert abs(int(out[50, 88]) - int(out[200, 88])) <= 12  # and the two pips alike
    assert out[50, 88] < 0.4 * out[10, 10]


def test_a_big_pip_is_not_taken_for_paper() -> None:
    """A cell wholly inside a big pip (an ace's) has no paper in it: its neighbours' paper counts."""
    low = np.full((240, 192), 230, np.uint8)
    low[70:170, 46:146] = 40
    out = flattened(low)
    assert out[120, 96] < 0.3 * out[10, 10]


@pytest.mark.parametrize("style", list(DECK_STYLES))
def test_a_half_size_face_shows_the_middle_a_full_size_one_does(style: str) -> None:
    """The reader reads the middle from a face at half size (``reader.Warped``): every rank's
    count or picture comes out as from the full-size card, and the pips' suit too, or no suit
    (a small pip's point, a few pixels, may leave it between a spade's and a club's): never
    another suit."""
    for code in [r + s for r in ("A", "2", "3", "5", "7", "8", "9", "10", "Q") for s in "CDHS"]:
        card = _card(code, style)
        (count, suit), (full_count, full_suit) = centre_witnesses(Warped.of(card).face_planes()), centre_witnesses(card)
        assert count == full_count and suit in (full_suit, None), code


def test_redness_is_signed_red_over_the_other_two() -> None:
    pixel = np.array([[[40, 90, 200], [200, 90, 40]]], np.uint8)  # BGR: a red one, a blue one
    assert Planes.of(pixel).redness.tolist() == [[110, -160]]


@pytest.mark.parametrize("style", list(DECK_STYLES))
def test_an_index_s_ink_is_red_or_not_from_its_picture_or_its_planes(style: str) -> None:
    red, black = _card("5H", style), _card("5S", style)
    for card, is_red in ((red, True), (black, False)):
        for which in (0, 1):
            corner = corner_image(card, which)
            assert (ink_redness(corner) > INK_TUNING.red_ink) == is_red
            assert ink_redness(Planes.of(corner)) == ink_redness(corner)


@pytest.mark.parametrize("style", list(DECK_STYLES))
def test_an_index_s_ink_is_red_or_not_on_the_half_size_face(style: str) -> None:
    """The reader asks the index's ink (``foreign_middle``, a joker's colour) of the corners of
    the half-size face it reads the middle from: red or black as on the full-size corner."""
    for code in ("AH", "5H", "10D", "QD", "KH", "AS", "5S", "10C", "QS", "KC"):
        card = _card(code, style)
        face = Warped.of(card).face_planes()
        for which in (0, 1):
            half = ink_redness(corner_planes(face, which))
            assert (
                (half > INK_TUNING.red_ink)
                == (ink_redness(corner_image(card, which)) > INK_TUNING.red_ink)
                == (code[-1] in "HD")
            ), code


@pytest.mark.parametrize("style", list(DECK_STYLES))
@pytest.mark.parametrize("code", ["10S", "9C", "4S"])
def test_black_pips_in_a_webcam_s_blue_cast_are_one_ink(style: str, code: str) -> None:
    """A webcam's colour cast prints black ink dark blue, its hues spread over 100-111, across
    the border of two hue bins: still one ink, so the pips are counted (two made a picture)."""
    card = _card(code, style)
    ink = card.min(axis=2) < 100
    rng = np.random.default_rng(7)
    green = rng.uniform(0.6, 0.8, ink.sum())
    cast = card.copy()
    cast[ink] = np.stack([np.full_like(green, 120), 120 * green, np.full_like(green, 50)], axis=1).astype(np.uint8)
    hues = Planes.of(cast).hsv[:, :, 0][ink]
    assert hues.min() < INK_TUNING.hue_step * 7 <= hues.max()  # the ink straddles two bins
    assert inks(cast) == 1
    assert centre_count(cast) == code[:-1]


@pytest.mark.parametrize("style", list(DECK_STYLES))
@pytest.mark.parametrize("code", ["AH", "9H", "9C"])
def test_paper_a_warm_lamp_tints_yellow_is_no_ink(style: str, code: str) -> None:
    """Under a tungsten lamp the paper turns yellow enough to be saturated (IMG_2446's ace): it
    is no second ink beside the pips', which would make the middle a picture."""
    card = _card(code, style).astype(np.float32) * np.float32([0.6, 0.88, 1.0])
    warm = card.astype(np.uint8)
    assert (Planes.of(warm).hsv[:, :, 1] > 80).mean() > 0.5  # the paper itself is saturated
    assert inks(warm) == 1
    assert centre_count(warm) == code[:-1]


def test_two_inks_in_neighbouring_hue_bins_stay_two() -> None:
    """Red and orange (a court figure's robe and hair) lie one hue bin apart: two inks."""
    picture = np.full((200, 160, 3), 240, np.uint8)
    picture[20:90] = (40, 40, 220)  # red, hue 0
    picture[110:180] = (20, 150, 240)  # orange, hue 20
    assert inks(picture) == 2


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 40), st.integers(1, 40), st.integers(0, 2**32 - 1))
def test_the_darkest_channel_is_each_pixel_s_least_of_blue_green_and_red(h: int, w: int, seed: int) -> None:
    """The least of each pixel's own three channels, never a neighbour's, at the picture's edges
    too, and of a cut-out view as of a copy."""
    image = np.random.default_rng(seed).integers(0, 256, (h + 2, w + 2, 3), dtype=np.uint8)
    view = image[1:-1, 1:-1]
    assert np.array_equal(darkest(view), view.min(axis=2))
    grey = view[:, :, 0]
    assert darkest(grey) is grey


def test_a_card_read_again_has_its_middle_asked_once(monkeypatch) -> None:
    """An unsure card is read again through nudged outlines, its face the same: the middle's
    witnesses are asked once a warp, and the second reading is the first's."""
    import vision.reader as reader_module

    asked = []
    witnesses = reader_module.centre_witnesses
    monkeypatch.setattr(reader_module, "centre_witnesses", lambda planes: asked.append(1) or witnesses(planes))
    card = Warped.of(_card("7D"))
    first, again = reader_module.read_cards([card]), reader_module.read_cards([card])
    assert first == again and first[0].code == "7D" and len(asked) == 1


@settings(max_examples=80, deadline=None)
@given(st.integers(1, 60), st.integers(1, 60), st.floats(0.05, 0.8), st.integers(0, 2**32 - 1))
def test_a_mask_with_an_odd_side_is_labelled_as_opencv_labels_it(h: int, w: int, share: float, seed: int) -> None:
    """``labelled`` pads an odd side with background for speed: the labels, every blob's stats
    and centre are OpenCV's own, ink touching the last row and column too."""
    mask = (np.random.default_rng(seed).random((h, w)) < share).astype(np.uint8) * 255
    count, labels, stats, centres = labelled(mask)
    want = cv2.connectedComponentsWithStats(mask, 8, cv2.CV_32S)
    assert count == want[0] and labels.shape == (h, w) and np.array_equal(labels, want[1])
    assert np.array_equal(stats[1:], want[2][1:]) and np.allclose(centres[1:], want[3][1:])


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(-255, 255), max_size=400), st.integers(1, 3))
def test_median_redness_is_numpy_s_median(values: list[int], rows: int) -> None:
    """``median_redness`` takes one partition, not ``np.median``'s machinery: the same value for
    any count of pixels (odd, even, none), as a mask's cut gives them or in rows."""
    redness = np.array(values * rows, np.int16).reshape(rows, -1)
    if not redness.size:
        assert np.isnan(median_redness(redness))
        return
    assert median_redness(redness) == float(np.median(redness))
    assert median_redness(redness.ravel()[::-1]) == float(np.median(redness))

"""A card's planes are computed once and cut by each witness: cutting must equal computing."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from sim.render_cards import DECK_STYLES, render_card
from vision.detect import CARD_H, CARD_W
from vision.ink import RED_INK, Planes, ink_redness
from vision.reader import _corner_planes, corner_image


def _card(code: str, style: str = "classic") -> np.ndarray:
    face = render_card(code, DECK_STYLES[style])[:, :, :3]
    return cv2.resize(face, (CARD_W, CARD_H), interpolation=cv2.INTER_AREA)


def _same(a: Planes, b: Planes) -> None:
    for name in ("bgr", "low", "redness", "hsv"):
        assert np.array_equal(getattr(a, name), getattr(b, name)), name


@pytest.mark.parametrize("box", [(21, 329, 48, 202), (0, 126, 0, 62), (70, 280, 25, 225)])
def test_a_cut_of_the_planes_is_the_planes_of_the_cut(box: tuple[int, int, int, int]) -> None:
    card = _card("QH")
    top, bottom, left, right = box
    _same(Planes.of(card).cut(*box), Planes.of(card[top:bottom, left:right]))


def test_the_planes_turned_are_the_planes_of_the_card_turned() -> None:
    card = _card("7D")
    _same(Planes.of(card).turned(), Planes.of(cv2.rotate(card, cv2.ROTATE_180)))


@pytest.mark.parametrize("which", [0, 1])
def test_a_corner_s_planes_are_those_of_its_picture(which: int) -> None:
    card = _card("10S")
    _same(_corner_planes(Planes.of(card), which), Planes.of(corner_image(card, which)))


def test_redness_is_signed_red_over_the_other_two() -> None:
    pixel = np.array([[[40, 90, 200], [200, 90, 40]]], np.uint8)  # BGR: a red one, a blue one
    assert Planes.of(pixel).redness.tolist() == [[110, -160]]


@pytest.mark.parametrize("style", list(DECK_STYLES))
def test_an_index_s_ink_is_red_or_not_from_its_picture_or_its_planes(style: str) -> None:
    red, black = _card("5H", style), _card("5S", style)
    for card, is_red in ((red, True), (black, False)):
        for which in (0, 1):
            corner = corner_image(card, which)
            assert (ink_redness(corner) > RED_INK) == is_red
            assert ink_redness(Planes.of(corner)) == ink_redness(corner)

"""An outline found loose round a card (a region that merged the card with paper as pale as it,
or a segmenter blob) is searched for the card lying inside it."""

from __future__ import annotations

import cv2
import numpy as np

from vision.detect import TUNING as DETECT_TUNING
from vision.detect import refit_loose
from vision.quads import CardQuad, edge_supports, portrait_corners

CARD = (100, 140)  # short and long side, working pixels


def _box(centre: tuple[float, float], size: tuple[float, float], angle: float) -> np.ndarray:
    return portrait_corners(cv2.boxPoints((centre, size, angle)))


def _card_on_pale_paper() -> tuple[np.ndarray, np.ndarray]:
    """A dark table, a sheet of pale paper, and a white card turned on it: the card's edge is a
    clear step, but only on the paper. Returns the picture and the card's corners."""
    gray = np.full((400, 400), 60, np.uint8)
    cv2.fillPoly(gray, [np.array([[30, 30], [370, 40], [360, 370], [40, 360]], np.int32)], 175)
    card = _box((200, 200), CARD, 20)
    cv2.fillPoly(gray, [np.round(card).astype(np.int32)], 235)
    return cv2.GaussianBlur(gray, (3, 3), 0), card


def _distance(found: np.ndarray, corners: np.ndarray) -> float:
    """The largest distance from a corner to the nearest found corner."""
    return float(max(np.linalg.norm(found - c, axis=1).min() for c in corners))


def test_a_card_inside_a_loose_outline_takes_its_place_and_the_loose_one_becomes_its_rival() -> None:
    gray, card = _card_on_pale_paper()
    # Drawn round the card, turned the other way, on the paper: none of it is an edge.
    loose = CardQuad(_box((205, 195), (180, 250), -10), 0.8)
    rival = CardQuad(_box((200, 200), (150, 210), 0), 0.8)
    assert edge_supports(gray, loose.corners[None])[0] < 0.2
    cards = [[loose, rival]]
    refit_loose(gray, cards)
    assert _distance(cards[0][0].corners, card) < 3
    assert cards[0][1] is loose and cards[0][2] is rival
    assert len(cards[0]) <= DETECT_TUNING.max_rivals + 1


def test_an_outline_on_the_card_s_edges_is_kept() -> None:
    gray, card = _card_on_pale_paper()
    cards = [[CardQuad(card, 1.0)]]
    refit_loose(gray, cards)
    assert len(cards[0]) == 1 and _distance(cards[0][0].corners, card) < 0.5


def test_a_loose_outline_with_no_card_inside_is_kept() -> None:
    """A loose outline round blank paper finds no card there: nothing replaces it."""
    gray, _ = _card_on_pale_paper()
    paper = CardQuad(_box((100, 290), (80, 112), 0), 0.8)  # a patch of the paper beside the card
    cards = [[paper]]
    refit_loose(gray, cards)
    assert cards == [[paper]]

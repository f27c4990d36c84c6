"""The middle of the card as a witness: the pip count when an outline is a little off."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from sim.render_cards import DECK_STYLES, pip_mask, render_card
from vision.detect import CARD_H, CARD_W
from vision.middle import BLOCKED, centre_count, centre_witnesses, foreign_middle, least_pips
from vision.reader import corner_image


def tight(code: str, style: str, cut: float, top_only: bool = False) -> np.ndarray:
    """A card warped through an outline drawn ``cut`` of its height inside its edges (only at
    the top when ``top_only``): the top row of pips, or both, run off the middle."""
    face = render_card(code, DECK_STYLES[style])[:, :, :3]
    h, w = face.shape[:2]
    dy, dx = round(h * cut), round(w * cut / 2)
    inner = face[dy : h - (0 if top_only else dy), dx : w - dx]
    return cv2.resize(inner, (CARD_W, CARD_H), interpolation=cv2.INTER_AREA)


@pytest.mark.parametrize("style", list(DECK_STYLES))
@pytest.mark.parametrize("code", ["9S", "10H", "8C", "3D"])
@pytest.mark.parametrize(("cut", "top_only"), [(0.1, False), (0.12, False), (0.07, True)])
def test_pips_a_tight_outline_cuts_are_still_counted(style: str, code: str, cut: float, top_only: bool) -> None:
    assert centre_count(tight(code, style, cut, top_only)) == code[:-1]


@pytest.mark.parametrize("style", list(DECK_STYLES))
def test_a_pip_of_another_card_at_the_edge_is_not_counted(style: str) -> None:
    """A loose outline round a pile reaches over a lower card: a pip cut by the middle's edge
    with no pip where it would be turned half round is not one of this card's."""
    card = tight("5C", style, 0.0)
    other = tight("5C", style, 0.0)
    # The lower card's top-left pip, pasted where it would show past the top of a loose outline.
    card[0:60, 70:130] = other[65:125, 40:100]
    assert centre_count(card) in ("5", None)


WEDGE = np.int32([[120, 0], [250, 0], [250, 60], [175, 200]])  # from the top edge across the right-hand pips
BAND = np.int32([[0, 350], [250, 350], [250, 290], [0, 250]])  # across the bottom rows


@pytest.mark.parametrize("style", list(DECK_STYLES))
@pytest.mark.parametrize("code", ["7D", "9S", "6H", "10C"])
def test_a_hard_shadow_across_the_pips_blocks_the_count_not_the_suit(style: str, code: str) -> None:
    """The sun through a window casts a sharp shadow from the card's edge across its pips: those
    in it merge with it, and the rest were counted (a 7 read 4 pips, against its index).
    Something far bigger than a pip running off the middle blocks the count. Across the bottom
    rows, the upright pips above it still tell the suit."""
    assert centre_count(tight(code, style, 0.0)) == code[:-1]
    for shape, suits in ((WEDGE, (code[-1], None)), (BAND, (code[-1],))):
        card = tight(code, style, 0.0)
        shade = np.zeros(card.shape[:2], np.uint8)
        cv2.fillPoly(shade, [shape], 1)
        card[shade > 0] = (card[shade > 0] * 0.45).astype(np.uint8)
        count, suit = centre_witnesses(card)
        assert count == BLOCKED and suit in suits


DIAGONAL = np.int32([[0, 60], [250, 330], [250, 350], [0, 350]])  # the card's lower-left half, corner to corner


@pytest.mark.parametrize("style", list(DECK_STYLES))
@pytest.mark.parametrize("code", ["7D", "3S", "10C", "5H"])
def test_a_shadow_across_the_whole_middle_is_no_picture(style: str, code: str) -> None:
    """A window's shadow cutting the card in two, corner to corner, is one solid blob as wide and
    tall as a framed picture: it was taken for one, and the pips beside their index for a court
    card (on the benchmark's sunlit tables, 15 number cards read unsure so). A frame is a line
    round the picture; the wedge fills half its box or more."""
    card = tight(code, style, 0.0)
    shade = np.zeros(card.shape[:2], np.uint8)
    cv2.fillPoly(shade, [DIAGONAL], 1)
    card[shade > 0] = (card[shade > 0] * 0.45).astype(np.uint8)
    assert centre_count(card) in (code[:-1], BLOCKED)


@pytest.mark.parametrize("style", list(DECK_STYLES))
@pytest.mark.parametrize("code", ["2C", "3C", "2S", "3S", "2H", "3D"])
@pytest.mark.parametrize("blur", [0, 2])
def test_a_two_s_or_three_s_top_pip_tells_the_suit(style: str, code: str, blur: float) -> None:
    """The region the suit is read in (the card's upper part, down to an ace's pip) holds one
    whole pip of a 2 or a 3, its top one: upright, though alone, like every pip above the
    middle (asked from both ends, as an ace's, a club's foot read as a spade's point and the
    card went unsure: the benchmark's busy casino 2C was read as 2S, its corners blurred). A
    blurred spade's point widens, but not as wide as a club's leaf: unsure, not a club."""
    card = tight(code, style, 0.0)
    if blur:
        card = cv2.GaussianBlur(card, (0, 0), blur)
    count, suit = centre_witnesses(card)
    assert count == code[:-1]
    assert suit == code[-1] if not blur or code[-1] != "S" else suit in ("S", None)


def test_stripes_running_the_card_s_length_block_the_middle() -> None:
    """A patch of wood taken for a card: dark grain from end to end, nothing within the middle."""
    patch = np.full((CARD_H, CARD_W, 3), 215, np.uint8)
    for x in (40, 95, 150, 205):
        cv2.line(patch, (x, 0), (x + 12, CARD_H - 1), (90, 90, 90), 5)
    grain = np.random.default_rng(5).normal(0, 4, patch.shape)
    patch = cv2.GaussianBlur(np.clip(patch + grain, 0, 255).astype(np.uint8), (5, 5), 0)
    assert centre_count(patch) == BLOCKED


def _corners(card: np.ndarray) -> list[np.ndarray]:
    return [corner_image(card, 0), corner_image(card, 1)]


@pytest.mark.parametrize("style", list(DECK_STYLES))
@pytest.mark.parametrize("code", ["7H", "AD", "9S", "4C"])
def test_a_card_s_own_middle_is_never_foreign(style: str, code: str) -> None:
    card = tight(code, style, 0.0)
    assert not foreign_middle(card, _corners(card))


# Designs whose black ink is surely black (redness under black_ink); casino's and vintage's
# blacks are neutral or brownish and are left alone, as a faded red index on a webcam is.
SURELY_BLACK = ["classic", "modern", "jumbo"]


@pytest.mark.parametrize("style", SURELY_BLACK)
@pytest.mark.parametrize(("lower", "top"), [("7H", "9S"), ("8C", "6D")])
def test_another_colour_s_pips_over_the_middle_are_foreign(style: str, lower: str, top: str) -> None:
    """An outline reaching under a pile's top card: the lower card's two indices, and the top
    card's pips in the middle, printed in the other ink."""
    card = tight(lower, style, 0.0)
    over = tight(top, style, 0.0)
    h, w = card.shape[:2]
    card[round(h * 0.22) : round(h * 0.78), round(w * 0.25) : round(w * 0.75)] = over[
        round(h * 0.22) : round(h * 0.78), round(w * 0.25) : round(w * 0.75)
    ]
    assert foreign_middle(card, _corners(card))
    assert not foreign_middle(over, _corners(over))


def lone_pip(style: str, suit: str, at: tuple[float, float] = (0.5, 0.5), shape: str = "pip") -> np.ndarray:
    """A card of the design with nothing in its middle but one pip the size of a ten's (as most
    decks print their aces, spades aside), centred on ``at`` (fractions of the card); ``shape``
    "fleck" puts a triangle of that size there instead, something no suit is shaped like."""
    card = tight("10" + suit, style, 0.0)
    h, w = card.shape[:2]
    paper = np.median(card[h // 2 - 5 : h // 2 + 5, 5:15].reshape(-1, 3), axis=0)
    ink = np.median(card[card.min(axis=2) < 120].reshape(-1, 3), axis=0)
    card[round(h * 0.05) : round(h * 0.95), round(w * 0.18) : round(w * 0.82)] = paper
    size = round(h * 0.14)
    if shape == "pip":
        mask = pip_mask(suit, DECK_STYLES[style].pip, size)
    else:
        mask = np.zeros((size, size), np.float32)
        cv2.fillPoly(mask, [np.int32([[size // 2, 0], [size - 1, size - 1], [0, size - 1]])], 1.0)
    y, x = round(h * at[1] - size / 2), round(w * at[0] - size / 2)
    region = card[y : y + size, x : x + size].astype(np.float32)
    card[y : y + size, x : x + size] = (region * (1 - mask[..., None]) + ink * mask[..., None]).astype(np.uint8)
    return card


@pytest.mark.parametrize("style", list(DECK_STYLES))
@pytest.mark.parametrize("suit", ["H", "D"])
def test_an_ace_with_a_pip_no_bigger_than_a_ten_s_counts_one(style: str, suit: str) -> None:
    """The real deck's aces (but spades) print one pip the size of the other cards': counted as
    an ace when it is alone in the very middle and shaped like a pip, not when it lies off the
    middle (a card cut short by its outline)."""
    assert centre_count(lone_pip(style, suit)) == "A"
    assert centre_count(lone_pip(style, suit, at=(0.5, 0.3))) is None


@pytest.mark.parametrize("style", list(DECK_STYLES))
def test_a_lone_fleck_of_no_suit_s_shape_is_no_ace(style: str) -> None:
    """Pointed at the top like a spade, flat at the foot like nothing: no pip, so no count."""
    assert centre_count(lone_pip(style, "S", shape="fleck")) is None


@pytest.mark.parametrize("style", [style for style in DECK_STYLES if style != "jumbo"])
def test_an_index_taken_into_the_middle_is_no_pip_and_the_pips_say_how_many_at_least(style: str) -> None:
    """An outline drawn square round a card thrown askew takes its rank's index into the middle.
    Unlike the pips in size, it is not counted as one (a five read as a six); the five pips,
    alike, still say there are five at least, which rules out a three or a court card. (A jumbo
    index is as big as a pip: its size tells nothing. A small one may be too small to be seen.)"""
    card = tight("5D", style, 0.0)
    h, w = card.shape[:2]
    rank = card[round(0.03 * h) : round(0.13 * h), round(0.03 * w) : round(0.15 * w)].copy()
    y, x = round(0.45 * h), round(0.22 * w)
    card[y : y + rank.shape[0], x : x + rank.shape[1]] = rank
    count = centre_count(card)
    assert count == "5" or least_pips(count) == 5, count

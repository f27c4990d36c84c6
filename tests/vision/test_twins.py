"""Two decks: a card laid on its identical twin from the other deck (the shedding game's switch, a
pair laid card by card) is a new card on the pile; the top card only moved is not."""

from __future__ import annotations

import copy
from dataclasses import replace

import cv2
import numpy as np
import pytest

from sim.layout import TableLayout
from sim.render import CardPlacement, SceneSpec, render_scene
from sim.rendered_camera import RenderedCamera, pile_played
from table import frame_reports
from table.events import CardSeen
from vision.covered import card_look, looks_the_same, outline_shows

pytestmark = pytest.mark.slow

PILE = ("pile", None)
FRAME_NS = 66_666_667
SEEDS = 16


def _gray(image: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)


@pytest.mark.parametrize(
    ("first", "then"),
    [
        ((400, 300, 10), (430, 250, 40)),
        ((380, 320, 200), (420, 330, 150)),
        ((400, 300, 95), (380, 260, 60)),
    ],
)
@pytest.mark.parametrize("table", ["felt", "wood", "limed"])
def test_a_card_still_lies_under_its_twin_and_not_where_it_was_moved_from(
    first: tuple[int, int, int], then: tuple[int, int, int], table: str
) -> None:
    """What shows of the old card looks as it did, and its sides still show, round its twin; a
    card moved leaves what lay under it (here the five of diamonds, or the table)."""
    under = CardPlacement("5D", 400, 310, 30, 180)
    old, new = CardPlacement("9C", *first, 180), CardPlacement("9C", *then, 180)
    before, (_, lay) = render_scene(SceneSpec(800, 600, table, (under, old), seed=3))
    twin_image, (_, _, top) = render_scene(SceneSpec(800, 600, table, (under, old, new), seed=3))
    moved_image, (_, moved) = render_scene(SceneSpec(800, 600, table, (under, new), seed=3))
    look = card_look(before, lay.corners)
    assert looks_the_same(look, twin_image, lay.corners, top.corners)
    assert outline_shows(_gray(twin_image), lay.corners, top.corners)
    assert not looks_the_same(look, moved_image, lay.corners, moved.corners)
    if table == "felt":  # on a grained table the sides alone are not enough: both are asked
        assert not outline_shows(_gray(moved_image), lay.corners, moved.corners)
    assert not looks_the_same(look, twin_image, lay.corners, lay.corners + 1)  # nothing of it clear
    assert not outline_shows(_gray(twin_image), lay.corners, lay.corners + 1)


@pytest.mark.parametrize("under_code", ["5D", "9S", "AH"])
@pytest.mark.parametrize(("dx", "dy", "turn"), [(45, 0, 0), (0, -60, 0), (35, 35, 0), (0, 0, 25), (0, 0, 40)])
def test_a_card_moved_off_the_card_squarely_under_it_is_not_taken_for_its_twin(
    under_code: str, dx: int, dy: int, turn: int
) -> None:
    """On a squared pile the card under the top one shows the same white paper and the same sides
    where the top card lay: only the top card's print, gone from where it showed, tells. A card
    turned where it lies shows little print past the other; its twin turned so is not counted."""
    under = CardPlacement(under_code, 400, 300, 0, 180)
    old, new = CardPlacement("9C", 400, 300, 0, 180), CardPlacement("9C", 400 + dx, 300 + dy, turn, 180)
    before, (_, lay) = render_scene(SceneSpec(800, 600, "felt", (under, old), seed=3))
    moved_image, (_, moved) = render_scene(SceneSpec(800, 600, "felt", (under, new), seed=3))
    assert not looks_the_same(card_look(before, lay.corners), moved_image, lay.corners, moved.corners)


def test_an_outline_drawn_otherwise_round_a_card_that_stayed_is_no_twin() -> None:
    """Nothing moved: an outline first drawn round part of the card under the top one, then round
    the card alone, changes nothing in the picture where the new outline reaches past the old."""
    pile = (CardPlacement("5D", 400, 330, 0, 180), CardPlacement("9C", 400, 300, 0, 180))
    image, (under, top) = render_scene(SceneSpec(800, 600, "felt", pile, seed=3))
    wide = np.vstack([top.corners[:2], under.corners[2:]]).astype(np.float32)  # round both cards' far sides
    assert not looks_the_same(card_look(image, top.corners), image, top.corners, wide)
    assert not looks_the_same(card_look(image, wide), image, wide, top.corners)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_twin_laid_where_its_twin_lies_under_the_top_card_is_played_not_uncovered(seed: int) -> None:
    """7H, then 5S partly over it, then the other 7H laid just where the first lies: the 5S still
    shows round it, so nothing was taken back. The 5S lifted instead: the 7H is uncovered."""
    camera = RenderedCamera(TableLayout(4, 1280, 720), seed, 15)
    camera.lay("7H", PILE)
    first = camera.lying[-1]
    seen = [str(e.card) for n in range(5) for e in camera.frame(n * FRAME_NS).events if isinstance(e, CardSeen)]
    camera.lay("5S", PILE)
    second = camera.lying[-1]
    camera.lying[-1] = replace(second, card=replace(second.card, x=first.card.x + 60, y=first.card.y + 30))
    seen += [str(e.card) for n in range(5, 10) for e in camera.frame(n * FRAME_NS).events if isinstance(e, CardSeen)]
    assert seen == ["7H", "5S"]
    lifted = copy.deepcopy(camera)
    spades = next(c for c in camera._readings if c.code == "5S" and not c.covered)
    look = card_look(camera._image, spades.corners)
    camera.lying.append(first)  # the other deck's 7H, exactly where the first lies
    camera._image = None
    laid = [str(e.card) for n in range(10, 16) for e in camera.frame(n * FRAME_NS).events if isinstance(e, CardSeen)]
    assert laid == ["7H"]
    hearts = next(c for c in camera._readings if c.code == "7H" and not c.covered)
    # The picture alone says so too (where the 5S is not read covered): nothing new past the 5S
    # is asked, as the 7H lies where its twin showed before.
    assert looks_the_same(look, camera._image, spades.corners, hearts.corners, past=False)
    lifted.lift(PILE)
    assert [e for n in range(10, 16) for e in lifted.frame(n * FRAME_NS).events if isinstance(e, CardSeen)] == []


def _played(seed: int, then: str) -> list[str]:
    """5D, 9C, then the other 9C laid on it (``then="twin"``) or the 9C moved, then KH."""
    return pile_played(seed, ("5D", "9C", then, "KH"))


def test_on_the_rendered_table_most_twins_are_played_and_no_card_moved_is(monkeypatch) -> None:
    """Where the twin lies almost where the old card lay, or covers all of it but slivers, the
    camera cannot tell (the README's troubleshooting says so: lay it askew). Cards moved are seen as before the
    table looked for twins (a pile's top card the reader misreads once moved is the reader's
    fault, not the twins')."""
    twins = sum(_played(seed, "twin") == ["5D", "9C", "9C", "KH"] for seed in range(SEEDS))
    moved = [_played(seed, "moved") for seed in range(SEEDS)]
    assert twins >= 10  # measured: 11 of 16; 8 without the picture's word, 5 before the table looked for twins
    monkeypatch.setattr(frame_reports, "looks_the_same", lambda *args: False)
    assert moved == [_played(seed, "moved") for seed in range(SEEDS)]

"""The deck's card size learnt from the frames read, and outlines drawn off it read again."""

from __future__ import annotations

import numpy as np

from sim.layout import TableLayout
from sim.render import CardPlacement, SceneSpec, render_scene
from sim.rendered_camera import RenderedCamera
from table.events import CardSeen
from vision.card_size import TUNING as CARD_SIZE_TUNING
from vision.card_size import CardSizes
from vision.identify import identify
from vision.seen import SeenCard

PILE = ("pile", None)
# A two of diamonds on the game camera's pile (1280 x 720, six seats) and a king of clubs thrown
# on it, white on white: the outline round the king is drawn 15% too big along the two, its one
# index corner taking in the two's diamond beside the king's club (read KD, 0.92).
TWO = CardPlacement("2D", 638.1001666055511, 375.03156373165746, 316.9042956766867, 180)
KING = CardPlacement("KC", 666.5250681846921, 366.63373162994384, 137.2212756801763, 180)


def card(code: str | None, short: float, long: float, covered: bool = False) -> SeenCard:
    corners = np.array([[0, 0], [short, 0], [short, long], [0, long]], np.float32)
    return SeenCard(code, 0.9 if code else 0.3, corners, covered=covered)


def test_the_size_is_the_median_of_cards_read_surely_once_enough_were() -> None:
    sizes = CardSizes()
    sizes.add([card("5D", 128, 180) for _ in range(CARD_SIZE_TUNING.least - 1)])
    sizes.add([card(None, 200, 300), card("7C", 60, 80, covered=True)])  # unsure, or lying under others
    assert sizes.typical() is None
    sizes.add([card("back", 130, 182), card("KC", 150, 205)])
    assert np.allclose(sizes.typical(), [128, 180])


def test_an_outline_drawn_too_big_is_read_again_at_the_deck_s_card_size() -> None:
    image, _ = render_scene(SceneSpec(1280, 720, "felt", (TWO, KING), "classic", noise=2.0, seed=5))
    alone = [c.code for c in identify(image) if not c.covered]
    sized = [c.code for c in identify(image, card_size=np.array([127.0, 178.0])) if not c.covered]
    assert (alone, sized) == (["KD"], ["KC"])  # the frame alone has no card to tell the size by


def test_the_table_s_camera_learns_the_card_size_from_the_cards_played_before() -> None:
    camera = RenderedCamera(TableLayout(6, 1280, 720), 5)
    t, seen = 0, []

    def frames() -> None:
        nonlocal t
        for _ in range(5):
            seen.extend(str(e.card) for e in camera.frame(t).events if isinstance(e, CardSeen))
            t += camera.interval_ns

    for code in ("3H", "9S", "4C", "10D", "6H", "8C", "AS", "7D", "5S", "QH"):
        camera.lay(code, PILE)
        frames()
    camera.take(PILE)
    frames()
    for placed in (TWO, KING):
        camera.lay_at(PILE, placed)
        frames()
    assert seen[-2:] == ["2D", "KC"]


# A queen of clubs thrown on a pile (4H, 9D, KD, 4D under her): the only outline drawn is the
# king's, 15% too big, his one index beside her picture (KD, 0.73, a whole outline vouching).
PILE_UNDER_QUEEN = (
    CardPlacement("4H", 632.4876556288358, 369.84299493463755, 5.675111749211772, 180),
    CardPlacement("9D", 657.1938697938482, 370.94887055349017, 236.79630412432974, 180),
    CardPlacement("KD", 634.9808166063195, 361.83161222030304, 202.13770473682536, 180),
    CardPlacement("4D", 650.1010184450394, 375.4922856361722, 194.25904203648278, 180),
    CardPlacement("QC", 642.5312767260668, 349.8534964045982, 304.84599415988464, 180),
)


def test_a_card_read_from_one_corner_of_an_outline_far_off_the_card_size_is_doubted() -> None:
    image, _ = render_scene(SceneSpec(1280, 720, "felt", PILE_UNDER_QUEEN, "classic", noise=2.0, seed=8))
    alone = [c.code for c in identify(image) if not c.covered]
    sized = [c.code for c in identify(image, card_size=np.array([127.0, 178.0])) if not c.covered]
    assert (alone, sized) == (["KD"], ["QC"])

"""A cheap webcam's dull, dark reds (``sim.camera_looks``): the big pips judged red by their
share of red, not by a fixed redness, and an unsure card with such pips read again with its
colours made as vivid as a good camera's (``reader.Warped.vivid``)."""

from __future__ import annotations

import pytest

import vision.reader as reader_module
from sim.render import CardPlacement, SceneSpec, render_scene
from vision.detect import CardQuad, warp_card
from vision.middle import TUNING as MIDDLE_TUNING
from vision.middle import centre_red_share
from vision.reader import Warped, read_cards

WEBCAM = "cheap webcam"


def _warped(code: str, seed: int, camera: str | None = WEBCAM, style: str = "vintage") -> Warped:
    spec = SceneSpec(
        table="grey", cards=(CardPlacement(code, 400, 300, 0.0, 130),), seed=seed, camera=camera, style=style
    )
    image, truth = render_scene(spec)
    return Warped.of(warp_card(image, CardQuad(truth[0].corners, 1.0))).balanced()


@pytest.mark.parametrize("seed", range(3))
def test_a_webcam_s_dull_red_pips_are_red_though_their_redness_is_a_black_s(seed: int) -> None:
    """The vintage deck's dark red under the webcam: its pips' redness lies about a fixed cut
    for red ink, which took some for black; their share of red, against how dark they are,
    lies well above black's."""
    red, black = _warped("8D", seed), _warped("8S", seed)
    share = centre_red_share(red.face_planes())
    assert share is not None and MIDDLE_TUNING.red_pip < share < reader_module.TUNING.vivid_red
    assert (centre_red_share(black.face_planes()) or 0.0) < MIDDLE_TUNING.red_pip / 2
    assert red.middle == ("8", "D") and black.middle == ("8", "S")


@pytest.mark.parametrize("seed", range(4))
def test_an_unsure_card_with_dull_red_pips_is_read_again_vivid(retune, seed: int) -> None:
    """The corner networks read the webcam's dull red diamond index as a spade and leave the
    four of diamonds unsure; made vivid, it is read."""
    assert read_cards([_warped("4D", seed)])[0].code == "4D"
    retune(reader_module.TUNING, max_vivid=1.0)  # read again as dull as it was
    assert read_cards([_warped("4D", seed)])[0].code is None


@pytest.mark.parametrize("camera", [WEBCAM, None, "exposed for the dark table"])
@pytest.mark.parametrize("code", ["4S", "9C", "7S"])
def test_a_black_card_is_never_made_vivid(camera: str | None, code: str) -> None:
    card = _warped(code, 1, camera, style="classic")
    assert card.dull_red is None and read_cards([card])[0].code == code
    assert read_cards([card.vivid(3.0)])[0].code == code  # made vivid anyway, black stays black


def test_a_good_camera_s_reds_are_not_dull() -> None:
    assert _warped("4D", 1, camera=None, style="classic").dull_red is None

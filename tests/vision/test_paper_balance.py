"""A card's colours judged against its own paper (``reader.Warped.balanced``)."""

from __future__ import annotations

import numpy as np

from sim.camera_looks import WARM
from sim.render import CardPlacement, SceneSpec, render_scene
from vision.detect import CardQuad, warp_card
from vision.reader import TUNING as READER_TUNING
from vision.reader import Warped, read_cards


def _card(code: str, tint: tuple[float, float, float] = (1.0, 1.0, 1.0)) -> Warped:
    image, truth = render_scene(SceneSpec(cards=(CardPlacement(code, 400, 300, 0.0, 260),), seed=2, noise=0.0))
    tinted = np.clip(image.astype(np.float32) * np.float32(tint), 0, 255).astype(np.uint8)
    return Warped.of(warp_card(tinted, CardQuad(truth[0].corners, 1.0)))


def _paper(card: Warped) -> np.ndarray:
    return np.percentile(card.face.reshape(-1, 3), 90, axis=0)


def test_a_card_under_a_warm_lamp_has_neutral_paper_again_and_reads_as_before() -> None:
    warm = _card("4H", WARM)
    paper = _paper(warm)
    assert paper[2] - paper[0] > 40  # the lamp's paper: far redder than blue
    balanced = warm.balanced()
    assert np.ptp(_paper(balanced)) <= 6  # the paper grey again, each channel alike
    assert all(c.shape == b.shape for c, b in zip(warm.corners, balanced.corners, strict=True))
    assert read_cards([balanced])[0].code == "4H" == read_cards([_card("4H")])[0].code


def test_neutral_paper_and_a_grey_picture_are_left_as_they_are() -> None:
    plain = _card("KS")
    assert plain.balanced() is plain
    grey = Warped(plain.face[..., 0], (plain.corners[0][..., 0], plain.corners[1][..., 0]))
    assert grey.balanced() is grey


def test_no_colour_is_scaled_past_its_limit() -> None:
    """Paper lit by a strongly coloured light cannot be told from coloured card stock: no colour is
    scaled by more than ``max_balance``, so a green card stays greenish rather than grey."""
    green = _card("7C", (0.3, 1.0, 0.3))
    before, after = _paper(green), _paper(green.balanced())
    assert (
        after[0] <= before[0] * READER_TUNING.max_balance + 2 and after[1] >= before[1] / READER_TUNING.max_balance - 2
    )
    assert after[1] > after[0]  # still green

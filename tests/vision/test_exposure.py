"""An overexposed frame is told apart by the clipped white round the read cards' indices, and the
identify command says so (on standard error: its JSON stays as specified)."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from benchmarks.photos import missing, photos_folder
from table.cli import main
from vision.exposure import TUNING as EXPOSURE_TUNING
from vision.exposure import clipped_share, overexposure_advice
from vision.identify import SeenCard, identify

DATA = photos_folder()


@pytest.fixture(scope="module")
def scene() -> np.ndarray:
    from sim.render import CardPlacement, SceneSpec, render_scene

    cards = (CardPlacement("7H", 250, 300, 10, 260), CardPlacement("QS", 560, 300, -5, 260))
    image, _ = render_scene(SceneSpec(cards=cards, seed=4, table="felt", light=0.0))
    return image


def overexposed(image: np.ndarray) -> np.ndarray:
    """The same scene as a webcam exposing for the dark cloth takes it: paper clipped white."""
    return np.clip(image.astype(np.float32) * 1.7 + 30, 0, 255).astype(np.uint8)


def test_a_well_exposed_frame_gets_no_advice(scene: np.ndarray) -> None:
    cards = identify(scene)
    assert sorted(c.code for c in cards) == ["7H", "QS"]
    share = clipped_share(scene, cards)
    assert share is not None and share < 0.05
    assert overexposure_advice(scene, cards) is None


def test_an_overexposed_frame_is_told_by_its_clipped_paper(scene: np.ndarray) -> None:
    bright = overexposed(scene)
    cards = identify(bright)
    assert [c for c in cards if c.code]  # still read: the advice is for what it costs elsewhere
    share = clipped_share(bright, cards)
    assert share is not None and share >= EXPOSURE_TUNING.overexposed
    assert overexposure_advice(bright, cards).startswith(f"overexposed: {share:.0%} of the cards' corners")


def test_a_frame_with_no_card_read_or_no_colour_says_nothing(scene: np.ndarray) -> None:
    assert clipped_share(np.full((300, 400, 3), 255, np.uint8), []) is None
    unsure = [SeenCard(None, 0.3, np.float32([[10, 10], [60, 10], [60, 80], [10, 80]]))]
    assert clipped_share(overexposed(scene), unsure) is None
    assert clipped_share(cv2.cvtColor(scene, cv2.COLOR_BGR2GRAY), identify(scene)) is None


@pytest.mark.skipif(missing() is not None, reason=str(missing()))
def test_the_photographs_webcam_frames_are_overexposed_and_the_phone_s_are_not() -> None:
    webcam, phone = cv2.imread(str(DATA / "cam_image10.jpg")), cv2.imread(str(DATA / "IMG_2385.JPG"))
    assert overexposure_advice(webcam, identify(webcam)) is not None
    assert overexposure_advice(phone, identify(phone)) is None


def test_identify_warns_of_an_overexposed_frame_on_standard_error(scene: np.ndarray, tmp_path: Path, capsys) -> None:
    good, bright = tmp_path / "good.png", tmp_path / "bright.png"
    cv2.imwrite(str(good), scene)
    cv2.imwrite(str(bright), overexposed(scene))
    assert main(["vision", "identify", str(good), str(bright), "--json"]) == 0
    out, err = capsys.readouterr()
    assert [set(r) for r in json.loads(out)] == [{"image", "cards"}, {"image", "cards"}]
    assert f"{bright}: overexposed: " in err and str(good) not in err

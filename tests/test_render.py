"""The scene renderer: deterministic frames whose ground truth matches what is drawn."""

from __future__ import annotations

import random

import cv2
import numpy as np
import pytest

from sim.render import CardPlacement, SceneSpec, random_scene, render_scene, table_background


def mean_inside(image: np.ndarray, corners: np.ndarray, shrink: float) -> float:
    centre = corners.mean(axis=0)
    pts = (centre + (corners - centre) * shrink).astype(np.int32)
    mask = np.zeros(image.shape[:2], np.uint8)
    cv2.fillConvexPoly(mask, pts, 1)
    return float(image[mask > 0].mean())


def test_the_same_spec_gives_the_same_frame() -> None:
    spec = random_scene(random.Random(4), cards=3, hard=True)
    a, ta = render_scene(spec)
    b, tb = render_scene(spec)
    assert np.array_equal(a, b)
    assert all(np.array_equal(x.corners, y.corners) for x, y in zip(ta, tb, strict=True))


@pytest.mark.parametrize("perspective", [0.0, 0.12])
def test_truth_corners_are_where_the_card_is(perspective: float) -> None:
    spec = SceneSpec(table="dark", cards=(CardPlacement("5S", 400, 300, 30, 200),), perspective=perspective, seed=2)
    image, (card,) = render_scene(spec)
    inside = mean_inside(image, card.corners, 0.9)
    outside = mean_inside(image, card.corners, 1.3)
    assert inside > 150 and inside > outside + 40
    assert card.visible == pytest.approx(1.0)


def test_a_later_card_covers_an_earlier_one() -> None:
    spec = SceneSpec(cards=(CardPlacement("2H", 400, 300, 0, 200), CardPlacement("KC", 460, 370, 10, 200)))
    _, (under, top) = render_scene(spec)
    assert top.visible == pytest.approx(1.0) and 0.05 < under.visible < 0.9
    assert under.index_visible[0] > 0.9 and under.index_visible[1] < 0.1


def test_random_scenes_keep_their_cards_in_the_frame() -> None:
    rng = random.Random(9)
    for _ in range(10):
        spec = random_scene(rng, cards=4)
        _, truth = render_scene(spec)
        for card in truth:
            assert (card.corners >= -2).all() and (card.corners[:, 0] <= spec.width + 2).all()
            assert (card.corners[:, 1] <= spec.height + 2).all()


def test_an_unknown_table_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match="unknown table 'marble'"):
        table_background("marble", 10, 10, random.Random(0))

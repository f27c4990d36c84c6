"""What cheap cameras and room lights do to a rendered frame (``sim.camera_looks``)."""

from __future__ import annotations

import numpy as np

from sim.camera_looks import LOOKS, CameraLook
from sim.render import CardPlacement, SceneSpec, render_scene

SCENE = SceneSpec(cards=(CardPlacement("QH", 400, 300, 10.0, 220),), seed=4, noise=0.0)


def _red_pips(image: np.ndarray) -> np.ndarray:
    """The card's strongly red pixels, as a well-lit camera sees them."""
    clean = render_scene(SCENE)[0].astype(int)
    return (clean[..., 2] > 150) & (clean[..., 1] < 90) & (clean[..., 0] < 90)


def test_a_cheap_webcam_dulls_and_darkens_the_reds_and_loses_detail() -> None:
    clean = render_scene(SCENE)[0]
    webcam = render_scene(SceneSpec(**{**SCENE.__dict__, "camera": "cheap webcam"}))[0]
    red = _red_pips(clean)
    assert red.sum() > 100
    b, g, r = (webcam[..., k][red].astype(float).mean() for k in range(3))
    cb, cg, cr = (clean[..., k][red].astype(float).mean() for k in range(3))
    assert r - max(g, b) < 0.6 * (cr - max(cg, cb))  # far less red than green and blue
    detail = lambda img: np.abs(np.diff(img.astype(float), axis=1)).mean()  # noqa: E731
    assert detail(webcam) < detail(clean) * 1.2 and webcam.shape == clean.shape


def test_each_look_changes_the_frame_and_keeps_its_size_and_the_same_seed_gives_the_same() -> None:
    clean = render_scene(SCENE)[0]
    for name in LOOKS:
        spec = SceneSpec(**{**SCENE.__dict__, "camera": name})
        once, again = render_scene(spec)[0], render_scene(spec)[0]
        assert once.shape == clean.shape and np.array_equal(once, again), name
        assert np.abs(once.astype(int) - clean).mean() > 2, name


def test_the_room_light_tints_and_the_exposure_clips() -> None:
    grey = np.full((40, 40, 3), 128, np.uint8)
    warm = CameraLook("warm", light=(0.7, 0.9, 1.2)).apply(grey)
    assert warm[..., 2].mean() > warm[..., 0].mean() + 40
    bright = CameraLook("bright", exposure=3.0).apply(grey)
    assert (bright == 255).all()


def test_every_look_without_a_target_is_one_the_benchmark_draws_and_gives_fewer_pixels() -> None:
    """A look measured with no target is only one that draws fewer pixels than every look with one."""
    from sim.camera_looks import UNDER_LIMIT

    assert UNDER_LIMIT and set(LOOKS) >= UNDER_LIMIT
    targeted = [look.pixels for name, look in LOOKS.items() if name not in UNDER_LIMIT]
    assert all(LOOKS[name].pixels < min(targeted) for name in UNDER_LIMIT)

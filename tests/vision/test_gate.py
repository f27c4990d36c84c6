"""Which frames are read (``vision.gate``): changes and the frames after them, one in five anyway;
and tracking the frames read, others given the last readings, makes the same events as reading all."""

from __future__ import annotations

import numpy as np
import pytest

from sim.render import CardPlacement, SceneSpec, render_scene
from table.units import MS
from vision.gate import REFRESH, SETTLE, FrameGate
from vision.identify import identify
from vision.tracker import CardTracker


def _noisy(image: np.ndarray, seed: int, sigma: float = 3.0) -> np.ndarray:
    """The picture as a camera gives it frame after frame: fresh sensor noise on each."""
    noise = np.random.default_rng(seed).normal(0, sigma, image.shape)
    return np.clip(image + noise, 0, 255).astype(np.uint8)


def _scene(*cards: CardPlacement, blur: float = 0.0) -> np.ndarray:
    return render_scene(SceneSpec(cards=cards, seed=4, noise=0.0, blur=blur, table="wood"))[0]


QH = CardPlacement("QH", 400, 300, 12.0, 200)
KC = CardPlacement("KC", 400, 300, 12.0, 200)  # unsure blurred 2 pixels, which moves no block's mean 8 levels


def test_a_still_table_is_read_one_frame_in_five_and_a_card_landing_at_once_and_while_it_settles() -> None:
    empty, card = _scene(), _scene(QH)
    gate = FrameGate()
    quiet = [False] * (REFRESH - 1) + [True]  # the noise alone moves no block
    reads = [gate.read(_noisy(empty, n)) for n in range(1 + SETTLE + 2 * REFRESH)]
    assert reads == [True] * (1 + SETTLE) + quiet * 2  # the first frame is a change
    reads = [gate.read(_noisy(card, 100 + n)) for n in range(1 + SETTLE + REFRESH)]
    assert reads == [True] * (1 + SETTLE) + quiet


def test_a_card_whose_blur_settles_is_read_sharp() -> None:
    """Blur keeps a block's mean: the sharp frame after a blurred landing moves no block, and
    is read because it comes within the frames that settle."""
    gate = FrameGate()
    for n in range(1 + SETTLE + 2 * REFRESH):
        gate.read(_noisy(_scene(), n))
    assert gate.read(_noisy(_scene(KC, blur=2.0), 100))
    for n in range(SETTLE):
        assert gate.read(_noisy(_scene(KC), 101 + n))


def test_bad_settings_are_named() -> None:
    with pytest.raises(ValueError, match="gate: changed > 0"):
        FrameGate(refresh=0)


def test_tracking_only_the_frames_read_makes_the_events_reading_every_frame_makes() -> None:
    """A card lands blurred and settles, a second lands on it, a hand-less table between: the
    tracker given the last readings for frames not read reports the same cards at the same times."""
    pictures = [_scene()] * 4 + [_scene(KC, blur=2.0)] + [_scene(KC)] * 7
    second = CardPlacement("7C", 410, 310, -20.0, 200)
    pictures += [_scene(KC, second, blur=2.0)] + [_scene(KC, second)] * 7
    frames = [_noisy(p, n) for n, p in enumerate(pictures)]
    every, gated = CardTracker(), CardTracker()
    gate, cards = FrameGate(), []
    events_every, events_gated = [], []
    for n, frame in enumerate(frames):
        events_every += every.update(n * 66 * MS, identify(frame))
        if gate.read(frame):
            cards = identify(frame)
        events_gated += gated.update(n * 66 * MS, cards)
    assert [(e.card.code, e.t_ns) for e in events_gated] == [(e.card.code, e.t_ns) for e in events_every]
    assert [e.card.code for e in events_every] == ["KC", "7C"]
    assert gate.skipped_frames >= 6

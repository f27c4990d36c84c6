"""A table to run in the tests: its configuration beside a folder of rendered frames (the
example configuration's, reading the folder as its camera), its journal, and waiting on it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import cv2

from sim.mock_gpio import MOCK_PINS_ENV
from sim.render import CardPlacement, SceneSpec, render_scene
from sim.rendered_table import rendered_config

ROOT = Path(__file__).resolve().parents[1]
# A ``cardtable run`` of its own process on gpiozero's mock pins (PWM ones: the lights dim).
MOCK_PINS = {**os.environ, **MOCK_PINS_ENV}


def rendered_table(folder: Path, frames: int = 12, card_from: int = 3, second_from: int | None = None) -> Path:
    """A configuration whose camera is a folder of rendered 800x600 frames at 5 a second, a
    queen of hearts landing on the pile from frame ``card_from`` (and the seven of clubs on it
    from ``second_from``)."""
    shots = folder / "frames"
    shots.mkdir()
    for i in range(frames):
        cards = (CardPlacement("QH", 400, 300, 15.0, 200),) if i >= card_from else ()
        if second_from is not None and i >= second_from:
            cards += (CardPlacement("7C", 410, 305, -25.0, 200),)
        cv2.imwrite(str(shots / f"frame-{i:03d}.png"), render_scene(SceneSpec(cards=cards, seed=i, noise=3.0))[0])
    return rendered_config(folder, "folder:frames")


def journal_lines(folder: Path) -> list[dict]:
    (path,) = sorted((folder / "journal").glob("*.jsonl"))
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def wait_until(condition, seconds: float = 15.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


def run_table(config: Path, seconds: float) -> subprocess.CompletedProcess[str]:
    """``cardtable run`` on a configuration for ``seconds``, on gpiozero's mock pins: its output."""
    command = [sys.executable, "-m", "table.cli", "run", "--config", str(config), "--max-seconds", str(seconds)]
    return subprocess.run(command, cwd=ROOT, env=MOCK_PINS, capture_output=True, text=True, timeout=60)

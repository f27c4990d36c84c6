"""``cardtable run --check`` opens what the configuration names and says what it found: the camera
(a frame read, at the size set), the buttons and lights on gpiozero's mock pins, or the bridge's
fake board over a pseudo-terminal; and names what is not there, in one line each."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest
from gpiozero.pins.mock import MockFactory

from sim.fake_board import FakeBoard
from sim.mock_gpio import TimedMockPin, timed_mock_factory
from table.config import load_config
from table.hardware_check import check_hardware
from tests.live_tables import ROOT, rendered_table


class _StuckDown(TimedMockPin):
    """A button stuck down (or wired to the wrong rail): its pin reads low whatever its pull."""

    def _set_pull(self, value: str) -> None:
        super()._set_pull(value)
        self.drive_low()


def _says(found) -> dict[str, tuple[bool, str]]:
    return {f.part: (f.ok, f.says) for f in found}


def _on_the_bridge(path: Path, port: str) -> None:
    text = "\n".join(line for line in path.read_text().splitlines() if not line.startswith(("buttons =", "lights =")))
    path.write_text(text.replace('backend = "gpio"', f'backend = "bridge"\nport = "{port}"'), encoding="utf-8")


def test_a_table_on_the_pins_is_found_whole_and_a_button_held_down_is_named(tmp_path: Path) -> None:
    config = load_config(rendered_table(tmp_path, frames=1))
    factory = timed_mock_factory()
    said = _says(check_hardware(config, factory))
    assert said["camera"] == (True, f"folder:{tmp_path / 'frames'}: a 800x600 frame read")
    assert said["buttons"][0] and said["buttons"][1].startswith("pins 17, 27, 22, 23, each reading up")
    assert said["lights"] == (True, "pins 5, 6, 13, 19")
    stuck = timed_mock_factory()
    stuck.pin(22, pin_class=_StuckDown)  # seat 2's button
    assert _says(check_hardware(config, stuck))["buttons"][1].startswith(
        "pins 17, 27, 22, 23, each reading up but seat 2's, held down"
    )
    assert all(factory.pin(pin).state == 0 for pin in (5, 6, 13, 19))  # every light closed, dark


def test_lights_the_pins_cannot_dim_are_not_ready(tmp_path: Path) -> None:
    config = load_config(rendered_table(tmp_path, frames=1))
    ok, says = _says(check_hardware(config, MockFactory()))["lights"]  # plain mock pins: no PWM
    assert not ok and says.startswith("seat 0's light on pin 5")


def test_a_camera_that_gives_frames_of_another_size_is_not_ready(tmp_path: Path) -> None:
    config_path = rendered_table(tmp_path, frames=1)
    for shot in (tmp_path / "frames").iterdir():
        cv2.imwrite(str(shot), np.full((480, 640, 3), 90, np.uint8))
    ok, says = _says(check_hardware(load_config(config_path), timed_mock_factory()))["camera"]
    assert not ok and "gives 640x480 frames, not the 800x600 set" in says


def test_the_bridges_board_is_asked_who_it_is_and_a_port_that_is_not_there_is_named(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    board = FakeBoard(folder=str(tmp_path)).start()
    try:
        path = rendered_table(tmp_path, frames=1)
        _on_the_bridge(path, board.path)
        ok, says = _says(check_hardware(load_config(path)))["board"]
        assert ok and says.startswith(f"{board.path}: ") and ", protocol 2, " in says and "buttons" in says
    finally:
        board.stop()
    path.write_text(path.read_text().replace(board.path, "/dev/ttyNOPE0"), encoding="utf-8")
    caplog.set_level(logging.INFO)
    ok, says = _says(check_hardware(load_config(path)))["board"]
    assert (ok, says) == (False, "cannot open /dev/ttyNOPE0: no such port (is the board plugged in?)")
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]  # said once, by the check


def _gpio_here(env: dict[str, str]) -> bool:
    probe = "from gpiozero import Device; Device._default_pin_factory()"
    return subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, timeout=60).returncode == 0


def test_without_gpio_check_and_run_say_so_in_one_line(tmp_path: Path) -> None:
    """On a machine with no GPIO gpiozero can drive (as in CI): no warnings, no traceback."""
    command = [sys.executable, "-m", "table.cli", "run", "--config", str(rendered_table(tmp_path, frames=1))]
    env = {key: value for key, value in os.environ.items() if not key.startswith("GPIOZERO_")}  # gpiozero's own choice
    if _gpio_here(env):
        pytest.skip("this test needs a machine without GPIO (a Pi's pins are there)")
    check = subprocess.run([*command, "--check"], cwd=ROOT, capture_output=True, text=True, timeout=60, env=env)
    assert check.returncode == 2
    assert (
        "  camera: folder:" in check.stdout
        and "  buttons: NOT READY: no GPIO here that gpiozero can drive" in check.stdout
    )
    assert check.stderr == "cardtable: error: not ready: buttons (see above)\n"
    run = subprocess.run(
        [*command, "--max-seconds", "1"], cwd=ROOT, capture_output=True, text=True, timeout=60, env=env
    )
    assert run.returncode == 2 and run.stderr.count("\n") == 1
    assert run.stderr.startswith("cardtable: error: no GPIO here that gpiozero can drive (lgpio: ")

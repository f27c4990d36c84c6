"""``cardtable run --check``: open what a configuration names (the camera, the buttons and lights
or the bridge's board), say what was found, and close it again, so that a camera unplugged, a
port mistyped or a Pi without its GPIO library is named before the table is started."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from table.buttons import ButtonError, GpioButtons
from table.config import TableConfig
from table.lights import LightError
from table.seat_parts import gpio_buttons, gpio_lights

FIRST_FRAME_S = 5.0  # a camera gives its first frame within this, or is reported as giving none
BOARD_ANSWER_S = 3.0  # the bridge's board answers its hello within this, or is reported as silent


@dataclass(frozen=True)
class Found:
    """One part of the table as the check found it: ``ok``, and what it says of it."""

    part: str
    ok: bool
    says: str

    def line(self) -> str:
        return f"  {self.part}: {self.says}" if self.ok else f"  {self.part}: NOT READY: {self.says}"


def check_hardware(
    config: TableConfig, pin_factory: object | None = None, serial_factory: Callable[..., object] | None = None
) -> list[Found]:
    """Each part the configuration names, opened, asked and closed. ``pin_factory`` and
    ``serial_factory`` stand in for the Pi's pins and the serial port (as ``LiveTable``'s do)."""
    seats = config.seats
    found = [_camera(config)]
    if seats.backend == "gpio":
        found += _gpio(config, pin_factory)
    else:
        found.append(_board(config, serial_factory))
    return found


def _camera(config: TableConfig) -> Found:
    from vision.frames import FrameSourceError, open_source

    camera = config.camera
    try:
        source = open_source(camera.source, width=camera.width, height=camera.height, fps=camera.fps)
    except FrameSourceError as exc:
        return Found("camera", False, str(exc))
    with source:
        deadline = time.monotonic() + FIRST_FRAME_S
        frame = None
        try:
            while frame is None and time.monotonic() < deadline and not getattr(source, "ended", False):
                frame = source.read()
        except FrameSourceError as exc:
            return Found("camera", False, str(exc))
    if frame is None:
        return Found("camera", False, f"{camera.source} opened, but gave no frame in {FIRST_FRAME_S:g} s")
    h, w = frame.image.shape[:2]
    if (w, h) != (camera.width, camera.height):
        return Found(
            "camera",
            False,
            f"{camera.source} gives {w}x{h} frames, not the {camera.width}x{camera.height} set "
            "(and calibrated for): set width and height to what it gives, and calibrate again",
        )
    return Found("camera", True, f"{camera.source}: a {w}x{h} frame read")


def _gpio(config: TableConfig, factory: object | None) -> list[Found]:
    seats = config.seats
    try:
        buttons = gpio_buttons(config, factory)
    except ButtonError as exc:
        return [Found("buttons", False, str(exc))]
    try:
        pins = ", ".join(str(p) for p in seats.buttons)
        said = [Found("buttons", True, f"pins {pins}, each reading {_levels(buttons)}; {buttons.ticks.note}")]
        if not seats.lights:
            return [*said, Found("lights", True, "none wired")]
        try:
            lights = gpio_lights(config, buttons.factory)
        except LightError as exc:
            return [*said, Found("lights", False, str(exc))]
        lights.close()
        return [*said, Found("lights", True, f"pins {', '.join(str(p) for p in seats.lights)}")]
    finally:
        buttons.close()


def _levels(buttons: GpioButtons) -> str:
    held = buttons.held()
    return "up" if not held else f"up but seat {', '.join(map(str, held))}'s, held down (stuck or pressed?)"


def _board(config: TableConfig, serial_factory: Callable[..., object] | None) -> Found:
    from firmware_bridge.host import Bridge

    seats = config.seats
    bridge = Bridge(seats.port, seats.baud, serial_factory=serial_factory)
    bridge.on_status = lambda status, problem: None  # what it finds is said below, once
    bridge.start()
    try:
        deadline = time.monotonic() + BOARD_ANSWER_S
        while bridge.status == "connecting" and time.monotonic() < deadline:
            time.sleep(0.02)
        info = bridge.info
        if bridge.status != "connected" or info is None:
            return Found("board", False, bridge.problem or f"{seats.port}: no answer in {BOARD_ANSWER_S:g} s")
        wanted = max(seats.board_buttons, default=len(seats.names) - 1) + 1
        if info.buttons < wanted:
            return Found("board", False, f"{seats.port}: the board has {info.buttons} buttons, and {wanted} are named")
        return Found(
            "board",
            True,
            f"{seats.port}: {info.firmware}, protocol {info.protocol}, {info.buttons} buttons and {info.lights} lights",
        )
    finally:
        bridge.stop()

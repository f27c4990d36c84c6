"""The seats' parts, chosen from the configuration in one place (as gpiozero chooses its pin
factory): buttons and lights on the Pi's pins, or the bridge's board on a serial port."""

from __future__ import annotations

import queue
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from table.buttons import EdgesVouched, GpioButtons
from table.config import TableConfig
from table.faults import Fault
from table.games import GAMES
from table.lights import GpioLights, Pattern

if TYPE_CHECKING:
    from firmware_bridge.host import Bridge

SEAT_BOARD = "seat board"  # the bridge's part name in faults


def _dark(seat: int, pattern: Pattern) -> None:
    """No lights wired: nothing shows."""


@dataclass
class SeatParts:
    """The seats' buttons and lights as the live table uses them, whichever they are."""

    buttons: GpioButtons | Bridge
    button_names: tuple[str, ...]  # where each seat's button is, as faults name it ("pin 17")
    show: Callable[[int, Pattern], None] = _dark  # a pattern on a seat's light
    exact_edges: bool = True  # each edge carries its own time (the kernel's, or the board's)
    link_ns: int = 0  # how much later than a pin's the board's edges may come
    opened: list[Any] = field(default_factory=list)  # what to close, in order


def gpio_buttons(
    config: TableConfig, pin_factory: object | None = None, edges: queue.SimpleQueue[Any] | None = None
) -> GpioButtons:
    """The configured seats' buttons on the Pi's pins (a slap game refuses pins without edge times)."""
    seats = config.seats
    timed = GAMES[config.game.name].timed_races
    return GpioButtons(dict(enumerate(seats.buttons)), pin_factory, seats.pull_up, timed, edges=edges)


def gpio_lights(config: TableConfig, pin_factory: object | None = None) -> GpioLights:
    """The configured seats' lights on the Pi's pins."""
    seats = config.seats
    return GpioLights(dict(enumerate(seats.lights)), pin_factory, common_anode=dict(enumerate(seats.anodes())))


def _board_faults(inbox: queue.SimpleQueue[Any]) -> Callable[[str, str], None]:
    """The bridge's status as the table's faults: each change of status once, so that a board
    away is said once, not again at each try to open its port."""
    last = ""

    def told(status: str, problem: str) -> None:
        nonlocal last
        if status != last:
            last = status
            inbox.put(Fault(SEAT_BOARD, _board_problem(status, problem)))

    return told


def _board_problem(status: str, problem: str) -> str | None:
    """The seat board's fault as the table says it (None: connected), with what to check."""
    if status == "connected":
        return None
    hint = " (is its USB cable in? the game goes on once it is back)" if status == "disconnected" else ""
    return f"{status}: {problem}{hint}"


def open_seat_parts(
    config: TableConfig,
    inbox: queue.SimpleQueue[Any],
    pin_factory: object | None = None,
    serial_factory: Callable[..., object] | None = None,
) -> SeatParts:
    """The configured seats' parts, their edges and faults queued on ``inbox``. ``pin_factory``
    and ``serial_factory`` stand in for the Pi's pins and the serial port (mock pins, a
    pseudo-terminal)."""
    seats = config.seats
    if seats.backend == "gpio":
        buttons = gpio_buttons(config, pin_factory, inbox)
        parts = SeatParts(
            buttons,
            tuple(buttons.where(seat) for seat in range(len(seats.buttons))),
            exact_edges=buttons.ticks.exact,
            opened=[buttons],
        )
        if seats.lights:
            try:
                lights = gpio_lights(config, pin_factory)
            except Exception:
                buttons.close()
                raise
            parts.opened.append(lights)
            parts.show = lights.show
        return parts
    from firmware_bridge.host import Bridge

    seat_of_button = dict((b, s) for s, b in enumerate(seats.board_buttons)) or None
    bridge = Bridge(seats.port, seats.baud, seat_of_button, serial_factory=serial_factory, edges=inbox)
    bridge.on_vouch = lambda t_ns: inbox.put(EdgesVouched(t_ns))
    bridge.on_status = _board_faults(inbox)
    names = tuple(
        f"board button {seats.board_buttons[seat] if seats.board_buttons else seat}" for seat in range(seats.wired())
    )
    return SeatParts(bridge, names, bridge.show, True, bridge.timing.link_ns, [bridge.start()])

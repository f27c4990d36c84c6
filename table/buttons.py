"""Seat buttons on the Pi's GPIO pins, through gpiozero, stamped with the edge's own time.

gpiozero calls a pin's ``when_changed(ticks, state)`` with the ticks of the edge itself. With
the lgpio pin factory (the default on Raspberry Pi OS Bookworm and the Pi 5) those ticks are the
kernel's edge timestamps on CLOCK_MONOTONIC, in seconds: converted once here to integer
nanoseconds, they are on the same clock as every other event, whatever the callback's latency.
Other factories take their ticks when the callback runs, or on another clock: their edges are
stamped with the host's clock when the callback runs, they are marked coarse, and a slap game
refuses them unless told to accept coarse timing.

The pin's own debounce is left off (lgpio stamps a debounced edge when the bounce has settled,
which moves the press); ``table.gestures`` debounces on the leading edge instead. gpiozero
holds callbacks weakly, so the handlers are kept here. Callbacks arrive on gpiozero's thread:
they only queue the edge; the table's loop takes them with ``drain()``.
"""

from __future__ import annotations

import queue
import time
from collections.abc import Callable
from dataclasses import dataclass

from table.errors import CardtableError

NS = 1_000_000_000
CLOSE_CALL_NS = 1_000_000  # a slap won by less than this on the Pi's own pins is a close call


class ButtonError(CardtableError, ValueError):
    """A wiring or configuration problem with the seat buttons; names the pin or seat."""


@dataclass(frozen=True)
class RawEdge:
    seat: int
    pressed: bool
    t_ns: int  # host monotonic nanoseconds of the edge itself


@dataclass(frozen=True)
class ButtonLevel:
    """A seat's button found at a level its edges do not account for: down with no press seen
    (held or stuck as the table or the board's link started, a wire to ground, a press lost on
    the way), or up with no release seen (a release lost). ``where`` names the pin or the board's
    input; ``why`` says how it was found."""

    seat: int
    down: bool
    where: str
    why: str = "as the link started"


@dataclass(frozen=True)
class EdgesVouched:
    """Every seat's edges up to ``t_ns`` (host nanoseconds) have been handed over: a source that
    can say so (the bridge's board, in its heartbeat) lets gestures be decided without waiting
    out its bound, however late its thread runs."""

    t_ns: int


@dataclass(frozen=True)
class TickInfo:
    convert: Callable[[float], int]  # the factory's ticks to monotonic nanoseconds
    exact: bool  # taken at the edge, on CLOCK_MONOTONIC
    note: str


def drain(edges: queue.SimpleQueue[RawEdge]) -> list[RawEdge]:
    """Everything an edge source's thread has queued so far, without waiting."""
    out = []
    while True:
        try:
            out.append(edges.get_nowait())
        except queue.Empty:
            return out


def _seconds_to_ns(ticks: float) -> int:
    return round(ticks * NS)


def tick_info(factory: object) -> TickInfo:
    """How a pin factory's ticks relate to the host's monotonic clock."""
    name = type(factory).__name__
    if name == "LGPIOFactory":
        return TickInfo(_seconds_to_ns, True, "lgpio: the kernel's edge timestamps (CLOCK_MONOTONIC)")
    if name == "MockFactory":
        return TickInfo(_seconds_to_ns, True, "mock pins: ticks chosen by the test or simulator")
    if name in ("RPiGPIOFactory", "NativeFactory"):
        return TickInfo(
            _seconds_to_ns, False, f"{name}: ticks are read when the callback runs, milliseconds after the edge"
        )
    return TickInfo(_seconds_to_ns, False, f"{name}: ticks are not known to be the edge's time on the host clock")


NO_GPIO_HELP = (
    "on a Raspberry Pi, install lgpio (sudo apt install python3-lgpio, with the virtual environment made "
    'with --system-site-packages); on another machine, wire the seats to the bridge\'s board (backend = "bridge")'
)


def default_pin_factory() -> object:
    """gpiozero's pin factory for the machine it runs on, chosen as gpiozero chooses it; on a machine with
    no GPIO it can drive, a ``ButtonError`` naming what it tried, in one line (gpiozero would warn
    once a factory and raise)."""
    import warnings

    from gpiozero import Device
    from gpiozero.exc import BadPinFactory

    if Device.pin_factory is None:
        with warnings.catch_warnings(record=True) as tried:
            warnings.simplefilter("always")
            try:
                Device.pin_factory = Device._default_pin_factory()
            except BadPinFactory:
                said = "; ".join(str(w.message).removeprefix("Falling back from ") for w in tried)
                raise ButtonError(f"no GPIO here that gpiozero can drive ({said}): {NO_GPIO_HELP}") from None
    return Device.pin_factory


class GpioButtons:
    """One button per seat, on the given GPIO pins (gpiozero names: 17, "GPIO17", "BOARD11").

    Wired between the pin and ground with the pin's pull-up (the default), a press pulls the pin
    low; ``pull_up=False`` is for buttons to 3.3 V with a pull-down.
    """

    def __init__(
        self,
        pins: dict[int, int | str],
        factory: object | None = None,
        pull_up: bool = True,
        require_exact: bool = False,
        edges: queue.SimpleQueue[RawEdge] | None = None,
    ) -> None:
        """``edges``: where to queue the edges (a loop's one inbox for all its inputs), else a queue of its own."""
        self.factory = default_pin_factory() if factory is None else factory
        self.ticks = tick_info(self.factory)
        if require_exact and not self.ticks.exact:
            raise ButtonError(f"slap games need edge timestamps, and {self.ticks.note}; use the lgpio pin factory")
        seen: dict[str, int] = {}
        for seat, pin in pins.items():
            if type(seat) is not int or seat < 0:
                raise ButtonError(f"seat {seat!r}: seats are whole numbers from 0")
            key = str(pin).upper().removeprefix("GPIO")
            if key in seen:
                raise ButtonError(f"pin {pin} is given to both seat {seen[key]} and seat {seat}")
            seen[key] = seat
        self.pull_up = pull_up
        self.edges: queue.SimpleQueue[RawEdge] = queue.SimpleQueue() if edges is None else edges
        self._handlers: dict[int, Callable[[float, int], None]] = {}  # strong references: gpiozero's are weak
        self._pins: dict[int, tuple[int | str, object]] = {}  # by seat: its pin's name, and the pin
        try:
            for seat, name in pins.items():
                self._open(seat, name)
        except Exception:
            self.close()
            raise

    def _open(self, seat: int, name: int | str) -> None:
        from gpiozero.exc import GPIOPinInUse, PinError

        try:
            self.factory.reserve_pins(self, name)  # type: ignore[attr-defined]
            pin = self.factory.pin(name)  # type: ignore[attr-defined]
        except GPIOPinInUse as exc:
            raise ButtonError(f"seat {seat}: pin {name} is already used by another device ({exc})") from None
        except PinError as exc:
            raise ButtonError(f"seat {seat}: pin {name!r} is not a GPIO pin on this board ({exc})") from None
        pin.function = "input"
        pin.pull = "up" if self.pull_up else "down"
        pin.bounce = None
        pin.edges = "both"
        convert, exact, pressed_level = self.ticks.convert, self.ticks.exact, 0 if self.pull_up else 1

        def changed(ticks: float, state: int) -> None:
            # Ticks not known to be the edge's own time on this clock (pigpio's wrap every 71
            # minutes on another clock) are worse than the moment the callback runs.
            t_ns = convert(ticks) if exact else time.monotonic_ns()
            self.edges.put(RawEdge(seat, int(state) == pressed_level, t_ns))

        self._handlers[seat] = changed
        pin.when_changed = changed
        self._pins[seat] = (name, pin)

    def _conflicts_with(self, other: object) -> bool:
        """gpiozero asks this when another device wants one of our pins: every use conflicts."""
        return True

    def held(self) -> list[int]:
        """The seats whose button reads pressed now (the pin's level, not its edges)."""
        pressed_level = 0 if self.pull_up else 1
        return sorted(seat for seat, (_, pin) in self._pins.items() if int(pin.state) == pressed_level)  # type: ignore[attr-defined]

    def where(self, seat: int) -> str:
        """The pin a seat's button is on, as the faults name it."""
        return f"pin {self._pins[seat][0]}"

    def drain(self) -> list[RawEdge]:
        """Every edge queued since the last call, in arrival order (the sequencer orders by time)."""
        return drain(self.edges)

    def close(self) -> None:
        for name, pin in self._pins.values():
            pin.when_changed = None  # type: ignore[attr-defined]
            self.factory.release_pins(self, name)  # type: ignore[attr-defined]
        self._pins.clear()
        self._handlers.clear()

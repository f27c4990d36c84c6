"""Seat lights: a small set of patterns, and gpiozero outputs that show them.

A pattern is a value (off, steady, blink, pulse, flash N times) with a colour; what the game says
becomes patterns elsewhere (the controller's mapping), and each kind of light shows them as well
as it can: an RGB LED in colour, a dimmable LED with a real pulse, a plain LED by switching.
The microcontroller bridge takes the same patterns (``firmware_bridge.host``).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from table.errors import CardtableError

Colour = tuple[int, int, int]  # red, green, blue, 0-255

WHITE: Colour = (255, 255, 255)
RED: Colour = (255, 0, 0)
GREEN: Colour = (0, 255, 0)
BLUE: Colour = (0, 0, 255)
AMBER: Colour = (255, 140, 0)


class LightKind(StrEnum):
    """What a light does: its pattern's kind."""

    OFF = "off"
    STEADY = "steady"
    BLINK = "blink"  # on and off every period
    PULSE = "pulse"  # a slow breathing fade over a period
    FLASH = "flash"  # ``count`` flashes, then off


KINDS = tuple(LightKind)


class LightError(CardtableError, ValueError):
    """A pattern or light wiring that cannot be shown; names what was wrong."""


@dataclass(frozen=True)
class Pattern:
    kind: LightKind = LightKind.OFF  # a kind's name is taken too ("blink")
    colour: Colour = WHITE
    count: int = 0  # flashes, for "flash"
    period_ms: int = 500  # one on-off cycle (blink, flash) or one breath (pulse)

    def __post_init__(self) -> None:
        try:
            object.__setattr__(self, "kind", LightKind(self.kind))
        except ValueError:
            raise LightError(f"light pattern {self.kind!r} is not one of {', '.join(KINDS)}") from None
        if len(self.colour) != 3 or not all(type(c) is int and 0 <= c <= 255 for c in self.colour):
            raise LightError(f"colour {self.colour!r} must be three whole numbers 0-255")
        no_flash = self.kind == LightKind.FLASH and self.count == 0
        if type(self.count) is not int or not 0 <= self.count <= 255 or no_flash:
            raise LightError(f"flash count {self.count!r} must be a whole number 1-255")
        if type(self.period_ms) is not int or not 20 <= self.period_ms <= 60_000:
            raise LightError(f"period {self.period_ms!r} ms must be a whole number 20-60000")


OFF = Pattern()


def steady(colour: Colour = WHITE) -> Pattern:
    return Pattern(LightKind.STEADY, colour)


def blink(colour: Colour = WHITE, period_ms: int = 500) -> Pattern:
    return Pattern(LightKind.BLINK, colour, period_ms=period_ms)


def pulse(colour: Colour = WHITE, period_ms: int = 2000) -> Pattern:
    return Pattern(LightKind.PULSE, colour, period_ms=period_ms)


def flash(count: int, colour: Colour = WHITE, period_ms: int = 400) -> Pattern:
    return Pattern(LightKind.FLASH, colour, count, period_ms)


class GpioLights:
    """One gpiozero light per seat: ``LED``, ``PWMLED`` or ``RGBLED`` (three pins)."""

    def __init__(
        self,
        pins: dict[int, int | str | tuple[int | str, int | str, int | str]],
        factory: object | None = None,
        dimmable: bool = True,
        common_anode: dict[int, bool] | None = None,
    ) -> None:
        """``common_anode``: the seats whose light is lit by pulling its pins low (a common-anode
        RGB LED, or an LED wired from 3.3 V to the pin); the others are lit by driving them high."""
        from gpiozero import LED, PWMLED, RGBLED
        from gpiozero.exc import GPIOZeroError

        self.devices: dict[int, object] = {}
        self.shown: dict[int, Pattern] = {}
        try:
            for seat, pin in pins.items():
                high = not (common_anode or {}).get(seat, False)
                try:
                    if isinstance(pin, tuple):
                        device = RGBLED(*pin, active_high=high, pin_factory=factory)
                    elif dimmable:
                        device = PWMLED(pin, active_high=high, pin_factory=factory)
                    else:
                        device = LED(pin, active_high=high, pin_factory=factory)
                except GPIOZeroError as exc:
                    why = str(exc) or type(exc).__name__  # gpiozero's PinPWMUnsupported says nothing more
                    raise LightError(f"seat {seat}'s light on pin {pin}: {why}") from None
                self.devices[seat] = device
        except LightError:
            self.close()
            raise

    def show(self, seat: int, pattern: Pattern) -> None:
        if seat not in self.devices:
            raise LightError(f"seat {seat} has no light (lights on seats {sorted(self.devices)})")
        device = self.devices[seat]
        self.shown[seat] = pattern
        on = _level(device, pattern.colour)
        half = pattern.period_ms / 2000
        if pattern.kind == LightKind.OFF:
            device.off()  # type: ignore[attr-defined]
        elif pattern.kind == LightKind.STEADY:
            device.value = on  # type: ignore[attr-defined]
        elif pattern.kind in (LightKind.BLINK, LightKind.FLASH):
            n = pattern.count if pattern.kind == LightKind.FLASH else None
            if _is_rgb(device):
                device.blink(half, half, on_color=on, n=n)  # type: ignore[attr-defined]
            else:
                device.blink(half, half, n=n)  # type: ignore[attr-defined]
        elif hasattr(device, "pulse"):
            if _is_rgb(device):
                device.pulse(half, half, on_color=on)  # type: ignore[attr-defined]
            else:
                device.pulse(half, half)  # type: ignore[attr-defined]
        else:  # a plain LED cannot fade: a slow blink says the same
            device.blink(half, half)  # type: ignore[attr-defined]

    def close(self) -> None:
        for device in self.devices.values():
            device.close()  # type: ignore[attr-defined]
        self.devices.clear()


def _is_rgb(device: object) -> bool:
    return type(device).__name__ == "RGBLED"


def _level(device: object, colour: Colour) -> object:
    if _is_rgb(device):
        return tuple(c / 255 for c in colour)
    return 1 if type(device).__name__ == "LED" else max(colour) / 255


def count_back(count: int, colour: Colour = AMBER) -> Pattern:
    """What a seat's light shows after a count of taps (a bid): that many quick flashes, so the
    player sees what the table understood; one long flash for nothing (a bid of 0)."""
    if count <= 0:
        return Pattern(LightKind.FLASH, colour, 1, period_ms=1600)
    return flash(min(count, 255), colour, period_ms=400)

"""Choosing the next game's preset with the seat buttons, after every button was held together.

Holding every button for three seconds abandons the game (or, after one ended, skips the wait).
The table then offers the game's presets, the one being played first: every light flashes the
offered preset's number (one flash for the first), again and again. A tap on any seat's button
offers the next one (after the last, the first again); holding any button deals the game with
the one offered. Nobody touching a button for ``IDLE_NS`` deals it too. The terminal and the log
name each preset as it is offered.

Pure and clockless like the gestures it reads: edges with their timestamps, time told with ``tick``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from table.gestures import GestureKind, GestureReader, GestureTiming
from table.lights import Colour, Pattern, flash
from table.units import MS

IDLE_NS = 30_000 * MS  # untouched this long, the offered preset is dealt
FLASH_MS = 400  # one flash of the preset's number
GAP_NS = 1_200 * MS  # dark between two showings of the number
CYAN: Colour = (0, 200, 255)


@dataclass
class PresetMenu:
    """The presets on offer (``presets[0]`` the one played), the one offered, and when to deal."""

    presets: list[str]
    seats: int
    now_ns: int
    timing: GestureTiming | None = None
    offered: int = 0
    deal: bool = False  # a long press asked for the deal, or time ran out
    _reader: GestureReader = field(init=False)
    _last_touch: int = field(init=False)
    _shown_at: int | None = field(init=False, default=None)

    def __post_init__(self) -> None:
        if not self.presets:
            raise ValueError("a preset menu needs a preset to offer")
        # A fresh reader: the buttons still held from the gesture that opened the menu are
        # up as far as it knows, so their release is no tap.
        self._reader = GestureReader(self.seats, self.timing, double_taps=False)
        self._last_touch = self.now_ns

    @property
    def preset(self) -> str:
        return self.presets[self.offered]

    def down(self) -> set[int]:
        """The seats whose button the menu has seen pressed and not yet released (the hold that deals)."""
        return {n for n, seat in enumerate(self._reader.seats) if seat.raw}

    def edge(self, seat: int, pressed: bool, t_ns: int) -> None:
        if 0 <= seat < self.seats:
            self._take(self._reader.edge(seat, pressed, t_ns))

    def tick(self, now_ns: int) -> None:
        self._take(self._reader.poll(now_ns))
        if now_ns - self._last_touch >= IDLE_NS:
            self.deal = True

    def _take(self, gestures: list) -> None:
        for g in gestures:
            if self.deal:
                return
            if g.kind == GestureKind.TAP:
                self.offered = (self.offered + 1) % len(self.presets)
                self._shown_at = None  # the new number at once
            elif g.kind == GestureKind.LONG_PRESS:
                self.deal = True
            if g.kind in ("press", "release"):  # a touch (a count ended by waiting is none)
                self._last_touch = max(self._last_touch, g.t_ns)

    def pattern(self) -> Pattern:
        """What every light shows: the offered preset's number in flashes."""
        return flash(self.offered + 1, CYAN, period_ms=FLASH_MS)

    def show_due(self, now_ns: int) -> bool:
        """Whether the lights should be told the number (again) at ``now_ns``."""
        if self._shown_at is None or now_ns >= self._shown_at + self._cycle_ns():
            self._shown_at = now_ns
            return True
        return False

    def next_wakeup(self) -> int:
        times = [self._last_touch + IDLE_NS]
        if self._shown_at is not None:
            times.append(self._shown_at + self._cycle_ns())
        deadline = self._reader.next_deadline()
        return min(times + ([deadline] if deadline is not None else []))

    def _cycle_ns(self) -> int:
        return (self.offered + 1) * FLASH_MS * MS + GAP_NS

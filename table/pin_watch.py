"""The seats' buttons held against what their edges told the core.

A button found down as a game starts is a fault until it is let go (a stuck button, or a player
leaning on it), but for the hold that dealt the game from the preset menu. On the Pi's own pins
the levels are read once a second: a level that differs from the edges twice running tells of an
edge the pin's callback never had, and is taken as the edge it stands for.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Protocol

from table.buttons import ButtonLevel, GpioButtons
from table.controller import TableCore
from table.units import SECOND

log = logging.getLogger("cardtable")


class HeldButtons(Protocol):
    """Buttons that can say which are down now (the Pi's pins, or the bridge's board)."""

    def held(self) -> list[int]: ...


class PinWatch:
    """What the buttons' levels say beside their edges, for one table's seats."""

    def __init__(self, buttons: HeldButtons, button_names: Sequence[str]) -> None:
        self._buttons = buttons
        self._names = button_names
        self.held_at_start = 0  # buttons found down as a game started
        self.dealt_by: set[int] = set()  # the seats whose hold dealt the next game from the preset menu
        self._next_check = 0  # when the pins' levels are next held against their edges
        self._mismatch: set[int] = set()  # seats whose pin differed from its edges at the last check

    def level(self, core: TableCore, item: ButtonLevel, now: int) -> None:
        """A button at a level its edges do not account for: down, a fault until let go; up, let go."""
        if item.seat >= core.setup.players:
            return
        state = "down where no press was seen" if item.down else "up where no release was seen"
        log.warning("seat %d's button (%s) is %s (%s)", item.seat, item.where, state, item.why)
        if item.down:
            core.held_at_start(item.seat, now, f"down where no press was seen ({item.why})")
        else:
            core.let_go(item.seat, now)

    def check(self, core: TableCore, now: int) -> None:
        """The pins' levels against the edges (once a second, on the Pi's own pins only)."""
        if not isinstance(self._buttons, GpioButtons) or now < self._next_check:
            return
        self._next_check = now + SECOND
        held = set(self._buttons.held())
        for seat, reader in enumerate(core.gestures.seats):
            differs = (seat in held) != reader.raw and not reader.chattering
            if differs and seat in self._mismatch:
                self._mismatch.discard(seat)
                self.level(core, ButtonLevel(seat, seat in held, self._names[seat], "an edge lost"), now)
            elif differs:
                self._mismatch.add(seat)
            else:
                self._mismatch.discard(seat)

    def game_started(self, core: TableCore, now: int) -> None:
        """Buttons down as a game starts: each a fault naming its seat and pin, until let go; but
        the hold that dealt it from the preset menu, which the menu saw pressed."""
        dealt_by, self.dealt_by = self.dealt_by, set()
        for seat in self._buttons.held():
            if seat >= core.setup.players:
                continue
            if seat in dealt_by:
                core.pressed_before(seat, now)
                continue
            log.warning("seat %d's button (%s) is down as the game starts", seat, self._names[seat])
            self.held_at_start += 1
            core.held_at_start(seat, now)

"""The floor under the versions benchmark: what replaying a game takes before any rule is read.

A stand-in answers each input as a referee that reads no rule would: it checks the input's time
against the last one's and makes as many decisions as this checkout's referee made for that
input, each a turn changing hands (the least a decision holds). It is made afresh for each game,
at the cost of an empty object. Whatever a referee takes beyond this, its rules take; and an
earlier referee's time over this one's is the most that any referee written in Python could
gain on it.
"""

from __future__ import annotations

from typing import Any

from table.decisions import Decision, Rejected, TurnChanged
from table.events import Event


def decisions_made(games: list[tuple[Any, list[Event]]]) -> list[list[int]]:
    """How many decisions this checkout's referee makes for each input of each game."""
    made = []
    for setup, events in games:
        referee = setup.referee()
        referee.start(0)
        made.append([len(referee.handle(event)) for event in events])
    return made


class NoRules:
    """A referee that reads no rule: each input's time checked, its decisions made."""

    __slots__ = ("last_t",)

    def __init__(self) -> None:
        self.last_t = 0

    def handle(self, event: Event, made: int) -> list[Decision]:
        t = event.t_ns
        if t < self.last_t:
            return [Rejected(t, "out of order", event.TYPE)]
        self.last_t = t
        if made == 1:
            return [TurnChanged(t, 0)]
        if made == 2:
            return [TurnChanged(t, 0), TurnChanged(t, 1)]
        return [TurnChanged(t, seat) for seat in range(made)]


def replay(games: list[tuple[Any, list[Event]]], made: list[list[int]]) -> None:
    """Each game through a fresh stand-in, in the order the referee takes it."""
    for (_, events), counts in zip(games, made, strict=True):
        stand_in = NoRules()
        for event, n in zip(events, counts, strict=True):
            stand_in.handle(event, n)

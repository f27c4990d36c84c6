"""The floor under the versions benchmark: what replaying a game takes before any rule is read.

A stand-in answers each input as a referee that reads no rule would: it checks the input's time
against the last one's and makes decisions, each a turn changing hands (the least a decision
holds), as many in all as this checkout's referee made for the game. It is handed the inputs
as the referee is, one call each, and looks nothing up: the first inputs get one decision more
than the rest, so that the count comes out right. Whatever a referee takes beyond this, its
rules take; and an earlier referee's time over this one's is the most that any referee written
in Python could gain on it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from table.decisions import Decision, Rejected, TurnChanged
from table.events import Event

Plan = list[tuple[int, list[Event], list[Event]]]  # a game each: decisions an input, and its inputs split


def planned(games: list[tuple[Any, list[Event]]]) -> Plan:
    """For each game: ``k``, with the inputs that get ``k + 1`` decisions and those that get ``k``,
    so that they make as many as this checkout's referee makes for that game."""
    plan = []
    for setup, events in games:
        referee = setup.referee()
        referee.start(0)
        made = sum(len(referee.handle(event)) for event in events)
        k, extra = divmod(made, len(events))
        plan.append((k, events[:extra], events[extra:]))
    return plan


class NoRules:
    """A referee that reads no rule: each input's time checked, its decisions made."""

    __slots__ = ("last_t",)

    def __init__(self) -> None:
        self.last_t = 0

    def answering(self, made: int) -> Callable[[Event], list[Decision]]:
        """The handler that answers each input with ``made`` decisions."""
        return (self.none, self.one, self.two, self.three)[made] if made < 4 else lambda e: self.many(e, made)

    def _late(self, event: Event) -> list[Decision]:
        return [Rejected(event.t_ns, "out of order", event.TYPE)]

    def none(self, event: Event) -> list[Decision]:
        t = event.t_ns
        if t < self.last_t:
            return self._late(event)
        self.last_t = t
        return []

    def one(self, event: Event) -> list[Decision]:
        t = event.t_ns
        if t < self.last_t:
            return self._late(event)
        self.last_t = t
        return [TurnChanged(t, 0)]

    def two(self, event: Event) -> list[Decision]:
        t = event.t_ns
        if t < self.last_t:
            return self._late(event)
        self.last_t = t
        return [TurnChanged(t, 0), TurnChanged(t, 1)]

    def three(self, event: Event) -> list[Decision]:
        t = event.t_ns
        if t < self.last_t:
            return self._late(event)
        self.last_t = t
        return [TurnChanged(t, 0), TurnChanged(t, 1), TurnChanged(t, 2)]

    def many(self, event: Event, made: int) -> list[Decision]:
        t = event.t_ns
        if t < self.last_t:
            return self._late(event)
        self.last_t = t
        return [TurnChanged(t, seat) for seat in range(made)]


def replay(plan: Plan) -> None:
    """Each game through a fresh stand-in, its inputs in the order the referee takes them."""
    for k, more, rest in plan:
        stand_in = NoRules()
        handle = stand_in.answering(k + 1)
        for event in more:
            handle(event)
        handle = stand_in.answering(k)
        for event in rest:
            handle(event)

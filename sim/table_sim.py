"""The frame every simulated table shares: a virtual clock, an event queue, the table's core.

A game's simulation keeps the physical truth (which card is really where), lets its bots act with
human timing, and delivers each input as the hardware would: the camera reports a card 60-160 ms
after it appeared, stamped with the frame it first showed in; a button edge arrives within 2 ms,
stamped with the edge. Inputs go through the table's own core (``table.controller``: the
sequencer, journal, referee and lights), and the referee's decisions are carried out on the
physical cards as players at a real table would.
"""

from __future__ import annotations

import heapq
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sim.bots import Bot, make_bots
from table.clock import VirtualClock
from table.controller import FrameReport, Outputs, TableCore
from table.decisions import Decision
from table.events import CardGone, CardSeen, Event, SeatAction
from table.games import GameSetup
from table.journal import JournalWriter
from table.referee import Referee

MS = 1_000_000


@dataclass(frozen=True)
class SimOptions:
    lateness_ms: int = 250  # the sequencer's bound for the camera
    buttons_lateness_ms: int = 20  # ... and for the buttons
    vision_latency_ms: tuple[int, int] = (60, 160)
    gpio_latency_us: tuple[int, int] = (30, 2000)
    max_cards: int = 20_000
    # Real-time pacing: 0 runs flat out on the virtual clock, 1.0 is a real table's pace.
    speed: float = 0.0


@dataclass
class SimResult:
    winners: tuple[int, ...] | None
    cards_played: int
    decisions: list[Decision] = field(default_factory=list)
    abandoned: bool = False

    @property
    def winner(self) -> int | None:
        """The single winner, when there is exactly one."""
        return self.winners[0] if self.winners is not None and len(self.winners) == 1 else None


class TableSimulation:
    """Runs one game; subclasses say how the physical table answers each decision."""

    def __init__(
        self,
        setup: GameSetup,
        options: SimOptions | None = None,
        journal: JournalWriter | None = None,
        on_decision: Callable[[Decision, Any], None] | None = None,
    ) -> None:
        self.options = options or SimOptions()
        self.setup = self.prepare(setup)
        lateness = {"camera": self.options.lateness_ms * MS, "gpio": self.options.buttons_lateness_ms * MS}
        self.core = TableCore(self.setup, lateness, Outputs(decisions=[self._decided]), journal)
        self.rng = random.Random(f"{setup.seed}:table")
        self.bots: list[Bot] = make_bots(setup.players, self.rng)
        self.clock = VirtualClock()
        self.on_decision = on_decision
        self.queue: list[tuple[int, int, str, Any]] = []
        self._order = 0
        self._ticks: set[int] = set()  # times a tick is already queued for
        self.cards_played = 0
        self.result = SimResult(None, 0)
        self._wall_start = 0.0

    @property
    def referee(self) -> Referee:
        return self.core.referee

    @property
    def journal(self) -> JournalWriter | None:
        return self.core.journal

    @journal.setter
    def journal(self, writer: JournalWriter | None) -> None:
        self.core.journal = writer

    def prepare(self, setup: GameSetup) -> GameSetup:
        """The set-up the referee gets (the ERS simulator fills in its deal)."""
        return setup

    # ------------------------------------------------------------- scheduling

    def at(self, t: int, kind: str, payload: Any = None) -> None:
        """Run ``self._on_<kind>(t, payload)`` at virtual time ``t``."""
        self._order += 1
        heapq.heappush(self.queue, (t, self._order, kind, payload))

    def run(self) -> SimResult:
        self._wall_start = time.monotonic()
        self.core.start(0)
        self.settle(0)
        while self.queue and not self.referee.finished:
            if self.cards_played >= self.options.max_cards:
                self.result.abandoned = True
                break
            t, _, kind, payload = heapq.heappop(self.queue)
            self.clock.advance_to(t)
            self._pace(t)
            getattr(self, f"_on_{kind}")(t, payload)
        self.result.winners = self.winners()
        self.result.cards_played = self.cards_played
        return self.result

    def winners(self) -> tuple[int, ...] | None:
        """The game's winners once it is over (the round games keep them in their state)."""
        state = getattr(self.referee, "state", None)
        won = getattr(state, "winners", None)
        return None if won is None else tuple(won)

    def _pace(self, t: int) -> None:
        if self.options.speed <= 0:
            return
        target = self._wall_start + t / 1e9 / self.options.speed
        delay = target - time.monotonic()
        if delay > 0:
            time.sleep(delay)

    # ----------------------------------------------------------------- inputs

    def camera(self, t: int, card: Any, zone: str, seat: int | None = None) -> None:
        """A card appears face up in ``zone`` at ``t``; the camera reports it a little later."""
        lo, hi = self.options.vision_latency_ms
        self.deliver(CardSeen(t, "camera", card.face, zone, seat), t + self.rng.randint(lo, hi) * MS)

    def gesture(self, t: int, seat: int, action: str, value: int | None = None) -> None:
        """A seat's button gesture completes at ``t`` (its last edge)."""
        lo, hi = self.options.gpio_latency_us
        self.deliver(SeatAction(t, "gpio", seat, action, value), t + self.rng.randint(lo, hi) * 1000)

    def deliver(self, event: Event, arrival: int) -> None:
        self.at(arrival, "arrive", event)

    def _on_arrive(self, t: int, event: Event) -> None:
        if isinstance(event, CardSeen | CardGone):
            self.core.frame(FrameReport(event.t_ns, (event,)), t)
        else:
            self.core.seat_input(event, t)  # type: ignore[arg-type]
        self._after(t)

    def _on_tick(self, t: int, _: None) -> None:
        self._ticks.discard(t)
        self.core.tick(t)
        self._after(t)

    def _after(self, t: int) -> None:
        """Once the core has taken an input or time has passed: the players' next moves, and a
        tick queued for when the core next has something to do."""
        self.settle(t)
        wake = self.core.next_wakeup(t)
        if len(self.core.sequencer) and wake not in self._ticks:
            self._ticks.add(wake)
            self.at(wake, "tick")

    # -------------------------------------------------------------- decisions

    def _decided(self, decision: Decision, referee: Referee) -> None:
        self.result.decisions.append(decision)
        if self.on_decision is not None:
            self.on_decision(decision, referee)
        self.apply(decision, self.clock.monotonic_ns())

    def apply(self, decision: Decision, t: int) -> None:
        """Carry one decision out on the physical table."""

    def settle(self, t: int) -> None:
        """After a batch of decisions: schedule what the players do next."""

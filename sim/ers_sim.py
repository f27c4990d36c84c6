"""A simulated Egyptian Rat Screw table: bots, a camera and seat buttons, on a virtual clock.

The referee, the sequencer and the journal are the real ones. The simulator keeps the physical
truth (which card is really where), lets bots play and slap with human timing, and delivers each
input as the hardware would: the camera reports a card 60-160 ms after it landed, stamped with the
frame it first appeared in; a button press arrives within 2 ms, stamped with its edge. The
referee's decisions are carried out on the physical cards as players at a real table would.
"""

from __future__ import annotations

import heapq
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from sim.bots import Bot, make_bots
from table.cards import Card, deal_round_robin, shuffled_deck
from table.clock import VirtualClock
from table.decisions import (
    BadSlap,
    CardPlayed,
    CardsBurned,
    Decision,
    GoodSlap,
    InputTooLate,
    PileWon,
    SlapIgnored,
)
from table.events import ButtonPressed, CardGone, CardSeen, Event
from table.games import GameSetup
from table.games.ers import ErsReferee
from table.games.slaps import slap_condition
from table.journal import JournalWriter
from table.sequencer import Sequencer

MS = 1_000_000
_VERDICTS = (GoodSlap, BadSlap, SlapIgnored)


@dataclass(frozen=True)
class SimOptions:
    lateness_ms: int = 250
    vision_latency_ms: tuple[int, int] = (60, 160)
    gpio_latency_us: tuple[int, int] = (30, 2000)
    max_cards: int = 20_000
    # Real-time pacing: 0 runs flat out on the virtual clock, 1.0 is a real table's pace.
    speed: float = 0.0


@dataclass
class SimResult:
    winner: int | None
    cards_played: int
    decisions: list[Decision] = field(default_factory=list)
    abandoned: bool = False


def deal_setup(setup: GameSetup) -> tuple[GameSetup, list[list[Card]]]:
    """Shuffle and deal with the set-up's seed, as the players at the table would."""
    rules = setup.rules_value()
    deck = shuffled_deck(random.Random(f"{setup.seed}:deck"), rules.decks, rules.jokers_per_deck)
    hands = deal_round_robin(deck, setup.players, setup.dealer)
    return replace(setup, deal=[[c.code for c in h] for h in hands]), hands


class ErsSimulation:
    def __init__(
        self,
        setup: GameSetup,
        options: SimOptions | None = None,
        journal: JournalWriter | None = None,
        on_decision: Callable[[Decision, ErsReferee], None] | None = None,
    ) -> None:
        self.options = options or SimOptions()
        self.setup, hands = deal_setup(setup)
        referee = self.setup.referee()
        assert isinstance(referee, ErsReferee)
        self.referee = referee
        self.rules = referee.rules
        self.rng = random.Random(f"{setup.seed}:table")
        self.bots: list[Bot] = make_bots(setup.players, self.rng)
        self.clock = VirtualClock()
        self.sequencer = Sequencer(self.options.lateness_ms * MS)
        self.journal = journal
        self.on_decision = on_decision
        # Physical truth: hands top first, the pile's played cards and burned cards.
        self.hands: list[list[Card]] = [list(h) for h in hands]
        self.played: list[Card] = []
        self.burned: list[Card] = []
        self.queue: list[tuple[int, int, str, Any]] = []
        self._order = 0
        self.play_token = 0
        self.card_in_flight = False
        self.unjudged_presses = 0
        self.cards_played = 0
        self.result = SimResult(None, 0)
        self._paced_to = 0
        self._wall_start = 0.0

    # ------------------------------------------------------------- scheduling

    def _at(self, t: int, kind: str, payload: Any = None) -> None:
        self._order += 1
        heapq.heappush(self.queue, (t, self._order, kind, payload))

    def run(self) -> SimResult:
        self._wall_start = time.monotonic()
        self._emit(self.referee.start(0), 0)
        while self.queue and not self.referee.finished:
            if self.cards_played >= self.options.max_cards:
                self.result.abandoned = True
                break
            t, _, kind, payload = heapq.heappop(self.queue)
            self.clock.advance_to(t)
            self._pace(t)
            getattr(self, f"_on_{kind}")(t, payload)
        self.result.winner = self.referee.winner
        self.result.cards_played = self.cards_played
        return self.result

    def _pace(self, t: int) -> None:
        if self.options.speed <= 0:
            return
        target = self._wall_start + t / 1e9 / self.options.speed
        delay = target - time.monotonic()
        if delay > 0:
            time.sleep(delay)

    # ---------------------------------------------------------------- actions

    def _on_play(self, t: int, payload: tuple[int, int]) -> None:
        seat, token = payload
        if token != self.play_token:
            return
        if self.unjudged_presses:  # someone slapped: players wait for the verdict
            self._at(t + 200 * MS, "play", payload)
            return
        hand = self.hands[seat]
        if not hand:
            return
        card = hand.pop(0)
        self.played.append(card)
        self.cards_played += 1
        self.card_in_flight = True
        lo, hi = self.options.vision_latency_ms
        self._deliver(CardSeen(t, "camera", card.face, "pile"), t + self.rng.randint(lo, hi) * MS)
        self._bots_react(t)

    def _on_collect(self, t: int, payload: tuple[int, int]) -> None:
        """The face-card player picks up the pile they won; the camera sees it go."""
        _, token = payload
        if token != self.play_token:
            return
        if self.unjudged_presses:
            self._at(t + 200 * MS, "collect", payload)
            return
        self.card_in_flight = True
        lo, hi = self.options.vision_latency_ms
        self._deliver(CardGone(t, "camera", "pile"), t + self.rng.randint(lo, hi) * MS)

    def _on_press(self, t: int, seat: int) -> None:
        self.unjudged_presses += 1
        lo, hi = self.options.gpio_latency_us
        self._deliver(ButtonPressed(t, "gpio", seat), t + self.rng.randint(lo, hi) * 1000)

    def _on_arrive(self, t: int, event: Event) -> None:
        late = self.sequencer.push(event)
        if self.journal is not None:
            self.journal.record(event, late)
        if late is not None:
            self._emit([InputTooLate(event.t_ns, event.TYPE, getattr(event, "seat", None), late)], t)
            return
        self._at(max(t, event.t_ns + self.sequencer.lateness_ns), "release")

    def _on_release(self, t: int, _: None) -> None:
        for event in self.sequencer.release(t):
            self._emit(self.referee.handle(event), t)
        self._emit(self.referee.advance(t - self.sequencer.lateness_ns), t)

    def _deliver(self, event: Event, arrival: int) -> None:
        self._at(arrival, "arrive", event)

    def _bots_react(self, t: int) -> None:
        if not self.rules.slaps:
            return
        good = slap_condition(self.played, bool(self.burned), self.rules) is not None
        for bot in self.bots:
            if not self.hands[bot.seat]:
                barred = self.referee.strikes[bot.seat] >= self.rules.strikes_limit
                if not self.rules.slap_in or barred:
                    continue
            chance = bot.notice if good else bot.false_slap
            if self.rng.random() < chance:
                self._at(t + bot.reaction_ns(self.rng), "press", bot.seat)

    # -------------------------------------------------------------- decisions

    def _emit(self, decisions: list[Decision], t: int) -> None:
        moved = False
        for d in decisions:
            self.result.decisions.append(d)
            if self.on_decision is not None:
                self.on_decision(d, self.referee)
            if isinstance(d, _VERDICTS) or (isinstance(d, InputTooLate) and d.event == "press"):
                self.unjudged_presses = max(0, self.unjudged_presses - 1)
            if isinstance(d, CardPlayed):
                self.card_in_flight = False
                moved = True
            elif isinstance(d, PileWon):
                self.card_in_flight = False
                self.hands[d.seat].extend(self.burned + self.played)
                self.burned.clear()
                self.played.clear()
                moved = True
            elif isinstance(d, CardsBurned):
                hand = self.hands[d.seat]
                self.burned[:0] = hand[: d.count]
                del hand[: d.count]
                moved = True
        if (moved or t == 0) and not self.card_in_flight and not self.referee.finished:
            expected = self.referee.expects()
            if expected.action == "play" and expected.seat is not None:
                self.play_token += 1
                bot = self.bots[expected.seat]
                action = "play" if self.referee.pending_award is None else "collect"
                self._at(t + bot.play_delay_ns(self.rng), action, (expected.seat, self.play_token))

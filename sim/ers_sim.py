"""A simulated Egyptian Rat Screw table: bots play and slap with human timing and mistakes.

The timing model and the real parts used are those of ``sim.table_sim``. Slaps are button
presses stamped with their edge; the players wait for a slap's verdict before the next card.
"""

from __future__ import annotations

import random
from dataclasses import replace

from sim.options import SimOptions
from sim.table_sim import MS, SimResult, TableSimulation
from table.cards import Card, deal_round_robin, shuffled_deck
from table.controller import COMMAND
from table.decisions import (
    BadSlap,
    CardPlayed,
    CardsBurned,
    CountCorrected,
    Decision,
    GoodSlap,
    InputTooLate,
    PenaltyCard,
    PenaltyOwed,
    PileWon,
    PlayContested,
    Rejected,
    SlapIgnored,
)
from table.events import OUT_OF_CARDS, SeatAction
from table.games import GameSetup
from table.games.ers.referee import CONTEST, CONTESTABLE, TAKE_PILE, ErsReferee
from table.games.ers.slaps import slap_condition

_VERDICTS = (GoodSlap, BadSlap, SlapIgnored)
PENALTY_PAUSE_NS = 800 * MS  # before a bad slap's penalty card is laid on top (penalty_cards)
SAY_OUT_NS = 4_000 * MS  # a player asked to play a card they have not got says so after this long
# Where plays may be contested: how often a player holding cards contests a bad slap, and a
# pile taken (rightly, as the table referees it: a bluff, or a slap they did not see).
CONTEST_BAD = 0.5
CONTEST_TAKEN = 0.05
PILE = ("pile", None)
__all__ = ["ErsSimulation", "SimOptions", "SimResult", "deal_setup"]


def deal_setup(setup: GameSetup) -> tuple[GameSetup, list[list[Card]]]:
    """Shuffle and deal with the set-up's seed, as the players at the table would."""
    rules = setup.rules_value()
    deck = shuffled_deck(random.Random(f"{setup.seed}:deck"), rules.decks, rules.jokers_per_deck)
    hands = deal_round_robin(deck, setup.players, setup.dealer)
    return replace(setup, deal=[[c.code for c in h] for h in hands]), hands


class ErsSimulation(TableSimulation):
    referee: ErsReferee

    def prepare(self, setup: GameSetup) -> GameSetup:
        dealt, hands = deal_setup(setup)
        # Physical truth: hands top first, the pile's played cards and burned cards.
        self.hands: list[list[Card]] = [list(h) for h in hands]
        self.played: list[Card] = []
        self.burned: list[Card] = []
        self.play_token = 0
        self.card_in_flight = False
        self.pile_taken = False  # the face-card player has picked up the pile they won
        self.swept_ns = 0  # when the last pile won was gathered up: the next card comes after
        self.unjudged_presses = 0
        self.contesting: set[int] = set()  # seats whose contest is under way: their press is no bad slap to contest
        self.moved = False
        self.dead_from = 0  # the truth pile's cards from here up are above its last dead card
        return dealt

    def run(self) -> SimResult:
        result = super().run()
        result.winners = None if self.referee.winner is None else (self.referee.winner,)
        return result

    # ---------------------------------------------------------------- actions

    def _on_play(self, t: int, payload: tuple[int, int]) -> None:
        seat, token = payload
        if token != self.play_token:
            return
        if self.unjudged_presses:  # someone slapped: players wait for the verdict
            self.at(t + 200 * MS, "play", payload)
            return
        hand = self.hands[seat]
        if not hand:  # the referee counts a card this player has not got: after a puzzled moment, they say so
            self.at(t + SAY_OUT_NS, "out_of_cards", payload)
            return
        card = hand.pop(0)
        owed = self.referee.penalty_owed
        if owed and owed[0] == seat:  # a penalty card on top: the players know it is dead
            self.dead_from = len(self.played) + 1
        self.played.append(card)
        self.cards_played += 1
        self.card_in_flight = True
        self.pile_taken = False
        self.put(t, card.code, PILE)
        self._bots_react(t)

    def _on_out_of_cards(self, t: int, payload: tuple[int, int]) -> None:
        """``cardtable send out-of-cards``, as the player (or whoever runs the table) would."""
        seat, token = payload
        if token == self.play_token and not self.hands[seat] and self.referee.hands[seat]:
            self.deliver(SeatAction(t, COMMAND, seat, OUT_OF_CARDS), t)

    def _on_collect(self, t: int, payload: tuple[int, int]) -> None:
        """The face-card player picks up the pile they won; the camera sees it go."""
        _, token = payload
        if token != self.play_token:
            return
        if self.unjudged_presses:
            self.at(t + 200 * MS, "collect", payload)
            return
        self.card_in_flight = True
        self.pile_taken = True
        self.swept_ns = t
        self.take(t, PILE)

    def _on_press(self, t: int, seat: int) -> None:
        self.unjudged_presses += 1
        self.press(t, seat)

    def _bots_react(self, t: int) -> None:
        if not self.referee.rules.slaps:
            return
        live = self.played[self.dead_from :]
        dead = self.dead_from > 0
        good = slap_condition(live, bool(self.burned) or dead, self.referee.rules, self.referee.answered) is not None
        slaps = []
        for bot in self.bots:
            if not self.hands[bot.seat] and not self._may_slap_in(bot.seat):
                continue
            chance = bot.notice if good else bot.false_slap
            if self.rng.random() < chance:
                slaps.append([t + bot.reaction_ns(self.rng), bot.seat])
        if len(slaps) > 1 and self.rng.random() < self.options.photo_finish:
            slaps.sort()  # a close race: the next slapper 1 µs to 2 ms behind the first
            slaps[1][0] = slaps[0][0] + self.rng.randint(1, 2000) * 1000
        for at, seat in slaps:
            self.at(at, "press", seat)

    def _may_slap_in(self, seat: int) -> bool:
        """Whether a player out of cards may slap back in, as the players at the table see it."""
        rules, ref = self.referee.rules, self.referee
        if not rules.slap_in or ref.strikes[seat] >= rules.strikes_limit or seat in ref.hands_under:
            return False
        holders = sum(1 for hand in self.hands if hand)
        return holders >= 2 or rules.slap_in_always or ref.lone is not None

    # -------------------------------------------------------------- decisions

    def apply(self, d: Decision, t: int) -> None:
        if isinstance(d, _VERDICTS) or (isinstance(d, InputTooLate) and d.event == "press"):
            self.unjudged_presses = max(0, self.unjudged_presses - 1)
        if isinstance(d, CardPlayed | PenaltyCard):
            self.card_in_flight = False
            self.moved = True
        elif isinstance(d, PenaltyOwed | CountCorrected):
            if isinstance(d, PenaltyOwed):  # the player about to play waits for the penalty cards
                self.play_token += 1
            self.moved = True
        elif isinstance(d, PileWon):
            self.card_in_flight = False
            self.hands[d.seat].extend(self.burned + self.played)
            self.burned.clear()
            self.played.clear()
            self.dead_from = 0
            self.moved = True
            if not self.pile_taken:  # won by a slap: the slapper sweeps the pile up
                self.pile_taken = True
                self.swept_ns = t + self.rng.randint(100, 300) * MS
                self.take(self.swept_ns, PILE)
        elif isinstance(d, CardsBurned):
            hand = self.hands[d.seat]
            self.burned[:0] = hand[: d.count]
            del hand[: d.count]
            self.moved = True
            for _ in range(d.count):
                self.tuck(t + 200 * MS, PILE)
        elif isinstance(d, PlayContested):
            self.contesting.discard(d.seat)
            giver, taker = (d.player, d.seat) if d.upheld else (d.seat, d.player)
            if d.cards and self.hands[giver]:  # none, when the giver's last card is on its way to the pile
                self.hands[taker].append(self.hands[giver].pop(0))  # its top card, to the bottom
                self.moved = True
        elif isinstance(d, Rejected) and d.event == SeatAction.TYPE and d.seat is not None:
            self.contesting.discard(d.seat)
        contestable = isinstance(d, PileWon) or (isinstance(d, SlapIgnored) and d.reason == CONTESTABLE)
        if contestable and d.seat not in self.contesting:
            self._bots_contest(t, d.seat, isinstance(d, PileWon))

    def _bots_contest(self, t: int, seat: int, taken: bool) -> None:
        """The others holding cards may contest ``seat``'s play, with a long press."""
        plays = self.referee.contestable
        if not plays or plays[-1].seat != seat:  # contests are off, or the bad slap cost a strike
            return
        chance = CONTEST_TAKEN if taken else CONTEST_BAD
        for bot in self.bots:
            if bot.seat != seat and self.hands[bot.seat] and self.rng.random() < chance:
                if self.pins is not None:
                    self.unjudged_presses += 1  # the long press begins with a press, judged as a slap
                self.contesting.add(bot.seat)
                self.gesture(t + bot.reaction_ns(self.rng), bot.seat, CONTEST)

    def settle(self, t: int) -> None:
        moved, self.moved = self.moved, False
        if (moved or t == 0) and not self.card_in_flight and not self.referee.finished:
            expected = self.referee.expects()
            if expected.action in ("play", TAKE_PILE) and expected.seat is not None:
                self.play_token += 1
                bot = self.bots[expected.seat]
                action = "play" if self.referee.pending_award is None or self.referee.penalty_owed else "collect"
                # No one plays before the pile just won is gathered up: its winner, about to lead,
                # has it in hand, and the others watch it go.
                start = max(t, self.swept_ns)
                if self.referee.penalty_owed:  # a penalty card: the slapper takes in the verdict first
                    start += PENALTY_PAUSE_NS
                self.at(start + bot.play_delay_ns(self.rng), action, (expected.seat, self.play_token))

"""A simulated bidding-game table (Oh Hell): deal, trump, bids, tricks, scores.

Bots bid what their high cards and trumps are worth; a dealer whose bid would be the forbidden one
sometimes tries it anyway and, refused, bids one more or one less. In play they follow suit,
taking tricks while short of their bid and ducking once they have it; now and then one fails to
follow suit while holding it (a revoke the referee may only catch later) or bids out of turn.
"""

from __future__ import annotations

from sim.table_sim import MS, TableSimulation
from table.cards import Card, Rank, deal_round_robin, shuffled_deck
from table.decisions import Decision, Rejected, RoundStarted, TurnChanged
from table.games import GameSetup
from table.games.oh_hell.decisions import TrickCancelled, TrickWon
from table.games.oh_hell.referee import OhHellReferee, card_suit, led_suit

REVOKE = 0.03
SHUFFLE_MS = 5_000
MISTAKE = 0.03


def strength(card: Card, trump: str | None) -> float:
    """A rough chance that ``card`` takes a trick."""
    if card.is_joker:
        return 0.0
    high = {Rank.ACE: 0.85, Rank.KING: 0.6, Rank.QUEEN: 0.35, Rank.JACK: 0.2}.get(card.rank, 0.0)
    if trump is not None and card_suit(card, None) == trump:
        return max(high, 0.35 + int(card.rank) / 40)
    return high


class OhHellSimulation(TableSimulation):
    referee: OhHellReferee

    def prepare(self, setup: GameSetup) -> GameSetup:
        self.hands: list[list[Card]] = [[] for _ in range(setup.players)]
        self.trick: list[Card] = []
        self.revokes: list[tuple[int, int, int, str]] = []  # (hand, seat, trick, suit): the table's truth
        self.token = 0
        return setup

    # -------------------------------------------------------------- decisions

    def apply(self, d: Decision, t: int) -> None:
        if isinstance(d, RoundStarted):
            self._deal(t, d)
        elif isinstance(d, TurnChanged):
            self.token += 1
            self.at(t + self.think_ns(d.seat), "turn", (d.seat, self.token))
            if self.referee.state.phase == "bidding" and self.rng.random() < MISTAKE:
                self.gesture(t + 100 * MS, (d.seat + 1) % self.setup.players, "bid", 0)  # too eager
        elif isinstance(d, TrickWon | TrickCancelled):
            self.trick = []
            self.take(t + self.rng.randint(200, 400) * MS, ("pile", None))  # gathered before the next lead
        elif isinstance(d, Rejected) and d.event == "action" and d.seat == self.referee.state.turn:
            self.token += 1  # the dealer's forbidden bid: think again
            self.at(t + self.think_ns(d.seat), "turn", (d.seat, self.token))

    def _deal(self, t: int, d: RoundStarted) -> None:
        rules = self.referee.rules
        deck = shuffled_deck(self.rng, rules.decks, rules.jokers_per_deck)
        players = self.setup.players
        dealt = deal_round_robin(deck[: d.cards * players], players, d.dealer)
        self.hands = [list(h) for h in dealt]
        self.trick = []
        self.cards_played += d.cards * players
        self.take(t)
        if d.cards * players < len(deck):
            self.put(t, "back", ("stock", None))
            # The cards gathered and shuffled (a few seconds), then dealt, a quarter of a second a card.
            dealt_by = t + (SHUFFLE_MS + 250 * d.cards * players) * MS
            self.put(dealt_by, deck[d.cards * players].code, ("trump", None))

    # ---------------------------------------------------------------- actions

    def _on_turn(self, t: int, payload: tuple[int, int]) -> None:
        seat, token = payload
        if token != self.token:
            return
        expected = self.referee.expects()
        if expected.action == "bid":
            self._bid(t, seat)
        elif expected.action == "play":
            self._play(t, seat)

    def _bid(self, t: int, seat: int) -> None:
        ref = self.referee
        trump = ref.state.trump
        want = round(sum(strength(c, trump) for c in self.hands[seat]))
        banned = ref.forbidden_bid()
        retry = any(
            isinstance(d, Rejected) and d.seat == seat and d.event == "action" for d in self.result.decisions[-3:]
        )
        if want == banned and (retry or self.rng.random() < 0.6):
            want = want + 1 if want < ref.size and (want == 0 or self.rng.random() < 0.5) else want - 1
        self.gesture(t, seat, "bid", want)

    def _play(self, t: int, seat: int) -> None:
        ref = self.referee
        hand = self.hands[seat]
        trump = ref.state.trump
        bid = ref.state.bids[seat] or 0
        hungry = ref.state.tricks[seat] < bid
        led = led_suit(self.trick)
        suited = [c for c in hand if led is not None and card_suit(c, None) == led]
        off = [c for c in hand if not c.is_joker and c not in suited]
        revoke = bool(suited and off) and self.rng.random() < REVOKE
        if revoke:
            choices = off
        elif suited:
            choices = suited + [c for c in hand if c.is_joker]
        else:
            choices = hand
        power = sorted(choices, key=lambda c: (strength(c, trump), int(c.rank)))
        card = power[-1] if hungry else power[0]
        if revoke:
            self.revokes.append((ref.state.hand, seat, ref.state.trick_no, led or ""))
        hand.remove(card)
        self.trick.append(card)
        self.put(t, card.code, ("pile", None))

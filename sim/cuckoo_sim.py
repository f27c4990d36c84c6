"""A simulated trading-game table (Cuckoo): a dealt card each, keep or trade, the reveal.

Bots trade when their card is at or below their own nerve (a rank from 5 to 8) and keep
otherwise; now and then a player whose turn was skipped presses anyway, or a player presses out
of turn, and the referee must refuse it. A king is shown when the rules say so; the dealer turns
the stock's top card up to trade with it; at the reveal every card is turned up and read. A cut
for the pot is laid where the cutter's card lay.
"""

from __future__ import annotations

from sim.table_sim import MS, TableSimulation
from table.cards import Card, Rank, shuffled_deck
from table.decisions import Decision, RoundStarted, TurnChanged, TurnSkipped
from table.games import GameSetup
from table.games.cuckoo.decisions import AllOutTie, Traded, TradingClosed
from table.games.cuckoo.referee import CuckooReferee

MISTAKE = 0.04


class CuckooSimulation(TableSimulation):
    referee: CuckooReferee
    THINK_MS = 400

    def prepare(self, setup: GameSetup) -> GameSetup:
        self.cards: list[Card | None] = [None] * setup.players  # physical truth: each seat's card
        self.stock: list[Card] = []
        self.face_up: set[int] = set()
        self.token = 0
        return setup

    # -------------------------------------------------------------- decisions

    def apply(self, d: Decision, t: int) -> None:
        rules = self.referee.rules
        if isinstance(d, RoundStarted):
            self._deal(t, d)
        elif isinstance(d, TurnChanged):
            self.token += 1
            self.at(t + self.think_ns(d.seat), "turn", (d.seat, self.token))
            if self.rng.random() < MISTAKE:  # someone else presses first, out of turn
                other = self.rng.randrange(self.setup.players)
                if other != d.seat:
                    self.gesture(t + 100 * MS, other, "keep")
        elif isinstance(d, TurnSkipped) and self.rng.random() < MISTAKE * 3:
            self.gesture(t + self.think_ns(d.seat) // 2, d.seat, "trade")  # "but I want to trade!"
        elif isinstance(d, Traded) and d.with_seat is not None:
            target = d.with_seat
            held = self.cards[target]
            if rules.kings in ("cuckoo", "stop") and held is not None and held.rank is Rank.KING:
                self.face_up.add(target)
                self.turn_up(t + self.rng.randint(150, 400) * MS, ("seat", target), held.code)
            else:
                self.cards[d.seat], self.cards[target] = self.cards[target], self.cards[d.seat]
        elif isinstance(d, TradingClosed):
            self.token += 1
            for seat in self.referee.state.seats:
                card = self.cards[seat]
                if card is not None and seat not in self.face_up:
                    self.turn_up(t + self.rng.randint(500, 2500) * MS, ("seat", seat), card.code)
        elif isinstance(d, AllOutTie) and d.settle.startswith("cut"):
            deck = shuffled_deck(self.rng, rules.decks)
            for seat in d.seats:  # each puts their card away and lays the card they cut in its place
                self.take(t + 300 * MS, ("seat", seat))
                self.put(t + self.rng.randint(800, 3000) * MS, deck.pop().code, ("seat", seat))

    def _deal(self, t: int, d: RoundStarted) -> None:
        rules = self.referee.rules
        deck = shuffled_deck(self.rng, rules.decks)
        order = list(d.seats)
        first = (order.index(d.dealer) + 1) % len(order)
        self.cards = [None] * self.setup.players
        self.take(t)  # the last round's cards are gathered up
        for seat in order[first:] + order[:first]:
            self.cards[seat] = deck.pop()
            self.cards_played += 1
            self.put(t, "back", ("seat", seat))
        self.stock = deck
        self.put(t, "back", ("stock", None))
        self.face_up = set()
        if rules.kings in ("locked", "no-trade"):
            for seat in order:
                card = self.cards[seat]
                if card is not None and card.rank is Rank.KING:
                    self.face_up.add(seat)
                    self.turn_up(t + self.rng.randint(100, 300) * MS, ("seat", seat), card.code)

    # ---------------------------------------------------------------- actions

    def _on_turn(self, t: int, payload: tuple[int, int]) -> None:
        seat, token = payload
        if token != self.token:
            return
        card = self.cards[seat]
        assert card is not None
        nerve = 5 + seat * 7 % 4
        value = self.referee.rules.value(card)
        if card.rank is Rank.KING or value > nerve:
            self.gesture(t, seat, "keep")
            return
        if seat != self.referee.state.dealer:
            self.gesture(t, seat, "trade")
            return
        drawn = self.stock.pop()
        self.put(t, drawn.code, ("stock", None))
        if drawn.rank is not Rank.KING or self.referee.rules.kings == "traded":
            self.cards[seat] = drawn

"""A simulated shedding-game table (Screw Your Neighbour as Crazy Eights): two decks and four jokers.

The dealer deals, turns the stock's top card up and now and then takes it and discards. Players
lay matching cards (pairs and jokers together as matches), stack twos and fours, shield with
jokers, draw and pass, make their choices with taps, and say "last card" (or forget to, and
get caught). They carry out what the referee tells them: draws, swaps, hands passed on,
reshuffles, misplays taken back. After each turn the real cards are compared with the referee's
counts (``mismatches``), so a whole game checks that the two decks are conserved.

Each safe card lies face down in its seat's zone; the camera sees it leave (taken up, traded
away and another laid in its place), as it sees any card leave a zone.
"""

from __future__ import annotations

from sim.eights_players import EightsCards, choose_option, choose_play, worth
from sim.table_sim import MS, TableSimulation
from table.cards import Card
from table.decisions import Decision, Rejected, RoundStarted, TurnChanged
from table.games import GameSetup
from table.games.eights.cards import playable
from table.games.eights.decisions import (
    CardsDrawn,
    ChoiceOffered,
    Misplay,
    SafeCardTraded,
    SafeCardUsed,
    StockReshuffled,
)
from table.games.eights.referee import TAKE, EightsReferee

PILE = ("pile", None)
SHUFFLE_MS = 6_000  # the deal: shuffling, eight cards each, the safe cards laid
FORGET = 0.15  # the chance a player forgets to say "last card"
CATCH = 0.6  # the chance someone notices


class EightsSimulation(TableSimulation):
    referee: EightsReferee
    DEFAULT_CAMERA = "reports"  # whole games on the rendered camera still lose count (docs/simulator.md)

    def prepare(self, setup: GameSetup) -> GameSetup:
        self.cards = EightsCards()
        self.token = 0
        self.mismatches: list[str] = []  # the real cards against the referee's counts, after each turn
        self.checks = 0
        self._check = False
        self._calling: set[int] = set()  # seats whose "last card" is being said or caught
        return setup

    def _again(self, t: int, seat: int) -> None:
        self.token += 1
        self.at(t + self.think_ns(seat), "turn", (seat, self.token))

    # -------------------------------------------------------------- decisions

    def apply(self, d: Decision, t: int) -> None:
        on_table = isinstance(d, SafeCardUsed) and self.cards.safe[d.seat] is not None
        carried_out = self.cards.carry_out(d, self.rng, self.referee.rules)
        if on_table:  # the player takes up the safe card the referee counts into the hand
            self.take(t + self.rng.randint(300, 900) * MS, ("seat", d.seat))
        elif isinstance(d, SafeCardTraded) and carried_out:  # taken away (the card given laid in its place)
            self.take(t + self.rng.randint(300, 900) * MS, ("seat", d.other))
            if self.cards.safe[d.other] is not None:
                self.put(t + self.rng.randint(1500, 3000) * MS, "back", ("seat", d.other))
        ref = self.referee
        if isinstance(d, RoundStarted):
            self._deal(t, d)
        elif isinstance(d, TurnChanged):
            self._check = True
            self._again(t, d.seat)
        elif isinstance(d, ChoiceOffered):
            self.token += 1
            self.at(t + self.think_ns(d.seat), "choose", (d.seat, self.token))
        elif isinstance(d, CardsDrawn) and d.seat == ref.state.turn and d.reason in ("draw", "king-try"):
            self._again(t, d.seat)  # play what was drawn, or pass
        elif isinstance(d, Misplay):
            if self.rendered is not None and carried_out:  # taken back off the pile: the card under it shows again
                self.at(t + self.rng.randint(400, 900) * MS, "table", ("lift", PILE))
            self._again(t + 900 * MS, d.seat)
        elif isinstance(d, StockReshuffled) and [c.face for c in self.cards.pile] == list(d.kept):
            self.take(t, PILE)  # the pile lifted, its active cards put straight back (none played on it yet)
            for i, card in enumerate(d.kept):
                self.put(t + (1 + i) * MS, card.code, PILE)
        elif isinstance(d, Rejected) and d.seat is not None and d.seat == ref.expects().seat:
            self._again(t, d.seat)

    def settle(self, t: int) -> None:
        ref = self.referee
        if self._check:
            self._check = False
            self.checks += 1
            wrong = self.cards.mismatch(ref)
            if wrong is not None:
                self.mismatches.append(f"{t / 1e9:.1f} s: {wrong}")
        if ref.finished:
            return
        for seat in range(self.setup.players):
            if not ref.owes_call(seat):
                self._calling.discard(seat)
            elif seat not in self._calling:
                self._calling.add(seat)
                if self.rng.random() > FORGET:
                    self.at(t + self.rng.randint(300, 1200) * MS, "call", seat)
                elif self.rng.random() < CATCH:
                    other = (seat + self.rng.randrange(1, self.setup.players)) % self.setup.players
                    self.at(t + self.rng.randint(1500, 4000) * MS, "catch", (other, seat))

    def _deal(self, t: int, d: RoundStarted) -> None:
        self.cards.deal(self.referee, d.dealer, self.rng)
        self.take(t)
        self.put(t, "back", ("stock", None))
        for seat, safe in enumerate(self.cards.safe):
            if safe is not None:  # laid face down before its player
                self.put(t + (1 + seat) * MS, "back", ("seat", seat))
        self.cards_played += d.cards * self.setup.players
        if self.referee.rules.red_aces and self.rng.random() < 0.15:  # a deal that left two or fewer over
            self.gesture(t + 2_000 * MS, d.dealer, "taps", 1)
        self.at(t + SHUFFLE_MS * MS, "turn_up", d.round)

    # ---------------------------------------------------------------- actions

    def _on_turn_up(self, t: int, round_no: int) -> None:
        if self.referee.state.round != round_no or self.referee.expects().action != "turn-up":
            return
        card = self.cards.stock.pop()
        self.cards.pile.append(card)
        self.put(t, card.code, PILE)

    def _on_turn(self, t: int, payload: tuple[int, int]) -> None:
        seat, token = payload
        ref = self.referee
        expected = ref.expects()
        if token != self.token or expected.seat != seat or ref.finished:
            return
        if expected.action in ("take-or-leave", TAKE):
            self._option(t, seat)
        elif expected.action == "discard":
            hand = self.cards.hands[seat]
            self._lay(t, seat, [min(hand, key=worth)])
        elif expected.action != "choose":
            self._play(t, seat)

    def _option(self, t: int, seat: int) -> None:
        """The dealer takes the turned card (a joker must be) and discards, or leaves it."""
        if self.referee.state.must_take or self.rng.random() < 0.25:
            self.cards.hands[seat].append(self.cards.pile.pop())
            self.take(t, PILE)
            self._again(t + 800 * MS, seat)
        else:
            self.gesture(t, seat, "hold")

    def _play(self, t: int, seat: int) -> None:
        ref = self.referee
        hand = self.cards.hands[seat]
        cards = choose_play(ref, hand, self.rng)
        safe = self.cards.safe[seat]
        choose_safe = self.rng.random() < 0.5
        free = not (ref.state.owed or ref.state.skips)
        if (
            cards is None
            and safe is not None
            and free
            and choose_safe
            and playable(safe, ref.state.match, ref.state.suit, ref.rules)
        ):
            self.cards.safe[seat] = None
            self.take(t, ("seat", seat))
            hand.append(safe)
            self._lay(t + 400 * MS, seat, [safe])
            return
        if cards is None:
            self.gesture(t, seat, "hold")
        else:
            self._lay(t, seat, cards)

    def _lay(self, t: int, seat: int, cards: list[Card]) -> None:
        """Cards onto the pile, card by card: a match's second a third of a second after the first."""
        for i, card in enumerate(cards):
            self.cards.hands[seat].remove(card)
            self.cards.pile.append(card)
            self.put(t + i * 350 * MS, card.code, PILE)
            self.cards_played += 1

    def _on_choose(self, t: int, payload: tuple[int, int]) -> None:
        seat, token = payload
        ref = self.referee
        if token != self.token or not ref.state.choices or ref.state.choices[0]["seat"] != seat:
            return
        option = choose_option(ref, seat, self.cards.hands[seat], self.rng)
        self.gesture(t, seat, "taps" if option else "hold", option or None)

    def _on_call(self, t: int, seat: int) -> None:
        if self.referee.owes_call(seat):
            self.gesture(t, seat, "taps", 1)  # one tap with one card left: "last card"

    def _on_catch(self, t: int, who: tuple[int, int]) -> None:
        by, seat = who
        if self.referee.owes_call(seat):
            self.gesture(t, by, "taps", 1)  # one tap with more cards: "you did not say it"

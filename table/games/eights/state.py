"""The shedding game's state, and the moves of cards the referee counts: hands, safe cards, the
stock and the pile.

The referee (``table.games.eights.referee``) is built in three layers: this one keeps the counts and
moves cards between hands, the stock and the pile (draws, swaps, hands passed on, reshuffles);
``eights_plays`` judges the cards played and what they do; ``eights`` takes the events and the
seats' actions. Every count moves with a decision that says so, so the two decks are conserved:
hands + safe cards + stock + pile = every card.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from table.cards import Card
from table.decisions import Decision
from table.events import ZoneKind
from table.games.eights.decisions import (
    CardsDrawn,
    HandMiscounted,
    HandRenewed,
    HandsPassed,
    HandsSwapped,
    SafeCardUsed,
    StockReshuffled,
)
from table.games.eights.rules import EightsRules
from table.games.stateful import StatefulReferee
from table.units import MS

PILE, SEAT_ZONE = ZoneKind.PILE, ZoneKind.SEAT


class Phase(StrEnum):
    """Where a round of the shedding game stands."""

    TURN_UP = "turn-up"  # the stock's top card to be turned up
    DEALER_OPTION = "dealer-option"  # the dealer may take the turned card
    DEALER_DISCARD = "dealer-discard"
    PLAY = "play"
    CHOOSE = "choose"  # a seat chooses (a suit, whose hand, an option)
    OVER = "over"


TURN_UP, DEALER_OPTION, DEALER_DISCARD, PLAY, CHOOSE, OVER = Phase
DEAL_PHASES = (TURN_UP, DEALER_OPTION, DEALER_DISCARD)  # the dealer's taps say the red aces
NOBODY = -1  # who played the turned card
# A safe card traded away (a switch) leaves its place and another is laid there face down: the
# place emptying within this long after the trade is that exchange, not the safe card taken up.
SAFE_REFILL_NS = 15_000 * MS


@dataclass
class EightsState:
    dealer: int
    totals: list[int]
    round: int = 0
    phase: str = TURN_UP
    turn: int = 0
    direction: int = 1  # 1: to the left (seat numbers up)
    hands: list[int] = field(default_factory=list)  # cards in each hand (hidden), safe cards apart
    safe: list[bool] = field(default_factory=list)
    stock: int = 0
    pile: list[Card] = field(default_factory=list)  # the discard pile, bottom first
    active_from: int = 0  # pile[active_from:] are the active cards a reshuffle leaves
    play_from: int = 0  # pile[play_from:] is the latest play (active once what it stacked on is taken)
    match: Card | None = None  # what the top of the pile counts as (a joker takes the card under it)
    suit: str | None = None  # the suit to follow (an eight's choice)
    top_from: int = NOBODY  # who played the top card
    drawn: bool = False  # the seat whose turn it is has drawn this turn
    owed: int = 0  # cards the seat whose turn it is must draw unless it stacks or shields
    owed_kind: str = ""  # two or queen
    owed_from: int = NOBODY
    owed_split: int = 0  # the second player's share of a split draw
    owed_locked: bool = False  # a share of a split draw: drawn or shielded, not stacked
    skips: int = 0  # active fours: turns to miss from the seat whose turn it is
    kings: int = 0  # consecutive natural kings on the pile
    kings_from: int = 0  # pile[kings_from:] holds them: active while their draw is owed
    bomb_by: int = NOBODY  # who laid the natural pair of sevens on top
    open_cards: list[Card] = field(default_factory=list)  # the play still open to a match
    open_t: int = 0
    choices: list[dict[str, Any]] = field(default_factory=list)  # waiting, first offered
    red_aces: bool = False
    must_take: bool = False  # a turned joker goes to the dealer
    called: list[bool] = field(default_factory=list)  # "last card" said
    refill_until: list[int] = field(default_factory=list)  # a traded safe card's place is refilled until then
    reshow: list[Card] = field(default_factory=list)  # a reshuffle's active cards, put back on the pile
    lifted: bool = False  # the pile was lifted since the reshuffle: its active cards seen next are not played
    unseen: int = 0  # cards a player's word took out of the counts: under the pile, unknown
    plays: int = 0
    winners: list[int] | None = None
    last_t: int = 0


class EightsBase(StatefulReferee):
    """The counts of a shedding game and the moves of cards between them."""

    RULES = EightsRules
    STATE = EightsState

    rules: EightsRules
    state: EightsState

    def max_players(self) -> int:
        return (self.pack_size - 1) // self.rules.hand_size

    def new_state(self) -> EightsState:
        return EightsState(dealer=self.dealer, totals=[0] * self.players)

    @property
    def finished(self) -> bool:
        return self.state.winners is not None

    def total(self, seat: int) -> int:
        """Every card the seat holds: its hand and its safe card."""
        return self.state.hands[seat] + self.state.safe[seat]

    def cards_held(self, seat: int) -> int | None:
        return self.total(seat)

    def held(self, seat: int) -> int:
        """The cards that count for "last card"."""
        return self.total(seat) if self.rules.last_card_counts_safe else self.state.hands[seat]

    def step(self, seat: int, k: int = 1) -> int:
        return (seat + k * self.state.direction) % self.players

    def owes_call(self, seat: int) -> bool:
        """Whether ``seat`` holds one card unannounced: not while its play may still become a
        match, nor while its taps mean something else (a choice its play offered; the dealer's
        red aces, at the deal)."""
        st = self.state
        laying = bool(st.open_cards) and seat == st.turn
        choosing = any(c["seat"] == seat for c in st.choices)
        dealing = seat == st.dealer and st.phase in DEAL_PHASES
        return (
            bool(self.rules.last_card_penalty)
            and self.held(seat) == 1
            and not st.called[seat]
            and not laying
            and not choosing
            and not dealing
        )

    def card_count(self) -> int:
        """Hands, safe cards, stock and pile: always the decks' every card."""
        st = self.state
        return sum(st.hands) + sum(st.safe) + st.stock + len(st.pile) + st.unseen

    def king_run(self) -> bool:
        return bool(self.rules.king_run) and self.state.kings >= self.rules.king_run

    def _from_hand(self, t: int, seat: int) -> list[Decision]:
        st = self.state
        if st.hands[seat] > 0:
            st.hands[seat] -= 1
            return self._settle_safe(t, seat)
        if st.safe[seat]:
            st.safe[seat] = False
            return [SafeCardUsed(t, seat)]
        if st.stock:  # it came from the stock, drawn unseen (or from under the pile)
            st.stock -= 1
        else:
            st.unseen -= 1
        return [HandMiscounted(t, seat)]

    def _settle_safe(self, t: int, seat: int) -> list[Decision]:
        """A safe card with no hand left is the last card: it is held now, no longer safe."""
        st = self.state
        if st.hands[seat] == 0 and st.safe[seat]:
            st.hands[seat], st.safe[seat] = 1, False
            return [SafeCardUsed(t, seat)]
        return []

    def _safe_gone(self, t: int, seat: int) -> list[Decision]:
        """A seat's safe card left its place: taken up into its hand, unless it was just traded
        away (``SAFE_REFILL_NS``: the card given for it is laid there in its stead)."""
        st = self.state
        if seat < len(st.refill_until) and t <= st.refill_until[seat]:
            st.refill_until[seat] = 0
            return []
        if not st.safe[seat]:
            return []
        st.safe[seat] = False
        st.hands[seat] += 1  # on its way to the pile through the hand
        return [SafeCardUsed(t, seat)]

    def _draw(self, t: int, seat: int, n: int, reason: str) -> list[Decision]:
        st = self.state
        out: list[Decision] = []
        got = self._take(t, n, out)
        st.hands[seat] += got
        if self.held(seat) > 1:
            st.called[seat] = False
        return [*out, CardsDrawn(t, seat, got, reason, self.total(seat))]

    def _take(self, t: int, n: int, out: list[Decision]) -> int:
        """Cards off the stock, reshuffling the pile into it when it runs out (fewer when even
        that is not enough: every card is in a hand)."""
        st = self.state
        got = 0
        while got < n:
            if st.stock == 0 and not self._reshuffle(t, out):
                break
            k = min(n - got, st.stock)
            st.stock -= k
            got += k
        return got

    def _reshuffle(self, t: int, out: list[Decision]) -> bool:
        st = self.state
        # The active cards stay: a draw's or a four's, and a king run's whose draw is still owed.
        start = min(st.active_from, st.kings_from) if self.king_run() else st.active_from
        kept = st.pile[start:]
        back = len(st.pile) - len(kept) + st.unseen
        if back == 0:
            return False
        st.pile, st.active_from, st.stock, st.unseen = kept, st.active_from - start, st.stock + back, 0
        st.kings_from = max(0, st.kings_from - start)
        st.play_from = max(0, st.play_from - start)
        st.reshow = list(kept)
        out.append(StockReshuffled(t, back, tuple(kept)))
        if self.rules.reshuffle_extra_card:
            for k in range(1, self.players):  # (no second reshuffle: the pile is only its active cards)
                out += self._draw(t, (st.dealer + k) % self.players, 1, "reshuffle-extra")
        return True

    def _swap(self, t: int, seat: int, other: int) -> list[Decision]:
        st = self.state
        st.hands[seat], st.hands[other] = st.hands[other], st.hands[seat]
        out: list[Decision] = [HandsSwapped(t, seat, other, self.total(seat), self.total(other))]
        return out + self._after_exchange(t, (seat, other))

    def _pass_hands(self, t: int, steps: int) -> list[Decision]:
        st, n = self.state, self.players
        st.hands = [st.hands[(s - steps * st.direction) % n] for s in range(n)]
        out: list[Decision] = [HandsPassed(t, steps, st.direction, tuple(st.hands))]
        return out + self._after_exchange(t, range(n))

    def _renew(self, t: int, seat: int) -> list[Decision]:
        st = self.state
        returned, st.hands[seat] = st.hands[seat], 0
        st.stock += returned  # under the stock
        out: list[Decision] = []
        got = self._take(t, self.rules.hand_size, out)
        st.hands[seat] = got
        return [*out, HandRenewed(t, seat, returned, got), *self._after_exchange(t, (seat,))]

    def _after_exchange(self, t: int, seats: Any) -> list[Decision]:
        st = self.state
        out: list[Decision] = []
        for s in seats:
            st.called[s] = False
            out += self._settle_safe(t, s)
        return out

    @staticmethod
    def _offer(
        seat: int, kind: str, options: list[str], default: str | None = None, target: int = NOBODY, steps: int = 1
    ) -> dict[str, Any]:
        """A choice waiting for ``seat`` (``target``: the other seat of a switch; ``steps``: how far
        black aces pass the hands)."""
        return {
            "seat": seat,
            "kind": kind,
            "options": options,
            "default": default or options[0],
            "target": target,
            "steps": steps,
        }

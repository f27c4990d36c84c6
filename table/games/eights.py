"""The shedding game (Screw Your Neighbour as a Crazy Eights variant) as a pure referee.

Hands are hidden. The camera sees the discard pile (``pile`` zone): the turned card and each card
played onto it, taken to be the play of the seat whose turn it is. Cards seen within
``match_window_ms`` of the first card of a play join it as a match when they make one; the play's
effects are settled when the window has passed (``advance``) or another input comes. A seat's
safe card leaving its place is a ``CardGone`` in that seat's zone. Buttons carry the rest, as
``SeatAction``: ``draw``, ``pass``, ``accept`` (take what a two, queen or four asks), ``choose``
(value: option N from 1; 0 the default), ``last-card``, ``challenge``, ``leave`` (the dealer
leaves the turned card) and ``red-aces`` (the dealer says the deal left two or fewer over); or
the seat gestures ``taps`` (value N) and ``hold``, read in context (README: "The shedding game").

The referee keeps every hand's size, the stock's and the pile's, so the two decks are conserved:
hands + safe cards + stock + pile = every card.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from table.cards import Card, Rank
from table.decisions import (
    CardPlayed,
    Decision,
    GameOver,
    GameStarted,
    Rejected,
    RoundStarted,
    TurnChanged,
    TurnSkipped,
)
from table.events import ButtonPressed, ButtonReleased, CardGone, CardSeen, Event, SeatAction
from table.games.eights_cards import (
    SUIT_NAMES,
    SUITS,
    base_card,
    draw_kind,
    draw_of,
    is_black_ace,
    is_play,
    is_red_ace,
    natural_pair,
    naturals,
    playable,
    spade_combo,
    stacks_on,
    suit_of,
)
from table.games.eights_decisions import (
    CardsDrawn,
    CardTurned,
    ChoiceMade,
    ChoiceOffered,
    DirectionChanged,
    DrawOwed,
    HandMiscounted,
    HandRenewed,
    HandsPassed,
    HandsSwapped,
    LastCardCalled,
    LastCardCaught,
    MatchPlayed,
    Misplay,
    RoundWon,
    SafeCardTraded,
    SafeCardUsed,
    Shielded,
    StockReshuffled,
    TurnedCardTaken,
)
from table.games.eights_rules import EightsRules
from table.games.stateful import StatefulReferee
from table.referee import Expectation

PILE, SEAT_ZONE = "pile", "seat"
TURN_UP, DEALER_OPTION, DEALER_DISCARD, PLAY, CHOOSE, OVER = (
    "turn-up",
    "dealer-option",
    "dealer-discard",
    "play",
    "choose",
    "over",
)
NOBODY = -1  # who played the turned card
MS = 1_000_000


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
    bomb_by: int = NOBODY  # who laid the natural pair of sevens on top
    open_cards: list[Card] = field(default_factory=list)  # the play still open to a match
    open_t: int = 0
    choices: list[dict[str, Any]] = field(default_factory=list)  # waiting, first offered
    red_aces: bool = False
    must_take: bool = False  # a turned joker goes to the dealer
    called: list[bool] = field(default_factory=list)  # "last card" said
    reshow: list[Card] = field(default_factory=list)  # a reshuffle's active cards, put back on the pile
    lifted: bool = False  # the pile was lifted since the reshuffle: its top card seen next is not played
    plays: int = 0
    winners: list[int] | None = None
    last_t: int = 0


class EightsReferee(StatefulReferee):
    GAME = "eights"
    NAME = "the shedding game"
    RULES = EightsRules
    STATE = EightsState

    rules: EightsRules
    state: EightsState

    def max_players(self) -> int:
        return (sum(self.copies.values()) - 1) // self.rules.hand_size

    def new_state(self) -> EightsState:
        return EightsState(dealer=self.dealer, totals=[0] * self.players)

    # ---------------------------------------------------------------- queries

    @property
    def finished(self) -> bool:
        return self.state.winners is not None

    def total(self, seat: int) -> int:
        """Every card the seat holds: its hand and its safe card."""
        return self.state.hands[seat] + self.state.safe[seat]

    def held(self, seat: int) -> int:
        """The cards that count for "last card"."""
        return self.total(seat) if self.rules.last_card_counts_safe else self.state.hands[seat]

    def step(self, seat: int, k: int = 1) -> int:
        return (seat + k * self.state.direction) % self.players

    def owes_call(self, seat: int) -> bool:
        return bool(self.rules.last_card_penalty) and self.held(seat) == 1 and not self.state.called[seat]

    def card_count(self) -> int:
        """Hands, safe cards, stock and pile: always the decks' every card."""
        st = self.state
        return sum(st.hands) + sum(st.safe) + st.stock + len(st.pile)

    def king_run(self) -> bool:
        return bool(self.rules.king_run) and self.state.kings >= self.rules.king_run

    def expects(self) -> Expectation:
        st = self.state
        if st.phase == OVER:
            return Expectation("none", None, "game over")
        if st.phase == TURN_UP:
            return Expectation("turn-up", st.dealer, "turn up the stock's top card onto the pile")
        if st.phase == DEALER_OPTION:
            leave = "" if st.must_take else ", or hold to leave it"
            return Expectation("take-or-leave", st.dealer, f"take the turned card and discard{leave}")
        if st.phase == DEALER_DISCARD:
            return Expectation("discard", st.dealer, "discard any card")
        if st.phase == CHOOSE:
            c = st.choices[0]
            taps = ", ".join(f"{i} {o}" for i, o in enumerate(c["options"], 1))
            return Expectation("choose", c["seat"], f"{c['kind']}: taps {taps}; hold: {c['default']}")
        if st.owed:
            return Expectation("draw-or-stack", st.turn, f"draw {st.owed}, stack or shield")
        if st.skips:
            return Expectation("miss-or-stack", st.turn, f"miss {st.skips} turn(s) or play a four")
        if self.king_run():
            return Expectation("king-or-draw", st.turn, f"a king, or draw {st.kings} after a card")
        if st.drawn:
            return Expectation("play-or-pass", st.turn, "play a card, or hold to pass")
        return Expectation("play", st.turn, "play a card, or hold to draw")

    # ----------------------------------------------------------------- rounds

    def start(self, t_ns: int = 0) -> list[Decision]:
        self.state.last_t = max(self.state.last_t, t_ns)
        sizes = (self.rules.hand_size,) * self.players
        return [GameStarted(t_ns, self.GAME, self.players, self.dealer, sizes), *self._new_round(t_ns)]

    def _new_round(self, t: int) -> list[Decision]:
        st, rules, n = self.state, self.rules, self.players
        keep = {"dealer": st.dealer, "totals": st.totals, "round": st.round + 1, "last_t": st.last_t}
        self.state = st = EightsState(**keep)
        st.hands = [rules.hand_size - rules.safe_card] * n
        st.safe = [rules.safe_card] * n
        st.called = [False] * n
        st.stock = sum(self.copies.values()) - rules.hand_size * n
        st.turn = st.dealer
        return [RoundStarted(t, st.round, st.dealer, tuple(range(n)), rules.hand_size)]

    def _round_won(self, t: int, seat: int) -> list[Decision]:
        st, rules = self.state, self.rules
        if rules.scoring == "wins":
            points = [int(s == seat) for s in range(self.players)]
        else:
            points = [0 if s == seat else self.total(s) for s in range(self.players)]
        st.totals = [a + b for a, b in zip(st.totals, points, strict=True)]
        out: list[Decision] = [RoundWon(t, st.round, seat, tuple(points), tuple(st.totals))]
        st.open_cards, st.choices = [], []
        if st.round < rules.rounds:
            st.dealer = (st.dealer + 1) % self.players
            return out + self._new_round(t)
        st.phase = OVER
        best = max(st.totals) if rules.scoring == "wins" else min(st.totals)
        st.winners = [s for s in range(self.players) if st.totals[s] == best]
        how = "most games won" if rules.scoring == "wins" else "fewest cards left"
        reason = f"out of cards first in game {st.round}" if rules.rounds == 1 else f"{how} after {st.round} games"
        return [*out, GameOver(t, tuple(st.winners), tuple(st.totals), reason)]

    # ----------------------------------------------------------------- events

    def advance(self, t_ns: int) -> list[Decision]:
        st = self.state
        end = st.open_t + self.rules.match_window_ms * MS
        if st.open_cards and t_ns >= end and st.phase == PLAY:
            return self._close(end)
        return []

    def wakeup(self) -> int | None:
        st = self.state
        return st.open_t + self.rules.match_window_ms * MS if st.open_cards and st.phase == PLAY else None

    def on_event(self, event: Event) -> list[Decision]:
        t, st = event.t_ns, self.state
        if isinstance(event, ButtonPressed | ButtonReleased):
            return []  # the gesture layer's input: seat actions carry the meaning
        if st.phase == OVER:
            if isinstance(event, SeatAction | CardSeen):
                return [Rejected(t, "the game is over", event.TYPE, getattr(event, "seat", None))]
            return []
        joining = isinstance(event, CardSeen) and event.zone == PILE
        out: list[Decision] = []
        if st.open_cards:
            end = st.open_t + self.rules.match_window_ms * MS
            if t >= end:
                out += self._close(end)
            elif not joining:
                out += self._close(t)
        if isinstance(event, SeatAction):
            return out + self._action(t, event.seat, event.action, event.value)
        if isinstance(event, CardGone):
            if event.zone == SEAT_ZONE and event.seat is not None:
                return out + self._safe_gone(t, event.seat)
            if event.zone == PILE and st.phase == DEALER_OPTION:
                return out + self._taken(t)
            if event.zone == PILE and st.reshow:
                st.lifted = True  # lifted for the reshuffle: its active cards come back
            return out
        if isinstance(event, CardSeen):
            assert event.card is not None
            if event.zone == PILE:
                return out + self._pile(t, event.card.face)
            if event.zone == "stock":
                return out
            return [*out, Rejected(t, f"zone {event.zone!r} plays no part in the shedding game", event.TYPE)]
        return out

    # ------------------------------------------------------------ the pile

    def _pile(self, t: int, card: Card) -> list[Decision]:
        st = self.state
        again, st.reshow, lifted, st.lifted = st.reshow, [], st.lifted, False
        if lifted and again and card == again[-1]:
            return []  # the pile was lifted for a reshuffle and its active cards put back: not played
        if st.phase == TURN_UP:
            return self._turned(t, card)
        out: list[Decision] = []
        if st.phase == DEALER_OPTION:
            if st.must_take:
                return [Misplay(t, st.dealer, card, "the turned joker goes to the dealer: take it first")]
            out += self._start_play(t)  # the dealer left the turned card by playing on
        if st.phase == DEALER_DISCARD:
            return self._dealer_discard(t, card)
        if st.phase == CHOOSE:
            out += self._default_choices(t)
        if st.phase == OVER or st.phase == TURN_UP:
            return [*out, Rejected(t, f"{card} came after the game's end", "card-seen")]
        if st.open_cards:
            joined = self._join(t, card)
            if joined is not None:
                return out + joined
            out += self._close(t)
            if st.phase == CHOOSE:
                out += self._default_choices(t)
            if st.phase != PLAY:
                return [*out, Rejected(t, f"{card} came after the game's end", "card-seen")]
        return out + self._new_play(t, st.turn, card)

    def _new_play(self, t: int, seat: int, card: Card) -> list[Decision]:
        st = self.state
        why = self.unknown_card(card, st.pile)
        if why is not None:  # a misreading: the card is shown again
            return [Rejected(t, why, "card-seen", seat)]
        why = self._illegal([card])
        if why is not None:  # taken back, the card under it shows where it lay: the camera knows it
            return [Misplay(t, seat, card, why)]
        out = self._from_hand(t, seat)
        st.pile.append(card)
        st.plays += 1
        out.append(CardPlayed(t, seat, card, len(st.pile)))
        st.open_cards, st.open_t = [card], t
        if self.total(seat) == 0 or not self.rules.matches or not self.rules.match_window_ms:
            out += self._close(t)
        return out

    def _join(self, t: int, card: Card) -> list[Decision] | None:
        """The card joins the open play as a match, or None when it cannot."""
        st = self.state
        cards = [*st.open_cards, card]
        if not is_play(cards, self.rules) or self.unknown_card(card, st.pile) or self._illegal(cards):
            return None
        out = self._from_hand(t, st.turn)
        st.pile.append(card)
        st.open_cards = cards
        out.append(CardPlayed(t, st.turn, card, len(st.pile)))
        if self.total(st.turn) == 0 or (len(cards) == 2 and (natural_pair(cards) or spade_combo(cards, self.rules))):
            out += self._close(t)
        return out

    def _illegal(self, cards: list[Card]) -> str | None:
        """Why a play may not go on the pile now (None: it may)."""
        st, rules = self.state, self.rules
        under = st.match
        jokers_only = not naturals(cards)
        if st.owed:
            if jokers_only and rules.joker_shield:
                return None
            if st.owed_locked or not stacks_on(cards, st.owed_kind, under, rules):
                how = "shield with a joker or " if rules.joker_shield else ""
                stack = "" if st.owed_locked or not rules.stacking else "stack on it, "
                return f"you must draw {st.owed}: {stack}{how}hold your button to draw"
        if st.skips:
            base = base_card(cards, under)
            if not rules.stacking or base is None or base.rank is not Rank.FOUR:
                return f"you miss {'this turn' if st.skips == 1 else f'{st.skips} turns'}: a four passes it on"
        first = naturals(cards) or cards
        if not any(playable(c, under, st.suit, rules) for c in first):
            assert under is not None
            suit = SUIT_NAMES.get(st.suit or "", "?")
            wild = ", an 8" if rules.eights_wild else ""
            return f"{first[0]} does not go on {under}: it takes {suit} or a {under.rank.symbol}{wild} or a joker"
        return None

    def _from_hand(self, t: int, seat: int) -> list[Decision]:
        st = self.state
        if st.hands[seat] > 0:
            st.hands[seat] -= 1
            return self._settle_safe(t, seat)
        if st.safe[seat]:
            st.safe[seat] = False
            return [SafeCardUsed(t, seat)]
        st.stock = max(0, st.stock - 1)  # it came from the stock, drawn unseen
        return [HandMiscounted(t, seat)]

    def _settle_safe(self, t: int, seat: int) -> list[Decision]:
        """A safe card with no hand left is the last card: it is held now, no longer safe."""
        st = self.state
        if st.hands[seat] == 0 and st.safe[seat]:
            st.hands[seat], st.safe[seat] = 1, False
            return [SafeCardUsed(t, seat)]
        return []

    def _safe_gone(self, t: int, seat: int) -> list[Decision]:
        st = self.state
        if not st.safe[seat]:
            return []
        st.safe[seat] = False
        st.hands[seat] += 1  # on its way to the pile through the hand
        return [SafeCardUsed(t, seat)]

    # ------------------------------------------------------ the turned card

    def _turned(self, t: int, card: Card) -> list[Decision]:
        st = self.state
        why = self.unknown_card(card, [])
        if why is not None:
            return [Rejected(t, why, "card-seen", st.dealer)]
        st.pile, st.stock = [card], st.stock - 1
        st.match, st.suit, st.top_from = card, suit_of(card), NOBODY
        out: list[Decision] = [CardTurned(t, card)]
        if card.is_joker or self.rules.dealer_option:
            st.must_take = card.is_joker
            st.phase = DEALER_OPTION
            return [*out, TurnChanged(t, st.dealer)]
        return out + self._start_play(t)

    def _start_play(self, t: int) -> list[Decision]:
        st = self.state
        st.phase = PLAY
        return self._resolve(t, NOBODY, st.pile[-1:], effects=self.rules.turned_card_effects)

    def _taken(self, t: int) -> list[Decision]:
        st = self.state
        st.hands[st.dealer] += 1
        st.pile, st.match, st.suit, st.must_take = [], None, None, False
        st.phase = DEALER_DISCARD
        return [TurnedCardTaken(t, st.dealer)]

    def _dealer_discard(self, t: int, card: Card) -> list[Decision]:
        st = self.state
        why = self.unknown_card(card, [])
        if why is not None:
            return [Rejected(t, why, "card-seen", st.dealer)]
        out = self._from_hand(t, st.dealer)
        st.pile = [card]
        st.phase, st.turn = PLAY, st.dealer
        out.append(CardPlayed(t, st.dealer, card, 1))
        return out + self._resolve(t, st.dealer, [card], effects=self.rules.turned_card_effects)

    # ------------------------------------------------------------ a play's effects

    def _close(self, t: int) -> list[Decision]:
        st = self.state
        cards, st.open_cards = st.open_cards, []
        out: list[Decision] = []
        if len(cards) > 1:
            out.append(MatchPlayed(t, st.turn, tuple(cards), natural_pair(cards)))
        return out + self._resolve(t, st.turn, cards)

    def _resolve(self, t: int, seat: int, cards: list[Card], effects: bool = True) -> list[Decision]:
        """What a play does, in order: a switch, the card's function, a king run's draw; then the
        choices it offers; then the turn passes. ``seat`` is NOBODY for the turned card."""
        st, rules = self.state, self.rules
        if seat != NOBODY and self.total(seat) == 0 and rules.going_out == "out":
            return self._round_won(t, seat)
        under, before = st.match, st.top_from
        shown = st.pile[-len(cards) - 1] if len(st.pile) > len(cards) else None
        jokers_only = not naturals(cards)
        if st.owed and jokers_only and rules.joker_shield and seat != NOBODY:
            return self._shield(t, seat)
        stacked = bool(st.owed or st.skips)
        run_due = st.kings if self.king_run() and seat != NOBODY else 0
        base = base_card(cards, under)
        st.match, st.top_from = base, seat
        if not jokers_only:
            st.suit = suit_of(base)
        if not stacked:
            st.active_from = len(st.pile) - len(cards)
        if base is not None and all(c.rank is Rank.KING for c in cards):
            st.kings += len(cards)
            run_due = 0
        else:
            st.kings = 0
        bomb_by, st.bomb_by = st.bomb_by, NOBODY
        out: list[Decision] = []
        if effects and base is not None:
            out += self._switch(t, seat, cards, shown, before, base)
            out += self._function(t, seat, cards, under, base, stacked, bomb_by)
        if run_due:
            out += self._draw(t, seat, run_due, "kings")
        return out + self._then(t, seat)

    def _switch(
        self, t: int, seat: int, cards: list[Card], shown: Card | None, before: int, base: Card
    ) -> list[Decision]:
        st, rules = self.state, self.rules
        if seat == NOBODY:
            return []
        natural = naturals(cards)
        real = rules.switch and bool(natural) and shown is not None and not shown.is_joker
        real = real and natural[0].face == shown.face  # type: ignore[union-attr]
        joker = not natural and rules.joker_alone == "switch"
        black = rules.black_aces and is_black_ace(base)
        if not (real or joker):
            return []
        if before == NOBODY:
            return self._renew(t, seat)
        if before == seat:
            return []
        if real and black:
            steps = 2 if len(cards) > 1 else 1
            st.choices.append(self._offer(seat, "order", ["pass-first", "swap-first"], target=before, steps=steps))
        elif real and rules.switch_safe_trade and st.safe[before] and st.hands[seat]:
            st.choices.append(self._offer(seat, "switch", ["hands", "safe-card"], target=before))
        else:
            return self._swap(t, seat, before)
        return []

    def _function(
        self, t: int, seat: int, cards: list[Card], under: Card | None, base: Card, stacked: bool, bomb_by: int
    ) -> list[Decision]:
        st, rules = self.state, self.rules
        out: list[Decision] = []
        double = len(cards) > 1
        kind = draw_kind(base, rules)
        if kind is not None or spade_combo(cards, rules):
            st.owed = (st.owed if stacked else 0) + draw_of(cards, under, rules)
            st.owed_kind = "queen" if spade_combo(cards, rules) else kind or ""
            st.owed_from = seat
            if natural_pair(cards) and rules.pair_split:
                st.choices.append(self._offer(seat, "pair", ["all-to-next", "split"]))
        if rules.fours_skip and base.rank is Rank.FOUR:
            st.skips = (st.skips if stacked else 0) + (2 if double else 1)
        if rules.bomb and base.rank is Rank.SEVEN and natural_pair(cards):
            if rules.bomb_counter and bomb_by not in (NOBODY, seat):
                out += self._draw(t, bomb_by, rules.bomb_draw, "bomb-returned")
            else:
                st.bomb_by = seat
                for k in range(1, self.players):
                    out += self._draw(t, self.step(seat, k), rules.bomb_draw, "bomb")
        if rules.eights_wild and base.rank is Rank.EIGHT and seat != NOBODY:
            st.choices.append(self._offer(seat, "suit", [SUIT_NAMES[s] for s in SUITS], SUIT_NAMES[st.suit or "C"]))
        if rules.jacks_reverse and base.rank is Rank.JACK and not double:
            st.direction = -st.direction
            out.append(DirectionChanged(t, st.direction))
        if rules.black_aces and is_black_ace(base) and not any(c["kind"] == "order" for c in st.choices):
            out += self._pass_hands(t, 2 if double else 1)
        if rules.red_aces and st.red_aces and seat == st.dealer and is_red_ace(base):
            seats = [f"seat {self.step(seat, k)}" for k in range(1, self.players)]
            for _ in range(2 if double else 1):
                st.choices.append(self._offer(seat, "red-ace", seats, "none"))
        return out

    def _then(self, t: int, seat: int) -> list[Decision]:
        """Offer the first waiting choice, or pass the turn on."""
        st = self.state
        if st.choices:
            st.phase = CHOOSE
            c = st.choices[0]
            return [ChoiceOffered(t, c["seat"], c["kind"], tuple(c["options"]), c["default"])]
        return self._next(t, seat)

    def _next(self, t: int, seat: int) -> list[Decision]:
        """The turn passes from ``seat`` (NOBODY: the turned card, from the dealer)."""
        st = self.state
        if seat != NOBODY and self.total(seat) == 0:
            return self._round_won(t, seat)
        st.phase, st.drawn = PLAY, False
        st.turn = self.step(st.dealer if seat == NOBODY else seat)
        out: list[Decision] = []
        if st.owed:
            out.append(DrawOwed(t, st.turn, st.owed, 0, st.owed_kind))
        elif st.skips:
            out.append(DrawOwed(t, st.turn, 0, st.skips, "four"))
        elif self.king_run():
            out.append(DrawOwed(t, st.turn, st.kings, 0, "kings"))
        return [*out, TurnChanged(t, st.turn)]

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

    # ------------------------------------------------------------ hands and the stock

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
        kept = st.pile[st.active_from :]
        back = len(st.pile) - len(kept)
        if back == 0:
            return False
        st.pile, st.active_from, st.stock = kept, 0, st.stock + back
        st.reshow = kept[-1:]
        out.append(StockReshuffled(t, back, tuple(kept)))
        if self.rules.reshuffle_extra_card:
            for k in range(1, self.players):
                other = (st.dealer + k) % self.players
                got = min(1, st.stock)
                st.stock -= got
                st.hands[other] += got
                if self.held(other) > 1:
                    st.called[other] = False
                out.append(CardsDrawn(t, other, got, "reshuffle-extra", self.total(other)))
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

    def _shield(self, t: int, seat: int) -> list[Decision]:
        """A joker instead of drawing: whoever played the draw takes it; play goes on past the joker."""
        st = self.state
        onto = st.owed_from if st.owed_from not in (NOBODY, seat) else None
        out: list[Decision] = [Shielded(t, seat, onto, st.owed)]
        if onto is not None:
            out += self._draw(t, onto, st.owed, "shielded")
        st.owed, st.owed_split = st.owed_split, 0
        st.owed_locked = bool(st.owed)
        return out + self._next(t, seat)

    # ------------------------------------------------------------ seat actions

    def _action(self, t: int, seat: int, action: str, value: int | None) -> list[Decision]:
        st = self.state
        if action == "taps" and not value:
            return []  # a long press ends a count of no taps: its hold says what it means
        if action in ("taps", "hold"):
            action, value = self._meaning(seat, action, value or 0)
        if action == "choose":
            if not st.choices or st.choices[0]["seat"] != seat:
                return [Rejected(t, "nothing to choose now", "action", seat)]
            return self._choose(t, seat, value or 0)
        if action == "last-card":
            return self._call(t, seat)
        if action == "challenge":
            return self._challenge(t, seat)
        if action == "red-aces":
            return self._red_aces(t, seat)
        if action == "leave":
            if st.phase != DEALER_OPTION or seat != st.dealer:
                return [Rejected(t, "only the dealer leaves the turned card, before play starts", "action", seat)]
            if st.must_take:
                return [Rejected(t, "a turned joker goes to the dealer: take it and discard", "action", seat)]
            return self._start_play(t)
        if action in ("draw", "pass", "accept", "play-hold"):
            out: list[Decision] = []
            if st.phase == CHOOSE and st.choices[0]["seat"] != seat:
                out += self._default_choices(t)
            return out + self._turn_action(t, seat, action)
        return [Rejected(t, f"the shedding game takes no action {action!r}", "action", seat)]

    def _meaning(self, seat: int, gesture: str, taps: int) -> tuple[str, int | None]:
        """What a seat's taps or hold mean where the game stands (README: "The shedding game")."""
        st = self.state
        if st.choices and st.choices[0]["seat"] == seat:
            return "choose", 0 if gesture == "hold" else taps
        if st.phase in (TURN_UP, DEALER_OPTION, DEALER_DISCARD) and seat == st.dealer:
            return ("leave", None) if gesture == "hold" else ("red-aces", None)
        if gesture == "hold":
            return "play-hold", None
        if 0 < self.held(seat) <= 2 and not st.called[seat]:
            return "last-card", None
        return "challenge", None

    def _turn_action(self, t: int, seat: int, action: str) -> list[Decision]:
        st = self.state
        if st.phase != PLAY:
            return [Rejected(t, f"no {action} now: {self.expects().detail}", "action", seat)]
        if seat != st.turn:
            return [Rejected(t, f"not your turn: seat {st.turn} plays", "action", seat)]
        if action == "play-hold":
            action = "accept" if st.owed or st.skips else "pass" if st.drawn else "draw"
        if action == "accept":
            return self._accept(t, seat)
        if st.owed or st.skips:
            return [Rejected(t, f"first {self.expects().detail}", "action", seat)]
        if action == "draw":
            if st.drawn:
                return [Rejected(t, "one card a turn: play a card or pass", "action", seat)]
            st.drawn = True
            return self._draw(t, seat, 1, "king-try" if self.king_run() else "draw")
        if not st.drawn:
            return [Rejected(t, "draw a card before passing", "action", seat)]
        out: list[Decision] = []
        if self.king_run():
            out += self._draw(t, seat, st.kings, "kings")
            st.kings = 0
        return out + self._next(t, seat)

    def _accept(self, t: int, seat: int) -> list[Decision]:
        st = self.state
        if st.owed:
            out = self._draw(t, seat, st.owed, st.owed_kind)
            out.append(TurnSkipped(t, seat, f"drew {st.owed}"))
            st.owed, st.owed_split = st.owed_split, 0
            st.owed_locked = bool(st.owed)
            st.active_from = max(st.active_from, len(st.pile) - 1)
            return out + self._next(t, seat)
        if st.skips:
            missed = [self.step(seat, k) for k in range(min(st.skips, self.players - 1))]
            st.skips = 0
            st.active_from = max(st.active_from, len(st.pile) - 1)
            out = [TurnSkipped(t, s, "a four") for s in missed]
            return out + self._next(t, missed[-1])
        return [Rejected(t, "nothing to take: play a card or hold to draw", "action", seat)]

    def _choose(self, t: int, seat: int, value: int) -> list[Decision]:
        st = self.state
        c = st.choices[0]
        options = c["options"]
        if value > len(options):
            return [Rejected(t, f"{c['kind']}: 1 to {len(options)} taps, or hold", "action", seat)]
        option = c["default"] if value == 0 else options[value - 1]
        st.choices.pop(0)
        return [ChoiceMade(t, seat, c["kind"], option), *self._carry_out(t, c, option), *self._then(t, seat)]

    def _carry_out(self, t: int, c: dict[str, Any], option: str) -> list[Decision]:
        st = self.state
        seat, kind, target = c["seat"], c["kind"], c["target"]
        if kind == "suit":
            st.suit = next(s for s, name in SUIT_NAMES.items() if name == option)
        elif kind == "pair" and option == "split":
            st.owed, st.owed_split = (st.owed + 1) // 2, st.owed // 2
        elif kind == "switch":
            return self._swap(t, seat, target) if option == "hands" else [SafeCardTraded(t, seat, target)]
        elif kind == "order":
            if option == "pass-first":
                return self._pass_hands(t, c["steps"]) + self._swap(t, seat, target)
            return self._swap(t, seat, target) + self._pass_hands(t, c["steps"])
        elif kind == "red-ace" and option != "none":
            return self._swap(t, seat, int(option.removeprefix("seat ")))
        return []

    def _default_choices(self, t: int) -> list[Decision]:
        """A choice not made before the game moves on takes its default."""
        out: list[Decision] = []
        while self.state.phase == CHOOSE and self.state.choices:
            out += self._choose(t, self.state.choices[0]["seat"], 0)
        return out

    def _call(self, t: int, seat: int) -> list[Decision]:
        st = self.state
        if not self.rules.last_card_penalty:
            return [Rejected(t, "no one calls last card with these rules", "action", seat)]
        if not 0 < self.held(seat) <= 2:
            return [Rejected(t, f"you hold {self.held(seat)} cards: call last card with one left", "action", seat)]
        st.called[seat] = True
        return [LastCardCalled(t, seat)]

    def _challenge(self, t: int, by: int) -> list[Decision]:
        owing = [s for s in range(self.players) if s != by and self.owes_call(s)]
        if not owing:
            return [Rejected(t, "nobody holds one card unannounced", "action", by)]
        out: list[Decision] = []
        for s in owing:
            out.append(LastCardCaught(t, s, by))
            out += self._draw(t, s, self.rules.last_card_penalty, "last-card")
        return out

    def _red_aces(self, t: int, seat: int) -> list[Decision]:
        st = self.state
        if not self.rules.red_aces:
            return [Rejected(t, "red aces are off with these rules", "action", seat)]
        if seat != st.dealer or (st.plays > 0 and st.phase != TURN_UP):
            return [Rejected(t, "only the dealer claims red aces, before play starts", "action", seat)]
        st.red_aces = True
        return [ChoiceMade(t, seat, "red-aces", "on")]

"""The bidding game (Screw Your Neighbour, an Oh Hell variant) as a pure referee.

Each hand: the trump card is turned up and read on the ``trump`` zone, every seat bids from the
dealer's left (``SeatAction`` ``bid`` with its value; the dealer may not make the bids add up to
the tricks), then cards are read one by one on the ``pile`` zone, each the play of the seat whose
turn it is. Hands are hidden, so a player who does not follow suit claims to have none of it; if
that player later plays the suit, the claim was a revoke and the referee flags it with the trick
it happened in. Raw button presses are the gesture layer's input and are ignored here.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from enum import StrEnum

from table.cards import SUIT_NAMES, Card, Rank, counted
from table.decisions import (
    CardPlayed,
    Decision,
    GameOver,
    GameStarted,
    Rejected,
    RoundStarted,
    TurnChanged,
)
from table.events import END, CardSeen, Event, SeatAction, ZoneKind
from table.games.oh_hell.decisions import (
    BidMade,
    HandScored,
    RevokeFound,
    TrickCancelled,
    TrickWon,
    TrumpTurned,
)
from table.games.oh_hell.rules import OhHellRules
from table.games.stateful import StatefulReferee
from table.referee import Expectation, GameSetupError, GameView
from table.rules import RulesError

TRUMP_ZONE, PILE = ZoneKind.TRUMP, ZoneKind.PILE


class Phase(StrEnum):
    """Where a hand of the bidding game stands."""

    TRUMP = "trump"  # the trump card to be turned up
    BIDDING = "bidding"
    PLAYING = "playing"
    OVER = "over"


TRUMP, BIDDING, PLAYING, OVER = Phase


class Action(StrEnum):
    """A seat's action in the bidding game."""

    BID = "bid"  # its bid: the value the taps counted


HONOURS = {Rank.ACE, Rank.TEN, Rank.JACK, Rank.QUEEN, Rank.KING}


def card_suit(card: Card, led: str | None) -> str | None:
    """A joker is a card of the led suit (the second rule sheet); other cards keep their own suit."""
    return led if card.suit is None else card.suit


def led_suit(cards: list[Card]) -> str | None:
    """The suit a trick is led in: its first card's, or the first after led jokers (the second rule sheet)."""
    for card in cards:
        if card.suit is not None:
            return card.suit
    return None


def identical(cards: list[Card]) -> set[Card]:
    """The cards played more than once in a trick (with several decks: they cancel)."""
    return {c for c, n in Counter(cards).items() if n > 1}


def trick_winner(cards: list[Card], trump: str | None, cancellation: bool) -> int | None:
    """Index of the winning card, None when every card cancels.

    Highest trump, else highest of the led suit (aces high, a joker a zero of the led suit).
    Identical cards cancel when ``cancellation`` is on, else the first played ranks higher. When
    every trump and led-suit card has cancelled, the highest card left wins by rank alone.
    """
    led = led_suit(cards)
    cancelled = identical(cards) if cancellation else ()
    best: int | None = None
    best_key = -1
    for i, card in enumerate(cards):
        if cancelled and card in cancelled:
            continue
        suit = card.suit
        if suit is None:  # a joker: a zero of the led suit
            key = 32 if led == trump and trump is not None else 16
        else:
            rank = card.rank
            key = (14 if rank == 1 else rank) + (32 if suit == trump else 16 if suit == led else 0)
        if key > best_key:
            best, best_key = i, key
    return best


@dataclass
class OhHellState:
    sizes: list[int]
    totals: list[int]
    dealer: int
    hand: int = 0
    phase: str = TRUMP
    turn: int = 0
    trump_card: Card | None = None
    trump: str | None = None
    bids: list[int | None] = field(default_factory=list)
    tricks: list[int] = field(default_factory=list)
    leader: int = 0
    trick_no: int = 1
    trick_seats: list[int] = field(default_factory=list)
    trick_cards: list[Card] = field(default_factory=list)
    carried: int = 0
    seen: list[Card] = field(default_factory=list)  # the turned card and every card played this hand
    voids: dict[str, dict[str, list[int]]] = field(default_factory=dict)  # seat -> suit -> tricks it was claimed in
    penalties: list[int] = field(default_factory=list)
    hand_points: list[list[int]] = field(default_factory=list)  # each hand scored, each seat's points
    winners: list[int] | None = None
    last_t: int = 0


class OhHellReferee(StatefulReferee):
    GAME = "oh-hell"
    NAME = "the bidding game"
    RULES = OhHellRules
    STATE = OhHellState
    COMMANDS = frozenset({END})

    rules: OhHellRules
    state: OhHellState

    def max_players(self) -> int:
        return self.pack_size - 1

    def new_state(self) -> OhHellState:
        cards = self.pack_size
        try:
            sizes = self.rules.sizes(cards, self.players)
        except RulesError as exc:
            raise GameSetupError(str(exc)) from None
        if not sizes:
            raise GameSetupError(f"{cards} cards cannot deal a hand to {self.players} players and turn up trump")
        return OhHellState(sizes=sizes, totals=[0] * self.players, dealer=self.dealer)

    # ---------------------------------------------------------------- queries

    @property
    def finished(self) -> bool:
        return self.state.winners is not None

    @property
    def size(self) -> int:
        return self.state.sizes[self.state.hand - 1]

    def left_of(self, seat: int) -> int:
        return (seat + 1) % self.players

    def forbidden_bid(self) -> int | None:
        """The bid the dealer may not make now, if any."""
        st = self.state
        if not self.rules.dealer_restriction or st.turn != st.dealer or st.phase != BIDDING:
            return None
        rest = self.size - sum(b for b in st.bids if b is not None)
        return rest if 0 <= rest <= self.size else None

    def view(self) -> GameView:
        st = self.state
        bids = [("-" if b is None else str(b)) for b in st.bids] or ["-"] * len(st.totals)
        tricks = st.tricks or [0] * len(bids)
        trump = "no trump" if st.trump is None else f"{SUIT_NAMES[st.trump]} are trumps"
        return GameView(
            score="points",
            scores=tuple(st.totals),
            counts="score (bid/taken)",
            shown=tuple(f"{total} ({bid}/{taken})" for total, bid, taken in zip(st.totals, bids, tricks, strict=False)),
            middle=f"trick {st.trick_no}, {trump}",
            cards=tuple(c.code for c in st.trick_cards),
            beside=() if st.trump_card is None else (("trump card", st.trump_card.code),),
            round=int(st.hand),
            phase="over" if self.finished else str(st.phase),
            dealer=st.dealer,
            winners=tuple(st.winners or ()),
            facts=(
                ("hand", f"{int(st.hand)} of {len(st.sizes)}: {counted(self.size, 'card')}"),
                ("bids", f"{sum(b for b in st.bids if b is not None)} for {counted(self.size, 'trick')}"),
            ),
            notes=tuple("" if b == "-" else f"bid {b}, took {took}" for b, took in zip(bids, tricks, strict=False)),
            history=(
                ("hand", *(f"seat {seat}" for seat in range(self.players))),
                *((str(n), *map(str, points)) for n, points in enumerate(st.hand_points, start=1)),
            ),
        )

    def expects(self) -> Expectation:
        st = self.state
        if st.phase == OVER:
            return Expectation("none", None, "game over")
        if st.phase == TRUMP:
            return Expectation("trump-card", st.dealer, "turn up the trump card")
        if st.phase == BIDDING:
            banned = self.forbidden_bid()
            detail = f"0 to {self.size}" + ("" if banned is None else f", not {banned}")
            return Expectation(Action.BID, st.turn, detail)
        return Expectation("play", st.turn, f"trick {st.trick_no} of {self.size}")

    # ----------------------------------------------------------------- hands

    def start(self, t_ns: int = 0) -> list[Decision]:
        self.state.last_t = max(self.state.last_t, t_ns)
        first = (self.state.sizes[0],) * self.players
        out: list[Decision] = [GameStarted(t_ns, self.GAME, self.players, self.dealer, first)]
        return out + self._new_hand(t_ns)

    def _new_hand(self, t: int) -> list[Decision]:
        st = self.state
        st.hand += 1
        n = self.players
        st.bids, st.tricks, st.penalties = [None] * n, [0] * n, [0] * n
        st.trick_no, st.trick_seats, st.trick_cards, st.carried = 1, [], [], 0
        st.seen, st.voids, st.trump_card, st.trump = [], {}, None, None
        out: list[Decision] = [RoundStarted(t, st.hand, st.dealer, tuple(range(n)), self.size)]
        if self.size * n < self.pack_size:
            st.phase = TRUMP
            return out
        return [*out, TrumpTurned(t, None, None), *self._start_bidding(t)]

    def _start_bidding(self, t: int) -> list[Decision]:
        st = self.state
        st.phase = BIDDING
        st.turn = self.left_of(st.dealer)
        return [TurnChanged(t, st.turn)]

    # ----------------------------------------------------------------- events

    def handle(self, event: Event) -> list[Decision]:
        """Every input; what a hand is made of (the trump card, a bid in turn, a card laid on the
        trick in turn) goes by a short way: nothing waits on time in this game, so there is
        nothing to ``advance`` first."""
        st = self.state
        kind = event.__class__
        if kind is CardSeen and event.t_ns >= st.last_t:
            t, card, seat = event.t_ns, event.card, event.seat
            if st.phase == PLAYING and event.zone == PILE:
                if (seat is None or seat == st.turn) and card.deck == 0:  # type: ignore[union-attr]
                    st.last_t = t
                    return self._lay(t, card)  # type: ignore[arg-type]
            elif st.phase == TRUMP and event.zone == TRUMP_ZONE and seat is None and card.deck == 0:  # type: ignore[union-attr]
                st.last_t = t
                return self._trump(t, card)  # type: ignore[arg-type]
        elif kind is SeatAction and st.phase == BIDDING and event.t_ns >= st.last_t and event.seat == st.turn:
            st.last_t = event.t_ns
            return self._bid(event.t_ns, event)  # type: ignore[arg-type]
        return super().handle(event)

    def on_event(self, event: Event) -> list[Decision]:
        t = event.t_ns
        if isinstance(event, CardSeen):
            if self.state.phase == OVER:
                return [Rejected(t, "the game is over", event.TYPE, event.seat)]
            assert event.card is not None
            if event.zone == PILE:
                return self._play(t, event.card.face, event.seat)
            if event.zone == TRUMP_ZONE:
                return self._trump(t, event.card.face)
            return [Rejected(t, f"zone {event.zone!r} plays no part in the bidding game", event.TYPE)]
        if isinstance(event, SeatAction):
            if self.state.phase == OVER:
                return [Rejected(t, "the game is over", event.TYPE, event.seat)]
            return self._bid(t, event)
        return []  # presses, releases and tricks taken away change nothing here

    def _trump(self, t: int, card: Card) -> list[Decision]:
        st = self.state
        if st.phase != TRUMP:
            return [Rejected(t, f"the trump card is already turned: waiting for {self.expects().action}", "card-seen")]
        why = self.admit_card(card, st.seen)
        if why is not None:
            return [Rejected(t, why, "card-seen")]
        st.trump_card = card
        honour = self.rules.trump == "no-trump-on-honours" and card.rank in HONOURS
        st.trump = None if card.suit is None or honour else str(card.suit)
        return [TrumpTurned(t, card, st.trump), *self._start_bidding(t)]

    def _bid(self, t: int, event: SeatAction) -> list[Decision]:
        st, seat = self.state, event.seat
        if event.action != Action.BID:
            return [Rejected(t, f"the bidding game takes bids, not {event.action!r}", event.TYPE, seat)]
        if st.phase != BIDDING:
            return [Rejected(t, f"no bids now: waiting for {self.expects().action}", event.TYPE, seat)]
        if seat != st.turn:
            return [Rejected(t, f"not your turn to bid: seat {st.turn} bids next", event.TYPE, seat)]
        bid = event.value
        size = st.sizes[st.hand - 1]  # (``size``, without the property's call)
        if bid is None or bid > size:
            return [Rejected(t, f"a bid is 0 to {size} tricks, not {bid}", event.TYPE, seat)]
        if seat == st.dealer and bid == self.forbidden_bid():
            return [
                Rejected(
                    t,
                    f"the dealer may not bid {bid}: the bids would add up to the {self.size} trick(s), "
                    "and somebody must get screwed",
                    event.TYPE,
                    seat,
                )
            ]
        st.bids[seat] = bid
        made = BidMade(t, seat, bid, sum(filter(None, st.bids)))  # (a bid not yet made is None, a 0 adds nothing)
        turn = seat + 1 if seat + 1 < self.players else 0
        if seat == st.dealer:
            st.phase = PLAYING
            st.leader = turn
        st.turn = turn
        return [made, TurnChanged(t, turn)]

    def _play(self, t: int, card: Card, seat: int | None) -> list[Decision]:
        st = self.state
        turn = st.turn
        if st.phase != PLAYING:
            return [Rejected(t, f"no cards to the pile now: waiting for {self.expects().action}", "card-seen", seat)]
        if seat is not None and seat != turn:
            return [Rejected(t, f"not seat {seat}'s turn: seat {turn} plays next", "card-seen", seat)]
        return self._lay(t, card)

    def _lay(self, t: int, card: Card) -> list[Decision]:
        """The card of the seat whose turn it is, on the trick (if no copy too many)."""
        st = self.state
        turn = st.turn
        why = self.admit_card(card, st.seen)
        if why is not None:
            return [Rejected(t, why, "card-seen", turn)]
        trick = st.trick_cards
        out: list[Decision] = []
        suit = card.suit  # a joker is of the led suit, and claims nothing
        if suit is not None:
            claims = st.voids.get(str(turn)) if st.voids else None  # (``voids`` names seats as JSON would)
            if claims and suit in claims:
                out = self._revokes(t, turn, claims.pop(suit), suit)
            if trick:
                led = trick[0].suit or led_suit(trick)
                if led is not None and suit != led:  # a claim of having none of the led suit
                    st.voids.setdefault(str(turn), {}).setdefault(str(led), []).append(st.trick_no)
        st.trick_seats.append(turn)
        trick.append(card)
        n = len(trick)
        out.append(CardPlayed(t, turn, card, n))
        if n < self.players:
            st.turn = turn = turn + 1 if turn + 1 < self.players else 0
            out.append(TurnChanged(t, turn))
            return out
        return out + self._end_trick(t)

    def _revokes(self, t: int, seat: int, tricks: list[int], suit: str) -> list[Decision]:
        """The claims of having no ``suit`` (made in ``tricks``) that the seat's card belies."""
        st = self.state
        penalty = self.rules.revoke_points if self.rules.revoke_penalty == "points" else 0
        st.penalties[seat] += penalty * len(tricks)
        return [RevokeFound(t, seat, trick_no, str(suit), st.trick_no, penalty) for trick_no in tricks]

    def _end_trick(self, t: int) -> list[Decision]:
        st = self.state
        cancellation = self.rules.cancellation and self.rules.decks > 1
        trick = st.trick_cards
        best = trick_winner(trick, st.trump, cancellation)
        twice = identical(trick) if cancellation else ()
        cancelled = tuple(c for c in trick if c in twice) if twice else ()
        out: list[Decision] = []
        if best is None:
            st.carried += 1
            out.append(TrickCancelled(t, st.trick_no, st.leader))
            winner = st.leader
        else:
            winner = st.trick_seats[best]
            won = 1 + st.carried
            st.tricks[winner] += won
            st.carried = 0
            out.append(TrickWon(t, winner, st.trick_no, won, cancelled))
        st.trick_seats, st.trick_cards = [], []
        if st.trick_no == self.size:
            return out + self._score_hand(t)
        st.trick_no += 1
        st.leader = st.turn = winner
        return [*out, TurnChanged(t, winner)]

    def _score_hand(self, t: int) -> list[Decision]:
        st = self.state
        bids = [b if b is not None else 0 for b in st.bids]
        points = [self.score(bid, took) - pen for bid, took, pen in zip(bids, st.tricks, st.penalties, strict=True)]
        for seat, p in enumerate(points):
            st.totals[seat] += p
        st.hand_points.append(points)
        out: list[Decision] = [HandScored(t, st.hand, tuple(bids), tuple(st.tricks), tuple(points), tuple(st.totals))]
        if st.hand == len(st.sizes):
            return out + self._game_over(t, f"highest total after {st.hand} hands")
        st.dealer = self.left_of(st.dealer)
        return out + self._new_hand(t)

    def end_game(self, t: int) -> list[Decision]:
        """The players declare the game over (the second rule sheet leaves when to them): the
        hands scored decide, the one under way counts for nothing."""
        played = self.state.hand - 1
        return self._game_over(
            t, f"ended by the players: highest total after {played} hand{'' if played == 1 else 's'}"
        )

    def _game_over(self, t: int, reason: str) -> list[Decision]:
        st = self.state
        st.phase = OVER
        top = max(st.totals)
        st.winners = [s for s in range(self.players) if st.totals[s] == top]
        return [GameOver(t, tuple(st.winners), tuple(st.totals), reason)]

    def score(self, bid: int, took: int) -> int:
        exact = bid == took
        scoring = self.rules.scoring
        if scoring == "bonus":
            return 10 + bid if exact else 0
        if scoring == "squares":
            return 10 + bid * bid if exact else -((bid - took) ** 2)
        return took + (10 if exact else 0)

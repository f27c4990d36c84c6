"""The trading game (Cuckoo, Chase the Ace, Screw Your Neighbor) as a pure referee.

One card face down to each seat; in turn from the dealer's left each player keeps (``SeatAction``
``keep``) or trades with the left neighbour (``trade``); the dealer, last, may trade with the
stock by turning its top card up on the stock zone. Then every card is turned up and read on its
seat zone, and the lowest loses.

What the camera can see decides what the referee knows: face-up kings (read on a seat zone), the
dealer's card from the stock, and every card at the reveal. Cards follow the trades as far as
they are known, so a reveal that contradicts them (a face-up king that moved) is a
``CardMismatch`` and the seat is asked to show its card again. Raw button presses are the gesture
layer's input and are ignored here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from table.cards import Card, Rank, counted, spoken
from table.decisions import (
    CardMismatch,
    Decision,
    GameOver,
    GameStarted,
    PlayerOut,
    Rejected,
    RoundStarted,
    TurnChanged,
    TurnSkipped,
)
from table.events import END, CardSeen, Event, SeatAction, ZoneKind
from table.games.cuckoo.decisions import (
    AllOutTie,
    CardRevealed,
    CutCard,
    DealerDrew,
    Kept,
    KingShown,
    LifeLost,
    PointScored,
    RoundLost,
    TradeBlocked,
    Traded,
    TradingClosed,
)
from table.games.cuckoo.rules import CuckooRules
from table.games.stateful import StatefulReferee
from table.referee import Expectation, GameView

SEAT, STOCK, CUT = ZoneKind.SEAT, ZoneKind.STOCK, ZoneKind.CUT


class Phase(StrEnum):
    """Where a round of the trading game stands."""

    TRADING = "trading"
    DEALER_DRAW = "dealer-draw"
    REVEAL = "reveal"
    CUTTING = "cut"  # a tie cut for, where the rules say so
    OVER = "over"


TRADING, DEALER_DRAW, REVEAL, CUTTING, OVER = Phase


class Action(StrEnum):
    """A seat's action in the trading game (a button gesture's meaning)."""

    KEEP = "keep"
    TRADE = "trade"  # with the left neighbour; the dealer with the stock


ACTIONS = frozenset(Action)
SHOW_KING = "show-king"  # a king dealt, turned up on its seat (a card the camera reads, no button)


@dataclass
class CuckooState:
    lives: list[int]
    points: list[int]
    pot: int
    dealer: int
    round: int = 0
    phase: str = TRADING
    turn: int = 0
    seats: list[int] = field(default_factory=list)  # dealt in this round, in seat order
    known: list[Card | None] = field(default_factory=list)  # per seat: the card it holds, if known
    face_up: list[bool] = field(default_factory=list)
    revealed: list[Card | None] = field(default_factory=list)
    seen: list[Card] = field(default_factory=list)  # every card this deal showed, for copy counts
    trading_started: bool = False
    pending_trade: list[int] | None = None  # [trader, target] while the target may still show a king
    cutters: list[int] = field(default_factory=list)
    cuts: dict[str, Card] = field(default_factory=dict)
    winners: list[int] | None = None
    last_t: int = 0


class CuckooReferee(StatefulReferee):
    GAME = "cuckoo"
    NAME = "the trading game"
    RULES = CuckooRules
    STATE = CuckooState
    COMMANDS = frozenset({END})

    rules: CuckooRules
    state: CuckooState

    def max_players(self) -> int:
        return min(26 * self.rules.decks, 52 * self.rules.decks - 1)

    def new_state(self) -> CuckooState:
        r = self.rules
        lives = [r.lives if r.scoring == "lives" else 0] * self.players
        stakes = r.pot == "ante" and not (r.pot_carried and r.all_out == "carry")
        pot = r.pot_carried + (r.stake * self.players if stakes else 0)
        return CuckooState(lives=lives, points=[0] * self.players, pot=pot, dealer=self.dealer)

    # ---------------------------------------------------------------- queries

    @property
    def finished(self) -> bool:
        return self.state.winners is not None

    def alive(self) -> list[int]:
        if self.rules.scoring == "points":
            return list(range(self.players))
        return [s for s in range(self.players) if self.state.lives[s] > 0]

    def left_of(self, seat: int) -> int:
        """The next seat dealt in this round, clockwise (to the left)."""
        seats = self.state.seats
        return seats[(seats.index(seat) + 1) % len(seats)]

    def scores(self) -> tuple[int, ...]:
        return tuple(self.state.points if self.rules.scoring == "points" else self.state.lives)

    def view(self) -> GameView:
        st, scores = self.state, self.scores()
        alive = self.alive()
        return GameView(
            score="points" if self.rules.scoring == "points" else "lives",
            scores=scores,
            counts="points" if self.rules.scoring == "points" else "lives",
            shown=tuple(map(str, scores)),
            middle=f"round {st.round}, pot {st.pot}",
            cards=tuple(c.code for c in st.revealed if c is not None),
            round=int(st.round),
            phase="over" if self.finished else str(st.phase),
            dealer=st.dealer,
            out=tuple(s for s in range(self.players) if s not in alive),
            winners=tuple(st.winners or ()),
            fewest_best=self.rules.scoring == "points",  # penalty points
            notes=tuple(self._note(seat) for seat in range(self.players)),
        )

    def _note(self, seat: int) -> str:
        st = self.state
        if seat not in st.seats:
            return "out" if seat not in self.alive() else "sits this round out"
        card = st.revealed[seat] if seat < len(st.revealed) else None
        if card is not None:
            return f"shows {spoken(card.code)}"
        return "dealer" if seat == st.dealer else ""

    def expects(self) -> Expectation:
        st = self.state
        if st.phase == OVER:
            return Expectation("none", None, "game over")
        if st.phase == TRADING:
            target = "the stock" if st.turn == st.dealer else f"seat {self.left_of(st.turn)}"
            return Expectation("keep-or-trade", st.turn, f"keep, or trade with {target}")
        if st.phase == DEALER_DRAW:
            return Expectation("stock-card", st.dealer, "turn up the top card of the stock")
        if st.phase == REVEAL:
            waiting = [s for s in st.seats if st.revealed[s] is None]
            return Expectation("reveal", None, "cards to read at seats " + ", ".join(map(str, waiting)))
        waiting = [s for s in st.cutters if str(s) not in st.cuts]
        return Expectation("cut", None, "cuts to read at seats " + ", ".join(map(str, waiting)))

    def legal_actions(self) -> dict[int, frozenset[str]]:
        """In turn, keep, or trade where no king stops it (the dealer with the stock); then every
        seat whose card is still to be read turns it up, and every seat still to cut cuts, at once."""
        st = self.state
        if st.phase == REVEAL:
            return {s: frozenset({"reveal"}) for s in st.seats if st.revealed[s] is None}
        if st.phase == CUTTING:
            return {s: frozenset({"cut"}) for s in st.cutters if str(s) not in st.cuts}
        if st.phase == TRADING:
            out = {st.turn: {Action.KEEP} if self.blocked_reason(st.turn) else set(Action)}
            for seat in st.seats:  # a king dealt is turned up by whoever holds it, in turn or not
                if self._may_show_king(seat):
                    out.setdefault(seat, set()).add(SHOW_KING)
            return {seat: frozenset(actions) for seat, actions in out.items()}
        return super().legal_actions()

    def _may_show_king(self, seat: int) -> bool:
        """Whether a king ``seat`` turns up now counts (blocks a trade, locks the card, or stops it)."""
        kings, st = self.rules.kings, self.state
        if kings == "traded" or st.face_up[seat]:
            return False
        return not (kings in ("locked", "no-trade") and st.trading_started)

    def blocked_reason(self, seat: int) -> str | None:
        """Why ``seat`` may not trade now (kings face up), or None."""
        st = self.state
        if st.face_up[seat] and self.rules.kings == "locked":
            return f"seat {seat} holds a face-up king and keeps it"
        if seat == st.dealer:
            return None
        target = self.left_of(seat)
        if st.face_up[target]:
            return f"seat {target} shows a king: it cannot be taken"
        return None

    # ----------------------------------------------------------------- rounds

    def start(self, t_ns: int = 0) -> list[Decision]:
        self.state.last_t = max(self.state.last_t, t_ns)
        out: list[Decision] = [GameStarted(t_ns, self.GAME, self.players, self.dealer, (1,) * self.players)]
        return out + self._new_round(t_ns, self.alive())

    def _new_round(self, t: int, seats: list[int]) -> list[Decision]:
        st = self.state
        st.round += 1
        st.seats = sorted(seats)
        n = self.players
        st.known, st.face_up, st.revealed = [None] * n, [False] * n, [None] * n
        st.seen, st.trading_started, st.pending_trade = [], False, None
        st.phase = TRADING
        st.turn = self.left_of(st.dealer)
        out: list[Decision] = [RoundStarted(t, st.round, st.dealer, tuple(st.seats))]
        return out + self._settle_turn(t)

    def _settle_turn(self, t: int) -> list[Decision]:
        """Skip the turns the face-up kings block (rule ``locked``), then announce the turn."""
        st = self.state
        out: list[Decision] = []
        while True:
            reason = self.blocked_reason(st.turn) if self.rules.kings == "locked" else None
            if reason is None:
                return [*out, TurnChanged(t, st.turn)]
            out.append(TurnSkipped(t, st.turn, reason))
            if st.turn == st.dealer:
                return out + self._close_trading(t, "the dealer has had their turn")
            st.turn = self.left_of(st.turn)

    def _next_turn(self, t: int) -> list[Decision]:
        st = self.state
        if st.turn == st.dealer:
            return self._close_trading(t, "the dealer has had their turn")
        st.turn = self.left_of(st.turn)
        return self._settle_turn(t)

    def _close_trading(self, t: int, reason: str) -> list[Decision]:
        st = self.state
        st.phase = REVEAL
        st.pending_trade = None
        for seat in st.seats:  # face-up kings are already read
            if st.face_up[seat]:
                st.revealed[seat] = st.known[seat]
        return [TradingClosed(t, reason), *self._judge_if_revealed(t)]

    # ----------------------------------------------------------------- events

    def on_event(self, event: Event) -> list[Decision]:
        t = event.t_ns
        st = self.state
        if isinstance(event, SeatAction):
            if st.phase == OVER:
                return [Rejected(t, "the game is over", event.TYPE, event.seat)]
            return self._action(t, event)
        if isinstance(event, CardSeen):
            if st.phase == OVER:
                return [Rejected(t, "the game is over", event.TYPE, event.seat)]
            return self._card(t, event)
        return []  # presses, releases and cards taken away change nothing here

    def _action(self, t: int, event: SeatAction) -> list[Decision]:
        st = self.state
        seat = event.seat
        if event.action not in ACTIONS:
            return [Rejected(t, f"the trading game takes keep or trade, not {event.action!r}", event.TYPE, seat)]
        if seat not in st.seats:
            return [Rejected(t, f"seat {seat} is not dealt in this round", event.TYPE, seat)]
        if st.phase != TRADING:
            return [Rejected(t, f"trading is over: waiting for {self.expects().action}", event.TYPE, seat)]
        if seat != st.turn:
            blocked = self.blocked_reason(seat) if self.rules.kings == "locked" else None
            why = f"{blocked}, so that turn was skipped" if blocked else "not your turn"
            return [Rejected(t, f"{why}: it is seat {st.turn}'s turn", event.TYPE, seat)]
        reason = self.blocked_reason(seat) if event.action == Action.TRADE else None
        if reason is not None:
            return [Rejected(t, f"{reason}: keep your card", event.TYPE, seat)]
        st.pending_trade = None  # the next action ends the window for showing a king
        st.trading_started = True
        if event.action == Action.KEEP:
            return [Kept(t, seat), *self._next_turn(t)]
        if seat == st.dealer:
            st.phase = DEALER_DRAW
            return [Traded(t, seat, None)]
        target = self.left_of(seat)
        st.known[seat], st.known[target] = st.known[target], st.known[seat]
        if self.rules.kings in ("cuckoo", "stop"):
            st.pending_trade = [seat, target]
        return [Traded(t, seat, target), *self._next_turn(t)]

    def _card(self, t: int, event: CardSeen) -> list[Decision]:
        assert event.card is not None
        card, st = event.card.face, self.state
        if card.is_joker:
            return [Rejected(t, "the trading game has no jokers", event.TYPE, event.seat)]
        if event.zone == STOCK:
            return self._stock_card(t, card)
        if event.zone not in (SEAT, CUT):
            return [Rejected(t, f"zone {event.zone!r} plays no part in the trading game", event.TYPE)]
        seat = event.seat
        if seat is None:
            return [Rejected(t, f"a card on a {event.zone} zone must say whose seat it is", event.TYPE)]
        if event.zone == CUT or (event.zone == SEAT and st.phase == CUTTING):  # a cut lies where the seat's card lay
            return self._cut(t, seat, card)
        if seat not in st.seats:
            return [Rejected(t, f"seat {seat} is not dealt in this round", event.TYPE, seat)]
        if st.phase == REVEAL:
            return self._reveal(t, seat, card)
        if st.phase != TRADING:
            return [Rejected(t, f"no seat cards now: waiting for {self.expects().action}", event.TYPE, seat)]
        return self._king_shown(t, seat, card)

    def _king_shown(self, t: int, seat: int, card: Card) -> list[Decision]:
        st, kings = self.state, self.rules.kings
        if card.rank is not Rank.KING:
            return [Rejected(t, "cards stay face down until the reveal; only kings are shown", "card-seen", seat)]
        if kings == "traded":
            return [Rejected(t, "kings are traded like any card: keep it face down", "card-seen", seat)]
        if st.face_up[seat]:
            return []  # the same king read again
        if not self._may_show_king(seat):
            return [Rejected(t, "dealt kings are turned up before trading starts", "card-seen", seat)]
        why = self.unknown_card(card, st.seen)
        if why is not None:
            return [Rejected(t, why, "card-seen", seat)]
        pending = st.pending_trade
        if kings in ("cuckoo", "stop") and pending is not None and pending[1] == seat:
            trader = pending[0]
            st.known[trader], st.known[seat] = st.known[seat], st.known[trader]
            self._show(seat, card)
            out: list[Decision] = [TradeBlocked(t, trader, seat, card)]
            if kings == "stop":
                out += self._close_trading(t, f"seat {seat}'s king stopped the trading")
            return out
        self._show(seat, card)
        out = [KingShown(t, seat, card, "dealt")]
        if kings == "no-trade":
            return out + self._close_trading(t, "a king is showing: no trading this deal")
        if kings == "locked" and self.blocked_reason(st.turn) is not None:
            out += self._settle_turn(t)
        return out

    def _show(self, seat: int, card: Card) -> None:
        st = self.state
        st.face_up[seat] = True
        st.known[seat] = card
        st.seen.append(card)

    def _stock_card(self, t: int, card: Card) -> list[Decision]:
        st = self.state
        dealer = st.dealer
        implicit = st.phase == TRADING and st.turn == dealer  # the dealer turned a card without a press
        if st.phase != DEALER_DRAW and not implicit:
            return [Rejected(t, "only the dealer, on their turn, draws from the stock", "card-seen")]
        if implicit:
            reason = self.blocked_reason(dealer)
            if reason is not None:
                return [Rejected(t, reason, "card-seen", dealer)]
        why = self.admit_card(card, st.seen)
        if why is not None:  # a misreading, shown again: a trade waiting on a king still may be blocked
            return [Rejected(t, why, "card-seen", dealer)]
        if implicit:
            st.pending_trade = None
        out: list[Decision] = [Traded(t, dealer, None)] if implicit else []
        kept = card.rank is Rank.KING and self.rules.kings != "traded"  # rule 1: kings have no effect
        if not kept:
            st.known[dealer] = card
        out.append(DealerDrew(t, dealer, card, kept))
        return out + self._close_trading(t, "the dealer has had their turn")

    def _reveal(self, t: int, seat: int, card: Card) -> list[Decision]:
        st = self.state
        if st.revealed[seat] is not None:
            if st.revealed[seat] == card:
                return []
            return [Rejected(t, f"seat {seat}'s card was already read as {st.revealed[seat]}", "card-seen", seat)]
        expected = st.known[seat]
        if expected is not None and expected != card:
            return [CardMismatch(t, seat, expected, card)]
        if expected is None:
            why = self.admit_card(card, st.seen)
            if why is not None:
                return [Rejected(t, why, "card-seen", seat)]
        st.revealed[seat] = card
        return [CardRevealed(t, seat, card), *self._judge_if_revealed(t)]

    # --------------------------------------------------------------- judging

    def _judge_if_revealed(self, t: int) -> list[Decision]:
        st = self.state
        if any(st.revealed[s] is None for s in st.seats):
            return []
        values = {s: self.rules.value(st.revealed[s]) for s in st.seats}  # type: ignore[arg-type]
        losers, reason = self._losers(values)
        out: list[Decision] = [RoundLost(t, tuple(losers), reason)]
        if self.rules.scoring == "points":
            out += self._score_points(t, losers)
        else:
            out += self._take_lives(t, losers)
        if st.phase == OVER or st.phase == CUTTING:
            return out
        return out + self._next_round(t)

    def _losers(self, values: dict[int, int]) -> tuple[list[int], str]:
        ties = self.rules.ties
        if ties == "lowest-unique":
            counts: dict[int, int] = {}
            for v in values.values():
                counts[v] = counts.get(v, 0) + 1
            unique = [v for v, k in counts.items() if k == 1]
            if not unique:
                return [], "no rank is unique: nobody loses"
            low = min(unique)
            return [s for s, v in values.items() if v == low], f"lowest unique rank ({_rank_name(low)})"
        low = min(values.values())
        tied = [s for s, v in values.items() if v == low]
        if ties == "nearest-dealer-left" and len(tied) > 1:
            order = self.state.seats
            start = (order.index(self.state.dealer) + 1) % len(order)
            turn_order = order[start:] + order[:start]
            first = min(tied, key=turn_order.index)
            return [first], f"lowest card ({_rank_name(low)}), tied: nearest the dealer's left loses"
        return tied, f"lowest card ({_rank_name(low)})"

    def _score_points(self, t: int, losers: list[int]) -> list[Decision]:
        st = self.state
        out: list[Decision] = []
        for seat in losers:
            st.points[seat] += 1
            out.append(PointScored(t, seat, st.points[seat]))
        if st.round >= self.rules.rounds:
            out += self._game_over(t, self._fewest_points(), f"fewest points after {st.round} rounds")
        return out

    def _take_lives(self, t: int, losers: list[int]) -> list[Decision]:
        st = self.state
        alive = self.alive()
        if losers and set(losers) == set(alive) and all(st.lives[s] == 1 for s in losers):
            return self._all_out(t, losers)
        out: list[Decision] = []
        for seat in losers:
            st.lives[seat] -= 1
            if self.rules.pot == "per-life":
                st.pot += self.rules.stake
            out.append(LifeLost(t, seat, st.lives[seat], st.pot))
            if st.lives[seat] == 0:
                out.append(PlayerOut(t, seat))
        alive = self.alive()
        if len(alive) == 1:
            out += self._game_over(t, alive, "last player in")
        return out

    def _all_out(self, t: int, seats: list[int]) -> list[Decision]:
        st = self.state
        how = self.rules.all_out
        out: list[Decision] = [AllOutTie(t, tuple(seats), how)]
        if how == "joint-winners":
            return out + self._game_over(t, seats, "joint winners: everyone left went out together")
        if how == "replay":
            return out  # they keep their last lives; the next round is dealt between them
        if how == "cut":
            st.phase, st.cutters, st.cuts = CUTTING, list(seats), {}
            return out
        added = " plus a new stake from each player" if how == "carry-new-stakes" else ""
        return out + self._game_over(t, [], f"undecided: the pot of {st.pot} carries to the next game{added}")

    def _cut(self, t: int, seat: int, card: Card) -> list[Decision]:
        st = self.state
        if st.phase != CUTTING:
            return [Rejected(t, "nobody is cutting for the pot now", "card-seen", seat)]
        if seat not in st.cutters:
            return [Rejected(t, f"seat {seat} is not cutting for the pot", "card-seen", seat)]
        if str(seat) in st.cuts:
            return (
                []
                if st.cuts[str(seat)] == card
                else [Rejected(t, f"seat {seat} already cut {st.cuts[str(seat)]}", "card-seen", seat)]
            )
        why = self.unknown_card(card, list(st.cuts.values()))
        if why is not None:
            return [Rejected(t, why, "card-seen", seat)]
        st.cuts[str(seat)] = card
        out: list[Decision] = [CutCard(t, seat, card)]
        if len(st.cuts) < len(st.cutters):
            return out
        values = {s: self.rules.value(st.cuts[str(s)]) for s in st.cutters}
        high = max(values.values())
        best = [s for s, v in values.items() if v == high]
        if len(best) == 1:
            return out + self._game_over(t, best, f"highest cut ({_rank_name(high)}) takes the pot")
        st.cutters, st.cuts = best, {}
        return [*out, AllOutTie(t, tuple(best), "cut again")]

    def carried_over(self) -> dict[str, Any]:
        """An undecided game's pot goes to the next game (``all_out``: carry, carry-new-stakes)."""
        st = self.state
        carried = self.rules.all_out in ("carry", "carry-new-stakes")
        return {"pot_carried": st.pot} if st.phase == OVER and not st.winners and carried and st.pot else {}

    def end_game(self, t: int) -> list[Decision]:
        """The players end the game where it stands: fewest points (or most lives) win."""
        st = self.state
        if self.rules.scoring == "points":  # the round under way counts for nothing
            played = counted(st.round - 1, "round")
            return self._game_over(t, self._fewest_points(), f"ended by the players: fewest points after {played}")
        high = max(st.lives)
        winners = [s for s in range(self.players) if st.lives[s] == high]
        return self._game_over(t, winners, "ended by the players: most lives left")

    def _fewest_points(self) -> list[int]:
        low = min(self.state.points)
        return [s for s in range(self.players) if self.state.points[s] == low]

    def _game_over(self, t: int, winners: list[int], reason: str) -> list[Decision]:
        st = self.state
        st.phase, st.winners = OVER, sorted(winners)
        return [GameOver(t, tuple(st.winners), self.scores(), reason, st.pot)]

    def _next_round(self, t: int) -> list[Decision]:
        st = self.state
        alive = self.alive()
        for step in range(1, self.players + 1):  # the deal passes left, to a seat still in
            seat = (st.dealer + step) % self.players
            if seat in alive:
                st.dealer = seat
                break
        return self._new_round(t, alive)


def _rank_name(value: int) -> str:
    return {1: "ace", 11: "jack", 12: "queen", 13: "king", 14: "ace"}.get(value, str(value))

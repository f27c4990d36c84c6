"""The shedding game (Screw Your Neighbour as a Crazy Eights variant) as a pure referee.

Hands are hidden. The camera sees the discard pile (``pile`` zone): the turned card and each card
played onto it, taken to be the play of the seat whose turn it is. Cards seen within
``match_window_ms`` of the first card of a play join it as a match when they make one; the play's
effects are settled when the window has passed (``advance``) or another input comes. A seat's
safe card leaving its place is a ``CardGone`` in that seat's zone. Buttons carry the rest, as
``SeatAction``: ``draw``, ``pass``, ``accept`` (take what a two, queen or four asks), ``choose``
(value: option N from 1; 0 the default), ``last-card``, ``challenge``, ``leave`` (the dealer
leaves the turned card) and ``red-aces`` (the dealer says the deal left two or fewer over); or
the seat gestures ``taps`` (value N) and ``hold``, read in context (docs/games/eights.md).

The referee keeps every hand's size, the stock's and the pile's, so the two decks are conserved:
hands + safe cards + stock + pile = every card.
"""

from __future__ import annotations

import copy
from enum import StrEnum

from table.cards import SUIT_NAMES
from table.decisions import CountCorrected, Decision, GameStarted, Rejected, TurnSkipped
from table.events import OUT_OF_CARDS, ButtonPressed, ButtonReleased, CardGone, CardSeen, Event, SeatAction
from table.games.eights.decisions import ChoiceMade, LastCardCalled, LastCardCaught
from table.games.eights.plays import EightsPlays
from table.games.eights.state import (
    CHOOSE,
    DEAL_PHASES,
    DEALER_DISCARD,
    DEALER_OPTION,
    MS,
    NOBODY,
    OVER,
    PILE,
    PLAY,
    SEAT_ZONE,
    TURN_UP,
    EightsState,
)
from table.referee import Expectation, GameView

__all__ = ["CHOOSE", "OVER", "PLAY", "EightsReferee", "EightsState"]


class Action(StrEnum):
    """A seat's action in the shedding game. Its buttons give ``taps`` (a count) and ``hold``,
    which mean the others where the game stands (``_meaning``)."""

    TAPS = "taps"
    HOLD = "hold"
    CHOOSE = "choose"  # an option of a choice offered, by its number (0: the default)
    LAST_CARD = "last-card"
    CHALLENGE = "challenge"  # a seat caught holding one card unannounced
    RED_ACES = "red-aces"
    LEAVE = "leave"  # the dealer leaves the turned card
    DRAW = "draw"
    PASS = "pass"
    ACCEPT = "accept"  # the cards or turns owed
    PLAY_HOLD = "play-hold"  # a hold in turn: draw, pass or accept, whichever applies


TAKE = "take"  # expected of the dealer when the turned card is a joker: it must be taken
GOING_ON = frozenset({Action.HOLD, Action.DRAW, Action.PASS, Action.ACCEPT})  # a player's actions that end its play


class EightsReferee(EightsPlays):
    GAME = "eights"
    NAME = "the shedding game"

    def view(self) -> GameView:
        st = self.state
        score = "wins" if self.rules.scoring == "wins" else "cards left"
        held = [f"{h}+1" if safe else str(h) for h, safe in zip(st.hands, st.safe, strict=True)]
        one_round = self.rules.rounds == 1
        return GameView(
            score=score,
            scores=tuple(st.totals),
            counts="cards held (+ safe card)" if one_round else f"{score} (cards held)",
            shown=tuple(held if one_round else (f"{t} ({h})" for t, h in zip(st.totals, held, strict=True))),
            middle=(f"pile of {len(st.pile)}, " if st.pile else "")
            + f"{SUIT_NAMES.get(st.suit or '', 'any suit')}; stock {st.stock}",
            cards=tuple(c.code for c in st.pile[-4:]),
            round=int(st.round),
            phase="over" if self.finished else str(st.phase),
            dealer=st.dealer,
            winners=tuple(st.winners or ()),
            fewest_best=self.rules.scoring != "wins",
            facts=self._facts(),
            notes=tuple(self._note(seat) for seat in range(self.players)),
        )

    def _facts(self) -> tuple[tuple[str, str], ...]:
        st = self.state
        facts = [("direction", "to the left" if st.direction == 1 else "to the right")]  # the rest is in `middle`
        if st.owed:
            facts.append(("draw owed", f"seat {st.turn} draws {st.owed}"))
        if st.skips:
            facts.append(("turns to miss", str(st.skips)))
        return tuple(facts)

    def _note(self, seat: int) -> str:
        st = self.state
        said = [
            "last card!" if seat < len(st.called) and st.called[seat] else "",
            "safe card" if seat < len(st.safe) and st.safe[seat] else "",
        ]
        return ", ".join(part for part in said if part)

    def expects(self) -> Expectation:
        st = self.state
        if st.phase == OVER:
            return Expectation("none", None, "game over")
        if st.phase == TURN_UP:
            return Expectation("turn-up", st.dealer, "turn up the stock's top card onto the pile")
        if st.phase == DEALER_OPTION and st.must_take:
            return Expectation(TAKE, st.dealer, "take the turned joker and discard")
        if st.phase == DEALER_OPTION:
            return Expectation("take-or-leave", st.dealer, "take the turned card and discard, or hold to leave it")
        if st.phase == DEALER_DISCARD:
            return Expectation("discard", st.dealer, "discard any card")
        if st.phase == CHOOSE:
            c = st.choices[0]
            taps = ", ".join(f"{i} {o}" for i, o in enumerate(c["options"], 1))
            return Expectation(Action.CHOOSE, c["seat"], f"{c['kind']}: taps {taps}; hold: {c['default']}")
        if self.wakeup() is not None:  # the play just laid is open to a match
            return Expectation("match-or-done", st.turn, "lay a match, or hold: done")
        if st.owed:
            return Expectation("draw-or-stack", st.turn, f"draw {st.owed}, stack or shield")
        if st.skips:
            return Expectation("miss-or-stack", st.turn, f"miss {st.skips} turn(s) or play a four")
        if self.king_run() and st.drawn:
            return Expectation("king-or-pass", st.turn, f"a king, or hold: pass and draw {st.kings}")
        if self.king_run():
            return Expectation("king-or-draw", st.turn, f"a king, or draw {st.kings} after a card")
        if st.drawn:
            return Expectation("play-or-pass", st.turn, "play a card, or hold to pass")
        return Expectation("play", st.turn, "play a card, or hold to draw")

    def legal_actions(self) -> dict[int, frozenset[str]]:
        """What ``expects`` waits for; and what other seats may do at the same time: the player
        after a play that waits (a choice, a match, the dealer's option) plays on, a seat down
        to its last card calls it, anyone catches a seat that did not, the dealer claims red aces."""
        if self.finished:
            return {}
        st = self.state
        expected = self.expects()
        out: dict[int, set[str]] = {expected.seat: {expected.action}} if expected.seat is not None else {}
        plays_on = self._plays_on()
        if plays_on is not None:
            out.setdefault(plays_on, set()).add("play")
        owing = [s for s in range(self.players) if self.owes_call(s)]
        for seat in range(self.players):
            if self._why_no_call(seat) is None:
                out.setdefault(seat, set()).add(Action.LAST_CARD)
            if any(s != seat for s in owing):
                out.setdefault(seat, set()).add(Action.CHALLENGE)
        if self._why_no_red_aces(st.dealer) is None:
            out.setdefault(st.dealer, set()).add(Action.RED_ACES)
        return {seat: frozenset(actions) for seat, actions in out.items()}

    def start(self, t_ns: int = 0) -> list[Decision]:
        self.state.last_t = max(self.state.last_t, t_ns)
        sizes = (self.rules.hand_size,) * self.players
        return [GameStarted(t_ns, self.GAME, self.players, self.dealer, sizes), *self._new_round(t_ns)]

    def advance(self, t_ns: int) -> list[Decision]:
        end = self.wakeup()
        return self._close(end) if end is not None and t_ns >= end else []

    def wakeup(self) -> int | None:
        """When the play open to a match closes (None: no play is open)."""
        st = self.state
        return st.open_t + self.rules.match_window_ms * MS if st.open_cards and st.phase == PLAY else None

    def on_event(self, event: Event) -> list[Decision]:
        t, st = event.t_ns, self.state
        if isinstance(event, (ButtonPressed, ButtonReleased)):
            return []  # the gesture layer's input: seat actions carry the meaning
        if st.phase == OVER:
            if isinstance(event, (SeatAction, CardSeen)):
                return [Rejected(t, "the game is over", event.TYPE, getattr(event, "seat", None))]
            return []
        out: list[Decision] = []
        # A play open to a match closes when its window ends (``advance``, before any input
        # after it) or when its player goes on (a tap while laying a match, "last card" say,
        # leaves it open).
        going_on = isinstance(event, SeatAction) and event.seat == st.turn and event.action in GOING_ON
        if going_on and self.wakeup() is not None:
            # The player says its play is done, and nothing more: a choice the play leaves it
            # takes its default.
            out += self._close(t)
            if self.state is st and st.phase == CHOOSE and st.choices[0]["seat"] == event.seat:
                out += self._choose(t, event.seat, 0)
            return out
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

    def _action(self, t: int, seat: int, action: str, value: int | None) -> list[Decision]:
        st = self.state
        if action == Action.TAPS and not value:
            return [Rejected(t, "no taps counted: tap 1 to 4 times, or hold", "action", seat)]
        if action in (Action.TAPS, Action.HOLD):
            action, value = self._meaning(seat, action, value or 0)
        if action == OUT_OF_CARDS:
            return self._out_of_cards(t, seat)
        if action == Action.CHOOSE:
            if not st.choices or st.choices[0]["seat"] != seat:
                return [Rejected(t, "nothing to choose now", "action", seat)]
            return self._choose(t, seat, value or 0)
        if action == Action.LAST_CARD:
            return self._call(t, seat)
        if action == Action.CHALLENGE:
            return self._challenge(t, seat)
        if action == Action.RED_ACES:
            return self._red_aces(t, seat)
        if action == Action.LEAVE:
            if st.phase != DEALER_OPTION or seat != st.dealer:
                return [Rejected(t, "only the dealer leaves the turned card, before play starts", "action", seat)]
            if st.must_take:
                return [Rejected(t, "a turned joker goes to the dealer: take it and discard", "action", seat)]
            return self._start_play(t)
        if action in (Action.DRAW, Action.PASS, Action.ACCEPT, Action.PLAY_HOLD):
            out: list[Decision] = []
            chooser = st.choices[0]["seat"] if st.phase == CHOOSE else None
            if chooser is not None and seat == self.step(chooser):  # the next player goes on
                trial = copy.deepcopy(self)
                tried = trial._default_choices(t) + trial._turn_action(t, seat, action)
                refused = [d for d in tried if isinstance(d, Rejected)]
                if refused:  # a draw, pass or accept it may not make: the choice still waits
                    return refused
                out += self._default_choices(t)
            return out + self._turn_action(t, seat, action)
        return [Rejected(t, f"the shedding game takes no action {action!r}", "action", seat)]

    def _meaning(self, seat: int, gesture: str, taps: int) -> tuple[str, int | None]:
        """What a seat's taps or hold mean where the game stands (docs/games/eights.md)."""
        st = self.state
        if st.choices and st.choices[0]["seat"] == seat:
            return Action.CHOOSE, 0 if gesture == Action.HOLD else taps
        if st.phase in DEAL_PHASES and seat == st.dealer:
            return (Action.LEAVE, None) if gesture == Action.HOLD else (Action.RED_ACES, None)
        if gesture == Action.HOLD:
            return Action.PLAY_HOLD, None
        if 0 < self.held(seat) <= 2 and not st.called[seat]:
            return Action.LAST_CARD, None
        return Action.CHALLENGE, None

    def _turn_action(self, t: int, seat: int, action: str) -> list[Decision]:
        st = self.state
        if st.phase != PLAY or seat != st.turn:
            expected = self.expects()
            if seat != expected.seat:
                return [Rejected(t, f"not your turn: seat {expected.seat}: {expected.detail}", "action", seat)]
            return [Rejected(t, f"not now: {expected.detail}", "action", seat)]
        if action == Action.PLAY_HOLD:
            action = Action.ACCEPT if st.owed or st.skips else Action.PASS if st.drawn else Action.DRAW
        elif action == Action.DRAW and st.owed:
            action = Action.ACCEPT  # the draw owed
        if action == Action.ACCEPT:
            return self._accept(t, seat)
        if st.owed or st.skips:
            return [Rejected(t, f"first {self.expects().detail}", "action", seat)]
        if action == Action.DRAW:
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
        st.bomb_by = NOBODY  # a bomb is answered by the next player's play, or not at all
        return out + self._next(t, seat)

    def _accept(self, t: int, seat: int) -> list[Decision]:
        st = self.state
        if st.owed or st.skips:
            st.bomb_by = NOBODY  # the bomb is answered by this, not by a pair of sevens
        if st.owed:
            out = self._draw(t, seat, st.owed, st.owed_kind)
            out.append(TurnSkipped(t, seat, f"drew {st.owed}"))
            st.owed, st.owed_split = st.owed_split, 0
            st.owed_locked = bool(st.owed)
            st.active_from = max(st.active_from, st.play_from)  # the latest play stays active
            return out + self._next(t, seat)
        if st.skips:
            # Each active four skips one player, the count going on round the table: three fours
            # at three players skip everyone once, the one who laid the last of them too.
            missed = [self.step(seat, k) for k in range(st.skips)]
            st.skips = 0
            st.active_from = max(st.active_from, st.play_from)  # the latest play stays active
            out = [TurnSkipped(t, s, "a four") for s in missed]
            return out + self._next(t, missed[-1])
        return [Rejected(t, "nothing to take: play a card or hold to draw", "action", seat)]

    def _call(self, t: int, seat: int) -> list[Decision]:
        why = self._why_no_call(seat)
        if why is not None:
            return [Rejected(t, why, "action", seat)]
        self.state.called[seat] = True
        return [LastCardCalled(t, seat)]

    def _why_no_call(self, seat: int) -> str | None:
        """Why ``seat`` may not call "last card" now (None: it may)."""
        if not self.rules.last_card_penalty:
            return "no one calls last card with these rules"
        if not 0 < self.held(seat) <= 2:
            return f"you hold {self.held(seat)} cards: call last card with one left"
        return None

    def _challenge(self, t: int, by: int) -> list[Decision]:
        owing = [s for s in range(self.players) if s != by and self.owes_call(s)]
        if not owing:
            return [Rejected(t, "nobody holds one card unannounced", "action", by)]
        out: list[Decision] = []
        for s in owing:
            out.append(LastCardCaught(t, s, by))
            out += self._draw(t, s, self.rules.last_card_penalty, "last-card")
        return out

    def _out_of_cards(self, t: int, seat: int) -> list[Decision]:
        """The player holds no card where the referee counts some (a card played unseen, a draw
        counted that never was): its word is taken, the cards counted are somewhere under the
        pile, and a player out of cards has won."""
        counted = self.total(seat)
        if not counted:
            return [Rejected(t, "you hold no card by the count already", "action", seat)]
        st = self.state
        st.unseen += counted
        st.hands[seat], st.safe[seat] = 0, False
        st.open_cards, st.choices = [], []
        return [CountCorrected(t, seat, counted), *self._round_won(t, seat)]

    def _red_aces(self, t: int, seat: int) -> list[Decision]:
        why = self._why_no_red_aces(seat)
        if why is not None:
            return [Rejected(t, why, "action", seat)]
        self.state.red_aces = True
        return [ChoiceMade(t, seat, "red-aces", "on")]

    def _why_no_red_aces(self, seat: int) -> str | None:
        """Why ``seat`` may not claim red aces now (None: it may)."""
        st = self.state
        if not self.rules.red_aces:
            return "red aces are off with these rules"
        # Before play starts: no card laid, none drawn since the turned card left the stock.
        turned = self.pack_size - self.rules.hand_size * self.players - 1
        if seat != st.dealer or st.plays > 0 or (st.phase != TURN_UP and st.stock != turned):
            return "only the dealer claims red aces, before play starts"
        return None

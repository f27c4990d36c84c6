"""Seat lights follow the game: the referee's decisions become each seat's light pattern.

Each seat's light has a standing pattern, where the game stands for that seat, and over it a
short message when something happens to the seat; when the message has played, the standing
pattern comes back. Pure like the games: decisions in, patterns out, time given (``now_ns``),
so the simulator's lights are the table's. The mapping (README, "Seat lights"):

standing, first that applies:
    paused (a fault: camera lost, board unplugged)   every seat amber, slow blink
    game over                                        the winners green pulse, the rest off
    show that card again (vision unsure)             the seat that played it amber, fast blink
    the referee waits on this seat to choose          white, blinking
    the referee waits on this seat (its turn)        white, steady
    the dealer of a round game                       blue, steady
    out of the game                                  dim red, steady
    otherwise                                        off
messages (each seat's latest replaces the one before):
    pile or trick won                                green, 3 flashes
    bad slap                                         red, 2 flashes
    a life or the round lost                         red, 3 flashes
    out of the game                                  red, 5 flashes
    trade blocked by a king                          the trader amber, the king's seat blue, 2 flashes
    an input refused (a bid that may not be made)    magenta, 2 flashes
    a bid taken                                      amber, one flash a trick bid (one long one for 0)
    the camera saw another card than the hand held   amber, 3 flashes
    a card that does not go (take it back)           magenta, 2 flashes
    cards to draw or turns to miss (a two, a four)    red, 2 flashes
    caught without saying "last card"                red, 3 flashes (the catcher green)
    "last card" said, a game of several won          green, 1 or 3 flashes
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from table.decisions import (
    BadSlap,
    CardMismatch,
    CardPlayed,
    Decision,
    GameOver,
    GameStarted,
    GameWon,
    PileWon,
    PlayerBackIn,
    PlayerOut,
    Rejected,
    RoundStarted,
)
from table.games.cuckoo_decisions import LifeLost, RoundLost, TradeBlocked
from table.games.eights_decisions import DrawOwed, LastCardCalled, LastCardCaught, Misplay, RoundWon
from table.games.ohhell_decisions import BidMade, TrickWon
from table.lights import AMBER, BLUE, GREEN, OFF, RED, WHITE, Colour, Pattern, blink, count_back, flash, pulse, steady

MAGENTA: Colour = (255, 0, 255)
DIM_RED: Colour = (90, 0, 0)

PAUSED = blink(AMBER, period_ms=2000)
WINNER = pulse(GREEN)
SHOW_AGAIN = blink(AMBER, period_ms=300)
TURN = steady(WHITE)
CHOOSE = blink(WHITE, period_ms=600)
DEALER = steady(BLUE)
OUT = steady(DIM_RED)

WON = flash(3, GREEN)
BAD_SLAP = flash(2, RED)
LOST = flash(3, RED)
KNOCKED_OUT = flash(5, RED)
BLOCKED = flash(2, AMBER)
BLOCKER = flash(2, BLUE)
REFUSED = flash(2, MAGENTA)
MISMATCH = flash(3, AMBER)
HIT = BAD_SLAP  # cards or turns owed: the same two red flashes
CALLED = flash(1, GREEN)

MS = 1_000_000


def _messages(d: Decision) -> dict[int, Pattern]:
    """The messages one decision gives, by seat."""
    if isinstance(d, PileWon | TrickWon):
        return {d.seat: WON}
    if isinstance(d, BadSlap):
        return {d.seat: BAD_SLAP}
    if isinstance(d, LifeLost):
        return {d.seat: LOST}
    if isinstance(d, RoundLost):
        return dict.fromkeys(d.seats, LOST)
    if isinstance(d, PlayerOut):
        return {d.seat: KNOCKED_OUT}
    if isinstance(d, TradeBlocked):
        return {d.seat: BLOCKED, d.by_seat: BLOCKER}
    if isinstance(d, Rejected) and d.seat is not None:
        return {d.seat: REFUSED}
    if isinstance(d, BidMade):
        return {d.seat: count_back(d.bid)}
    if isinstance(d, CardMismatch):
        return {d.seat: MISMATCH}
    if isinstance(d, Misplay):
        return {d.seat: REFUSED}
    if isinstance(d, DrawOwed):
        return {d.seat: HIT}
    if isinstance(d, LastCardCaught):
        return {d.seat: LOST, d.by: WON}
    if isinstance(d, LastCardCalled):
        return {d.seat: CALLED}
    if isinstance(d, RoundWon):
        return {d.seat: WON}
    return {}


@dataclass
class Signals:
    """What each seat's light shows, kept up to date from the referee's decisions."""

    seats: int
    dealer: int | None = None  # a round game's dealer (None: the game has none)
    out: set[int] = field(default_factory=set)
    winners: tuple[int, ...] | None = None  # None until the game is over
    waiting_on: int | None = None  # the seat the referee waits on
    choosing: bool = False  # ... to choose (a suit, whose hand to take)
    unsure: int | None = None  # the seat asked to show its card again
    paused: bool = False
    _messages: dict[int, tuple[Pattern, int]] = field(default_factory=dict)  # seat: (message, until)
    _sent: dict[int, tuple[Pattern, int | None]] = field(default_factory=dict)  # seat: (pattern, its message's end)

    def decided(self, d: Decision, referee: Any, now_ns: int) -> None:
        """One decision, made at ``now_ns`` (its messages play from then); ``referee`` is asked
        whom it waits on now."""
        if isinstance(d, GameStarted):
            self.out, self.winners, self.unsure, self._messages = set(), None, None, {}
            self.dealer = d.dealer if referee.GAME != "ers" else None
        elif isinstance(d, RoundStarted):
            self.dealer = d.dealer
            self.out = set(range(self.seats)) - set(d.seats)
        elif isinstance(d, PlayerOut):
            self.out.add(d.seat)
        elif isinstance(d, PlayerBackIn):
            self.out.discard(d.seat)
        elif isinstance(d, LifeLost) and d.lives == 0:
            self.out.add(d.seat)
        elif isinstance(d, GameWon):
            self.winners = (d.seat,)
        elif isinstance(d, GameOver):
            self.winners = d.winners
        elif isinstance(d, CardPlayed):
            self.unsure = None
        for seat, message in _messages(d).items():
            if 0 <= seat < self.seats:
                self._messages[seat] = (message, now_ns + _length_ns(message))
        expected = referee.expects()
        self.waiting_on = expected.seat if expected.action not in ("none", "") else None
        self.choosing = expected.action == "choose"

    def show_again(self, seat: int | None) -> None:
        """Vision could not read the card ``seat`` played (None: it can read it now)."""
        self.unsure = seat

    def patterns(self, now_ns: int) -> list[Pattern]:
        """Each seat's pattern at ``now_ns``: its message while it plays, else its standing one."""
        return [shown for shown, _ in self._wanted(now_ns)]

    def changes(self, now_ns: int) -> dict[int, Pattern]:
        """The seats whose light must be told something new at ``now_ns``, and what: a pattern
        that differs from the one last told, or a message again (two bad slaps flash twice)."""
        out = {}
        for seat, wanted in enumerate(self._wanted(now_ns)):
            if self._sent.get(seat) != wanted:
                self._sent[seat] = wanted
                out[seat] = wanted[0]
        return out

    def _wanted(self, now_ns: int) -> list[tuple[Pattern, int | None]]:
        out: list[tuple[Pattern, int | None]] = []
        for seat in range(self.seats):
            message = self._messages.get(seat)
            if message is not None and now_ns < message[1] and not self.paused:
                out.append(message)
            else:
                out.append((self.standing(seat), None))
        return out

    def standing(self, seat: int) -> Pattern:
        """The seat's pattern between messages."""
        if self.paused:
            return PAUSED
        if self.winners is not None:
            return WINNER if seat in self.winners else OFF
        if seat == self.unsure:
            return SHOW_AGAIN
        if seat == self.waiting_on:
            return CHOOSE if self.choosing else TURN
        if seat == self.dealer:
            return DEALER
        return OUT if seat in self.out else OFF

    def next_change(self, now_ns: int) -> int | None:
        """When a message playing at ``now_ns`` ends (the table's loop shows the standing pattern then)."""
        ends = [until for _, until in self._messages.values() if until > now_ns]
        return min(ends, default=None)


def _length_ns(message: Pattern) -> int:
    return max(message.count, 1) * message.period_ms * MS

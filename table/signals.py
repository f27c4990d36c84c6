"""Seat lights follow the game: the referee's decisions become each seat's light pattern.

Each seat's light has a standing pattern, where the game stands for that seat, and over it a
short message when something happens to the seat; when the message has played, the standing
pattern comes back. Pure like the games: decisions in, patterns out, time given (``now_ns``),
so the simulator's lights are the table's. The mapping (docs/hardware.md, "What the lights say"):

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
from table.games import game_of
from table.games.game import Bid, News, SeatNews
from table.lights import AMBER, BLUE, GREEN, OFF, RED, WHITE, Colour, Pattern, blink, count_back, flash, pulse, steady
from table.units import MS

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


# What each seat's news shows (a game's own decisions tell it: ``Game.news``).
NEWS = {
    SeatNews.WON: WON,
    SeatNews.BAD_SLAP: BAD_SLAP,
    SeatNews.LOST: LOST,
    SeatNews.KNOCKED_OUT: KNOCKED_OUT,
    SeatNews.BLOCKED: BLOCKED,
    SeatNews.BLOCKER: BLOCKER,
    SeatNews.REFUSED: REFUSED,
    SeatNews.MISMATCH: MISMATCH,
    SeatNews.OWES: HIT,
    SeatNews.CALLED: CALLED,
}


def _shared_news(d: Decision) -> dict[int, News]:
    """The news of the decisions games share."""
    if isinstance(d, PileWon):
        return {d.seat: SeatNews.WON}
    if isinstance(d, BadSlap):
        return {d.seat: SeatNews.BAD_SLAP}
    if isinstance(d, PlayerOut):
        return {d.seat: SeatNews.KNOCKED_OUT}
    if isinstance(d, Rejected) and d.seat is not None:
        return {d.seat: SeatNews.REFUSED}
    if isinstance(d, CardMismatch):
        return {d.seat: SeatNews.MISMATCH}
    return {}


def _messages(d: Decision, referee: Any) -> dict[int, Pattern]:
    """The messages one decision gives, by seat."""
    news = game_of(referee).news(d) or _shared_news(d)
    return {seat: count_back(n.tricks) if isinstance(n, Bid) else NEWS[n] for seat, n in news.items()}


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
            self.dealer = d.dealer if game_of(referee).deals else None
        elif isinstance(d, RoundStarted):
            self.dealer = d.dealer
            self.out = set(range(self.seats)) - set(d.seats)
        elif isinstance(d, PlayerOut):
            self.out.add(d.seat)
        elif isinstance(d, PlayerBackIn):
            self.out.discard(d.seat)
        elif (out := game_of(referee).puts_out(d)) is not None:
            self.out.add(out)
        elif isinstance(d, GameWon):
            self.winners = (d.seat,)
        elif isinstance(d, GameOver):
            self.winners = d.winners
        elif isinstance(d, CardPlayed):
            self.unsure = None
        if (
            self.unsure is not None
            and getattr(d, "seat", None) == self.unsure
            and not isinstance(d, Rejected | CardMismatch)
        ):
            self.unsure = None  # the card shown again was taken, however the game takes it
        for seat, message in _messages(d, referee).items():
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

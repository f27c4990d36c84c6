"""What the rest of the table knows of a game: one ``Game`` a game, in its own package under
``table/games/`` and named once in the registry (``table.games.GAMES``).

The referee decides; the outputs show what it decided. Everything an output needs that differs
from game to game is here (its name and title, its lines for the terminal, what its decisions
tell a seat's light, its gestures) or in the referee's ``view``, so no output asks which game it
shows.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Protocol

from table.decisions import Decision
from table.referee import Referee

Line = tuple[str, str]  # a line of text and its style (rich's: "bold red", "" for none)


class SeatNews(StrEnum):
    """Something that happened to a seat, which its light flashes (``table.signals``)."""

    WON = "won"  # a pile, a trick or a round
    BAD_SLAP = "bad-slap"
    LOST = "lost"  # a life, or the round
    KNOCKED_OUT = "knocked-out"
    BLOCKED = "blocked"  # a trade refused by a king
    BLOCKER = "blocker"  # ... the king's seat
    REFUSED = "refused"  # an input the rules refuse, a card that does not go
    MISMATCH = "mismatch"  # the camera saw another card than the hand held
    OWES = "owes"  # cards to draw or turns to miss
    CALLED = "called"  # "last card" said


@dataclass(frozen=True, slots=True)
class Bid:
    """A bid taken: its light flashes once a trick bid (one long flash for none)."""

    tricks: int


News = SeatNews | Bid


class Names(Protocol):
    """How a game's lines name the seats, and what the table counts as a close call."""

    names: Sequence[str]

    def name(self, seat: int | None) -> str: ...

    def seats(self, values: Sequence[int]) -> str:
        """Each seat's value after its name: "Ann 1, Bob 0"."""

    def close_call_ns(self) -> int: ...


def _no_lines(d: Decision, referee: Referee, names: Names) -> Line | None:
    return None


def _no_news(d: Decision) -> dict[int, News]:
    return {}


def _nobody_out(d: Decision) -> int | None:
    return None


def _always(rules: Any) -> bool:
    return True


def _the_pile(rules: Any) -> tuple[str, ...]:
    return ("pile",)


@dataclass(frozen=True)
class Game:
    """A game the table referees, as the table around its referee knows it."""

    name: str  # as configurations, commands and journals name it: "ers", "oh-hell"
    title: str  # as the terminal heads it: "Egyptian Rat Screw"
    rules: type  # its rules value (``table.rules``)
    referee: type[Referee]
    preset: str  # its standard preset, of those in its package's ``presets/``
    # Which gesture means which seat action (``table.gestures``); slaps are the raw presses.
    gestures: Mapping[str, str] = field(default_factory=dict)
    # Whether the gestures mean anything under these rules (a house rule may be the only use).
    gestures_used: Callable[[Any], bool] = _always
    timed_races: bool = False  # every press is a slap; slaps race, decided by each button edge's own time
    deals: bool = True  # a seat deals each round, and its light says so
    played_to: str = "pile"  # where a card played goes, as the terminal says it ("trick")
    # The terminal's line for a decision of the game's own, None for the rest (``table.terminal_view``).
    lines: Callable[[Decision, Referee, Names], Line | None] = _no_lines
    # What a decision of the game's own tells the seats' lights (``table.signals``).
    news: Callable[[Decision], dict[int, News]] = _no_news
    # The seat a decision of the game's own puts out of the game (a last life lost), if any.
    puts_out: Callable[[Decision], int | None] = _nobody_out
    # The kinds of zone the game reads cards on under these rules ("seat": every seat's own).
    zones_read: Callable[[Any], tuple[str, ...]] = _the_pile

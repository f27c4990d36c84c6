"""The referee protocol: the rules of one game as a pure state machine.

``handle(event) -> decisions``; no I/O, no clock, randomness only from the seeded generator it
was given. Events must come in the sequencer's order (``Event.sort_key``). Decisions that must
wait to know that no other input shares a timestamp (a slap tie) are made when a later event
arrives or when ``advance(t_ns)`` says that time has passed: replay and live play give the same
decisions in the same order either way.
"""

from __future__ import annotations

import copy
import random
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any, ClassVar, Self

from table.decisions import Decision
from table.errors import CardtableError
from table.events import Event


class GameSetupError(CardtableError, ValueError):
    """A game that cannot be set up as asked (players, dealer, deal, snapshot)."""


@dataclass(frozen=True, slots=True)
class Expectation:
    """What the referee waits for next: ``action`` by ``seat`` (None: any seat or nobody)."""

    action: str
    seat: int | None = None
    detail: str = ""


@dataclass(frozen=True, slots=True)
class GameView:
    """What an onlooker is shown of a game, alike for every game: the outputs (terminal,
    scoreboard, MQTT, Home Assistant) read this, never a game's own state."""

    score: str  # what each seat's score counts: "cards", "lives", "points", "wins", "cards left"
    scores: tuple[int, ...]  # a seat's score as one number
    counts: str  # what each seat's count as shown says ("score (bid/taken)")
    shown: tuple[str, ...]  # a seat's count as shown ("12 (3/2)")
    middle: str  # what lies in the middle of the table ("pile of 12", "trick 3, hearts are trumps")
    cards: tuple[str, ...]  # the cards showing there, oldest first
    round: int | None  # the round (or hand) under way, from 1; None in a game without rounds
    phase: str  # the phase of play ("playing", "challenge", "bidding", "over", ...)
    dealer: int | None  # None where no seat deals
    out: tuple[int, ...] = ()  # the seats out of the game
    winners: tuple[int, ...] = ()  # once it is over
    fewest_best: bool = False  # the lowest score leads (penalty points, cards left)
    beside: tuple[tuple[str, str], ...] = ()  # cards shown beside the middle's, named: ("trump card", "QH")
    # What else an onlooker wants to know, as labelled values ("pot", "3"), for the scoreboard's
    # middle; a short note per seat ("bid 2, took 1", "safe card", "last card!"); and a score
    # table by round, its first row the headings. Outputs name "seat 2" (``table.narration.named``).
    facts: tuple[tuple[str, str], ...] = ()
    notes: tuple[str, ...] = ()
    history: tuple[tuple[str, ...], ...] = ()


class Referee(ABC):
    GAME: ClassVar[str]
    # Attributes a copy shares with its referee (``copy.deepcopy``): never changed once made.
    SHARED_ON_COPY: ClassVar[frozenset[str]] = frozenset({"rules"})

    def __deepcopy__(self, memo: dict[int, Any]) -> Self:
        """A copy to try an input on: what ``SHARED_ON_COPY`` names shared, a seeded generator
        copied by its state (far quicker than deep), the rest deep-copied."""
        clone = object.__new__(type(self))
        memo[id(self)] = clone
        for name, value in self.__dict__.items():
            if name in self.SHARED_ON_COPY:
                clone.__dict__[name] = value
            elif isinstance(value, random.Random):
                clone.__dict__[name] = twin = random.Random()
                twin.setstate(value.getstate())
            else:
                clone.__dict__[name] = copy.deepcopy(value, memo)
        return clone

    @abstractmethod
    def start(self, t_ns: int = 0) -> list[Decision]:
        """The opening decisions (the game, the deal, whose turn it is)."""

    @abstractmethod
    def handle(self, event: Event) -> list[Decision]:
        """Apply one input event; illegal or impossible ones yield a ``Rejected`` decision."""

    def advance(self, t_ns: int) -> list[Decision]:
        """Every input up to ``t_ns`` has been handed over: settle what waited on simultaneity."""
        return []

    def cards_held(self, seat: int) -> int | None:
        """How many cards the referee counts in ``seat``'s hand (None: the game counts no hands)."""
        return None

    def wakeup(self) -> int | None:
        """The moment from which ``advance`` would decide something (a play's match window
        closing), for a table with no input to wake it; None: nothing waits on time."""
        return None

    @abstractmethod
    def expects(self) -> Expectation:
        """Whose turn it is and which input would move the game on."""

    def legal_actions(self) -> dict[int, frozenset[str]]:
        """What each seat may do now, by seat (as python-chess's ``legal_moves``): the inputs the
        referee would take from it rather than refuse. Seats that may do nothing are left out.
        By default the one action ``expects`` names, of the seat it names; a game where several
        seats may act at once (slaps, cards turned up together) says so itself."""
        expected = self.expects()
        if expected.seat is None or expected.action in ("none", ""):
            return {}
        return {expected.seat: frozenset({expected.action})}

    @abstractmethod
    def view(self) -> GameView:
        """The game as an onlooker is shown it (scores, the middle, the round and phase)."""

    @property
    @abstractmethod
    def finished(self) -> bool: ...

    # The game commands (``table.events.Command``) the referee takes: ``END``, where the players
    # may end the game where it stands.
    COMMANDS: ClassVar[frozenset[str]] = frozenset()

    def carried_over(self) -> dict[str, Any]:
        """Rules the next game of a series takes from this finished one (an undecided game's
        pot); none by default."""
        return {}

    @abstractmethod
    def snapshot(self) -> dict[str, Any]:
        """The whole state as JSON-able data; ``restore`` of it behaves identically."""

    @classmethod
    @abstractmethod
    def restore(cls, snapshot: dict[str, Any]) -> Self: ...

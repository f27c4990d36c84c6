"""Decisions of the shedding game (Crazy Eights): plays, draws, choices, hands moved, the winner.

Hands are hidden, so decisions about hands carry counts, never cards: the players carry out the
draws and exchanges, and the referee keeps every hand's size.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from table.cards import Card
from table.decisions import Decision


@dataclass(slots=True)
class CardTurned(Decision):
    """The card turned up to start the discard pile."""

    card: Card
    KIND: ClassVar[str] = "turned"


@dataclass(slots=True)
class TurnedCardTaken(Decision):
    """The dealer took the turned card into their hand and must discard any card."""

    seat: int
    KIND: ClassVar[str] = "turned-taken"


@dataclass(slots=True)
class MatchPlayed(Decision):
    """Several cards played as one play: their special function is doubled."""

    seat: int
    cards: tuple[Card, ...]
    natural: bool
    KIND: ClassVar[str] = "match"


@dataclass(slots=True)
class Misplay(Decision):
    """A card that may not go on the pile now: the player takes it back; nothing else changed."""

    seat: int
    card: Card
    reason: str
    KIND: ClassVar[str] = "misplay"


@dataclass(slots=True)
class CardsDrawn(Decision):
    """``seat`` takes ``count`` cards from the stock and now holds ``holds``."""

    seat: int
    count: int
    reason: str
    holds: int
    KIND: ClassVar[str] = "drew"


@dataclass(slots=True)
class DrawOwed(Decision):
    """``seat`` must draw ``draw`` cards or miss ``skips`` turns, unless it stacks or shields."""

    seat: int
    draw: int
    skips: int
    reason: str
    KIND: ClassVar[str] = "owes"


@dataclass(slots=True)
class Shielded(Decision):
    """``seat`` played a joker as a shield: ``onto`` draws the ``count`` cards instead."""

    seat: int
    onto: int | None
    count: int
    KIND: ClassVar[str] = "shield"


@dataclass(slots=True)
class ChoiceOffered(Decision):
    """``seat`` chooses: N taps for option N (from 1), a long press for ``default``."""

    seat: int
    choice: str
    options: tuple[str, ...]
    default: str
    KIND: ClassVar[str] = "choice"


@dataclass(slots=True)
class ChoiceMade(Decision):
    seat: int
    choice: str
    option: str
    KIND: ClassVar[str] = "chose"


@dataclass(slots=True)
class DirectionChanged(Decision):
    """1: to the left (seat numbers up); -1: to the right."""

    direction: int
    KIND: ClassVar[str] = "direction"


@dataclass(slots=True)
class HandsSwapped(Decision):
    """Two seats exchange their hands (safe cards stay); the counts after."""

    seat: int
    other: int
    holds: int
    other_holds: int
    KIND: ClassVar[str] = "hands-swapped"


@dataclass(slots=True)
class HandsPassed(Decision):
    """Every hand moves ``steps`` seats in the direction of play; ``hands``: the counts after."""

    steps: int
    direction: int
    hands: tuple[int, ...]
    KIND: ClassVar[str] = "hands-passed"


@dataclass(slots=True)
class HandRenewed(Decision):
    """A switch on the turned card: ``seat``'s hand goes under the stock for ``count`` fresh cards."""

    seat: int
    returned: int
    count: int
    KIND: ClassVar[str] = "hand-renewed"


@dataclass(slots=True)
class SafeCardTraded(Decision):
    """``seat`` gives a card of its hand for ``other``'s safe card (one card each way)."""

    seat: int
    other: int
    KIND: ClassVar[str] = "safe-traded"


@dataclass(slots=True)
class SafeCardUsed(Decision):
    seat: int
    KIND: ClassVar[str] = "safe-used"


@dataclass(slots=True)
class StockReshuffled(Decision):
    """The discard pile but its ``kept`` active cards becomes the stock of ``cards`` cards."""

    cards: int
    kept: tuple[Card, ...]
    KIND: ClassVar[str] = "reshuffled"


@dataclass(slots=True)
class LastCardCalled(Decision):
    seat: int
    KIND: ClassVar[str] = "last-card"


@dataclass(slots=True)
class LastCardCaught(Decision):
    """``seat`` held one card unannounced and ``by`` said so: ``seat`` draws the penalty."""

    seat: int
    by: int
    KIND: ClassVar[str] = "last-card-caught"


@dataclass(slots=True)
class HandMiscounted(Decision):
    """``seat`` played a card where the referee counted none: a draw went unreported; now counted."""

    seat: int
    KIND: ClassVar[str] = "miscounted"


@dataclass(slots=True)
class RoundWon(Decision):
    """``seat`` went out first; ``points`` this round and the ``totals``."""

    round: int
    seat: int
    points: tuple[int, ...]
    totals: tuple[int, ...]
    KIND: ClassVar[str] = "round-won"

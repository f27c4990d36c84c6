"""Decisions of the trading game (Cuckoo): kings shown, trades made or blocked, the reveal."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from table.cards import Card
from table.decisions import Decision


@dataclass(slots=True)
class KingShown(Decision):
    """A king turned face up: ``why`` is ``dealt`` (shown at the deal) or ``blocks`` (a trade)."""

    seat: int
    card: Card
    why: str
    KIND: ClassVar[str] = "king-shown"


@dataclass(slots=True)
class Kept(Decision):
    seat: int
    KIND: ClassVar[str] = "kept"


@dataclass(slots=True)
class Traded(Decision):
    """``seat`` swapped cards with ``with_seat`` (None: the dealer draws from the stock)."""

    seat: int
    with_seat: int | None
    KIND: ClassVar[str] = "traded"


@dataclass(slots=True)
class TradeBlocked(Decision):
    """``by_seat`` showed a king: the trade is undone and ``seat`` keeps their card."""

    seat: int
    by_seat: int
    card: Card
    KIND: ClassVar[str] = "trade-blocked"


@dataclass(slots=True)
class DealerDrew(Decision):
    """The dealer's card from the stock; a king means the dealer keeps the original card."""

    seat: int
    card: Card
    kept_original: bool
    KIND: ClassVar[str] = "dealer-drew"


@dataclass(slots=True)
class TradingClosed(Decision):
    reason: str
    KIND: ClassVar[str] = "trading-closed"


@dataclass(slots=True)
class CardRevealed(Decision):
    seat: int
    card: Card
    KIND: ClassVar[str] = "revealed"


@dataclass(slots=True)
class RoundLost(Decision):
    """The round's losers (none: a draw) and why."""

    seats: tuple[int, ...]
    reason: str
    KIND: ClassVar[str] = "round-lost"


@dataclass(slots=True)
class LifeLost(Decision):
    seat: int
    lives: int
    pot: int
    KIND: ClassVar[str] = "life-lost"


@dataclass(slots=True)
class PointScored(Decision):
    seat: int
    points: int
    KIND: ClassVar[str] = "point"


@dataclass(slots=True)
class AllOutTie(Decision):
    """Everyone still in lost their last life together; ``settle`` says what happens now."""

    seats: tuple[int, ...]
    settle: str
    KIND: ClassVar[str] = "all-out-tie"


@dataclass(slots=True)
class CutCard(Decision):
    seat: int
    card: Card
    KIND: ClassVar[str] = "cut"

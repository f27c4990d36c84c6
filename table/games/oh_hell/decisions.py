"""Decisions of the bidding game (Oh Hell): trump, bids, tricks, revokes and scores."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from table.cards import Card
from table.decisions import Decision


@dataclass(slots=True)
class TrumpTurned(Decision):
    """The turned card (None: none left to turn) and the trump suit it makes (None: no trump)."""

    card: Card | None
    suit: str | None
    KIND: ClassVar[str] = "trump"


@dataclass(slots=True)
class BidMade(Decision):
    seat: int
    bid: int
    total: int
    KIND: ClassVar[str] = "bid"


@dataclass(slots=True)
class TrickWon(Decision):
    """``seat`` wins trick ``trick``, worth ``tricks`` (more when it takes cancelled tricks)."""

    seat: int
    trick: int
    tricks: int
    cancelled: tuple[Card, ...] = ()
    KIND: ClassVar[str] = "trick-won"


@dataclass(slots=True)
class TrickCancelled(Decision):
    """Every card of the trick cancelled: ``leader`` leads again; the next trick's winner takes it."""

    trick: int
    leader: int
    KIND: ClassVar[str] = "trick-cancelled"


@dataclass(slots=True)
class RevokeFound(Decision):
    """``seat`` showed ``suit`` in trick ``evidence`` after claiming none in trick ``trick``."""

    seat: int
    trick: int
    suit: str
    evidence: int
    penalty: int
    KIND: ClassVar[str] = "revoke"


@dataclass(slots=True)
class HandScored(Decision):
    hand: int
    bids: tuple[int, ...]
    tricks: tuple[int, ...]
    points: tuple[int, ...]
    totals: tuple[int, ...]
    KIND: ClassVar[str] = "hand-scored"

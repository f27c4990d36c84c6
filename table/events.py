"""Input events: small immutable values, each stamped where it entered the host.

Every event carries ``t_ns``, integer nanoseconds on the host's CLOCK_MONOTONIC
(``time.monotonic_ns()``), converted once at the edge where the reading entered (a GPIO edge's
kernel timestamp, the first camera frame that showed a card, a microcontroller tick through the
fitted clock). Nothing downstream reads a clock: order and simultaneity come from ``t_ns``.

At equal ``t_ns`` events are ordered by kind (``ORDER``): commands, then cards leaving, cards
landing, seat actions, button releases and last button presses. So a card that landed at the very
nanosecond of a press is on the pile for that press.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from enum import StrEnum
from typing import Any, ClassVar

from table.cards import Card, CardError, parse_card
from table.errors import CardtableError


class ZoneKind(StrEnum):
    """A zone of the table a card is seen on (``CardSeen.zone``; the calibration lays them out)."""

    PILE = "pile"  # the middle: the pile, or the trick
    SEAT = "seat"  # a band round the edge, a seat's own
    STOCK = "stock"
    TRUMP = "trump"
    CUT = "cut"


OUT_OF_CARDS = (
    "out-of-cards"  # a seat action, told by the table's command: "I hold no card", where the referee counted some
)
OUT_OF_TURN = "out-of-turn"  # a seat action, told by the table's command: "the top card was mine, laid out of turn"


class EventError(CardtableError, ValueError):
    """An event that cannot be built or decoded; the message names the bad field."""


@dataclass(frozen=True, slots=True)
class Event:
    t_ns: int
    source: str

    TYPE: ClassVar[str] = ""
    ORDER: ClassVar[int] = 0
    SEATED: ClassVar[bool] = False  # every event of the kind names its seat (a press, a seat's action)

    def __post_init__(self) -> None:
        if type(self.t_ns) is not int:
            raise EventError(f"{self.TYPE}: t_ns must be integer nanoseconds, not {self.t_ns!r}")
        seat = getattr(self, "seat", None)
        if (seat is not None or self.SEATED) and (type(seat) is not int or seat < 0):
            raise EventError(f"{self.TYPE}: seat must be a whole number from 0, not {seat!r}")

    def sort_key(self) -> tuple[int, int, int, str]:
        """Total order used by the sequencer and by replay: time, kind, seat, source."""
        seat = getattr(self, "seat", None)
        return (self.t_ns, self.ORDER, -1 if seat is None else seat, self.source)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"t": self.t_ns, "type": self.TYPE}
        for f in fields(self):
            if f.name == "t_ns":
                continue
            value = getattr(self, f.name)
            if value is None:
                continue
            out[f.name] = value.code if isinstance(value, Card) else value
        return out


END = "end"  # the game command that ends a game where it stands, as the players agree


@dataclass(frozen=True, slots=True)
class Command(Event):
    """A game command from the CLI, a seat gesture or MQTT that the referee takes (``END``)."""

    name: str = ""
    args: dict[str, Any] = field(default_factory=dict)

    TYPE: ClassVar[str] = "command"
    ORDER: ClassVar[int] = 0


@dataclass(frozen=True, slots=True)
class CardGone(Event):
    """A card (or a whole pile, when ``card`` is None) left a zone of the table; ``seat`` names
    the seat of a seat zone (a safe card taken up)."""

    zone: str = "pile"
    card: Card | None = None
    seat: int | None = None

    TYPE: ClassVar[str] = "card-gone"
    ORDER: ClassVar[int] = 1


@dataclass(frozen=True, slots=True)
class CardSeen(Event):
    """A card landed face up in a zone; ``t_ns`` is the first frame it was seen in."""

    card: Card | None = None
    zone: str = "pile"
    seat: int | None = None

    TYPE: ClassVar[str] = "card-seen"
    ORDER: ClassVar[int] = 2

    def __post_init__(self) -> None:
        Event.__post_init__(self)
        if not isinstance(self.card, Card):
            raise EventError(f"card-seen: card must be a Card, not {self.card!r}")


@dataclass(frozen=True, slots=True)
class SeatAction(Event):
    """A seat's decision, read from a button gesture: ``keep``, ``trade``, ``bid`` (with ``value``).

    ``t_ns`` is the edge that completed the gesture; which gesture means what is the seat
    backend's business, so referees see only the meaning.
    """

    seat: int = 0
    action: str = ""
    value: int | None = None

    TYPE: ClassVar[str] = "action"
    SEATED: ClassVar[bool] = True
    ORDER: ClassVar[int] = 3

    def __post_init__(self) -> None:
        Event.__post_init__(self)
        if not isinstance(self.action, str) or not self.action:
            raise EventError(f"action: action must be a non-empty name, not {self.action!r}")
        if self.value is not None and (type(self.value) is not int or self.value < 0):
            raise EventError(f"action: value must be a whole number from 0, not {self.value!r}")


@dataclass(frozen=True, slots=True)
class ButtonReleased(Event):
    seat: int = 0

    TYPE: ClassVar[str] = "release"
    SEATED: ClassVar[bool] = True
    ORDER: ClassVar[int] = 4


@dataclass(frozen=True, slots=True)
class ButtonPressed(Event):
    """A seat's button went down; ``t_ns`` is the edge's own timestamp, not the callback's."""

    seat: int = 0

    TYPE: ClassVar[str] = "press"
    SEATED: ClassVar[bool] = True
    ORDER: ClassVar[int] = 5


ZONES = frozenset(zone.value for zone in ZoneKind)
EVENT_TYPES: dict[str, type[Event]] = {
    cls.TYPE: cls for cls in (Command, CardGone, CardSeen, SeatAction, ButtonReleased, ButtonPressed)
}


def event_from_json(data: Any) -> Event:
    """Decode one event written by :meth:`Event.to_json`, naming any bad field."""
    if not isinstance(data, dict):
        raise EventError(f"an event must be a JSON object, not {type(data).__name__}")
    kind = data.get("type")
    cls = EVENT_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise EventError(f"unknown event type {kind!r} (known: {', '.join(EVENT_TYPES)})")
    names = {f.name for f in fields(cls)} - {"t_ns"}
    unknown = set(data) - names - {"t", "type"}
    if unknown:
        raise EventError(f"{kind}: unknown field(s) {', '.join(sorted(unknown))}")
    if "t" not in data:
        raise EventError(f"{kind}: missing timestamp 't'")
    if cls.SEATED and "seat" not in data:  # written by the table, a seat's event always names its seat
        raise EventError(f"{kind}: missing seat")
    kwargs: dict[str, Any] = {k: v for k, v in data.items() if k in names}
    if "card" in kwargs and kwargs["card"] is not None:
        if not isinstance(kwargs["card"], str):
            raise EventError(f"{kind}: card must be a card's code, not {kwargs['card']!r}")
        try:
            kwargs["card"] = parse_card(kwargs["card"])
        except CardError as exc:
            raise EventError(f"{kind}: {exc}") from None
    if "zone" in kwargs and not (isinstance(kwargs["zone"], str) and kwargs["zone"] in ZONES):
        raise EventError(f"{kind}: unknown zone {kwargs['zone']!r} (known: {', '.join(ZONES)})")
    if not isinstance(kwargs.setdefault("source", "journal"), str):
        raise EventError(f"{kind}: source must be a name, not {kwargs['source']!r}")
    if type(data["t"]) is not int or data["t"] < 0:
        raise EventError(f"{kind}: t must be integer nanoseconds from 0, not {data['t']!r}")
    if kind == Command.TYPE and not (
        isinstance(kwargs.get("name", ""), str) and isinstance(kwargs.get("args", {}), dict)
    ):
        raise EventError(f"{kind}: name must be a name and args a JSON object")
    try:
        return cls(t_ns=data["t"], **kwargs)
    except TypeError as exc:
        raise EventError(f"{kind}: {exc}") from None

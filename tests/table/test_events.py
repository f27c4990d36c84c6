"""Events: integer nanosecond timestamps, a total order, and a JSON form that names bad fields."""

from __future__ import annotations

import pytest

from table.cards import parse_card
from table.events import ButtonPressed, CardGone, CardSeen, Command, EventError, SeatAction, event_from_json


def test_timestamps_must_be_integer_nanoseconds() -> None:
    with pytest.raises(EventError, match="integer nanoseconds"):
        ButtonPressed(1.5, "gpio", 0)  # type: ignore[arg-type]


def test_seat_must_be_a_natural_number() -> None:
    with pytest.raises(EventError, match="seat"):
        ButtonPressed(1, "gpio", -1)


def test_card_seen_needs_a_card() -> None:
    with pytest.raises(EventError, match="card"):
        CardSeen(1, "camera", None, "pile")


def test_order_at_equal_time_puts_cards_before_presses() -> None:
    press = ButtonPressed(100, "gpio", 0)
    card = CardSeen(100, "camera", parse_card("5H"), "pile")
    gone = CardGone(100, "camera", "pile")
    cmd = Command(100, "cli", "pause")
    action = SeatAction(100, "gpio", 1, "trade")
    ordered = sorted([press, action, card, gone, cmd], key=lambda e: e.sort_key())
    assert ordered == [cmd, gone, card, action, press]
    assert ButtonPressed(99, "gpio", 3).sort_key() < card.sort_key()


@pytest.mark.parametrize(
    "event",
    [
        ButtonPressed(5, "gpio", 2),
        CardSeen(7, "camera", parse_card("10D"), "pile"),
        CardGone(9, "camera", "pile"),
        CardGone(9, "camera", "seat", parse_card("RJ"), 1),
        Command(11, "cli", "new-game", {"players": 3}),
        SeatAction(13, "gpio", 2, "bid", 3),
        SeatAction(13, "bridge", 0, "keep"),
    ],
)
def test_json_round_trip(event: object) -> None:
    assert event_from_json(event.to_json()) == event  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([1, 2], "JSON object"),
        ({"t": 1, "type": "slap", "seat": 0}, "unknown event type 'slap'"),
        ({"type": "press", "seat": 0}, "missing timestamp"),
        ({"t": 1, "type": "press", "seat": 0, "colour": "red"}, "unknown field"),
        ({"t": 1, "type": "card-seen", "card": "ZZ", "zone": "pile"}, "not a card: 'ZZ'"),
        ({"t": "soon", "type": "press", "seat": 0}, "integer nanoseconds"),
        ({"t": 1, "type": "action", "seat": 0}, "action must be a non-empty name"),
        ({"t": 1, "type": "action", "seat": 0, "action": "bid", "value": -1}, "value must be a whole number"),
        ({"t": 1, "type": "action", "seat": 0, "action": "bid", "value": "two"}, "value must be a whole number"),
    ],
)
def test_bad_json_names_what_is_wrong(data: object, message: str) -> None:
    with pytest.raises(EventError, match=message):
        event_from_json(data)


@pytest.mark.parametrize("kind", ["press", "release", "action"])
def test_a_seat_s_event_must_name_its_seat(kind: str) -> None:
    """A press, a release or a seat's action without a seat, or with none, is refused by name:
    a referee given one would not know whose it was."""
    extra = {"action": "bid"} if kind == "action" else {}
    for data in ({"t": 1, "type": kind, **extra}, {"t": 1, "type": kind, "seat": None, **extra}):
        with pytest.raises(EventError, match=f"{kind}: (missing seat|seat must be a whole number from 0, not None)"):
            event_from_json(data)

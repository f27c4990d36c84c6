"""Home Assistant's MQTT discovery for a table: one device with a score sensor a seat, the game,
whose turn, the leader, and event entities for a slap won, a game over and a winner.

One retained device message (``homeassistant/device/cardtable_<table_id>/config``, the device
discovery format of Home Assistant 2024.11 and later) describes every entity; the values are the
table's own topics (``table.mqtt``). IDs are made of the table id and the seat's number, so they
stay the same across restarts and differ between tables; each entity asks for its entity id
(``default_entity_id``, "sensor.cardtable_tv_seat0_score"), which Home Assistant 2025.10 and
later take in place of ``object_id``. The device links to the scoreboard (``configuration_url``).

A seat that went away (fewer seats than the table last announced) is removed the way Home
Assistant asks, its component sent with its platform only, in one message; the retained message
after it no longer names the seat. Home Assistant announces itself on ``homeassistant/status``;
the message is sent again then.

Event entities take a JSON payload with ``event_type`` (one of the entity's ``event_types``) and
attributes: ``event/slap`` (``slap_won``: seat, name, condition), ``event/game``
(``game_over``: winners, reason) and ``event/winner`` (``won``: seat, name), for automations
such as flashing the room's lights.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

STATUS_TOPIC = "homeassistant/status"
MAX_SEATS = 12  # a table's first announcement removes the seats past its own up to this many
EVENTS = {"slap": ("slap_won",), "game": ("game_over",), "winner": ("won",)}  # topic: event_types


def discovery_topic(table_id: str) -> str:
    return f"homeassistant/device/cardtable_{table_id}/config"


def _entity(platform: str, uid: str, **keys: Any) -> dict[str, Any]:
    return {"p": platform, "unique_id": uid, "default_entity_id": f"{platform}.{uid}", **keys}


def discovery(
    table_id: str, names: Sequence[str], version: str = "", page: str = "", removed: Sequence[int] = ()
) -> dict[str, Any]:
    """The device message for a table whose seats are ``names``; ``page``: the scoreboard's
    address; ``removed``: seats announced before that are gone (sent with their platform only)."""
    base = f"cardtable/{table_id}"
    uid = f"cardtable_{table_id}"
    components: dict[str, dict[str, Any]] = {
        f"{uid}_game": _entity(
            "sensor",
            f"{uid}_game",
            name="Game",
            state_topic=f"{base}/game",
            value_template="{{ value_json.game }}",
            json_attributes_topic=f"{base}/game",
            icon="mdi:cards-playing",
        ),
        f"{uid}_turn": _entity(
            "sensor",
            f"{uid}_turn",
            name="Turn",
            device_class="enum",
            options=[*names, "none"],
            state_topic=f"{base}/turn",
            icon="mdi:account-arrow-right",
        ),
        f"{uid}_leader": _entity(
            "sensor", f"{uid}_leader", name="Leader", state_topic=f"{base}/leader", icon="mdi:crown"
        ),
    }
    for topic, types in EVENTS.items():
        components[f"{uid}_{topic}"] = _entity(
            "event",
            f"{uid}_{topic}",
            name={"slap": "Slap won", "game": "Game over", "winner": "Winner"}[topic],
            state_topic=f"{base}/event/{topic}",
            event_types=list(types),
            icon={"slap": "mdi:hand-back-left", "game": "mdi:flag-checkered", "winner": "mdi:trophy"}[topic],
        )
    for seat, name in enumerate(names):
        key = f"{uid}_seat{seat}_score"
        components[key] = _entity(
            "sensor",
            key,
            name=f"{name} score",
            state_topic=f"{base}/seat/{seat}/score",
            state_class="measurement",
            icon="mdi:counter",
        )
    for seat in removed:
        components[f"{uid}_seat{seat}_score"] = {"p": "sensor"}  # Home Assistant removes it
    device: dict[str, Any] = {
        "ids": [uid],
        "name": f"Card table {table_id}",
        "mf": "cardtable",
        "mdl": "card table referee",
    }
    if page:
        device["cu"] = page  # configuration_url: the device's page links to the scoreboard
    return {
        "dev": device,
        "o": {"name": "cardtable", "sw": version},
        "availability_topic": f"{base}/availability",
        "qos": 1,
        "cmps": components,
    }


def events(told: dict[str, Any], names: Sequence[str]) -> list[tuple[str, dict[str, Any]]]:
    """The event entities' messages a decision (as told) makes: (topic under the table, payload)."""
    kind = told.get("kind")
    name = lambda seat: names[seat] if 0 <= seat < len(names) else f"Seat {seat + 1}"  # noqa: E731
    if kind == "good-slap":
        seat = told["seat"]
        return [
            ("event/slap", {"event_type": "slap_won", "seat": seat, "name": name(seat), "condition": told["condition"]})
        ]
    if kind not in ("game-won", "game-over"):
        return []
    winners = [told["seat"]] if kind == "game-won" else list(told["winners"])
    out = [
        (
            "event/game",
            {"event_type": "game_over", "winners": [name(s) for s in winners], "reason": told.get("said", "")},
        )
    ]
    return out + [("event/winner", {"event_type": "won", "seat": s, "name": name(s)}) for s in winners]


def leader(state: dict[str, Any]) -> str:
    """Who leads the game as the scoreboard's state stands: a name, names tied ("Ann and Bob"),
    the winners once it is over, or "none" while every seat is level."""
    seats = state["seats"]
    if state["winners"]:
        return " and ".join(seats[s]["name"] for s in state["winners"])
    scores = [s["score"] for s in seats]
    if not scores or len(set(scores)) == 1:
        return "none"
    best = min(scores) if state.get("fewest_best") else max(scores)
    return " and ".join(s["name"] for s in seats if s["score"] == best)

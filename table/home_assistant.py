"""Home Assistant's MQTT discovery for a table: one device, a score sensor a seat, the game, whose
turn, and the table's availability.

One retained device message (``homeassistant/device/cardtable_<table_id>/config``, the device
discovery format of Home Assistant 2024.11 and later) describes every entity; the values are the
table's own topics (``table.mqtt``). IDs are made of the table id and the seat's number, so they
stay the same across restarts and differ between tables. A seat that went away (fewer seats than
the table last had) is removed the way Home Assistant asks: its component is sent with its
platform only. Home Assistant announces itself on ``homeassistant/status``; the message is sent
again then.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

STATUS_TOPIC = "homeassistant/status"
MAX_SEATS = 12  # seats beyond the table's, up to this, are sent as removed


def discovery_topic(table_id: str) -> str:
    return f"homeassistant/device/cardtable_{table_id}/config"


def discovery(table_id: str, names: Sequence[str], version: str = "") -> dict[str, Any]:
    """The device message for a table whose seats are ``names``."""
    base = f"cardtable/{table_id}"
    uid = f"cardtable_{table_id}"
    components: dict[str, dict[str, Any]] = {
        f"{uid}_game": {
            "p": "sensor",
            "name": "Game",
            "state_topic": f"{base}/game",
            "value_template": "{{ value_json.game }}",
            "json_attributes_topic": f"{base}/game",
            "unique_id": f"{uid}_game",
            "icon": "mdi:cards-playing",
        },
        f"{uid}_turn": {
            "p": "sensor",
            "name": "Turn",
            "device_class": "enum",
            "options": [*names, "none"],
            "state_topic": f"{base}/turn",
            "unique_id": f"{uid}_turn",
            "icon": "mdi:account-arrow-right",
        },
    }
    for seat in range(max(MAX_SEATS, len(names))):
        key = f"{uid}_seat{seat}_score"
        if seat >= len(names):
            components[key] = {"p": "sensor"}  # Home Assistant removes a component sent with its platform only
            continue
        components[key] = {
            "p": "sensor",
            "name": f"{names[seat]} score",
            "state_topic": f"{base}/seat/{seat}/score",
            "state_class": "measurement",
            "unique_id": key,
            "icon": "mdi:counter",
        }
    return {
        "dev": {"ids": [uid], "name": f"Card table {table_id}", "mf": "cardtable", "mdl": "card table referee"},
        "o": {"name": "cardtable", "sw": version},
        "availability_topic": f"{base}/availability",
        "qos": 1,
        "cmps": components,
    }

"""The league view: every table on a broker, its game and its standings, from their retained
``state`` and ``availability`` topics (``cardtable league --mqtt URL``)."""

from __future__ import annotations

import contextlib
import json
import threading
import time
from typing import Any

from rich.table import Table

from table.mqtt import MqttSettings

SETTLE_S = 1.5  # retained messages arrive at once; this long without a new one, the view is complete


def collect(settings: MqttSettings, seconds: float = 10.0) -> dict[str, dict[str, Any]]:
    """Each table's latest state (with ``online``), by table id, as the broker holds them."""
    from paho.mqtt.client import CallbackAPIVersion, Client

    tables: dict[str, dict[str, Any]] = {}
    online: dict[str, bool] = {}
    last = [time.monotonic()]
    connected = threading.Event()
    refused: list[str] = []  # the broker's reason, when it turned the login down
    client = Client(CallbackAPIVersion.VERSION2)
    if settings.username is not None:
        client.username_pw_set(settings.username, settings.password)
    if settings.tls:
        client.tls_set()

    def on_connect(c: Any, userdata: Any, flags: Any, reason: Any, properties: Any) -> None:
        if reason.is_failure:
            refused.append(str(reason))
        else:
            c.subscribe([("cardtable/+/state", 1), ("cardtable/+/availability", 1)])
        connected.set()

    def on_message(c: Any, userdata: Any, message: Any) -> None:
        _, table_id, kind = message.topic.split("/", 2)
        last[0] = time.monotonic()
        if kind == "availability":
            online[table_id] = message.payload == b"online"
            return
        with contextlib.suppress(ValueError):  # not JSON: no table's state, left out
            state = json.loads(message.payload)
            problem = state_problem(state)
            tables[table_id] = state if problem is None else {"unread": problem}

    client.on_connect, client.on_message = on_connect, on_message
    try:  # a broker that is not there is said at once, not after the wait for its answer
        client.connect(settings.host, settings.port)
    except OSError as exc:
        raise ConnectionError(
            f"cannot reach the MQTT broker at {settings.host}:{settings.port}: {exc.strerror or exc}"
        ) from None
    client.loop_start()
    try:
        if not connected.wait(seconds):
            raise ConnectionError(f"no answer from the MQTT broker at {settings.host}:{settings.port}")
        if refused:
            raise ConnectionError(f"the MQTT broker at {settings.host}:{settings.port} refused: {refused[0]}")
        last[0] = time.monotonic()
        while time.monotonic() - last[0] < SETTLE_S:
            time.sleep(0.1)
    finally:
        client.disconnect()
        client.loop_stop()
    return {t: {**state, "online": online.get(t, False)} for t, state in sorted(tables.items())}


def state_problem(state: Any) -> str | None:
    """What keeps a retained ``state`` from being a table's state as the table publishes it
    (``table.mqtt``), or None: anything may be retained on a broker."""
    if not isinstance(state, dict):
        return "not an object"
    for key in ("game", "preset", "phase"):
        if not isinstance(state.get(key), str):
            return f"no {key}"
    seats = state.get("seats")
    if not isinstance(seats, list) or not all(
        isinstance(s, dict)
        and isinstance(s.get("name"), str)
        and type(s.get("score")) in (int, float)
        and type(s.get("seat")) is int
        for s in seats
    ):
        return "its seats are not seats with a name and a score"
    return None


def standings(tables: dict[str, dict[str, Any]]) -> Table:
    """One row a table: its game, whether it is online, and its seats best first."""
    view = Table(title="cardtable league", show_lines=True)
    for column in ("table", "game", "standings"):
        view.add_column(column)
    for table_id, state in tables.items():
        if "unread" in state:
            view.add_row(table_id, "?", f"its state cannot be read: {state['unread']}")
            continue
        fewest_best = bool(state.get("fewest_best"))  # penalty points, cards left
        seats = sorted(state["seats"], key=lambda s: s["score"], reverse=not fewest_best)
        won = set(state.get("winners") or [])
        line = ", ".join(f"{'★ ' if s['seat'] in won else ''}{s['name']} {s['score']}" for s in seats)
        status = "" if state["online"] else " (offline)"
        view.add_row(f"{table_id}{status}", f"{state['game']} ({state['preset']}), {state['phase']}", line)
    return view

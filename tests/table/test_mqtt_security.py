"""The shipped Mosquitto configuration (``systemd/mosquitto/``) on a real broker: no anonymous
clients, passwords checked, and the ACL lets the table write, the dashboard and Home Assistant
read, and only the admin send commands."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from paho.mqtt.client import CallbackAPIVersion, Client

from sim.games import SIMULATIONS
from sim.options import SimOptions
from table.commands import CommandRequest
from table.games import setup_game
from table.mqtt import TablePublisher, parse_url
from tests.mqtt_broker import Broker, Subscriber, connected_client

pytestmark = pytest.mark.system

SHIPPED = Path(__file__).resolve().parents[2] / "systemd" / "mosquitto"
TABLES = ("sec", "other", "kept", "paths", "own")  # each table logs in as its table_id
USERS = {**{t: f"{t}-pw" for t in TABLES}, "dashboard": "dash-pw", "homeassistant": "ha-pw", "admin": "admin-pw"}


@pytest.fixture
def broker(tmp_path: Path) -> Iterator[Broker]:
    passwords = tmp_path / "cardtable.passwd"
    for i, (user, password) in enumerate(USERS.items()):
        subprocess.run(
            ["mosquitto_passwd", *(["-c"] if i == 0 else []), "-b", str(passwords), user, password], check=True
        )
    conf = (SHIPPED / "cardtable.conf").read_text(encoding="utf-8")
    conf = conf.replace("/etc/mosquitto/cardtable.passwd", str(passwords))
    conf = conf.replace("/etc/mosquitto/cardtable.acl", str(SHIPPED / "cardtable.acl"))
    ours = ("listener", "protocol", "http_dir")  # the test's own port, and no websockets listener
    conf = "\n".join(line for line in conf.splitlines() if not line.startswith(ours))
    assert "allow_anonymous false" in conf
    running = Broker(tmp_path, extra=conf + "\n").start()
    yield running
    running.stop()


def _connect(broker: Broker, user: str | None, password: str | None = None) -> str:
    """The broker's answer to a client connecting as ``user``."""
    answered = threading.Event()
    said: list[str] = []
    client = Client(CallbackAPIVersion.VERSION2)
    if user is not None:
        client.username_pw_set(user, password)

    def connected(c: Client, userdata: object, flags: object, reason: object, properties: object) -> None:
        said.append(str(reason))
        answered.set()

    client.on_connect = connected
    client.connect("127.0.0.1", broker.port)
    client.loop_start()
    answered.wait(10)
    client.disconnect()
    client.loop_stop()
    return said[0] if said else "no answer"


def test_anonymous_clients_and_wrong_passwords_are_refused(broker: Broker) -> None:
    assert _connect(broker, None) == "Not authorized"
    assert _connect(broker, "dashboard", "guess") == "Not authorized"
    assert _connect(broker, "nobody", "x") == "Not authorized"
    assert _connect(broker, "dashboard", USERS["dashboard"]) == "Success"


def test_the_table_writes_the_dashboard_reads_and_only_the_admin_commands(broker: Broker) -> None:
    url = f"mqtt://sec:{USERS['sec']}@127.0.0.1:{broker.port}"
    table = TablePublisher(parse_url(url, "sec"))
    commands: list[CommandRequest] = []
    table.on_command = commands.append
    table.start()
    dashboard = Subscriber(broker, "cardtable/#", username="dashboard", password=USERS["dashboard"])
    admin = connected_client(broker, "admin", USERS["admin"])
    try:
        table.retain("seat/0/score", "12")
        assert dashboard.wait_for("cardtable/sec/seat/0/score") == "12"  # the table writes, the dashboard reads
        assert dashboard.wait_for("cardtable/sec/availability") == "online"
        dashboard.client.publish("cardtable/sec/seat/0/score", "99", qos=1, retain=True).wait_for_publish(5)
        dashboard.client.publish("cardtable/sec/cmd/pause", "", qos=1).wait_for_publish(5)
        for user in ("other", "homeassistant"):  # another table, or Home Assistant: no commands either
            other = connected_client(broker, user, USERS[user])
            other.publish("cardtable/sec/cmd/new-game", "", qos=1).wait_for_publish(5)
            other.disconnect()
            other.loop_stop()
        admin.publish("cardtable/sec/cmd/resume", "", qos=1).wait_for_publish(5)
        deadline = time.monotonic() + 10
        while not commands and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(0.3)  # anything else on its way has arrived by now
        assert [c.command.kind for c in commands] == ["resume"]  # the admin's; the others' were dropped
        assert dashboard.latest["cardtable/sec/seat/0/score"] == "12"  # the dashboard could not write
    finally:
        _closed(table, admin, dashboard)


def test_home_assistant_reads_the_discovery_and_its_announcement_reaches_the_table(broker: Broker) -> None:
    url = f"mqtt://sec:{USERS['sec']}@127.0.0.1:{broker.port}"
    table = TablePublisher(parse_url(url, "sec")).start()
    topic = "homeassistant/device/cardtable_sec/config"
    ha = Subscriber(broker, topic, "cardtable/sec/#", username="homeassistant", password=USERS["homeassistant"])
    try:
        table.announce(["Ann", "Bob", "Cyd"])
        assert json.loads(ha.wait_for(topic))["dev"]["ids"] == ["cardtable_sec"]
        assert ha.wait_for("cardtable/sec/availability") == "online"
        sent = ha.count(topic)
        ha.client.publish("homeassistant/status", "online", qos=1).wait_for_publish(5)
        assert len(ha.wait_count(topic, sent + 1)) == sent + 1  # the table heard it and sent it again
    finally:
        ha.close()
        table.stop()


def _closed(table: TablePublisher, *parts: object) -> None:
    """The test's clients (paho's: disconnected, their loops stopped) and subscribers closed,
    then the table's publisher stopped."""
    for part in parts:
        if hasattr(part, "loop_stop"):
            part.disconnect()  # one the broker dropped already: nothing to do
            part.loop_stop()
        else:
            part.close()
    table.stop()


def _commanded_table(broker: Broker, table_id: str) -> tuple[TablePublisher, list[CommandRequest], Subscriber]:
    """A table's publisher on the shipped broker, the commands it took (each answered yes), and
    a dashboard watching its topics."""
    url = f"mqtt://{table_id}:{USERS[table_id]}@127.0.0.1:{broker.port}"
    table = TablePublisher(parse_url(url, table_id))
    commands: list[CommandRequest] = []

    def take(request: CommandRequest) -> None:
        commands.append(request)
        request.reply(True, "done")

    table.on_command = take
    table.start()
    watching = Subscriber(broker, f"cardtable/{table_id}/#", username="dashboard", password=USERS["dashboard"])
    assert watching.wait_for(f"cardtable/{table_id}/availability") == "online"
    return table, commands, watching


def _replies(watching: Subscriber, table_id: str) -> list[dict]:
    return [json.loads(p) for t, p, _ in watching.messages if t == f"cardtable/{table_id}/reply"]


def test_a_command_sent_retained_is_refused_cleared_and_not_done_again_at_a_reconnect(broker: Broker) -> None:
    table, commands, watching = _commanded_table(broker, "kept")
    admin = connected_client(broker, "admin", USERS["admin"])
    try:
        admin.publish("cardtable/kept/cmd/new-game", "{}", qos=1, retain=True).wait_for_publish(5)
        deadline = time.monotonic() + 10
        while not _replies(watching, "kept") and time.monotonic() < deadline:
            time.sleep(0.05)
        (reply,) = _replies(watching, "kept")
        assert not reply["ok"] and "retain flag is refused" in reply["message"]
        table.client.reconnect()  # the broker has nothing kept to send again
        time.sleep(1.0)
        late = Subscriber(broker, "cardtable/kept/cmd/#", username="admin", password=USERS["admin"])
        time.sleep(0.5)
        kept = {topic: payload for topic, payload in late.latest.items() if payload}  # "" is a clearing, not a command
        assert kept == {} and commands == []  # cleared at the broker, and never done
        late.close()
    finally:
        _closed(table, admin, watching)


def test_over_mqtt_a_preset_is_named_not_a_file_and_commands_are_bounded_a_second(broker: Broker) -> None:
    table, commands, watching = _commanded_table(broker, "paths")
    admin = connected_client(broker, "admin", USERS["admin"])
    try:
        for path in ("/dev/zero", "/bin/ls", "../../etc/mosquitto/cardtable.passwd", "mine.toml"):
            admin.publish("cardtable/paths/cmd/set", json.dumps({"rules": path}), qos=1).wait_for_publish(5)
        for _ in range(40):
            admin.publish("cardtable/paths/cmd/pause", "", qos=1).wait_for_publish(5)
        deadline = time.monotonic() + 10
        while len(_replies(watching, "paths")) < 44 and time.monotonic() < deadline:
            time.sleep(0.05)
        replies = _replies(watching, "paths")
        assert all("a preset is named" in r["message"] and not r["ok"] for r in replies[:4])
        bounded = [r for r in replies[4:] if "too many commands" in r["message"]]
        assert len(commands) + len(bounded) == 40 and 15 <= len(commands) < 40  # the burst, less the 4 above
        assert all("cardtable" not in r["message"] or "rules" in r["message"] for r in replies)  # no file told of
    finally:
        _closed(table, admin, watching)


def test_a_client_logging_in_with_the_tables_name_as_its_id_does_not_take_its_connection(broker: Broker) -> None:
    table, _, watching = _commanded_table(broker, "own")
    try:
        for guess in ("cardtable-own", "cardtable-own-0", "own"):
            thief = Client(CallbackAPIVersion.VERSION2, client_id=guess)
            thief.username_pw_set("dashboard", USERS["dashboard"])
            thief.connect("127.0.0.1", broker.port)
            thief.loop_start()
            time.sleep(0.5)
            thief.disconnect()
            thief.loop_stop()
        assert table.connects == 1 and table.connected  # never dropped, so never connected again
        assert watching.latest["cardtable/own/availability"] == "online"
    finally:
        watching.close()
        table.stop()


def test_a_table_cannot_overwrite_another_tables_scores_or_home_assistant_config(broker: Broker) -> None:
    table, _, watching = _commanded_table(broker, "own")
    intruder = connected_client(broker, "other", USERS["other"])  # another table's login
    ha = Subscriber(broker, "homeassistant/device/+/config", username="homeassistant", password=USERS["homeassistant"])
    try:
        table.retain("seat/0/score", "12")
        assert watching.wait_for("cardtable/own/seat/0/score") == "12"
        intruder.publish("cardtable/own/seat/0/score", "0", qos=1, retain=True).wait_for_publish(5)
        intruder.publish("homeassistant/device/cardtable_own/config", "{}", qos=1, retain=True).wait_for_publish(5)
        intruder.publish("cardtable/other/seat/0/score", "5", qos=1, retain=True).wait_for_publish(5)  # its own
        assert watching.wait_for("cardtable/own/seat/0/score") == "12"
        time.sleep(0.5)
        assert watching.latest["cardtable/own/seat/0/score"] == "12"
        assert "homeassistant/device/cardtable_own/config" not in ha.latest
        mine = Subscriber(broker, "cardtable/other/#", username="dashboard", password=USERS["dashboard"])
        assert mine.wait_for("cardtable/other/seat/0/score") == "5"  # a table writes its own topics
        mine.close()
    finally:
        _closed(table, intruder, ha, watching)


def test_a_message_larger_than_the_brokers_bound_is_refused_and_never_reaches_the_table(broker: Broker) -> None:
    table, commands, watching = _commanded_table(broker, "kept")
    admin = connected_client(broker, "admin", USERS["admin"])
    dropped = threading.Event()
    admin.on_disconnect = lambda *args: dropped.set()
    try:
        admin.publish("cardtable/kept/cmd/set", b"{" + b" " * 1_000_000 + b"}", qos=1)
        assert dropped.wait(10)  # the broker ends the connection of a client that sends one
        time.sleep(0.3)
        assert commands == [] and _replies(watching, "kept") == []
    finally:
        _closed(table, admin, watching)


def test_every_topic_the_table_writes_in_a_game_gets_through_the_shipped_acl(broker: Broker) -> None:
    """A whole simulated game with its standings and its scoreboard address, through the
    shipped ACL: every topic the table publishes (spied on at its client) reaches the dashboard
    and Home Assistant; none is refused on the way. The game is played faster than any table
    plays, so the dashboard listens live only to the topics that are not kept (the events), and
    reads the kept ones after the game, as a page opened then does."""
    url = f"mqtt://own:{USERS['own']}@127.0.0.1:{broker.port}"
    settings = dataclasses.replace(parse_url(url, "own"), page="http://cardtable.local:9001/?table=own")
    table = TablePublisher(settings)
    written: set[str] = set()
    publish = table.client.publish
    table.client.publish = lambda topic, *a, **k: (written.add(topic), publish(topic, *a, **k))[1]  # type: ignore[method-assign]
    live = Subscriber(
        broker, "cardtable/own/events", "cardtable/own/event/#", username="dashboard", password=USERS["dashboard"]
    )
    ha = Subscriber(broker, "homeassistant/#", username="homeassistant", password=USERS["homeassistant"])
    late = None
    try:
        assert live.subscribed.wait(10) and ha.subscribed.wait(10)
        table.start()
        setup = setup_game("ers", None, {}, 3, 0, 2)
        sim = SIMULATIONS["ers"](setup, SimOptions(camera="reports", seats="actions"))
        sim.core.outputs.decisions.append(table.follow(sim.setup, ["Ann", "Bob", "Cyd"]))
        sim.run()
        table.retain("standings", json.dumps({"standings": [["Ann", 1, 1]], "records": []}))
        assert sim.referee.finished
        mine = {t for t in written if t.startswith("cardtable/own/") and "/cmd/" not in t}
        assert {"cardtable/own/leader", "cardtable/own/page", "cardtable/own/event/winner"} <= mine
        events = {t for t in mine if t.startswith(("cardtable/own/event/", "cardtable/own/events"))}
        discovery = {t for t in written if t.startswith("homeassistant/")}
        time.sleep(1.0)  # what the table sent has reached the broker
        late = Subscriber(broker, "cardtable/#", username="dashboard", password=USERS["dashboard"])
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and not (
            events <= set(live.latest) and mine - events <= set(late.latest) and discovery <= set(ha.latest)
        ):
            time.sleep(0.05)
        assert events - set(live.latest) == set()
        assert (mine - events) - set(late.latest) == set() and discovery - set(ha.latest) == set()
    finally:
        _closed(table, live, ha, *([late] if late is not None else []))

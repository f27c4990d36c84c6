"""The shipped Mosquitto configuration (``systemd/mosquitto/``) on a real broker: no anonymous
clients, passwords checked, and the ACL lets the table write, the dashboard and Home Assistant
read, and only the admin send commands."""

from __future__ import annotations

import json
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from paho.mqtt.client import CallbackAPIVersion, Client

from table.commands import CommandRequest
from table.mqtt import TablePublisher, parse_url
from tests.mqtt_broker import Broker, Subscriber, connected_client

pytestmark = pytest.mark.system

SHIPPED = Path(__file__).resolve().parents[2] / "systemd" / "mosquitto"
USERS = {"cardtable": "table-pw", "dashboard": "dash-pw", "homeassistant": "ha-pw", "admin": "admin-pw"}


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
    url = f"mqtt://cardtable:{USERS['cardtable']}@127.0.0.1:{broker.port}"
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
        for user in ("cardtable", "homeassistant"):  # another table, or Home Assistant: no commands either
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
        admin.disconnect()
        admin.loop_stop()
        dashboard.close()
        table.stop()


def test_home_assistant_reads_the_discovery_and_its_announcement_reaches_the_table(broker: Broker) -> None:
    url = f"mqtt://cardtable:{USERS['cardtable']}@127.0.0.1:{broker.port}"
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

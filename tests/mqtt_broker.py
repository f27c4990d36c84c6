"""A real Mosquitto broker for the tests, on a free loopback port, with a configuration written
for it; and a subscriber that keeps the latest message of every topic it sees."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import threading
import time
from pathlib import Path

import pytest

MOSQUITTO = shutil.which("mosquitto") or "/usr/sbin/mosquitto"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Broker:
    """``mosquitto -c`` on 127.0.0.1:``port``; ``extra`` lines go into its configuration."""

    def __init__(self, folder: Path, extra: str = "") -> None:
        if not Path(MOSQUITTO).exists():
            pytest.fail("mosquitto is not installed: apt-get install -y mosquitto (.ci/run does)")
        self.folder, self.port = folder, free_port()
        self.conf = folder / "mosquitto.conf"
        # Started as root, Mosquitto drops to its own user, which may not enter the test's private
        # folder (its log, a password file): here it stays root. On a Pi it runs as mosquitto.
        stay = "user root\n" if os.geteuid() == 0 else ""
        self.conf.write_text(
            f"listener {self.port} 127.0.0.1\n{stay}"
            + ("allow_anonymous true\n" if "allow_anonymous" not in extra else "")
            + f"persistence false\nlog_dest file {folder / 'mosquitto.log'}\n{extra}",
            encoding="utf-8",
        )
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"mqtt://127.0.0.1:{self.port}"

    def start(self) -> Broker:
        self.process = subprocess.Popen([MOSQUITTO, "-c", str(self.conf)], stderr=subprocess.PIPE)
        deadline = time.monotonic() + 10
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return self
            except OSError:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    err = self.process.stderr.read().decode() if self.process.stderr else ""
                    raise RuntimeError(f"mosquitto did not start: {err}") from None
                time.sleep(0.05)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)


class Subscriber:
    """Subscribes to ``topics`` and keeps each topic's latest payload (retained ones included)."""

    def __init__(self, broker: Broker, *topics: str, username: str | None = None, password: str | None = None) -> None:
        from paho.mqtt.client import CallbackAPIVersion, Client

        self.latest: dict[str, str] = {}
        self.messages: list[tuple[str, str, float]] = []  # topic, payload, time.monotonic_ns() at arrival
        self.changed = threading.Condition()
        self.client = Client(CallbackAPIVersion.VERSION2)
        if username is not None:
            self.client.username_pw_set(username, password)
        self.subscribed = threading.Event()  # the broker has acknowledged the subscriptions
        self.client.on_connect = lambda c, *_: c.subscribe([(t, 1) for t in topics])
        self.client.on_subscribe = lambda *_: self.subscribed.set()
        self.client.on_message = self._message
        self.client.connect_async("127.0.0.1", broker.port)
        self.client.loop_start()

    def _message(self, client: object, userdata: object, message: object) -> None:
        payload = message.payload.decode()  # type: ignore[attr-defined]
        with self.changed:
            self.latest[message.topic] = payload  # type: ignore[attr-defined]
            self.messages.append((message.topic, payload, time.monotonic_ns()))  # type: ignore[attr-defined]
            self.changed.notify_all()

    def wait_for(self, topic: str, payload: str | None = None, seconds: float = 15.0) -> str:
        """The topic's payload once it has one (``payload``, if given)."""
        with self.changed:
            ok = self.changed.wait_for(
                lambda: topic in self.latest and (payload is None or self.latest[topic] == payload), seconds
            )
        assert ok, f"{topic} never became {payload!r}: {self.latest.get(topic)!r}"
        return self.latest[topic]

    def count(self, topic: str) -> int:
        with self.changed:
            return sum(1 for t, _, _ in self.messages if t == topic)

    def wait_count(self, topic: str, n: int, seconds: float = 10.0) -> list[str]:
        """The payloads of ``topic`` once ``n`` have come (fewer, after ``seconds``)."""
        with self.changed:
            self.changed.wait_for(lambda: sum(1 for t, _, _ in self.messages if t == topic) >= n, seconds)
            return [p for t, p, _ in self.messages if t == topic]

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def connected_client(broker: Broker, username: str | None = None, password: str | None = None) -> object:
    """A paho client connected (its CONNACK received: a publish before it could not be waited for)."""
    from paho.mqtt.client import CallbackAPIVersion, Client

    client = Client(CallbackAPIVersion.VERSION2)
    if username is not None:
        client.username_pw_set(username, password)
    up = threading.Event()
    client.on_connect = lambda c, u, f, reason, p: up.set() if not reason.is_failure else None
    client.connect("127.0.0.1", broker.port)
    client.loop_start()
    assert up.wait(10), "the broker did not accept the client"
    return client

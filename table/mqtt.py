"""The table on MQTT: the state of play and the scores for dashboards and Home Assistant.

Topics, under ``cardtable/<table_id>/``:

* ``availability``: ``online`` or ``offline``, retained. The broker publishes ``offline`` (the
  last will) when the table drops off without a word; a clean stop publishes it itself.
* ``game``: the game, preset, round and phase, as JSON, retained.
* ``turn``: the name of the seat the referee waits on (``none``: nobody), retained. (An empty
  retained payload would delete the topic.)
* ``seat/<n>/name`` and ``seat/<n>/score``: one plain value each, retained, so any dashboard can
  show them.
* ``state``: the whole table as one JSON object (``table.scoreboard.table_state``), retained.
* ``page``: the scoreboard's address (``[mqtt] scoreboard_url``), retained: the page opened on the
  Pi itself shows it for phones, not its own loopback address.
* ``events``: each decision as JSON (``Decision.to_json``) with ``said``, the sentence the
  terminal prints, and ``close`` for a slap's lead (``table.narration.Narrator.told``), QoS 1,
  not retained.

And Home Assistant's discovery message (``table.home_assistant``), sent again whenever Home
Assistant says on ``homeassistant/status`` that it is back.

Commands come on ``cmd/<command>`` (``new-game``, ``set``, ``pause``, ``resume``, ``end-game``,
``out-of-cards``, ``out-of-turn``; the payload a JSON object of the command's keys, or nothing), are checked like
the command line's (``table.commands``) and answered on ``reply``: ``{"command": ..., "ok": ...,
"message": ...}``. Who may send them is the broker's business: its ACL lets only an admin user
write ``cmd`` topics (``systemd/mosquitto/``).

The broker may be down when the table starts, restarted, or away for minutes: the table plays
on regardless. paho's network thread connects and reconnects in the background; retained topics
are kept here and republished on every connect (once the broker has acknowledged the
subscriptions, so after paho's resends of older values), so a dashboard always ends up with the
latest state and final scores. Decisions made while the broker is away wait in a bounded queue
(``keep_events``; the oldest give way, counted in ``dropped``) and follow the retained state
when it is back. Nothing here blocks or raises into the table's loop.
"""

from __future__ import annotations

import json
import logging
import re
import secrets
import socket
import ssl
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote, urlsplit

from table import home_assistant
from table.commands import CommandError, CommandRequest, parse_command
from table.decisions import Decision
from table.errors import CardtableError
from table.lights import Pattern
from table.narration import Narrator
from table.rules import is_preset_file
from table.scoreboard import table_state
from table.tally import GameTally

log = logging.getLogger("cardtable.mqtt")

TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,40}")
KEEPALIVE_S = 15  # the broker gives the table up (and says offline) after 1.5 times this without a word
NOBODY = "none"  # the turn topic when the referee waits on no seat
CLEARED = ""  # an empty retained payload deletes the topic at the broker (kept, and sent again on connect)
MAX_COMMAND_BYTES = 4096  # a command's keys fit in far less; anything bigger is refused unread
COMMANDS_PER_SECOND = 5  # commands taken a second at most, after a burst of ``COMMAND_BURST``; the rest are refused
COMMAND_BURST = 20
SERVICE_LOGINS = ("dashboard", "homeassistant", "admin")  # the broker's logins that own no table (cardtable.acl)
STOP_WAIT_S = 3.0  # a clean stop waits this long at most for the broker, and for "offline" to reach it


class MqttError(CardtableError, ValueError):
    """A broker address or table id that cannot be used; the message says what was wrong."""


@dataclass(frozen=True)
class MqttSettings:
    host: str
    port: int = 1883
    table_id: str = "table"
    username: str | None = None
    password: str | None = None
    tls: bool = False
    keep_events: int = 1_000  # decisions kept while the broker is away
    ca_file: str | None = None  # TLS: the certificate authority that signed the broker's (None: the system's)
    cert_file: str | None = None  # TLS: the table's own certificate and key, where the broker asks for them
    key_file: str | None = None
    page: str = ""  # the scoreboard's address, for Home Assistant's link to it

    @property
    def base(self) -> str:
        return f"cardtable/{self.table_id}"


def parse_url(url: str, table_id: str, keep_events: int = 1_000) -> MqttSettings:
    """``mqtt://[USER:PASS@]HOST[:PORT]`` (or ``mqtts://`` for TLS, port 8883 by default)."""
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as exc:
        raise MqttError(f"mqtt: {url!r} is no broker address ({exc})") from None
    if parts.scheme not in ("mqtt", "mqtts") or not parts.hostname:
        raise MqttError(f"mqtt: {url!r} is no broker address; give mqtt://[USER:PASS@]HOST:PORT")
    if parts.path not in ("", "/") or parts.query:
        raise MqttError(f"mqtt: {url!r} has a path or query; give mqtt://[USER:PASS@]HOST:PORT only")
    if not TABLE_ID.fullmatch(table_id):
        raise MqttError(f"table id {table_id!r} must be 1 to 40 letters, digits, '-' or '_' (it names MQTT topics)")
    if table_id in SERVICE_LOGINS:
        raise MqttError(
            f"table id {table_id!r} is the name of a service login ({', '.join(SERVICE_LOGINS)}): choose another"
        )
    if keep_events < 1:
        raise MqttError(f"mqtt: keep_events {keep_events} must be at least 1")
    tls = parts.scheme == "mqtts"
    return MqttSettings(
        host=parts.hostname,
        port=port or (8883 if tls else 1883),
        table_id=table_id,
        username=None if parts.username is None else unquote(parts.username),
        password=None if parts.password is None else unquote(parts.password),
        tls=tls,
        keep_events=keep_events,
    )


def tls_problem(settings: MqttSettings) -> str | None:
    """Why a TLS handshake with the broker fails, in a sentence saying what to do; None if it does not."""
    context = ssl.create_default_context(cafile=settings.ca_file)
    if settings.cert_file:
        context.load_cert_chain(settings.cert_file, settings.key_file)
    try:
        with (
            socket.create_connection((settings.host, settings.port), timeout=5) as raw,
            context.wrap_socket(raw, server_hostname=settings.host),
        ):
            return None
    except ssl.SSLCertVerificationError as exc:
        return (
            f"the MQTT broker's certificate at {settings.host}:{settings.port} is refused: {exc.verify_message} "
            "(set [mqtt] ca_file to the certificate authority that signed it)"
        )
    except ssl.SSLError as exc:
        return f"TLS with the MQTT broker at {settings.host}:{settings.port} fails: {exc.reason or exc}"
    except OSError:
        return None


class TablePublisher:
    """Publishes a table's state and decisions to one broker, from any thread."""

    def __init__(self, settings: MqttSettings, client: Any | None = None) -> None:
        from paho.mqtt.client import CallbackAPIVersion, Client, MQTTv5

        self.settings = settings
        # A client id nobody can guess: a client logging in with the table's id would take its
        # connection over (the broker drops the older of two clients with one id).
        client_id = f"cardtable-{settings.table_id}-{secrets.token_hex(6)}"
        # MQTT 5: a command's retain flag reaches the table as it was published (``_heard``).
        self.client = client or Client(CallbackAPIVersion.VERSION2, client_id=client_id, protocol=MQTTv5)
        self.connected = False
        self._stopping = False
        self._up = threading.Event()  # set while connected (a stop waits for it to send what it holds)
        self.connects = 0
        self.dropped = 0  # decisions given up while the broker was away (the queue was full)
        self._lock = threading.Lock()
        self._retained: dict[str, str] = {}  # topic: payload, republished on every connect
        self._waiting: deque[tuple[str, str]] = deque()  # (topic, payload): events made while the broker was away
        self._catch_up_mid = -1  # the subscription whose acknowledgement starts the catch-up
        self._seats = 0  # seats whose topics are published (the rest are cleared)
        self._announced: tuple[str, ...] | None = None  # the seats Home Assistant was told of
        self.tally = GameTally()  # the game under way as its decisions told it: for the winner's screen
        self._to_remove: set[int] = set()  # seats Home Assistant is yet to be told are gone
        self.on_command: Callable[[CommandRequest], None] | None = None  # where commands go (the table's inbox)
        self._clearing: set[str] = set()  # command topics whose retained message this table cleared
        self._allowance = float(COMMAND_BURST)  # commands that may come now (a token bucket)
        self._allowed_at = time.monotonic()
        c = self.client
        if settings.username is not None:
            c.username_pw_set(settings.username, settings.password)
        if settings.tls:
            c.tls_set(ca_certs=settings.ca_file, certfile=settings.cert_file, keyfile=settings.key_file)
        self.refused: str | None = None  # why the last try to connect failed, said once a reason
        c.will_set(self._topic("availability"), "offline", qos=1, retain=True)
        c.reconnect_delay_set(min_delay=1, max_delay=10)
        if settings.page:
            self._retained[self._topic("page")] = settings.page
        c.on_connect = self._connected
        c.on_disconnect = self._disconnected
        c.on_connect_fail = self._connect_failed
        c.on_subscribe = self._subscribed
        c.on_message = self._message
        c.suppress_exceptions = True  # a callback's bug is logged by paho; its network thread lives on

    def _topic(self, name: str) -> str:
        return f"{self.settings.base}/{name}"

    # ------------------------------------------------------------------------- lifetime

    def start(self) -> TablePublisher:
        """Connect in the background (the broker may come later) and keep reconnecting."""
        self.client.connect_async(self.settings.host, self.settings.port, keepalive=KEEPALIVE_S)
        self.client.loop_start()
        return self

    def stop(self) -> None:
        """Say ``offline`` (a clean stop sends no last will) and disconnect. A broker that is
        reachable is given a moment to take what the table holds for it: everything published
        before ``offline`` on one connection has reached the broker once ``offline`` has."""
        deadline = time.monotonic() + STOP_WAIT_S
        self._stopping = True
        self._up.wait(STOP_WAIT_S)
        with self._lock:
            info = self.client.publish(self._topic("availability"), "offline", qos=1, retain=True)
            was_connected = self.connected
        if was_connected:
            try:
                info.wait_for_publish(max(0.1, deadline - time.monotonic()))
            except (RuntimeError, ValueError) as exc:  # it went away meanwhile: the will says it
                log.info("offline not confirmed: %s", exc)
        else:
            log.warning("MQTT: the broker was away when the table stopped; what it did not get is lost")
        self.client.disconnect()
        self.client.loop_stop()

    def _connected(self, client: Any, userdata: Any, flags: Any, reason: Any, properties: Any) -> None:
        if reason.is_failure:
            where = f"{self.settings.host}:{self.settings.port}"
            log.warning("the MQTT broker at %s refused the table: %s", where, reason)
            return
        # Only subscribe here. Right after this callback paho resends what the last connection
        # left unacknowledged; retained values sent now would reach the broker before those
        # older ones, which would then replace them (a final score lost). The catch-up waits
        # for the first subscription's acknowledgement, which comes after the resends.
        with self._lock:
            self.connects += 1
            _, self._catch_up_mid = client.subscribe(home_assistant.STATUS_TOPIC, qos=1)
            if self.on_command is not None:
                from paho.mqtt.subscribeoptions import SubscribeOptions

                options = SubscribeOptions(qos=1, retainAsPublished=True)
                client.subscribe(self._topic("cmd/+"), options=options)

    def _subscribed(self, client: Any, userdata: Any, mid: int, reasons: Any, properties: Any) -> None:
        """The broker has taken everything sent before: publish the state afresh, then what waited."""
        with self._lock:
            if mid != self._catch_up_mid or self.connected:
                return
            self.connected = True
            self.refused = None  # a later outage is said again
            self._up.set()
            client.publish(self._topic("availability"), "online", qos=1, retain=True)
            self._send_removal(client)
            for topic, payload in self._retained.items():
                client.publish(topic, payload, qos=1, retain=True)
            while self._waiting:
                client.publish(*self._waiting.popleft(), qos=1)
        log.info("MQTT: connected to %s:%d as table %s", self.settings.host, self.settings.port, self.settings.table_id)

    def _connect_failed(self, client: Any, userdata: Any) -> None:
        """A try to connect failed (paho tries again). Over TLS, the handshake is tried once more
        here to say why, once a reason: a certificate refused fails silently otherwise."""
        where = f"{self.settings.host}:{self.settings.port}"
        reason = f"the MQTT broker at {where} cannot be reached"
        if self.settings.tls:
            reason = tls_problem(self.settings) or reason
        if reason != self.refused:
            self.refused = reason
            log.error("%s; the table plays on and tries again", reason)

    def _disconnected(self, client: Any, userdata: Any, flags: Any, reason: Any, properties: Any) -> None:
        with self._lock:
            was, self.connected = self.connected, False
            self._up.clear()
        if was and not self._stopping:
            log.warning("MQTT: lost the broker (%s); the table plays on and catches it up when it is back", reason)

    def _message(self, client: Any, userdata: Any, message: Any) -> None:
        try:
            self._heard(client, message)
        except Exception:  # whatever arrives, the network thread must live on
            log.exception("MQTT: a message on %s could not be handled", message.topic)

    def _heard(self, client: Any, message: Any) -> None:
        prefix = self._topic("cmd/")
        if message.topic.startswith(prefix) and self.on_command is not None:
            kind = message.topic.removeprefix(prefix)
            if message.retain:  # kept by the broker: it would be done again at every connect
                self._clear(client, message.topic, kind, message.payload)
            elif message.topic in self._clearing and not message.payload:
                self._clearing.discard(message.topic)  # the clearing, passed on by the broker: nothing to do
            elif self._allowed():
                self._command(kind, message.payload)
            else:
                self._reply(kind, False, f"too many commands: at most {COMMANDS_PER_SECOND} a second are taken")
        elif message.topic == home_assistant.STATUS_TOPIC and message.payload == b"online":
            topic = home_assistant.discovery_topic(self.settings.table_id)
            with self._lock:  # Home Assistant (re)started: it is told of the table again
                payload = self._retained.get(topic)
                if payload is not None and self.connected:
                    client.publish(topic, payload, qos=1, retain=True)
            log.info("MQTT: Home Assistant is online; the table's discovery message is sent again")

    def _clear(self, client: Any, topic: str, kind: str, payload: bytes) -> None:
        """A command sent with the retain flag: refused, and cleared from the broker."""
        if not payload:
            return  # a clearing already
        self._clearing.add(topic)
        client.publish(topic, b"", qos=1, retain=True)
        self._reply(
            kind,
            False,
            "a command sent with the retain flag is refused (the broker would send it again "
            "at every connect); it is cleared: send it without the flag",
        )

    def _allowed(self) -> bool:
        """Whether one more command may be taken now (``COMMANDS_PER_SECOND``, after a burst)."""
        now = time.monotonic()
        refilled = self._allowance + (now - self._allowed_at) * COMMANDS_PER_SECOND
        self._allowance = min(float(COMMAND_BURST), refilled)
        self._allowed_at = now
        if self._allowance < 1.0:
            return False
        self._allowance -= 1.0
        return True

    def _command(self, kind: str, payload: bytes) -> None:
        """A command from the broker: checked, then handed to the table, whose answer goes to ``reply``."""
        try:
            if len(payload) > MAX_COMMAND_BYTES:
                raise CommandError(f"the payload is {len(payload)} bytes; a command is at most {MAX_COMMAND_BYTES}")
            data = json.loads(payload) if payload.strip() else {}
            if not isinstance(data, dict):
                raise CommandError(f"the payload must be a JSON object of the command's keys, not {data!r:.60}")
            command = parse_command({**data, "command": kind}, source="MQTT")
            if command.rules is not None and is_preset_file(command.rules):
                raise CommandError(f"{kind}: over MQTT a preset is named (cardtable rules GAME lists them), not a file")
        except CommandError as exc:
            self._reply(kind, False, str(exc))
            return
        except (ValueError, RecursionError) as exc:  # json's errors are ValueErrors; deep nesting recurses
            self._reply(kind, False, f"the payload is not JSON: {exc}")
            return
        assert self.on_command is not None
        self.on_command(CommandRequest(command, lambda ok, message: self._reply(kind, ok, message)))

    def _reply(self, kind: str, ok: bool, message: str) -> None:
        answer = json.dumps({"command": kind, "ok": ok, "message": message})
        self.client.publish(self._topic("reply"), answer, qos=1)
        log.log(logging.INFO if ok else logging.WARNING, "MQTT command %s: %s", kind, message)

    # ------------------------------------------------------------------------- publishing

    def retain(self, name: str, payload: str) -> None:
        """Set a retained topic (under the table's base); sent now if it changed, and on every connect."""
        self._retain(self._topic(name), payload)

    def announce(self, names: Sequence[str]) -> None:
        """Tell Home Assistant of the table and its seats (when they change). Seats gone since
        the last announcement are removed in one message; the retained one after it names only
        the seats there are."""
        if tuple(names) == self._announced:
            return
        # The first announcement of a run removes every seat up to MAX_SEATS past this table's
        # (it may have had more before a restart); later ones, the seats gone since.
        before = home_assistant.MAX_SEATS if self._announced is None else len(self._announced)
        self._announced = tuple(names)
        with self._lock:
            self._to_remove = (self._to_remove | set(range(len(names), before))) - set(range(len(names)))
            if self.connected:
                self._send_removal(self.client)  # else when the broker is back
        table_id, page = self.settings.table_id, self.settings.page
        self._retain(
            home_assistant.discovery_topic(table_id),
            json.dumps(home_assistant.discovery(table_id, names, _version(), page)),
        )

    def _send_removal(self, client: Any) -> None:
        """Home Assistant told of the seats to remove, once (the lock held)."""
        if not self._to_remove or self._announced is None:
            return
        table_id, page, gone = self.settings.table_id, self.settings.page, sorted(self._to_remove)
        removal = home_assistant.discovery(table_id, self._announced, _version(), page, removed=gone)
        client.publish(home_assistant.discovery_topic(table_id), json.dumps(removal), qos=1, retain=True)
        self._to_remove = set()

    def _retain(self, topic: str, payload: str) -> None:
        with self._lock:
            if self._retained.get(topic) == payload:
                return
            self._retained[topic] = payload
            if self.connected:
                self.client.publish(topic, payload, qos=1, retain=True)

    def recount(self, told: Iterable[dict[str, Any]]) -> None:
        """The winner's screen's count made again from a game's decisions so far (a game resumed
        after a restart), without publishing them again."""
        self.tally = GameTally()
        for one in told:
            self.tally.heard(one)

    def event(self, told: dict[str, Any]) -> None:
        """One decision as told (``Narrator.told``), on the ``events`` topic, and Home
        Assistant's event entities' messages it makes."""
        self.tally.heard(told)
        self._send(self._topic("events"), json.dumps(told, separators=(",", ":")))
        for topic, payload in home_assistant.events(told, self._announced or ()):
            self._send(self._topic(topic), json.dumps(payload, separators=(",", ":")))

    def _send(self, topic: str, payload: str) -> None:
        """A message sent now, or once the broker is back (the oldest waiting give way)."""
        with self._lock:
            if self.connected:
                self.client.publish(topic, payload, qos=1)
                return
            if len(self._waiting) >= self.settings.keep_events:
                self._waiting.popleft()
                self.dropped += 1
            self._waiting.append((topic, payload))

    def follow(
        self,
        setup: Any,
        names: Sequence[str],
        lights: Callable[[], Sequence[Pattern]] = lambda: (),
    ) -> Callable[[Decision, Any], None]:
        """A decision output (``Outputs.decisions``) publishing each decision and the state it leaves."""
        narrator = Narrator(names)

        def decided(decision: Decision, referee: Any) -> None:
            self.event(narrator.told(decision, referee))
            self.show(referee, setup, names, lights())

        return decided

    def show(
        self,
        referee: Any,
        setup: Any,
        names: Sequence[str],
        lights: Sequence[Pattern] = (),
        paused: Sequence[str] = (),
    ) -> None:
        """The retained topics as the game now stands: the whole state, and its parts topic by topic."""
        self.announce(names)
        state = table_state(referee, setup, names, lights, paused, self.tally)
        game = {key: state[key] for key in ("game", "preset", "round", "phase")}
        self.retain("game", json.dumps(game, separators=(",", ":")))
        self.retain("turn", NOBODY if state["turn"] is None else names[state["turn"]])
        for seat in state["seats"]:
            self.retain(f"seat/{seat['seat']}/name", seat["name"])
            self.retain(f"seat/{seat['seat']}/score", str(seat["score"]))
        for gone in range(len(state["seats"]), self._seats):  # seats that went away: cleared
            self.retain(f"seat/{gone}/name", CLEARED)
            self.retain(f"seat/{gone}/score", CLEARED)
        self._seats = max(self._seats, len(state["seats"]))
        self.retain("leader", home_assistant.leader(state))
        self.retain("state", json.dumps(state, separators=(",", ":")))


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("cardtable")
    except PackageNotFoundError:
        return ""

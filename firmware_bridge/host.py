"""The host side of the bridge: a thread that keeps the board connected, in sync and lit.

It opens the serial port, says hello and checks the board's protocol version, then reads edges,
pongs and acknowledgements while it pings the board ten times a second and sends light commands.
A light command is sent again until acknowledged (a newer command for the same light replaces it).
Edges are stamped with the board's own microsecond timer; here they are unwrapped and moved onto
the host's monotonic clock through the ping fit (``clock_sync``), once, as they enter. An unplugged
board, a port that vanishes or a link gone quiet closes the port and the thread opens it again
when it can; garbage on the line costs at most the frame it hit, and is counted.
"""

from __future__ import annotations

import contextlib
import logging
import queue
import threading
import time
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass

from firmware_bridge import protocol as p
from firmware_bridge.clock_sync import BoardOrder, ClockFit, Ping, Unwrapper
from table.buttons import RawEdge, drain
from table.lights import KINDS, Pattern

log = logging.getLogger("cardtable.bridge")
MS = 1_000_000


@dataclass(frozen=True)
class BoardInfo:
    protocol: int
    timer_bits: int
    buttons: int
    lights: int
    firmware: str


@dataclass(frozen=True)
class BridgeTiming:
    ping_ns: int = 100 * MS  # ping interval: ten a second keeps the fit fresh
    ack_ns: int = 25 * MS  # resend a light command not acknowledged by then
    retries: int = 8  # resends before a light command is counted lost
    handshake_ns: int = 500 * MS  # wait this long for VERSION after HELLO
    quiet_ns: int = 2_000 * MS  # nothing heard (the board heartbeats twice a second): reconnect
    reopen_ns: int = 500 * MS  # between attempts to open a missing port
    recheck_ns: int = 5_000 * MS  # between looks at a board with other firmware (it may be re-flashed)


@dataclass
class _Pending:
    light: int
    pattern: Pattern
    seq: int
    sent_ns: int
    first_ns: int
    tries: int = 1


class Bridge:
    """A button-and-light board on a serial port. ``status`` is ``connecting``, ``connected``,
    ``disconnected`` or ``wrong-firmware``; ``problem`` says why when it is not connected."""

    def __init__(
        self,
        port: str,
        baud: int = 115_200,
        seat_of_button: dict[int, int] | None = None,
        timing: BridgeTiming | None = None,
        clock: Callable[[], int] = time.monotonic_ns,
        serial_factory: Callable[..., object] | None = None,
        edges: queue.SimpleQueue[RawEdge] | None = None,
    ) -> None:
        """``edges``: where to queue the buttons' edges (a loop's one inbox), else a queue of its own."""
        self.port = port
        self.baud = baud
        self.seat_of_button = seat_of_button
        self.timing = timing or BridgeTiming()
        self.clock = clock
        self._serial_factory = serial_factory
        self.status = "connecting"
        self.problem = ""
        self.edges: queue.SimpleQueue[RawEdge] = queue.SimpleQueue() if edges is None else edges
        self.stats: Counter[str] = Counter()
        self.ack_latencies_ns: deque[int] = deque(maxlen=1000)
        self.on_status: Callable[[str, str], None] | None = None
        self._lights: dict[int, Pattern] = {}  # what each light should show (resent after a reconnect)
        self._commands: queue.SimpleQueue[tuple[int, Pattern]] = queue.SimpleQueue()
        self._pending: dict[int, _Pending] = {}  # by light
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._serial: object | None = None
        self.info: BoardInfo | None = None
        self._reset_link()

    # -- the public side, safe from any thread ------------------------------------------------
    def start(self) -> Bridge:
        self._thread = threading.Thread(target=self._run, name=f"bridge {self.port}", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2)
        self._close()

    def show(self, light: int, pattern: Pattern) -> None:
        """Show a pattern on a light; sent as soon as the link allows, and again after a reconnect.

        Checked here, on the caller's thread: a bad light number or pattern is the caller's
        error (ValueError), never a reason for the bridge's own thread to stop."""
        if type(light) is not int or not 0 <= light <= 255:
            raise ValueError(f"light must be a whole number 0-255, not {light!r}")
        if not isinstance(pattern, Pattern):
            raise ValueError(f"not a light pattern: {pattern!r}")
        p.encode(p.LIGHT, 0, self._light_fields(light, pattern))  # raises now if it cannot be sent
        self._commands.put((light, pattern))
        ser = self._serial
        if ser is not None and hasattr(ser, "cancel_read"):
            with contextlib.suppress(Exception):  # the port may be closing under us: the read times out anyway
                ser.cancel_read()  # wake the thread from its read to send it now

    def drain(self) -> list[RawEdge]:
        """Every edge the board has sent since the last call, on the host clock."""
        return drain(self.edges)

    @property
    def fit(self) -> ClockFit:
        return self._fit

    # -- the thread ----------------------------------------------------------------------------
    def _reset_link(self) -> None:
        self.info = None  # whatever is on the port now must introduce itself again
        self._board_dropped = 0
        self._decoder = p.Decoder()
        self._fit = ClockFit()
        self._order = BoardOrder()
        self._unwrap: Unwrapper | None = None
        self._seq = 0
        self._pings: dict[int, int] = {}
        self._ping_id = 0
        self._next_ping = 0
        self._last_heard = 0
        self._held: list[tuple[int, bool, int]] = []  # edges that came before the first pong
        self._board_seq: int | None = None

    def _set_status(self, status: str, problem: str = "") -> None:
        if (status, problem) != (self.status, self.problem):
            self.status, self.problem = status, problem
            (log.info if status == "connected" else log.warning)("bridge %s: %s %s", self.port, status, problem)
            if self.on_status is not None:
                self.on_status(status, problem)

    def _run(self) -> None:
        while not self._stop.is_set():
            if self._serial is None:
                if not self._connect():
                    self._stop.wait(self.timing.reopen_ns / 1e9)
                continue
            try:
                self._step()
            except Exception as exc:  # OSError, pyserial's SerialException, or a bug: never end the thread
                if not isinstance(exc, OSError) and type(exc).__name__ != "SerialException":
                    log.exception("bridge %s: unexpected error; reconnecting", self.port)
                self._lost(f"link failed: {exc}")

    def _open(self) -> object:
        if self._serial_factory is not None:
            return self._serial_factory(self.port, self.baud)
        import serial

        return serial.Serial(self.port, self.baud, timeout=0.002, write_timeout=0.5)

    def _connect(self) -> bool:
        try:
            self._serial = self._open()
        except Exception as exc:  # no such port, permission denied, busy
            self._set_status("disconnected", f"cannot open {self.port}: {exc}")
            return False
        self._reset_link()
        try:
            deadline = self.clock() + self.timing.handshake_ns
            next_hello = 0
            while self.clock() < deadline and self.info is None and not self._stop.is_set():
                if self.clock() >= next_hello:  # said again in case the first hello or its answer was lost
                    self._write(b"\x00" + p.encode(p.HELLO, self._next_seq(), (p.PROTOCOL_VERSION,)))
                    next_hello = self.clock() + self.timing.handshake_ns // 5
                for message in self._decoder.feed(self._read()):
                    self._handle(message, self.clock())
        except Exception as exc:
            self._lost(f"handshake failed: {exc}")
            return False
        if self.info is None:
            self._lost("no answer to hello: is this the cardtable firmware?")
            return False
        if self.info.protocol != p.PROTOCOL_VERSION:
            self._close()
            self._set_status(
                "wrong-firmware",
                f"the board speaks protocol {self.info.protocol} ({self.info.firmware}), "
                f"this table {p.PROTOCOL_VERSION}: flash firmware_bridge/firmware (see the README)",
            )
            self._stop.wait(self.timing.recheck_ns / 1e9)
            return False
        self._unwrap = Unwrapper(self.info.timer_bits)
        self._last_heard = self.clock()
        self._pending.clear()
        for light, pattern in self._lights.items():  # the board may have restarted dark
            self._send_light(light, pattern, self.clock())
        self._set_status("connected")
        self.stats["connects"] += 1
        return True

    def _lost(self, why: str) -> None:
        self._close()
        self.stats["disconnects"] += 1
        self._set_status("disconnected", why)

    def _close(self) -> None:
        if self._serial is not None:
            with contextlib.suppress(Exception):  # closing a port that has vanished may fail too
                self._serial.close()  # type: ignore[attr-defined]
            self._serial = None

    def _read(self) -> bytes:
        ser = self._serial
        data = ser.read(max(1, ser.in_waiting))  # type: ignore[attr-defined]
        return bytes(data)

    def _write(self, frame: bytes) -> None:
        self._serial.write(frame)  # type: ignore[attr-defined]

    def _next_seq(self) -> int:
        self._seq = (self._seq + 1) & 0xFF
        return self._seq

    def _step(self) -> None:
        data = self._read()
        now = self.clock()
        if data:
            self._last_heard = now
            for message in self._decoder.feed(data):
                self._handle(message, now)
            self.stats.update({f"dropped {k}": v for k, v in self._decoder.errors.items()})
            self._decoder.errors.clear()
        while True:
            try:
                light, pattern = self._commands.get_nowait()
            except queue.Empty:
                break
            self._lights[light] = pattern
            self._send_light(light, pattern, now)
        for pending in list(self._pending.values()):
            if now - pending.sent_ns >= self.timing.ack_ns:
                if pending.tries > self.timing.retries:
                    del self._pending[pending.light]
                    self.stats["lights lost"] += 1
                    continue
                pending.tries += 1
                pending.sent_ns = now
                self.stats["light resends"] += 1
                self._write(self._light_frame(pending))
        if now >= self._next_ping:
            self._ping_id = (self._ping_id + 1) & 0xFFFF
            self._pings[self._ping_id] = self.clock()
            if len(self._pings) > 64:
                self._pings.pop(next(iter(self._pings)))
            self._write(p.encode(p.PING, self._next_seq(), (self._ping_id,)))
            self._next_ping = now + self.timing.ping_ns
        if now - self._last_heard > self.timing.quiet_ns:
            self._lost(f"nothing heard from the board for {self.timing.quiet_ns // MS} ms")

    @staticmethod
    def _light_fields(light: int, pat: Pattern) -> tuple[int, ...]:
        return (light, KINDS[pat.kind], *pat.colour, pat.count, pat.period_ms)

    def _light_frame(self, pending: _Pending) -> bytes:
        return p.encode(p.LIGHT, pending.seq, self._light_fields(pending.light, pending.pattern))

    def _send_light(self, light: int, pattern: Pattern, now: int) -> None:
        if self.info is not None and not 0 <= light < self.info.lights:
            self.stats["lights refused"] += 1
            log.warning("bridge %s: no light %d on this board (it has %d)", self.port, light, self.info.lights)
            return
        pending = _Pending(light, pattern, self._next_seq(), now, now)
        self._pending[light] = pending  # replaces an older command for this light
        self._write(self._light_frame(pending))

    def _handle(self, message: tuple, now: int) -> None:
        kind, seq, fields, text = message
        if self._board_seq is not None:
            step = (seq - self._board_seq) & 0xFF
            if step >= 128:
                return self._act(kind, fields, text, now)  # an older frame after a newer one: no gap
            self.stats["board messages lost"] += step - 1
        self._board_seq = seq
        self._act(kind, fields, text, now)

    def _act(self, kind: int, fields: tuple, text: str, now: int) -> None:
        """Act on one message from the board."""
        if kind == p.VERSION:
            self.info = BoardInfo(*fields, text)
        elif kind == p.PONG:
            sent = self._pings.pop(fields[0], None)
            if sent is not None and self._unwrap is not None:
                self._fit.add(Ping(sent, now, self._unwrap(fields[1])))
                held, self._held = self._held, []
                for button, pressed, ticks in held:
                    self._edge(button, pressed, ticks)
        elif kind == p.EDGE:
            button, state, ticks = fields
            if self._fit.ready:
                self._edge(button, bool(state), ticks)
            else:
                self._held.append((button, bool(state), ticks))
        elif kind == p.ACK:
            for pending in list(self._pending.values()):
                if pending.seq == fields[0]:
                    del self._pending[pending.light]
                    self.ack_latencies_ns.append(now - pending.first_ns)
        elif kind == p.ERROR:
            self.stats[f"board error {fields[0]}"] += 1
            log.warning("bridge %s: the board reports error %d: %s", self.port, fields[0], text)
        elif kind == p.HEARTBEAT:
            self.stats["heartbeats"] += 1
            dropped = fields[1]
            if dropped != self._board_dropped:  # its edge queue overflowed: presses were lost there
                lost = (dropped - self._board_dropped) & 0xFFFF
                self.stats["edges dropped by the board"] += lost
                log.warning("bridge %s: the board dropped %d button edges (too many at once)", self.port, lost)
                self._board_dropped = dropped
        else:
            self.stats["unexpected messages"] += 1

    def _edge(self, button: int, pressed: bool, ticks: int) -> None:
        assert self._unwrap is not None
        seat = button if self.seat_of_button is None else self.seat_of_button.get(button)
        if seat is None:
            self.stats["edges from unused buttons"] += 1
            return
        board_us = self._unwrap(ticks)
        self.edges.put(RawEdge(seat, pressed, self._order.place(board_us, self._fit.to_host_ns(board_us))))

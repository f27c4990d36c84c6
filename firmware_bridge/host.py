"""The host side of the bridge: a thread that keeps the board connected, in sync and lit.

It opens the serial port, says hello and checks the board's protocol version, then reads edges,
pongs, heartbeats and acknowledgements while it pings the board (a hundred times a second just
after connecting, ten a second after) and sends light commands. A light command is sent again
until acknowledged (a newer command for the same light replaces it). An unplugged board, a port
that vanishes or a link gone quiet closes the port and the thread opens it again when it can;
garbage on the line costs at most the frame it hit, and is counted.

Edges come numbered: they are handed on in the board's order, a gap is asked for again, and an
edge the board no longer holds is reported lost (``edge_numbers``). Each is stamped with the
board's microsecond timer; here it is placed on the host's monotonic clock through the ping fit
(``clock_sync``), once, as it enters, and checked: a timer value the board cannot have sent, one
ahead of the host's clock or long past, one older than its button's previous edge, or a button
going the way it already went, cannot be true. It is counted, logged with the seat and the port,
and left out; the link stays up. A pong that cannot be true is left out of the fit the same way.
"""

from __future__ import annotations

import contextlib
import errno
import logging
import os
import queue
import re
import threading
import time
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass

from firmware_bridge import protocol as p
from firmware_bridge.clock_sync import BoardOrder, ClockFit, Ping, Unwrapper
from firmware_bridge.edge_numbers import EdgeNumbers, ahead
from table.buttons import ButtonLevel, RawEdge, drain
from table.lights import LightKind, Pattern
from table.units import MS, SECOND

log = logging.getLogger("cardtable.bridge")
# A pattern's kind as the protocol numbers it.
WIRE_KINDS = {
    LightKind.OFF: p.OFF,
    LightKind.STEADY: p.STEADY,
    LightKind.BLINK: p.BLINK,
    LightKind.PULSE: p.PULSE,
    LightKind.FLASH: p.FLASH,
}
FUTURE_NS = 5 * MS  # an edge placed this far past the host's clock (beyond the fit's bound) has not happened yet
PAST_NS = 10 * SECOND  # an edge from longer ago than this cannot be on its way still, even asked for again
BOARD_TIME_NS = 100 * MS  # a ping held on the board longer than this, by its own timer, is not a true pong
PONG_SLACK_NS = 50 * MS  # a pong placed this far outside its own round trip by the fit: the board's clock jumped
JUMPED_PONGS = 20  # this many such pongs in a row: the fit is started again
MISMATCH_NS = 200 * MS  # a button's level on the board unlike its edges' this long, nothing on the way: one was lost
_GONE = re.compile(r"edges (\d+)-(\d+)")


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
    fast_ping_ns: int = 10 * MS  # ... and a hundred a second just after connecting, for a good fit at once
    fast_for_ns: int = 2_000 * MS
    gap_wait_ns: int = 10 * MS  # a missing edge is asked for again this long after the gap showed, and again
    gap_asks: int = 3  # ... this many times, then counted lost
    busy_ns: int = 40 * MS  # this thread's turn on a busy host, at worst

    ack_ns: int = 25 * MS  # resend a light command not acknowledged by then
    retries: int = 8  # resends before a light command is counted lost
    handshake_ns: int = 500 * MS  # wait this long for VERSION after HELLO
    quiet_ns: int = 2_000 * MS  # nothing heard (the board heartbeats a hundred times a second): reconnect
    reopen_ns: int = 500 * MS  # between attempts to open a missing port
    recheck_ns: int = 5_000 * MS  # between looks at a board with other firmware (it may be re-flashed)

    @property
    def link_ns(self) -> int:
        """How much later than a pin's edge a board's edge may reach the table at worst: held
        behind a gap while it is asked for again, and this thread's turn on a busy host. Only the
        bound: the board's heartbeats say every 10 ms which edges are all in, and a slap waits
        for those, not for this."""
        return self.gap_wait_ns * (self.gap_asks + 1) + self.busy_ns


@dataclass
class _Pending:
    light: int
    pattern: Pattern
    seq: int
    sent_ns: int
    first_ns: int
    tries: int = 1


def _why_not_opened(exc: Exception) -> str:
    """Why a port did not open, once: pyserial's message holds the system's error twice."""
    number = getattr(exc, "errno", None)
    if not isinstance(number, int):
        return str(exc)
    if number == errno.ENOENT:
        return "no such port (is the board plugged in?)"
    if number in (errno.EAGAIN, errno.EBUSY):
        return "in use by another program (a table already running on this board?)"
    return os.strerror(number)


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
        # Told, from the bridge's thread, the host time up to which every edge has been queued.
        self.on_vouch: Callable[[int], None] | None = None
        self._lights: dict[int, Pattern] = {}  # what each light should show (resent after a reconnect)
        self._commands: queue.SimpleQueue[tuple[int, Pattern]] = queue.SimpleQueue()
        self._pending: dict[int, _Pending] = {}  # by light
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._serial: object | None = None
        self.info: BoardInfo | None = None
        self._was_down: set[int] = set()  # the buttons down when the last link was lost, as the table was told
        self._heard_levels = False
        self._levels: dict[int, bool] = {}  # each button as its last edge left it (the link's, made anew with it)
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

    @property
    def sync_bound_ns(self) -> int | None:
        """How far a press's time may be from the truth now (the clock fit's bound), or None
        before the board's clock is known."""
        return self._fit.bound_ns() if self._fit.ready else None

    def held(self) -> list[int]:
        """The seats whose button is down, as the board's edges and heartbeats have it."""
        levels = dict(self._levels)  # one step of the interpreter: the bridge's thread may be adding to it
        return sorted(s for b, down in levels.items() if down and (s := self._seat(b)) is not None)

    def counts(self) -> dict[str, int]:
        """What the bridge has counted (a copy, safe from any thread)."""
        return dict(self.stats)

    def _seat(self, button: int) -> int | None:
        return button if self.seat_of_button is None else self.seat_of_button.get(button)

    def _where(self, button: int) -> str:
        seat = self._seat(button)
        return f"board button {button}" + ("" if seat is None else f" (seat {seat})")

    # -- the thread ----------------------------------------------------------------------------
    def _reset_link(self) -> None:
        if self._heard_levels:  # a link that knew its levels: the table was told them
            self._was_down = {button for button, down in self._levels.items() if down}
        self.info = None  # whatever is on the port now must introduce itself again
        self._board_dropped = 0
        self._decoder = p.Decoder()
        self._fit = ClockFit()
        self._order = BoardOrder()
        self._unwrap: Unwrapper | None = None  # the pongs' timer, until the fit can place it
        self._seq = 0
        self._pings: dict[int, int] = {}
        self._ping_id = 0
        self._next_ping = 0
        self._connected_at = 0
        self._last_heard = 0
        self._held: list[tuple[int, bool, int]] = []  # edges that came before the first pong
        self._board_seq: int | None = None
        self._numbers: EdgeNumbers[tuple[int, bool, int]] = EdgeNumbers(self.timing.gap_wait_ns, self.timing.gap_asks)
        self._levels = {}  # each button as its last edge left it
        self._last_edge_us: dict[int, int] = {}  # each button's last edge, on the board's timer
        self._lost_since: set[int] = set()  # buttons that may have lost an edge since their last one
        self._heard_levels = False  # the first heartbeat of a link says which buttons are held
        self._mismatch: dict[int, int] = {}  # since when each button's level has differed from its edges' (-1: said)
        self._vouched = 0  # the latest time every edge was vouched in by
        self._jumped = 0

    def _set_status(self, status: str, problem: str = "") -> None:
        if (status, problem) != (self.status, self.problem):
            self.status, self.problem = status, problem
            said = status == "connected" or self.on_status is not None  # (a listener tells the people)
            (log.info if said else log.warning)("bridge %s: %s %s", self.port, status, problem)
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

        # exclusive: a second table (or run --check) on the same board is refused, not let fight over it
        return serial.Serial(self.port, self.baud, timeout=0.002, write_timeout=0.5, exclusive=True)

    def _connect(self) -> bool:
        try:
            self._serial = self._open()
        except Exception as exc:  # no such port, permission denied, busy
            self._set_status("disconnected", f"cannot open {self.port}: {_why_not_opened(exc)}")
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
                f"this table {p.PROTOCOL_VERSION}: flash firmware_bridge/firmware (see docs/hardware.md)",
            )
            self._stop.wait(self.timing.recheck_ns / 1e9)
            return False
        self._unwrap = Unwrapper(self.info.timer_bits)
        self._last_heard = self._connected_at = self.clock()
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
            fast = now - self._connected_at < self.timing.fast_for_ns
            self._next_ping = now + (self.timing.fast_ping_ns if fast else self.timing.ping_ns)
        before = self._numbers.lost
        ask, released = self._numbers.due(now)
        if ask is not None:
            self.stats["edges asked for again"] += 1
            self._write(p.encode(p.RESEND, self._next_seq(), (ask,)))
        self._lost_edges(self._numbers.lost - before)
        for edge in released:
            self._ordered(edge, now)
        if now - self._last_heard > self.timing.quiet_ns:
            self._lost(f"nothing heard from the board for {self.timing.quiet_ns // MS} ms")

    @staticmethod
    def _light_fields(light: int, pat: Pattern) -> tuple[int, ...]:
        return (light, WIRE_KINDS[pat.kind], *pat.colour, pat.count, pat.period_ms)

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
        if kind == p.VERSION and self.info is None:  # the answer to the link's hello
            self.info = BoardInfo(*fields, text)
        elif kind == p.PONG:
            self._pong(fields, now)
        elif kind == p.EDGE:
            button, state, ticks, number = fields
            for edge in self._numbers.take(number, (button, bool(state), ticks)):
                self._ordered(edge, now)
        elif kind == p.ACK:
            for pending in list(self._pending.values()):
                if pending.seq == fields[0]:
                    del self._pending[pending.light]
                    self.ack_latencies_ns.append(now - pending.first_ns)
        elif kind == p.ERROR:
            self.stats[f"board error {fields[0]}"] += 1
            gone = _GONE.fullmatch(text) if fields[0] == p.E_GONE else None
            if gone is not None:
                before = self._numbers.lost
                released = self._numbers.gone(int(gone[1]), int(gone[2]))
                self._lost_edges(self._numbers.lost - before)
                for edge in released:
                    self._ordered(edge, now)
            else:
                log.warning("bridge %s: the board reports error %d: %s", self.port, fields[0], text)
        elif kind == p.HEARTBEAT:
            self._heartbeat(fields, now)
        else:
            self.stats["unexpected messages"] += 1

    def _pong(self, fields: tuple, now: int) -> None:
        ping_id, arrived, left = fields
        sent = self._pings.pop(ping_id, None)
        if sent is None or self._unwrap is None:
            return
        period = self._unwrap.period
        if not (0 <= arrived < period and 0 <= left < period):
            return self._impossible_pong(f"a timer value past its {self._unwrap.period:#x} wrap")
        board_in = self._unwrapped(arrived, (sent + now) // 2)
        board_out = board_in + (left - arrived) % period
        if (board_out - board_in) * 1000 > BOARD_TIME_NS:
            return self._impossible_pong(f"a ping held {(board_out - board_in) / 1000:.0f} ms on the board")
        if self._fit.ready:
            placed = self._fit.to_host_ns(board_in)
            if not sent - PONG_SLACK_NS <= placed <= now + PONG_SLACK_NS:
                return self._impossible_pong(f"a pong {abs(placed - now) / 1e6:.0f} ms off its round trip")
        self._jumped = 0
        self._fit.add(Ping(sent, now, board_in, board_out))
        held, self._held = self._held, []
        for edge in held:
            self._edge(*edge, now)

    def _impossible_pong(self, why: str) -> None:
        self.stats["impossible pongs"] += 1
        self._jumped += 1
        log.warning("bridge %s: %s cannot be true: left out of the clock fit", self.port, why)
        if self._jumped >= JUMPED_PONGS:  # the board's clock jumped (a reset behind a live port): sync again
            self._lost(f"{JUMPED_PONGS} pongs in a row cannot be true: the board's clock jumped")

    def _unwrapped(self, raw: int, host_ns: int) -> int:
        """A timer reading, unwrapped: the reading nearest the board's time at ``host_ns`` by the
        fit once there is one (a value far off then stays far off, and is seen to be), else by
        the pongs' own order."""
        assert self._unwrap is not None
        if not self._fit.ready:
            return self._unwrap(raw)
        period = self._unwrap.period
        expected = self._fit.to_board_us(host_ns)
        return raw + round((expected - raw) / period) * period

    def _heartbeat(self, fields: tuple, now: int) -> None:
        self.stats["heartbeats"] += 1
        timer, dropped, next_edge, down = fields
        if dropped != self._board_dropped:  # its edge queue overflowed: presses were lost there
            lost = (dropped - self._board_dropped) & 0xFFFF
            self.stats["edges dropped by the board"] += lost
            log.warning("bridge %s: the board dropped %d button edges (too many at once)", self.port, lost)
            self._board_dropped = dropped
        known = self._numbers.known_to
        if known is not None and ahead(next_edge, known) < 0:  # fewer sent than came: it started again
            raise OSError(f"the board restarted behind an open port (its edges numbered from {next_edge} again)")
        self._numbers.announced(next_edge)
        buttons = self.info.buttons if self.info is not None else 16
        if not self._heard_levels:  # the link's first: buttons held as the board (or the link) started
            self._heard_levels = True
            for button in range(buttons):
                held, was = bool(down >> button & 1), button in self._was_down  # (was: before the link was lost)
                self._levels[button] = held
                seat = self._seat(button)
                if held == was or seat is None:
                    continue  # as the table has it
                if held:
                    log.warning("bridge %s: %s is down as the link starts", self.port, self._where(button))
                else:
                    log.warning("bridge %s: %s was let go while the link was down", self.port, self._where(button))
                why = "as the link started" if held else "let go while the link was down"
                self.edges.put(ButtonLevel(seat, held, self._where(button), why))  # type: ignore[arg-type]
            self._was_down = set()
            return
        if self._numbers.missing() or self._held:
            return  # edges still on their way: neither the levels nor the time are comparable yet
        self._vouch(timer, now)
        for button in range(buttons):
            if bool(down >> button & 1) == self._levels.get(button, False):
                self._mismatch.pop(button, None)
                continue
            since = self._mismatch.setdefault(button, now)
            if now - since >= MISMATCH_NS and since != -1:  # nothing on its way all that time: an edge went missing
                self._mismatch[button] = -1  # said once, until it matches again
                self.stats["level mismatches"] += 1
                pressed = bool(down >> button & 1)
                log.warning(
                    "bridge %s: %s is %s on the board, not as its edges left it: an edge was lost",
                    self.port,
                    self._where(button),
                    "down" if pressed else "up",
                )
                self._levels[button] = pressed
                self._lost_since.add(button)
                seat = self._seat(button)
                if seat is not None:
                    self.edges.put(ButtonLevel(seat, pressed, self._where(button), "an edge lost"))  # type: ignore[arg-type]

    def _vouch(self, timer: int, now: int) -> None:
        """Every edge stamped before the heartbeat's time has been sent before it, and has come:
        the table may decide the seats' gestures up to there (a fit's bound short of it)."""
        if self._unwrap is None or not self._fit.ready or not 0 <= timer < self._unwrap.period:
            return
        board_us = self._unwrapped(timer, now)
        # An edge after it is placed by this fit or a later one, each within its bound of the
        # truth: a margin of three bounds keeps the word short of it, however the fit moves.
        vouched = min(now, self._fit.to_host_ns(board_us) - 3 * self._fit.bound_ns(board_us))
        if vouched > self._vouched:
            self._vouched = vouched
            if self.on_vouch is not None:
                self.on_vouch(vouched)

    def _lost_edges(self, count: int) -> None:
        if count <= 0:
            return
        self.stats["edges lost on the link"] += count
        self._lost_since.update(range(self.info.buttons if self.info else 16))  # any may have lost one
        log.warning("bridge %s: %d button edges lost on the link (asked for again in vain)", self.port, count)

    def _ordered(self, edge: tuple[int, bool, int], now: int) -> None:
        """An edge in the board's order: placed on the host's clock once the fit can."""
        if self._fit.ready:
            self._edge(*edge, now)
        else:
            self._held.append(edge)

    def _edge(self, button: int, pressed: bool, ticks: int, now: int) -> None:
        """One edge, checked against what can be true, placed on the host's clock and queued."""
        assert self._unwrap is not None
        seat = self._seat(button)
        if seat is None:
            self.stats["edges from unused buttons"] += 1
            return
        if not 0 <= ticks < self._unwrap.period:
            return self._impossible(button, f"a timer value {ticks:#x} past its wrap")
        board_us = self._unwrapped(ticks, now)
        host_ns = self._fit.to_host_ns(board_us)
        bound = self._fit.bound_ns(board_us)
        ahead = host_ns - now - bound
        if ahead > FUTURE_NS:
            return self._impossible(button, f"an edge {ahead / 1e9:.3f} s ahead of the host's clock")
        if now - host_ns > PAST_NS:
            return self._impossible(button, f"an edge {(now - host_ns) / 1e9:.1f} s old")
        last = self._last_edge_us.get(button)
        if last is not None and board_us <= last:
            return self._impossible(button, "an edge older than its button's previous one")
        if self._levels.get(button, False) == pressed and button not in self._lost_since:
            kind = "press" if pressed else "release"
            return self._impossible(button, f"a {kind} after a {kind}, with no edge lost between")
        self._lost_since.discard(button)
        self._last_edge_us[button] = board_us
        self._levels[button] = pressed
        self.edges.put(RawEdge(seat, pressed, self._order.place(board_us, host_ns)))

    def _impossible(self, button: int, why: str) -> None:
        self.stats["impossible edges"] += 1
        log.warning("bridge %s: %s: %s cannot be true: left out", self.port, self._where(button), why)

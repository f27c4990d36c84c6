"""A fake button-and-light board on a pseudo-terminal, speaking the real protocol.

The host driver opens ``board.path`` with pyserial as it would open ``/dev/ttyACM0``. Behind it a
thread plays the board: it answers hello with its version, pings with its timer as the ping came
and as the pong leaves, light commands with acknowledgements, heartbeats a hundred times a second (with
the next edge's number and the buttons down), and sends a numbered edge when told a button was
pressed, again when the host asks for it. Its timer is the host's clock seen through a chosen
offset and drift, wrapping like MicroPython's ``ticks_us``; the link can add jitter, drop or
corrupt bytes, and the board can be
unplugged and plugged back in (the path then points at a new pseudo-terminal, as udev's
``/dev/serial/by-id`` link would).
"""

from __future__ import annotations

import heapq
import json
import os
import random
import select
import shutil
import sys
import tempfile
import threading
import time
import tty
from dataclasses import dataclass, field
from pathlib import Path

from firmware_bridge import protocol as p


@dataclass
class BoardConfig:
    buttons: int = 4
    lights: int = 4
    timer_bits: int = 30
    offset_us: int = 0  # board timer at host time 0
    drift_ppm: float = 0.0  # how much faster the board's crystal runs
    jitter_ns: int = 0  # extra delay each way, uniform in 0..jitter
    jitter_back_ns: int | None = None  # ... on the way back, if it differs
    board_ns: tuple[int, int] = (0, 0)  # a ping waiting on the board before its pong leaves
    drop_rate: float = 0.0  # share of frames the board sends that are lost on the way
    corrupt_rate: float = 0.0  # share of frames the board sends with one byte changed
    protocol: int = p.PROTOCOL_VERSION
    firmware: str = "cardtable-fake 1"
    ack_lights: bool = True
    drop_edges: frozenset[int] = frozenset()  # edges (by number) lost on the way the first time they are sent
    held: frozenset[int] = frozenset()  # buttons already down as the board starts
    seed: int = 0


@dataclass
class LightState:
    pattern: int
    colour: tuple[int, int, int]
    count: int
    period_ms: int


SLOTS = 64  # edges the board holds to send again, as the firmware does
HEARTBEAT_NS = 10_000_000  # as often as the firmware's


@dataclass(order=True)
class _Out:
    due_ns: int
    order: int
    message: tuple = field(compare=False)  # (kind, fields, text): numbered as it is sent


class FakeBoard:
    def __init__(self, config: BoardConfig | None = None, folder: str | None = None) -> None:
        self.config = config or BoardConfig()
        self.rng = random.Random(self.config.seed)
        self._own_folder = folder is None
        self._folder = Path(folder or tempfile.mkdtemp(prefix="cardtable-board-"))
        self.path = str(self._folder / "ttyCARDTABLE")
        self.lights: dict[int, LightState] = {}
        self.light_log: list[tuple[int, int, LightState]] = []  # (host ns, light, state)
        self.received: list[tuple[int, int]] = []  # (kind, seq) of every message the board decoded
        self.down: set[int] = set(self.config.held)  # the buttons held, as the edges sent so far left them
        self.sent_edges: dict[int, tuple[int, int, int]] = {}  # by number: (button, state, ticks), latest SLOTS
        self.next_edge = 0
        self.resends = 0
        self.horizon_ns: int | None = None  # told from outside: no press will come stamped before this
        self._decoder = p.Decoder()
        self._seq = 0
        self._out: list[_Out] = []
        self._order = 0
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._master: int | None = None
        self._slave: int | None = None
        self._thread: threading.Thread | None = None
        self.plugged = False

    # -- the board's clock ---------------------------------------------------------------------
    def board_us(self, host_ns: int) -> int:
        """The board's timer reading at a host monotonic time: offset, drift, wrap."""
        c = self.config
        return int(c.offset_us + host_ns / 1000 * (1 + c.drift_ppm * 1e-6)) % (1 << c.timer_bits)

    # -- plugging ------------------------------------------------------------------------------
    def start(self) -> FakeBoard:
        self.plug()
        self._thread = threading.Thread(target=self._run, name="fake board", daemon=True)
        self._thread.start()
        return self

    def plug(self) -> None:
        master, slave = os.openpty()
        tty.setraw(slave)
        tty.setraw(master)
        with self._lock:
            self._master, self._slave = master, slave
            self._decoder = p.Decoder()
            # Plugged in, it starts afresh (a USB-powered board lost its power): the buttons as
            # they are now, edges numbered from 0, what was on its way gone.
            for message in sorted(self._out):
                kind, fields, _text = message.message
                if kind == p.EDGE:
                    (self.down.add if fields[1] else self.down.discard)(fields[0])
            self._out.clear()
            self.next_edge = 0
            self.sent_edges.clear()
        link = Path(self.path)
        tmp = link.with_suffix(".new")
        tmp.unlink(missing_ok=True)
        tmp.symlink_to(os.ttyname(slave))
        tmp.replace(link)
        self.plugged = True

    def unplug(self) -> None:
        """The cable is pulled: the port disappears and the host's reads fail."""
        Path(self.path).unlink(missing_ok=True)
        with self._lock:
            for fd in (self._master, self._slave):
                if fd is not None:
                    os.close(fd)
            self._master = self._slave = None
        self.plugged = False

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2)
        if self.plugged:
            self.unplug()
        if self._own_folder:
            shutil.rmtree(self._folder, ignore_errors=True)

    # -- what the players do -------------------------------------------------------------------
    def press(self, button: int, at_ns: int | None = None, delay_ns: int = 0) -> int:
        """A button goes down at host time ``at_ns`` (default now); its edge is sent ``delay_ns``
        later. Returns the board timer value the edge carries."""
        return self._edge(button, 1, at_ns, delay_ns)

    def release(self, button: int, at_ns: int | None = None, delay_ns: int = 0) -> int:
        return self._edge(button, 0, at_ns, delay_ns)

    def _edge(self, button: int, state: int, at_ns: int | None, delay_ns: int) -> int:
        at = time.monotonic_ns() if at_ns is None else at_ns
        ticks = self.board_us(at)
        # Numbered as it goes out, in the order it goes out (``_flush``), as the firmware's queue does.
        self._send(p.EDGE, (button, state, ticks, -1), max(at, time.monotonic_ns()) + delay_ns)
        return ticks

    def send_raw(self, kind: int, fields: tuple, text: str = "") -> None:
        """Any message, valid on the wire, whatever it says (a board gone wrong)."""
        self._send(kind, fields, time.monotonic_ns(), text)

    def inject(self, data: bytes) -> None:
        """Raw bytes on the line, as a noisy cable or a board resetting mid-frame would send."""
        with self._lock:
            if self._master is not None:
                os.write(self._master, data)

    # -- the board's loop ----------------------------------------------------------------------
    def _send(self, kind: int, fields: tuple, due_ns: int, text: str = "") -> None:
        with self._lock:  # presses come from the test's thread, answers from the board's
            self._order += 1
            heapq.heappush(self._out, _Out(due_ns, self._order, (kind, fields, text)))

    def _frame(self, kind: int, fields: tuple, text: str) -> bytes:
        """A message as it goes on the wire: its sequence number, and an edge's number (-1: a new edge)."""
        if kind == p.EDGE and fields[3] == -1:
            fields = (*fields[:3], self.next_edge)
            (self.down.add if fields[1] else self.down.discard)(fields[0])
            self.sent_edges[self.next_edge] = fields[:3]
            self.sent_edges.pop((self.next_edge - SLOTS) % (1 << 16), None)
            self.next_edge = (self.next_edge + 1) % (1 << 16)
        self._seq = (self._seq + 1) & 0xFF
        return p.encode(kind, self._seq, fields, text)

    def _jitter(self) -> int:
        return round(self.rng.uniform(0, self.config.jitter_ns)) if self.config.jitter_ns else 0

    def _run(self) -> None:
        next_beat = 0
        while not self._stop.is_set():
            master = self._master
            if master is None:
                time.sleep(0.005)
                continue
            with self._lock:
                due = self._out[0].due_ns if self._out else None
            wait = 0.002 if due is None else min(0.002, max(0.0, (due - time.monotonic_ns()) / 1e9))
            try:
                ready, _, _ = select.select([master], [], [], wait)
                now = time.monotonic_ns()  # the moment the bytes arrived, as an interrupt would stamp it
                with self._lock:  # not a descriptor that unplug() closed and the system gave to someone else
                    data = os.read(master, 4096) if ready and self._master == master else b""
            except (OSError, ValueError):
                time.sleep(0.005)  # unplugged under our feet, or the host has not opened the port yet
                continue
            for message in self._decoder.feed(data):
                self._handle(message, now)
            if now >= next_beat:
                self._heartbeat(now)
                next_beat = now + HEARTBEAT_NS
            self._flush(time.monotonic_ns())

    def _flush(self, now: int) -> None:
        while True:
            with self._lock:
                if not self._out or self._out[0].due_ns > now or self._master is None:
                    return
                kind, fields, text = heapq.heappop(self._out).message
                if kind == p.HEARTBEAT:  # its count and levels as they are when it goes, and
                    # its time before any edge still on its way: a link does not overtake itself
                    period = 1 << self.config.timer_bits
                    timer = fields[0]
                    if self.horizon_ns is not None and self.horizon_ns < now:
                        timer = self.board_us(self.horizon_ns)  # the player has not said what comes after
                    for m in self._out:
                        if m.message[0] == p.EDGE and (m.message[1][2] - timer) % period > period // 2:
                            timer = (m.message[1][2] - 1) % period  # stamped before it: vouch short of it
                    fields = (timer, 0, self.next_edge, sum(1 << b for b in self.down))
                first = kind == p.EDGE and fields[3] == -1
                frame = self._frame(kind, fields, text)
                if first and (self.next_edge - 1) % (1 << 16) in self.config.drop_edges:
                    continue
                if self.rng.random() < self.config.drop_rate:
                    continue
                if self.rng.random() < self.config.corrupt_rate:
                    i = self.rng.randrange(len(frame) - 1)
                    frame = frame[:i] + bytes([frame[i] ^ (1 << self.rng.randrange(8)) or 1]) + frame[i + 1 :]
                try:
                    os.write(self._master, frame)
                except OSError:
                    return

    def _handle(self, message: tuple, now: int) -> None:
        kind, seq, fields, _text = message
        self.received.append((kind, seq))
        c = self.config
        if kind == p.HELLO:
            self._send(p.VERSION, (c.protocol, c.timer_bits, c.buttons, c.lights), now, c.firmware)
            self._heartbeat(now)
        elif kind == p.PING:
            arrived = now + self._jitter()  # the outward trip's own delay
            left = arrived + self.rng.randint(*c.board_ns)
            back = c.jitter_ns if c.jitter_back_ns is None else c.jitter_back_ns
            returned = left + (round(self.rng.uniform(0, back)) if back else 0)
            self._send(p.PONG, (fields[0], self.board_us(arrived), self.board_us(left)), returned)
        elif kind == p.RESEND:
            self._resend(fields[0], now)
        elif kind == p.LIGHT:
            light, pattern, r, g, b, count, period = fields
            if light >= c.lights:
                self._send(p.ERROR, (p.E_BAD_LIGHT,), now, f"no light {light}")
                return
            state = LightState(pattern, (r, g, b), count, period)
            if self.lights.get(light) != state:
                self.light_log.append((now, light, state))
            self.lights[light] = state
            if c.ack_lights:
                self._send(p.ACK, (seq,), now + self._jitter())
        else:
            self._send(p.ERROR, (p.E_UNKNOWN,), now, f"unexpected message type {kind}")

    def _heartbeat(self, now: int) -> None:
        self._send(p.HEARTBEAT, (self.board_us(now), 0, 0, 0), now)  # its count and levels filled in as it goes

    def _resend(self, number: int, now: int) -> None:
        """The host asks for the edges from ``number`` again: those still held go, the rest are gone."""
        self.resends += 1
        with self._lock:
            count = (self.next_edge - number) % (1 << 16)
            numbers = [(number + k) % (1 << 16) for k in range(count)]
            held = [n for n in numbers if n in self.sent_edges]
            gone = [n for n in numbers if n not in self.sent_edges]
        if gone:
            self._send(p.ERROR, (p.E_GONE,), now, f"edges {gone[0]}-{gone[-1]}")
        for n in held:
            self._send(p.EDGE, (*self.sent_edges[n], n), now)


def main(config_json: str) -> None:
    """A board in a process of its own (``python -m sim.fake_board CONFIG``): it prints its port's
    path, then takes one line at a time on standard input until it ends: an edge, ``button state
    at_ns delay_ns``, or ``h T``: no edge will come stamped before T (its heartbeats vouch no
    further, as a real board's interrupts would have stamped an edge already)."""
    values = json.loads(config_json)
    for key in ("drop_edges", "held"):
        values[key] = frozenset(values.get(key, ()))
    values["board_ns"] = tuple(values.get("board_ns", (0, 0)))
    board = FakeBoard(BoardConfig(**values)).start()
    print(board.path, flush=True)
    try:
        for line in sys.stdin:
            words = line.split()
            if words[0] == "h":
                board.horizon_ns = int(words[1])
                continue
            button, state, at_ns, delay_ns = (int(x) for x in words)
            board._edge(button, state, at_ns, delay_ns)
    finally:
        board.stop()


if __name__ == "__main__":
    main(sys.argv[1])

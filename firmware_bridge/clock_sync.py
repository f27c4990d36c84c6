"""The board's microsecond timer on the host's monotonic clock: unwrapping, and an offset-and-drift fit.

The board stamps each button edge with its own timer, which wraps (MicroPython's ``ticks_us``
every 2**30 µs, about 18 minutes) and runs a little fast or slow (a crystal is good to some tens of
parts per million). The host pings the board; each pong carries the board's time as the ping
arrived and as the pong left, so the board's own time on it is no part of the trip. Each ping
bounds where the board's clock lies on the host's; the round trips with the least delay bound it
best. The fit is a straight line, host_ns = offset + rate * board_us, with a bound on its error.
"""

from __future__ import annotations

import bisect
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from table.units import SECOND


class Unwrapper:
    """Extends a wrapping counter into one that never wraps.

    Values may arrive a little out of order (two edges from one board, sent in either order): a
    step back of less than half the period is taken as a step back, not as a wrap forward.
    """

    def __init__(self, bits: int) -> None:
        self.period = 1 << bits
        self.last: int | None = None
        self.base = 0  # unwrapped value of the last raw value

    def __call__(self, raw: int) -> int:
        if not 0 <= raw < self.period:
            raise ValueError(f"timer value {raw} outside 0..{self.period - 1}")
        if self.last is None:
            self.last, self.base = raw, raw
            return raw
        step = (raw - self.last) % self.period
        if step >= self.period // 2:
            step -= self.period  # a little back in time, not a whole period forward
            return self.base + step  # do not move the reference backwards
        self.last = raw
        self.base += step
        return self.base


@dataclass(frozen=True)
class Ping:
    """One ping's four timestamps, as NTP takes them: the host's send and receive, and the board's
    timer (unwrapped) as the ping arrived and as its pong left (the same moment if not given)."""

    sent_ns: int  # host monotonic time the ping was written
    received_ns: int  # host monotonic time the pong was read
    board_us: int  # board timer (unwrapped) when the ping arrived there
    board_out_us: int | None = None  # board timer as the pong left

    @property
    def out_us(self) -> int:
        return self.board_us if self.board_out_us is None else self.board_out_us

    @property
    def round_trip_ns(self) -> float:
        """The time on the wire both ways: the host's round trip less the board's own time on it."""
        return self.received_ns - self.sent_ns - 1000 * (self.out_us - self.board_us)


PRIOR_PPM = 250.0  # how far the board's rate may be from the nominal before it is measured (crystals: ±100 ppm)
SLEW_PPM = 50.0  # a host clock's rate may change by this much as its time service corrects it
MAX_PPM = 1000.0  # a rate further off than this is a fault, not a crystal
MIN_RATE_SPAN_US = 200_000  # pings over less than this give no rate: the nominal one, loosely bounded


def _margin(pings: list[Ping]) -> Callable[[float], float]:
    """For a rate, the room a straight line at that rate has between the pings' send bounds
    (below it) and receive bounds (above it): negative where no line at that rate fits."""
    a = pings[-1].board_us
    sent = np.array([p.sent_ns for p in pings], np.float64)
    back = np.array([p.received_ns for p in pings], np.float64)
    board_in = np.array([p.board_us - a for p in pings], np.float64)
    board_out = np.array([p.out_us - a for p in pings], np.float64)

    def margin(rate: float) -> float:
        return float((back - rate * board_out).min() - (sent - rate * board_in).max())

    return margin


def _golden_max(f: Callable[[float], float], low: float, high: float, tolerance: float = 1e-7) -> float:
    """Where a function that rises then falls (the margin of a rate: a concave function) is highest."""
    ratio = (5**0.5 - 1) / 2
    a, b = low, high
    c, d = b - ratio * (b - a), a + ratio * (b - a)
    fc, fd = f(c), f(d)
    while b - a > tolerance:
        if fc < fd:
            a, c, fc = c, d, fd
            d = a + ratio * (b - a)
            fd = f(d)
        else:
            b, d, fd = d, c, fc
            c = b - ratio * (b - a)
            fc = f(c)
    return (a + b) / 2


def _edge_of(f: Callable[[float], float], inside: float, outside: float, tolerance: float = 1e-7) -> float:
    """Between a point where ``f`` is at least 0 and one past it, where it falls below 0."""
    if f(outside) >= 0:
        return outside
    while abs(outside - inside) > tolerance:
        middle = (inside + outside) / 2
        if f(middle) >= 0:
            inside = middle
        else:
            outside = middle
    return inside


class ClockFit:
    """Board microseconds to host nanoseconds, fitted from recent pings, with a bound on the error.

    Each ping proves that the board's arrival time maps to a host time after the ping was sent,
    and its pong's departure to one before the pong was read. The rate (host ns per board µs) is
    the one that leaves the widest margin between those bounds over the last ``history_ns`` of
    pings, and how far it may be off is the range of rates that leave any margin. The offset is the
    middle of what every ping of the last ``recent_ns`` allows, each ping's window widened by how
    far the rate may be wrong over its age; half the width left is the error bound. The middle
    is right when the quickest trips each way are alike; where they differ (a link slower one
    way), the bound still holds, and says so.
    """

    def __init__(self, history_ns: int = 30 * SECOND, recent_ns: int = 10 * SECOND) -> None:
        self.pings: deque[Ping] = deque(maxlen=4096)
        self.history_ns = history_ns
        self.recent_ns = recent_ns
        self.offset_ns = 0.0
        self.rate = 1000.0  # host ns per board µs
        self.rate_error = PRIOR_PPM / 1000  # how far the rate may be off, in host ns per board µs
        self.anchor_us = 0  # fit around a recent board time, so offsets stay small numbers
        self.half_width_ns = 0.0  # the offset's error bound at the anchor
        self.inconsistent = 0  # fits whose pings disagreed beyond the rate's allowance (it was widened)
        self._since_rate = 0

    @property
    def ready(self) -> bool:
        return bool(self.pings)

    def add(self, ping: Ping) -> None:
        if ping.received_ns < ping.sent_ns or ping.out_us < ping.board_us:
            raise ValueError("a pong cannot arrive before its ping was sent, nor leave before it came")
        self.pings.append(ping)
        while ping.received_ns - self.pings[0].received_ns > self.history_ns:
            self.pings.popleft()
        self.anchor_us = ping.board_us
        self._since_rate += 1
        if self._since_rate >= 10 or len(self.pings) < 50:  # the rate every ten pings, the offset every ping
            self._fit_rate()
            self._since_rate = 0
        self._fit_offset()

    # -- the rate ----------------------------------------------------------------------------
    def _fit_rate(self) -> None:
        """The rate that leaves the widest margin between every ping's two bounds (the send
        times below the line, the receive times above it), and the range of rates that leaves
        any margin at all: how far the rate may be off. A history no straight line fits (the
        host's clock changed its rate) is cut to its recent half until one does."""
        pings = list(self.pings)
        while True:
            if len(pings) < 2 or pings[-1].board_us - pings[0].board_us < MIN_RATE_SPAN_US:
                self.rate, self.rate_error = 1000.0, PRIOR_PPM / 1000
                return
            margin = _margin(pings)
            best = _golden_max(margin, 1000.0 - MAX_PPM / 1000, 1000.0 + MAX_PPM / 1000)
            if margin(best) >= 0:
                break
            self.inconsistent += 1
            pings = pings[len(pings) // 2 :]
        slowest = _edge_of(margin, best, 1000.0 - MAX_PPM / 1000)
        fastest = _edge_of(margin, best, 1000.0 + MAX_PPM / 1000)
        self.rate = best
        self.rate_error = max(best - slowest, fastest - best) + SLEW_PPM / 1000

    # -- the offset and its bound ----------------------------------------------------------
    def _window(self, pings: list[Ping], rate: float) -> tuple[float, float]:
        """The offset every ping allows at this rate: (latest send bound, earliest receive bound)."""
        a = self.anchor_us
        low = max(p.sent_ns - rate * (p.board_us - a) for p in pings)
        high = min(p.received_ns - rate * (p.out_us - a) for p in pings)
        return low, high

    def _fit_offset(self) -> None:
        """The offset: the middle of what the recent pings allow at the fitted rate (a shorter
        stretch of them where the rate is still a little off). Its bound: what the same pings
        allow with each one's window widened by the rate's allowance over its age, which holds
        whatever the rate's error within that allowance."""
        a = self.anchor_us
        window = self.recent_ns
        while True:
            recent = [p for p in self.pings if self.pings[-1].received_ns - p.received_ns <= window]
            low, high = self._window(recent, self.rate)
            if low <= high or len(recent) <= 3:
                break
            window //= 2
        if low > high:  # the quickest round trip alone
            quickest = min(recent, key=lambda p: p.round_trip_ns)
            low, high = self._window([quickest], self.rate)
        offset = (low + high) / 2
        recent = [p for p in self.pings if self.pings[-1].received_ns - p.received_ns <= self.recent_ns]
        slack = self.rate_error
        for _ in range(8):
            wide_low = max(p.sent_ns - self.rate * (p.board_us - a) - slack * abs(p.board_us - a) for p in recent)
            wide_high = min(p.received_ns - self.rate * (p.out_us - a) + slack * abs(p.out_us - a) for p in recent)
            if wide_low <= wide_high:
                break
            self.inconsistent += 1  # the rate is further off than allowed: allow more
            slack *= 2
        if not wide_low <= offset <= wide_high:  # the fitted rate strays: trust the wide window's middle
            offset = (wide_low + wide_high) / 2
        self.offset_ns = offset
        self.half_width_ns = max(offset - wide_low, wide_high - offset, 0.0)
        self.rate_error = max(self.rate_error, slack)

    def to_host_ns(self, board_us: int) -> int:
        """The host monotonic time, in integer nanoseconds, of a board timer reading (unwrapped)."""
        if not self.pings:
            raise RuntimeError("no ping answered yet: the board's clock is not known")
        return round(self.offset_ns + self.rate * (board_us - self.anchor_us))

    def to_board_us(self, host_ns: int) -> float:
        """The board's timer (unwrapped) at a host time: where an edge's raw timer value belongs."""
        if not self.pings:
            raise RuntimeError("no ping answered yet: the board's clock is not known")
        return self.anchor_us + (host_ns - self.offset_ns) / self.rate

    def bound_ns(self, board_us: int | None = None) -> int:
        """How far ``to_host_ns`` may be from the truth at a board time (the latest ping's if None):
        the offset's bound, and the rate's allowance over the time from the latest ping."""
        if not self.pings:
            raise RuntimeError("no ping answered yet: the board's clock is not known")
        away = 0 if board_us is None else abs(board_us - self.anchor_us)
        return int(self.half_width_ns + self.rate_error * away) + 1


class BoardOrder:
    """Keeps a board's converted times in the order of its own timer.

    Edges can arrive late (asked for again), and the fit moves a little with every pong, so two
    presses a microsecond apart converted either side of a pong could swap places. Each new time
    is kept between those of the nearest earlier and later board readings already converted (at
    least a nanosecond per microsecond apart), so a board's presses are ordered by its timer.
    """

    def __init__(self, keep: int = 512) -> None:
        self.keep = keep
        self.board: list[int] = []  # sorted board times (unwrapped µs)
        self.host: list[int] = []  # their host times, in the same order

    def place(self, board_us: int, host_ns: int) -> int:
        i = bisect.bisect_left(self.board, board_us)
        if i < len(self.board) and self.board[i] == board_us:
            return self.host[i]  # the same instant: the same time
        if i > 0:
            host_ns = max(host_ns, self.host[i - 1] + (board_us - self.board[i - 1]))
        if i < len(self.board):
            host_ns = min(host_ns, self.host[i] - (self.board[i] - board_us))
        self.board.insert(i, board_us)
        self.host.insert(i, host_ns)
        if len(self.board) > self.keep:  # forget the oldest instants
            del self.board[0], self.host[0]
        return host_ns

"""The board's microsecond timer on the host's monotonic clock: unwrapping, and an offset-and-drift fit.

The board stamps each button edge with its own timer, which wraps (MicroPython's ``ticks_us``
every 2**30 µs, about 18 minutes) and runs a little fast or slow (a crystal is good to some tens of
parts per million). The host pings the board; each ping gives the board's time at some moment
between the host's send and receive times. The round trips with the least delay pin that moment
down best, so the fit keeps, in each slice of recent history, only the quickest round trip, and
draws a straight line through those: host_ns = offset + rate * board_us.
"""

from __future__ import annotations

import bisect
from collections import deque
from dataclasses import dataclass


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
    sent_ns: int  # host monotonic time the ping was written
    received_ns: int  # host monotonic time the pong was read
    board_us: int  # board timer (unwrapped) when the ping arrived there

    @property
    def round_trip_ns(self) -> int:
        return self.received_ns - self.sent_ns

    @property
    def midpoint_ns(self) -> float:
        return (self.sent_ns + self.received_ns) / 2


SECOND = 1_000_000_000


class ClockFit:
    """Board microseconds to host nanoseconds, fitted from recent pings.

    Pings of the last ``history_ns`` are kept and cut into ``slices`` by time; the quickest round
    trip of each slice gives a point for the rate. The offset comes from the pings of the last
    ``recent_ns``. Until there is a second of history the rate is taken as 1000 ns per µs.
    """

    def __init__(self, history_ns: int = 60 * SECOND, slices: int = 16, recent_ns: int = 12 * SECOND) -> None:
        self.pings: deque[Ping] = deque(maxlen=4096)
        self.history_ns = history_ns
        self.slices = slices
        self.recent_ns = recent_ns
        self.offset_ns = 0.0
        self.rate = 1000.0  # host ns per board µs
        self.anchor_us = 0  # fit around a recent board time, so offsets stay small numbers

    @property
    def ready(self) -> bool:
        return bool(self.pings)

    def add(self, ping: Ping) -> None:
        if ping.round_trip_ns < 0:
            raise ValueError("a pong cannot arrive before its ping was sent")
        self.pings.append(ping)
        while ping.received_ns - self.pings[0].received_ns > self.history_ns:
            self.pings.popleft()
        self._fit()

    def _slices(self) -> list[list[Ping]]:
        """The pings cut into ``slices`` equal stretches of time (empty ones left out)."""
        first, last = self.pings[0].received_ns, self.pings[-1].received_ns
        count = max(3, min(self.slices, len(self.pings) // 10))  # ten pings or more in each
        width = max(1, (last - first) // count + 1)
        groups: dict[int, list[Ping]] = {}
        for ping in self.pings:
            groups.setdefault((ping.received_ns - first) // width, []).append(ping)
        return [groups[k] for k in sorted(groups)]

    def _bounds(self, pings: list[Ping], rate: float) -> tuple[float, float] | None:
        """The offset each ping allows, from both sides, at this rate: each ping says the board's
        time maps to a host time after its send and before its receive. The latest send bound
        and the earliest receive bound come from the quickest outward trip and the quickest
        return, which need not be the same ping. Returns their middle and the mean board time,
        or None when the bounds cross (the rate is off)."""
        low = max(p.sent_ns - rate * (p.board_us - self.anchor_us) for p in pings)
        high = min(p.received_ns - rate * (p.board_us - self.anchor_us) for p in pings)
        if low > high:
            return None
        return (low + high) / 2, sum(p.board_us - self.anchor_us for p in pings) / len(pings)

    def _fit(self) -> None:
        self.anchor_us = self.pings[-1].board_us
        span_us = self.pings[-1].board_us - self.pings[0].board_us
        rate = self.rate
        if span_us > 1_000_000 and len(self.pings) >= 6:
            # A wrong rate tilts the slices' offsets against their board times: level them.
            for _ in range(3):
                points = [b for b in (self._bounds(g, rate) for g in self._slices()) if b is not None]
                if len(points) < 3:
                    break
                mx = sum(x for _, x in points) / len(points)
                my = sum(y for y, _ in points) / len(points)
                sxx = sum((x - mx) ** 2 for _, x in points)
                if sxx <= 0:
                    break
                tilt = sum((x - mx) * (y - my) for y, x in points) / sxx
                rate += tilt
            if 999.0 < rate < 1001.0:  # within 1000 ppm; anything else is a bad sample, not a crystal
                self.rate = rate
        window = self.recent_ns
        while True:
            recent = [p for p in self.pings if self.pings[-1].received_ns - p.received_ns <= window]
            bounded = self._bounds(recent, self.rate)
            if bounded is not None:
                self.offset_ns = bounded[0]
                return
            if len(recent) <= 3:
                break
            window //= 2  # the rate is still a little off: trust a shorter stretch
        quickest = min(recent, key=lambda p: p.round_trip_ns)  # the quickest round trip alone
        self.offset_ns = quickest.midpoint_ns - self.rate * (quickest.board_us - self.anchor_us)

    def to_host_ns(self, board_us: int) -> int:
        """The host monotonic time, in integer nanoseconds, of a board timer reading (unwrapped)."""
        if not self.pings:
            raise RuntimeError("no ping answered yet: the board's clock is not known")
        return round(self.offset_ns + self.rate * (board_us - self.anchor_us))


class BoardOrder:
    """Keeps a board's converted times in the order of its own timer.

    Edges can arrive late, and the fit moves a little with every pong, so two presses a
    microsecond apart converted either side of a pong could swap places. Each new time is kept
    between those of the nearest earlier and later board readings already converted (at least a
    nanosecond per microsecond apart), so a board's presses are ordered by the board's timer.
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

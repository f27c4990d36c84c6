"""The board's clock and its USB link, simulated for the clock fit (``firmware_bridge.clock_sync``).

A board's crystal runs ``drift_ppm`` fast or slow and its timer wraps like ``ticks_us``; the
host's own monotonic clock may change its rate as its time service corrects it (``slews``: at
these moments of true time, by these ppm). Each ping crosses the link with a delay of its own
each way (a base and a random extra, which may differ between the two directions), waits on the
board while its main loop gets round to it, and comes back. Two presses between pings (a race,
1 µs to 5 ms apart) are placed on the host's clock as the bridge places them (the fit, and
``BoardOrder``); their error against the truth, and whether the fit's bound held, are what
``run_link`` returns.
"""

from __future__ import annotations

import random
import statistics
from dataclasses import dataclass

from firmware_bridge.clock_sync import BoardOrder, ClockFit, Ping, Unwrapper
from firmware_bridge.host import BridgeTiming
from table.units import MS, SECOND, US

PING_NS, FAST_PING_NS, FAST_FOR_NS = BridgeTiming.ping_ns, BridgeTiming.fast_ping_ns, BridgeTiming.fast_for_ns


@dataclass(frozen=True)
class Link:
    name: str
    drift_ppm: float = 100.0
    out_ns: tuple[int, int] = (200 * US, 2_200 * US)  # host to board: base, base + the most extra
    back_ns: tuple[int, int] = (200 * US, 2_200 * US)  # board to host
    board_ns: tuple[int, int] = (20 * US, 1_000 * US)  # the ping waiting on the board before its pong leaves
    slews: tuple[tuple[int, float], ...] = ()  # (true time, the host clock's new rate error in ppm)
    timer_bits: int = 30
    offset_us: int = (1 << 30) - 20_000_000  # the timer wraps 20 s in


LINKS = (
    Link("symmetric delays, +100 ppm"),
    Link("symmetric delays, -100 ppm", drift_ppm=-100.0),
    Link("asymmetric delays (0.3 ms out, 3 ms back)", out_ns=(200 * US, 500 * US), back_ns=(200 * US, 3_200 * US)),
    Link(
        "host clock slewed +20 then -20 ppm",
        slews=((600 * SECOND, 20.0), (1_800 * SECOND, -20.0), (2_700 * SECOND, 0.0)),
    ),
)


@dataclass
class LinkResult:
    errors_us: list[float]  # each press after the first ``settle_s``: |converted - truth|
    early_errors_us: list[float]  # those before
    bound_misses: int  # presses whose error exceeded the fit's bound (every press counted)
    bounds_us: list[float]
    closest: float = 0.0  # the largest error's share of its bound

    def p99(self) -> float:
        e = sorted(self.errors_us)
        return e[min(len(e) - 1, int(0.99 * len(e)))]

    def median(self) -> float:
        return statistics.median(self.errors_us)


class _HostClock:
    """The host's monotonic clock as a function of true time, its rate changing at the slews."""

    def __init__(self, slews: tuple[tuple[int, float], ...]) -> None:
        self.points = [(0, 0.0, 0.0)]  # (true ns, host ns there, rate error from there)
        for at, ppm in slews:
            t0, h0, r0 = self.points[-1]
            self.points.append((at, h0 + (at - t0) * (1 + r0 * 1e-6), ppm))

    def __call__(self, true_ns: float) -> float:
        t0, h0, r0 = next(p for p in reversed(self.points) if p[0] <= true_ns)
        return h0 + (true_ns - t0) * (1 + r0 * 1e-6)


def run_link(
    link: Link, seconds: float, seed: int = 0, settle_s: float = 2.0, start_s: float = 5.0, stream_ms: float = 0.0
) -> LinkResult:
    """Pings as the bridge sends them for ``seconds`` of true time, and after each a race of two
    presses; or, with ``stream_ms``, a press every ``stream_ms`` (half to all of it) throughout,
    edges placed one after another as a flurry of slaps gives them."""
    rng = random.Random(f"{link.name}:{seed}")
    host = _HostClock(link.slews)
    period = 1 << link.timer_bits
    unwrap = Unwrapper(link.timer_bits)

    def board(true_ns: float) -> int:
        return int(link.offset_us + true_ns / 1000 * (1 + link.drift_ppm * 1e-6)) % period

    fit, order = ClockFit(), BoardOrder()
    result = LinkResult([], [], 0, [])
    t = start_s * SECOND
    begin = t
    streamed = t + 1 * MS
    while t < begin + seconds * SECOND:
        arrive = t + rng.uniform(*link.out_ns)
        leave = arrive + rng.uniform(*link.board_ns)
        back = leave + rng.uniform(*link.back_ns)
        board_in = unwrap(board(arrive))
        fit.add(Ping(round(host(t)), round(host(back)), board_in, board_in + (board(leave) - board(arrive)) % period))
        t += FAST_PING_NS if t - begin < FAST_FOR_NS else PING_NS
        if stream_ms:
            presses = []
            while streamed < t:
                presses.append(max(streamed, back))
                streamed += stream_ms * MS * rng.uniform(0.5, 1.0)
        else:
            first = back + rng.uniform(0, PING_NS * 0.9)
            presses = [first, first + rng.uniform(1_000, 5 * MS)]  # a race
        for press in presses:  # placed as the bridge places them
            raw = board(press)
            board_us = board_in + (raw - board_in % period) % period
            bound_ns = fit.bound_ns(board_us)
            placed = order.place(board_us, fit.to_host_ns(board_us))
            error, bound = abs(placed - host(press)) / 1000, bound_ns / 1000
            result.bound_misses += error > bound
            result.closest = max(result.closest, error / bound)
            (result.errors_us if press - begin >= settle_s * SECOND else result.early_errors_us).append(error)
            result.bounds_us.append(bound)
    return result

"""What the live table counts of itself: the loop's times and its parts' troubles.

A table runs for days, so what it keeps is bounded: the latest ``KEPT_TIMES`` timings, and the
counts of the games it still keeps.
"""

from __future__ import annotations

import statistics
from collections import deque
from collections.abc import Iterable, Sequence
from typing import Any

from table.controller import FrameReport, TableCore
from table.units import MS

KEPT_TIMES = 100_000  # the latest loop timings kept for the summary


class LoopStats:
    """The loop's turns, its errors, and its time from waking to the lights told."""

    def __init__(self) -> None:
        self.latencies_ns: deque[int] = deque(maxlen=KEPT_TIMES)  # the loop woken to the lights told, when it decided
        self.frame_latencies_ns: deque[int] = deque(maxlen=KEPT_TIMES)  # a frame's report to the lights told
        self.turns = 0  # times the loop has gone round (it sleeps until an input or a deadline)
        self.errors = 0  # inputs the loop failed on (logged): a bug, but never the table's end

    def told(self, woke_ns: int, told_ns: int, items: Iterable[Any]) -> None:
        """The lights were told at ``told_ns`` of what the inputs taken on waking decided."""
        self.latencies_ns.append(told_ns - woke_ns)
        for item in items:
            if isinstance(item, FrameReport) and item.reported_ns is not None:
                self.frame_latencies_ns.append(told_ns - item.reported_ns)

    def timings(self) -> str:
        """The median and 99th percentile of the loop's time from waking to the lights told."""
        lat = sorted(self.latencies_ns)
        p99 = lat[min(len(lat) - 1, int(0.99 * len(lat)))] / MS if lat else 0.0
        median = statistics.median(lat) / MS if lat else 0.0
        return f"woken to lights told: median {median:.2f} ms, 99th percentile {p99:.2f} ms"


def troubles(games: Sequence[TableCore], buttons: object, held_at_start: int, errors: int) -> dict[str, int]:
    """What the table has counted of its parts' troubles over the games kept: inputs too late,
    set aside while paused, edges older than their seat had decided, the bridge's checks and link."""
    out = {
        "inputs too late": sum(sum(1 for _, late in g.inputs if late is not None) for g in games),
        "inputs set aside while paused": sum(g.set_aside for g in games),
        "edges after their seat had decided": sum(g.gestures.late_edges for g in games),
        "edges found lost by a button's level": sum(g.lost_edges for g in games),
        "buttons down as a game started": held_at_start,
        "glitches shorter than the bounce window": sum(g.gestures.glitches for g in games),
        "loop errors": errors,
    }
    counts = getattr(buttons, "counts", None)
    if counts is not None:
        out.update({f"bridge: {k}": v for k, v in sorted(counts().items()) if v})
        bound = getattr(buttons, "sync_bound_ns", None)
        if bound is not None:
            out["bridge: clock bound (µs)"] = bound // 1000
    return out

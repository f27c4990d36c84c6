"""Timing a benchmark's work: the median of several rounds, against the noise of a shared machine."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

ROUNDS = 7


def median_time(fn: Callable[[], object], rounds: int = ROUNDS) -> float:
    """The median wall time of ``rounds`` calls of ``fn``, in seconds."""
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)

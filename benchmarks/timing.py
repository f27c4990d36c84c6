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


def median_times(fns: list[Callable[[], object]], rounds: int = ROUNDS) -> list[float]:
    """The median CPU time of each of ``fns`` in this process, in seconds, timed in turn round
    after round: for work that only computes, CPU time leaves out what the shared machine
    gives to others, and a stretch of slower rounds slows every one of them alike, so their
    ratios hold from run to run."""
    times: list[list[float]] = [[] for _ in fns]
    for _ in range(rounds):
        for fn, kept in zip(fns, times, strict=True):
            start = time.process_time()
            fn()
            kept.append(time.process_time() - start)
    return [statistics.median(kept) for kept in times]

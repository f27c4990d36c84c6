"""Where a frame's reading time goes, stage by stage, when someone asks (``--timings``).

``stage(name)`` wraps one stage of the reader; outside ``timed()`` it does nothing but look up one
context variable, so the table pays nothing for it. Inside, each stage's wall time in integer
nanoseconds is added up under its name, in the order the stages first ran.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

_times: ContextVar[dict[str, int] | None] = ContextVar("stage_times", default=None)


@contextmanager
def stage(name: str) -> Iterator[None]:
    """Time the block as the stage ``name``, when a ``timed()`` block is collecting."""
    times = _times.get()
    if times is None:
        yield
        return
    start = time.perf_counter_ns()
    try:
        yield
    finally:
        times[name] = times.get(name, 0) + time.perf_counter_ns() - start


@contextmanager
def timed() -> Iterator[dict[str, int]]:
    """Collect the stages run within the block: their names and nanoseconds, filled in as they run."""
    times: dict[str, int] = {}
    token = _times.set(times)
    try:
        yield times
    finally:
        _times.reset(token)

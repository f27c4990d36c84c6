"""Clocks: integer nanoseconds on the host's monotonic clock, or a virtual one for the simulator.

Only the edges of the program read a clock (to stamp an input where it enters, to pace the
loop); games never do. The virtual clock has the same interface, so a simulated table runs faster
than real time and stays deterministic.
"""

from __future__ import annotations

import time
from typing import Protocol


class Clock(Protocol):
    def monotonic_ns(self) -> int: ...


class MonotonicClock:
    """The host's CLOCK_MONOTONIC, the clock every event timestamp is on."""

    def monotonic_ns(self) -> int:
        return time.monotonic_ns()


class VirtualClock:
    """A clock that moves only when told to; never backwards."""

    def __init__(self, start_ns: int = 0) -> None:
        self._now = start_ns

    def monotonic_ns(self) -> int:
        return self._now

    def advance_to(self, t_ns: int) -> None:
        if t_ns < self._now:
            raise ValueError(f"virtual clock cannot go back from {self._now} to {t_ns}")
        self._now = t_ns

"""The simulator's clock: integer nanoseconds that move only when the simulation says so, so a
simulated table runs faster than real time and plays the same game on every run."""

from __future__ import annotations


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

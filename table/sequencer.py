"""The sequencer: hands input events to the referee in timestamp order, late arrivals included.

Inputs arrive late and out of order: the camera reports a card a few frames after it landed,
stamped with the frame it first showed in; a button's press is confirmed once its bounce has
settled; a serial link batches presses. Each source has a bound on that lateness: an event from
it reaches the sequencer less than ``lateness`` after its own time. The sequencer holds every event
until the watermark has passed its time, then releases it in ``Event.sort_key`` order.

The watermark is where every source has delivered everything before: for each source, ``now``
less its bound, or further on where the source vouches for more (``progress``: the camera has
looked at every frame up to one that shows no card still being confirmed; the buttons have no
edge in its bounce window), and the least of those over the sources. So a slap waits for the
camera's word on the pile at the slap's own moment, and no longer than that word takes.

An event that arrives after its time was already released cannot be ordered any more; ``push``
reports it as too late (by how much) instead of letting it change a decision already made.
"""

from __future__ import annotations

import heapq
from collections.abc import Mapping

from table.events import Event

ANY = "*"  # the one source of a sequencer given a single bound: every event is from it


class Sequencer:
    def __init__(self, lateness_ns: int | Mapping[str, int]) -> None:
        """``lateness_ns``: how late an event may arrive after its own time, in nanoseconds: one
        bound for every source, or one for each source by name (``Event.source``); an event from
        a source not named is refused."""
        bounds = {ANY: lateness_ns} if isinstance(lateness_ns, int) else dict(lateness_ns)
        if not bounds:
            raise ValueError("a sequencer needs at least one source's lateness")
        for source, bound in bounds.items():
            if type(bound) is not int or bound < 0:
                raise ValueError(f"lateness of {source!r} must be whole nanoseconds from 0, not {bound!r}")
        self._bounds = bounds
        self._progress: dict[str, int] = {}
        self._heap: list[tuple[tuple[int, int, int, str], int, Event]] = []
        self._arrivals = 0
        self.released_to: int | None = None

    @property
    def lateness_ns(self) -> int:
        """The longest any event may be held: the largest source's bound."""
        return max(self._bounds.values())

    def bound_ns(self, source: str) -> int:
        """How late an event from ``source`` may arrive."""
        return self._bounds[self._source(source)]

    @property
    def sources(self) -> tuple[str, ...]:
        return tuple(self._bounds)

    def _source(self, source: str) -> str:
        if ANY in self._bounds:
            return ANY
        if source not in self._bounds:
            raise ValueError(f"no lateness is set for source {source!r} (sources: {', '.join(self._bounds)})")
        return source

    def push(self, event: Event) -> int | None:
        """Accept an event; return None, or how many ns too late it came (it is then dropped)."""
        self._source(event.source)
        if self.released_to is not None and event.t_ns <= self.released_to:
            return self.released_to - event.t_ns + 1
        self._arrivals += 1
        heapq.heappush(self._heap, (event.sort_key(), self._arrivals, event))
        return None

    def progress(self, source: str, t_ns: int) -> None:
        """``source`` has delivered every event it will ever have stamped at or before ``t_ns``."""
        if ANY in self._bounds:
            raise ValueError("progress needs a lateness for each source by name")
        source = self._source(source)
        if t_ns > self._progress.get(source, t_ns - 1):
            self._progress[source] = t_ns

    def watermark(self, now_ns: int) -> int:
        """The time up to which every source has delivered everything, at ``now_ns``."""
        return min(
            min(max(now_ns - bound, self._progress.get(source, now_ns - bound)), now_ns)
            for source, bound in self._bounds.items()
        )

    def release(self, now_ns: int) -> list[Event]:
        """Every held event at or before the watermark, in order."""
        return self._release_to(self.watermark(now_ns))

    def next_release(self) -> int | None:
        """When the earliest held event is released if no source vouches for more (None: none held)."""
        if not self._heap:
            return None
        first = self._heap[0][0][0]
        waits = [first + bound for source, bound in self._bounds.items() if self._progress.get(source, -1) < first]
        return max(waits, default=first)

    def drain(self) -> list[Event]:
        """Everything still held (end of a game, or a replay)."""
        if not self._heap:
            return []
        return self._release_to(max(key[0] for key, _, _ in self._heap))

    def _release_to(self, watermark: int) -> list[Event]:
        out = []
        heap = self._heap
        while heap and heap[0][0][0] <= watermark:
            out.append(heapq.heappop(heap)[2])
        if self.released_to is None or watermark > self.released_to:
            self.released_to = watermark
        return out

    def __len__(self) -> int:
        return len(self._heap)

"""The sequencer: hands input events to the referee in timestamp order, late arrivals included.

Inputs arrive late and out of order: the camera reports a card a frame or two after it landed, a
serial link batches presses. The sequencer holds every event until the watermark, ``now -
lateness``, has passed its time, then releases it in ``Event.sort_key`` order. An event that
arrives after its time was already released cannot be ordered any more; ``push`` reports it as
too late (by how much) instead of letting it change a decision already made.
"""

from __future__ import annotations

import heapq

from table.events import Event


class Sequencer:
    def __init__(self, lateness_ns: int) -> None:
        if lateness_ns < 0:
            raise ValueError(f"lateness must not be negative: {lateness_ns}")
        self.lateness_ns = lateness_ns
        self._heap: list[tuple[tuple[int, int, int, str], int, Event]] = []
        self._arrivals = 0
        self.released_to: int | None = None

    def push(self, event: Event) -> int | None:
        """Accept an event; return None, or how many ns too late it came (it is then dropped)."""
        if self.released_to is not None and event.t_ns <= self.released_to:
            return self.released_to - event.t_ns + 1
        self._arrivals += 1
        heapq.heappush(self._heap, (event.sort_key(), self._arrivals, event))
        return None

    def release(self, now_ns: int) -> list[Event]:
        """Every held event at or before ``now_ns - lateness``, in order."""
        return self._release_to(now_ns - self.lateness_ns)

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

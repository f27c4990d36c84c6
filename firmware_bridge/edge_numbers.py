"""A board's numbered edges, put back in their order, with the missing ones asked for again.

The board numbers every edge it queues (0-65535, wrapping). The host hands edges on in that
order: one that comes after a gap waits until the gap is filled by the edges the host asks for
again (``RESEND``), or until they are known lost (the board no longer holds them, or they never
come); then the gap is counted and the rest go on. An edge that comes a second time is left out.
Pure: times come in as arguments.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Generic, TypeVar

from table.units import MS

T = TypeVar("T")
WRAP = 1 << 16


def ahead(a: int, b: int) -> int:
    """How far number ``a`` is after ``b`` (negative: before), on the 16-bit wrap."""
    d = (a - b) % WRAP
    return d - WRAP if d >= WRAP // 2 else d


@dataclass
class EdgeNumbers(Generic[T]):
    wait_ns: int = 10 * MS  # a gap this old is asked for again (the board is a millisecond away)
    asks: int = 3  # asked this many times with no answer: lost
    expected: int | None = None  # the next number to hand on
    known_to: int | None = None  # every number before this one has been sent by the board
    held: dict[int, T] = field(default_factory=dict)  # edges after a gap, by number
    gap_since: int | None = None
    asked: int = 0
    last_ask: int | None = None
    lost: int = 0  # edges known lost, in all
    again: int = 0  # edges that came a second time

    def start(self, next_number: int) -> None:
        """A new link: the board's next edge will carry this number."""
        self.expected = self.known_to = next_number
        self.held.clear()
        self._filled()

    def take(self, number: int, edge: T) -> list[T]:
        """An edge as it came; the edges now in order to hand on."""
        if self.expected is None:
            self.start(number)
        assert self.expected is not None
        step = ahead(number, self.expected)
        if step < 0 or number in self.held:
            self.again += 1
            return []
        self._saw(number)
        if step > 0:
            self.held[number] = edge
            return []
        self.expected = (number + 1) % WRAP
        return [edge, *self._release()]

    def announced(self, next_number: int) -> None:
        """The board says (in its heartbeat) that it has sent every edge before this number."""
        if self.expected is None:
            self.start(next_number)
        else:
            self._saw((next_number - 1) % WRAP)

    def gone(self, first: int, last: int) -> list[T]:
        """The board no longer holds these edges: those not here are lost; the edges now in
        order (those of them that came, and those after them)."""
        if self.expected is None or ahead(self.expected, first) < 0 or ahead(last, self.expected) < 0:
            return []
        out = []
        while ahead(last, self.expected) >= 0:
            if self.expected in self.held:
                out.append(self.held.pop(self.expected))
            else:
                self.lost += 1
            self.expected = (self.expected + 1) % WRAP
        return out + self._release()

    def due(self, now: int) -> tuple[int | None, list[T]]:
        """What a gap calls for at ``now``: the number to ask for again (None: nothing to ask),
        and, once it has been asked for ``asks`` times in vain, the edges after it, in order."""
        if not self.missing():
            self._filled()
            return None, []
        if self.gap_since is None:
            self.gap_since = now
        if now - self.gap_since < self.wait_ns or (self.last_ask is not None and now - self.last_ask < self.wait_ns):
            return None, []
        if self.asked < self.asks:
            self.asked += 1
            self.last_ask = now
            return self.expected, []
        assert self.expected is not None and self.known_to is not None
        upto = min(self.held, key=lambda n: ahead(n, self.expected)) if self.held else self.known_to  # type: ignore[arg-type]
        self.lost += ahead(upto, self.expected)
        self.expected = upto
        self._filled()  # a gap after this one is a new gap, asked for in its turn
        return None, self._release()

    def missing(self) -> int:
        """How many edges the board has sent that have not come (yet)."""
        if self.expected is None or self.known_to is None:
            return 0
        ahead_held = sum(1 for n in self.held if 0 < ahead(n, self.expected) < ahead(self.known_to, self.expected))
        return max(0, ahead(self.known_to, self.expected) - ahead_held)

    def _saw(self, number: int) -> None:
        after = (number + 1) % WRAP
        if self.known_to is None or ahead(after, self.known_to) > 0:
            self.known_to = after

    def _release(self) -> list[T]:
        out = []
        while self.expected in self.held:
            out.append(self.held.pop(self.expected))
            self.expected = (self.expected + 1) % WRAP
        if not self.missing():
            self._filled()
        return out

    def _filled(self) -> None:
        self.gap_since, self.asked, self.last_ask = None, 0, None

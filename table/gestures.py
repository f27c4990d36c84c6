"""From raw button edges to presses and gestures: debounce on the leading edge, then taps and counts.

Pure and clockless like the games: edges come in with their own timestamps, and time that passes
without an edge is told with ``poll(now_ns)``. So the same edges always give the same gestures,
on the table and in the simulator.

Debouncing keeps the *first* edge's time. A mechanical switch bounces for a few milliseconds
after it closes; the press is the moment it first closed, so that edge is kept and everything in
the next ``bounce_ns`` is swallowed. A press is only reported once the pin is still down when
the bounce window ends (a spike of interference is not a slap), but it carries the leading edge's
time: it is reported ``bounce_ns`` late (``GestureTiming.decision_ns``), and the sequencer's
bound for the seats' inputs adds that to how late an edge may reach the table
(``table.controller.seat_events_bound``).

Each seat keeps its own clock. A seat's edges reach the table in order (a pin's, a board's), so
an edge from a seat tells that seat's gestures everything up to it; it tells nothing of another
seat, whose edges may still be on their way. Deadlines are decided for every seat only with
``poll(now)``, which the table calls with the moment every seat's edges have surely arrived by.

A button held down for ``stuck_ns`` is reported stuck and one whose debounced state changes
more than ``chatter_edges`` times in a second is reported chattering (a loose wire); both are
ignored until they are quiet again, instead of becoming a stream of slaps. Deadlines (a long
press, the end of a count) are never decided past an edge still inside its bounce window, so
the gestures do not depend on how often ``poll`` is called.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from enum import StrEnum

from table.units import MS


@dataclass(frozen=True)
class GestureTiming:
    """How long things take, in nanoseconds. Defaults suit adults at a card table."""

    bounce_ns: int = 5 * MS  # contact bounce swallowed after an edge
    long_ns: int = 700 * MS  # held this long: a long press
    double_ns: int = 300 * MS  # a second tap starting this soon after the first ends: a double tap
    pause_ns: int = 1200 * MS  # a count of taps ends after this long with no press
    stuck_ns: int = 20_000 * MS  # held this long: the button is stuck
    chatter_edges: int = 24  # changes (after debouncing) in one second: a loose contact, not a player
    quiet_ns: int = 2_000 * MS  # a chattering button is trusted again after this long without an edge

    @property
    def decision_ns(self) -> int:
        """The longest from an edge to the gesture it completes being decided: a press is known
        once the bounce window after its leading edge has passed (it then carries that edge's time)."""
        return self.bounce_ns

    def __post_init__(self) -> None:
        for name in ("bounce_ns", "long_ns", "double_ns", "pause_ns", "stuck_ns", "quiet_ns"):
            if type(getattr(self, name)) is not int or getattr(self, name) <= 0:
                raise ValueError(f"{name} must be a positive whole number of nanoseconds")
        if type(self.chatter_edges) is not int or self.chatter_edges <= 0:
            raise ValueError("chatter_edges must be a positive whole number")
        if not (self.bounce_ns < self.double_ns < self.pause_ns and self.long_ns < self.stuck_ns):
            raise ValueError("timing out of order: need bounce < double < pause and long < stuck")


class GestureKind(StrEnum):
    """What a seat's button did (``Gesture.kind``); a game's ``gestures`` give them meanings."""

    PRESS = "press"  # a debounced edge down: a slap is a press
    RELEASE = "release"
    TAP = "tap"
    DOUBLE_TAP = "double-tap"
    LONG_PRESS = "long-press"
    COUNT = "count"  # taps ended by a pause or a long press; ``Gesture.count`` says how many
    STUCK = "stuck"  # faults: held down too long, or changing too often, and over again
    CHATTERING = "chattering"
    RECOVERED = "recovered"


@dataclass(frozen=True)
class Gesture:
    """What a seat's button did.

    ``kind``: ``press`` and ``release`` (debounced edges: slaps are presses), ``tap``,
    ``double-tap``, ``long-press``, ``count`` (taps ended by a pause or a long press; ``count``
    says how many), or the faults ``stuck``, ``chattering`` and ``recovered``.
    ``t_ns`` is the edge that completed it, or for gestures completed by time passing (a long
    press, a pause), the moment the time ran out.
    """

    seat: int
    kind: GestureKind
    t_ns: int
    count: int = 0


@dataclass
class _Seat:
    raw: bool = False  # the pin as last reported
    state: bool = False  # the debounced state
    pending_t: int | None = None  # leading edge of a change not yet confirmed
    pressed_at: int | None = None  # the press a long press or a tap would be made of
    down_since: int | None = None  # the button has been down since (for "stuck")
    released_at: int | None = None
    long_done: bool = False
    stuck: bool = False
    taps: int = 0
    single_tap_at: int | None = None  # a tap waiting to see whether a second one follows
    changes: deque[int] = field(default_factory=deque)  # leading edges in the last second
    chattering: bool = False
    last_raw_t: int = 0
    clock: int | None = None  # every edge of this seat up to here has been taken, and time decided


class GestureReader:
    """Debounced presses and gestures for every seat, from timestamped raw edges."""

    def __init__(self, seats: int, timing: GestureTiming | None = None, double_taps: bool = True) -> None:
        """``double_taps=False`` for games that count taps (bids): every tap then counts, and a
        tap is reported at its release instead of after waiting to see if a second one follows."""
        self.timing = timing or GestureTiming()
        self.double_taps = double_taps
        self.seats = [_Seat() for _ in range(seats)]
        self.glitches = 0  # edges that did not last past the bounce window
        self.late_edges = 0  # edges older than what their seat had already decided

    def edge(self, seat: int, pressed: bool, t_ns: int) -> list[Gesture]:
        """A raw edge from the pin; returns what it completed (in time order)."""
        if not 0 <= seat < len(self.seats):
            raise ValueError(f"seat {seat} does not exist (this table has {len(self.seats)})")
        s = self.seats[seat]
        if s.clock is not None and t_ns < s.clock:
            self.late_edges += 1  # after time was decided past it: taken as it is, its gesture may be judged late
        out = self._advance(seat, s, t_ns)  # this seat's own clock only: another seat's edges may still come
        out.sort(key=lambda g: g.t_ns)
        s.last_raw_t = t_ns
        s.raw = pressed
        if s.chattering:
            return out
        if s.pending_t is None and pressed != s.state:
            s.pending_t = t_ns  # the leading edge: its time is the press (or release) time
            s.changes.append(t_ns)
            while s.changes[0] <= t_ns - 1_000 * MS:
                s.changes.popleft()
            if len(s.changes) > self.timing.chatter_edges:
                s.chattering = True
                s.pending_t = None
                s.changes.clear()
                out.append(Gesture(seat, GestureKind.CHATTERING, t_ns))
        return out

    def poll(self, now_ns: int) -> list[Gesture]:
        """Everything that time passing has completed up to ``now_ns``, in time order."""
        out: list[Gesture] = []
        for n, s in enumerate(self.seats):
            out += self._advance(n, s, now_ns)
        out.sort(key=lambda g: (g.t_ns, g.seat))
        return out

    def held_at_start(self, seat: int, t_ns: int) -> list[Gesture]:
        """The seat's button was already down when the table started (held, stuck, or wired to
        ground): it counts as stuck at once, and its release (a ``recovered``) is no gesture."""
        s = self.seats[seat]
        s.raw = s.state = s.stuck = s.long_done = True
        s.down_since, s.pressed_at = t_ns, None
        s.clock = t_ns if s.clock is None else max(s.clock, t_ns)
        return [Gesture(seat, GestureKind.STUCK, t_ns)]

    def pressed_before(self, seat: int, t_ns: int) -> None:
        """The seat's button is down from a press seen before this reader began (the hold that
        dealt the game): down, its release no gesture, stuck if it is never let go."""
        s = self.seats[seat]
        s.raw = s.state = s.long_done = True
        s.stuck, s.pressed_at = False, None
        s.down_since = t_ns
        s.clock = t_ns if s.clock is None else max(s.clock, t_ns)

    def let_go(self, seat: int) -> list[Gesture]:
        """The seat's button is up though its release never came (lost on the way): the reader
        lets go of it, deciding nothing from a release whose time is not known."""
        s = self.seats[seat]
        out = [Gesture(seat, GestureKind.RECOVERED, s.clock or 0)] if s.stuck else []
        s.raw = s.state = s.stuck = False
        s.pending_t = s.pressed_at = s.down_since = s.single_tap_at = None
        s.taps, s.long_done = 0, True
        return out

    def decided_to(self) -> int | None:
        """The time up to which every seat's gestures are all out: each seat's clock, or just
        before an edge still in its bounce window (its press carries that edge's time). None
        before every seat has a clock."""
        times = []
        for s in self.seats:
            if s.clock is None:
                return None
            times.append(s.clock if s.pending_t is None or s.chattering else min(s.clock, s.pending_t - 1))
        return min(times, default=None)

    def next_deadline(self) -> int | None:
        """The earliest moment time passing alone completes something (``poll`` then), or None."""
        t = self.timing
        times = []
        for s in self.seats:
            if s.chattering:
                times.append(s.last_raw_t + t.quiet_ns)
                continue
            if s.pending_t is not None:  # nothing is decided past an edge until it has settled
                times.append(s.pending_t + t.bounce_ns)
                continue
            if s.state and s.pressed_at is not None and not s.long_done:
                times.append(s.pressed_at + t.long_ns)
            if s.state and s.down_since is not None and not s.stuck:
                times.append(s.down_since + t.stuck_ns)
            if not s.state and s.released_at is not None:
                times += [s.released_at + t.double_ns] if s.single_tap_at is not None else []
                times += [s.released_at + t.pause_ns] if s.taps else []
        return min(times, default=None)

    def _advance(self, n: int, s: _Seat, now: int) -> list[Gesture]:
        t = self.timing
        s.clock = now if s.clock is None else max(s.clock, now)
        if s.chattering:
            if now - s.last_raw_t < t.quiet_ns:
                return []
            at = s.last_raw_t + t.quiet_ns
            s.chattering = False
            s.pressed_at = s.released_at = s.single_tap_at = None
            s.taps, s.long_done = 0, True  # nothing half-made survives the noise
            out = [Gesture(n, GestureKind.RECOVERED, at)]
            if s.raw != s.state:  # it settled the other way: say so, or a press would never end
                s.state = s.raw
                s.down_since = at if s.state else None
                out.append(Gesture(n, GestureKind.PRESS if s.state else GestureKind.RELEASE, at))
            return out
        out: list[Gesture] = []
        if s.pending_t is not None:
            # Nothing can be decided past an edge whose meaning is not known yet: a release
            # pending at 698 ms means the 700 ms long press never happened, whenever we are asked.
            out += self._deadlines(n, s, min(now, s.pending_t))
            if now < s.pending_t + t.bounce_ns:
                return out
            lead, s.pending_t = s.pending_t, None
            if s.raw == s.state:
                self.glitches += 1  # it sprang back within the bounce window: interference
            else:
                s.state = s.raw
                out += self._pressed(n, s, lead) if s.state else self._released(n, s, lead)
        return out + self._deadlines(n, s, now)

    def _deadlines(self, n: int, s: _Seat, now: int) -> list[Gesture]:
        """What holding on, or waiting, has completed by ``now`` in the confirmed state."""
        t = self.timing
        out: list[Gesture] = []
        if s.state:
            if s.pressed_at is not None and not s.long_done and now >= s.pressed_at + t.long_ns:
                s.long_done = True
                at = s.pressed_at + t.long_ns
                out.append(Gesture(n, GestureKind.LONG_PRESS, at))
                out.append(Gesture(n, GestureKind.COUNT, at, s.taps))  # "n taps, then hold": a count of n
                s.taps = 0
                s.single_tap_at = None
            if s.down_since is not None and not s.stuck and now >= s.down_since + t.stuck_ns:
                s.stuck = True
                out.append(Gesture(n, GestureKind.STUCK, s.down_since + t.stuck_ns))
        elif s.released_at is not None:
            if s.single_tap_at is not None and now >= s.released_at + t.double_ns:
                out.append(Gesture(n, GestureKind.TAP, s.released_at + t.double_ns))
                s.single_tap_at = None
            if s.taps and now >= s.released_at + t.pause_ns:
                out.append(Gesture(n, GestureKind.COUNT, s.released_at + t.pause_ns, s.taps))
                s.taps = 0
        return out

    def _pressed(self, n: int, s: _Seat, at: int) -> list[Gesture]:
        s.pressed_at, s.long_done, s.down_since = at, False, at
        out = [Gesture(n, GestureKind.PRESS, at)]
        if (
            self.double_taps
            and s.single_tap_at is not None
            and s.released_at is not None
            and at - s.released_at < self.timing.double_ns
        ):
            s.single_tap_at = None
            s.taps = max(0, s.taps - 1)  # the first tap of a double tap is not counted as a tap
            out.append(Gesture(n, GestureKind.DOUBLE_TAP, at))
            s.pressed_at = None  # this press is spent on the double tap
        return out

    def _released(self, n: int, s: _Seat, at: int) -> list[Gesture]:
        s.down_since = None
        out = [Gesture(n, GestureKind.RELEASE, at)]
        if s.stuck:
            s.stuck = False
            out.append(Gesture(n, GestureKind.RECOVERED, at))
        elif s.pressed_at is not None and not s.long_done:
            s.taps += 1
            if self.double_taps:
                s.single_tap_at = at
            else:
                out.append(Gesture(n, GestureKind.TAP, at))
        s.pressed_at, s.released_at = None, at
        return out


COUNTING = {"bid", "taps"}  # actions whose value is the number of taps: the reader must not pair taps into double taps


def meaning(meanings: dict[str, str], gesture: Gesture) -> tuple[str, int | None] | None:
    """The seat action a gesture stands for in a game, with its value, or None."""
    action = meanings.get(gesture.kind)
    if action is None:
        return None
    if gesture.kind == GestureKind.COUNT and not gesture.count and GestureKind.LONG_PRESS in meanings:
        return None  # a long press with no taps before it: the long press's own meaning says it
    return action, gesture.count if action in COUNTING else None

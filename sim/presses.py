"""A player's finger on a seat button: the raw edges a slap or a gesture is made of, and the
simulated hardware that carries them to the table (gpiozero's mock pins, the fake board).

``edges_for`` is the inverse of ``table.gestures``: what a person does to make the table read
a tap, a long press, a count of taps. Edges come as a real switch gives them: the leading edge
at the chosen moment, then a few bounces within the first milliseconds, which the table's
debouncer must swallow while keeping the leading edge's time.
"""

from __future__ import annotations

import dataclasses
import queue
import random
import time
from collections.abc import Callable

from sim.fake_board import BoardConfig, FakeBoard
from sim.mock_gpio import TimedMockPin, timed_mock_factory
from table.buttons import GpioButtons, RawEdge, drain
from table.gestures import COUNTING, GestureTiming
from table.units import MS, US

Edge = tuple[int, bool]  # (t_ns, pressed)
EDGE_WAIT_S = 0.5  # the longest the simulation waits for the fake board's edge to come through the bridge


def _bounced(t: int, pressed: bool, rng: random.Random) -> list[Edge]:
    """An edge and its contact bounce: up to three short flips within 2 ms, ending at ``pressed``."""
    edges = [(t, pressed)]
    at = t
    for _ in range(rng.choice((0, 0, 1, 2, 3))):
        at += rng.randint(50, 400) * US
        edges += [(at, not pressed), (at + rng.randint(20, 200) * US, pressed)]
        at = edges[-1][0]
    return edges


def _push(t: int, hold_ns: int, rng: random.Random) -> list[Edge]:
    return _bounced(t, True, rng) + _bounced(t + hold_ns, False, rng)


def slap_edges(t: int, rng: random.Random) -> list[Edge]:
    """A slap: down at ``t`` (whole microseconds, as the bots press), up 60-150 ms later."""
    return _push(t, rng.randint(60, 150) * MS, rng)


def edges_for(kind: str, count: int, t: int, rng: random.Random, timing: GestureTiming | None = None) -> list[Edge]:
    """The edges that make the gesture reader see ``kind`` (``count`` taps for a count), starting at ``t``."""
    timing = timing or GestureTiming()
    tap_ns = (60 * MS, min(200 * MS, timing.long_ns // 2))
    if kind == "press":
        return slap_edges(t, rng)
    if kind == "tap":
        return _push(t, rng.randint(*tap_ns), rng)
    if kind == "long-press" or (kind == "count" and count == 0):  # nought: "no taps, then hold"
        return _push(t, timing.long_ns + rng.randint(150, 400) * MS, rng)
    if kind in ("double-tap", "count"):
        taps = 2 if kind == "double-tap" else count
        gap = (timing.double_ns // 3, timing.double_ns * 2 // 3)  # quicker than a double tap needs, far from a pause
        edges: list[Edge] = []
        for _ in range(taps):
            hold = rng.randint(*tap_ns)
            edges += _push(t, hold, rng)
            t += hold + rng.randint(*gap)
        return edges
    raise ValueError(f"no way to press a button for {kind!r}")


def gesture_for(meanings: dict[str, str], action: str) -> str:
    """The gesture a game's meanings give ``action`` (``count`` for the counted ones)."""
    for kind, meant in meanings.items():
        if meant == action:
            return kind
    raise ValueError(f"no gesture means {action!r} here (meanings: {meanings})")


def action_edges(
    meanings: dict[str, str],
    action: str,
    value: int | None,
    t: int,
    rng: random.Random,
    timing: GestureTiming | None = None,
) -> list[Edge]:
    """What a player presses to make ``action`` (with ``value``, a bid's number) at ``t``, for a
    table reading gestures with ``timing``."""
    kind = gesture_for(meanings, action)
    return edges_for(kind, (value or 0) if action in COUNTING else 0, t, rng, timing)


class MockPinSeats:
    """The seats' buttons on gpiozero's mock pins, read by the table's own ``GpioButtons``: an
    edge given here goes through gpiozero's callback, stamped with the moment it happened."""

    PINS = (17, 27, 22, 23, 24, 25, 5, 6, 12, 13, 16, 26)

    def __init__(self, players: int) -> None:
        if players > len(self.PINS):
            raise ValueError(f"the simulated pins serve {len(self.PINS)} seats, not {players}")
        self.factory = timed_mock_factory()
        self.edges: queue.SimpleQueue[RawEdge] = queue.SimpleQueue()
        pins = dict(enumerate(self.PINS[:players]))
        self.buttons = GpioButtons(pins, self.factory, pull_up=True, require_exact=True, edges=self.edges)

    def edge(self, seat: int, pressed: bool, t_ns: int) -> list[RawEdge]:
        """The pin goes to ``pressed`` at ``t_ns``; the edges the table's reader queued for it."""
        pin = self.factory.pin(self.PINS[seat])
        assert isinstance(pin, TimedMockPin)
        pin.edge(not pressed, t_ns / 1e9)  # pulled up: a press takes the pin low
        return drain(self.edges)

    def close(self) -> None:
        self.buttons.close()


class BoardSeats:
    """The seats' buttons on the fake board over a pseudo-terminal, speaking the real protocol to
    the table's own bridge driver (``firmware_bridge.host``), which stamps each edge with the
    board's timer put on the host's clock by its ping fit.

    The board and the bridge live on the host's clock, in threads: the simulation gives its
    times through ``to_host`` and takes the edges back through ``to_table``, so it must run at
    a real pace (``speed`` > 0), and an edge's time comes back as exactly as the ping fit allows
    (tens of microseconds), not to the nanosecond."""

    def __init__(self, players: int, to_host: Callable[[int], int], to_table: Callable[[int], int]) -> None:
        from firmware_bridge.host import Bridge

        self.to_host, self.to_table = to_host, to_table
        self.board = FakeBoard(BoardConfig(buttons=players, lights=players)).start()
        self.edges: queue.SimpleQueue[RawEdge] = queue.SimpleQueue()
        self.bridge = Bridge(self.board.path, edges=self.edges).start()
        deadline = time.monotonic() + 5
        while not (self.bridge.status == "connected" and self.bridge.fit.ready):
            if time.monotonic() > deadline:
                self.close()
                raise RuntimeError(f"the fake board did not connect: {self.bridge.status} {self.bridge.problem}")
            time.sleep(0.01)

    def edge(self, seat: int, pressed: bool, t_ns: int) -> list[RawEdge]:
        """The button goes to ``pressed`` at ``t_ns``; the edge once the bridge has it (a real
        table's loop has it within milliseconds: a simulation catching up on its clock must not
        run on meanwhile)."""
        (self.board.press if pressed else self.board.release)(seat, at_ns=self.to_host(t_ns))
        try:
            first = self.edges.get(timeout=EDGE_WAIT_S)
        except queue.Empty:
            return self.drain()  # lost on the way, as on a real link: the table goes on without it
        return [self._moved(e) for e in (first, *drain(self.edges)) if isinstance(e, RawEdge)]

    def drain(self) -> list[RawEdge]:
        return [self._moved(e) for e in drain(self.edges) if isinstance(e, RawEdge)]

    def _moved(self, edge: RawEdge) -> RawEdge:
        return dataclasses.replace(edge, t_ns=self.to_table(edge.t_ns))

    def close(self) -> None:
        self.bridge.stop()
        self.board.stop()

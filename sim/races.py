"""Slap races on the path a live table runs: bouncing buttons, their reader, the core, a camera.

A double lands and two to four players slap it, 1 µs to 50 ms apart. Every input goes the way it
goes at a table:

* each press is a switch's edges with contact bounce (``sim.presses``), read by the table's own
  button reader (``GpioButtons`` on gpiozero's mock pins, stamped with the edge's ticks) or sent
  by the fake board over a pseudo-terminal and read by the table's bridge driver; each edge
  reaches the loop 0.05-15 ms after it happened, a pin's edges in their order, the seats' in any;
* the cards are seen by a camera model: frames at its rate, each showing the pile as it lies (a
  card that has just landed may be a blur in its first frame; a slapping hand hides the pile),
  read one after another in 10-50 ms where the picture changed and in a couple of milliseconds
  where it did not (``vision.gate``), and made into reports by the table's own tracker;
* everything reaches ``TableCore`` (gestures, sequencer, referee) in the order it arrives, as the
  live loop hands it over, and the core is woken when it asks (``next_wakeup``).

The bridge runs at the host's pace, so its edges are recorded once from a real run of the fake
board and the bridge driver (``record_bridge``): each edge's time as the bridge stamped it and
the moment it reached the table, against the moment it was really pressed. A race is then played
on the simulation's clock with exactly those delays and errors, and one recording serves every
camera.
"""

from __future__ import annotations

import dataclasses
import heapq
import json
import math
import random
import statistics
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from typing import Any, TextIO

import numpy as np

from firmware_bridge.host import BridgeTiming
from sim.fake_board import BoardConfig
from sim.presses import MockPinSeats, slap_edges
from table.buttons import EdgesVouched, RawEdge
from table.cards import make_deck
from table.controller import CAMERA, FrameReport, Outputs, TableCore
from table.decisions import Decision, GoodSlap, InputTooLate
from table.frame_reports import tracker_report
from table.games import setup_game
from table.units import MS, SECOND, US
from vision.seen import SeenCard
from vision.tracker import CardTracker, TrackerConfig

PLAYERS = 4
PILE_AT = (400.0, 300.0)  # where the pile lies in the camera's picture, in pixels
CARD_PX = (60.0, 90.0)  # a card's size there
LEAD_NS = 20 * MS  # the board's process is told a race's presses this long before the first
HELD_UP_NS = 50 * MS  # a race recording's loop stalled this long: the machine was busy, the race is recorded again
TRIES = 3
HAND_NS = (40 * MS, 40 * MS)  # a slapping hand over the pile: from before its press, to after its release


@dataclass(frozen=True)
class CameraModel:
    """How a camera and the table's reader deliver frames, in nanoseconds."""

    name: str
    fps: float
    transfer_ns: tuple[int, int] = (5 * MS, 15 * MS)  # a frame's exposure to the reader having it
    reading_ns: tuple[int, int] = (10 * MS, 50 * MS)  # reading a frame where something changed
    gated_ns: tuple[int, int] = (1 * MS, 3 * MS)  # a frame like the last one read: not read again
    blurred: float = 0.3  # the chance a card's first frame shows it landing, unreadable
    hands: bool = False  # a slapping hand hides the pile (``HAND_NS``), card and all

    @property
    def frame_ns(self) -> int:
        return round(SECOND / self.fps)


CAMERAS = (
    CameraModel("USB camera, 15 fps", 15),
    CameraModel("USB camera, 30 fps", 30),
    CameraModel("60 fps camera", 60),
)
HANDS = (  # the same cameras, with the slapping hands in their view
    CameraModel("USB camera, 15 fps, hands over the pile", 15, hands=True),
    CameraModel("60 fps camera, hands over the pile", 60, hands=True),
)


@dataclass(frozen=True)
class RaceTiming:
    """The table's bounds and the players' and parts' timing, in nanoseconds."""

    camera_bound_ns: int = 450 * MS  # [camera] lateness_ms
    edges_bound_ns: int = 20 * MS  # [seats] lateness_ms: the longest an edge takes to reach the loop
    delivery_ns: tuple[int, int] = (50 * US, 15 * MS)  # an edge's way to the loop
    handling_ns: tuple[int, int] = (50 * US, 1 * MS)  # the loop's time on one input
    reaction_ns: tuple[int, int] = (120 * MS, 500 * MS)  # the double landing to the first slap
    gap_ns: tuple[int, int] = (1 * US, 50 * MS)  # between one slap and the next


@dataclass(frozen=True)
class RaceScript:
    """What really happened in one race: the truth a verdict is judged against."""

    seed: int
    cards: tuple[tuple[int, str], ...]  # (landed, code): a card, then its double
    presses: tuple[tuple[int, int], ...]  # (t_ns, seat), in the order they happened
    edges: tuple[tuple[int, tuple[tuple[int, bool], ...]], ...]  # each slapper's (t_ns, pressed), bounce included

    @property
    def first(self) -> int:
        return self.presses[0][1]

    @property
    def edge_count(self) -> int:
        return sum(len(edges) for _, edges in self.edges)


@dataclass(frozen=True)
class Delivered:
    """One edge on its way to the table's loop: when it happened, the time it carries, when it arrives."""

    seat: int
    pressed: bool
    t_ns: int  # when it really happened
    stamped_ns: int  # the time the seats' reader gave it (GPIO: its ticks; the bridge: through its clock fit)
    arrival_ns: int


@dataclass(frozen=True)
class Vouched:
    """The bridge's word that every edge up to ``t_ns`` has come, reaching the loop at ``arrival_ns``."""

    t_ns: int
    arrival_ns: int


@dataclass
class Race:
    script: RaceScript
    path: str
    camera: str
    decisions: list[tuple[int, Decision]] = field(default_factory=list)  # (when decided, decision)

    @property
    def winners(self) -> list[int]:
        return [d.seat for _, d in self.decisions if isinstance(d, GoodSlap)]

    @property
    def dropped(self) -> list[InputTooLate]:
        return [d for _, d in self.decisions if isinstance(d, InputTooLate)]

    @property
    def first_won(self) -> bool:
        return self.winners == [self.script.first]

    @property
    def tied(self) -> bool:
        """The pile went to an exact tie: presses stamped alike, settled by the rules' ``tie``."""
        return any(isinstance(d, GoodSlap) and d.tied_with for _, d in self.decisions)

    @property
    def verdict_wait_ns(self) -> int | None:
        """From the first press to the pile given to its winner, on the table's clock."""
        decided = next((t for t, d in self.decisions if isinstance(d, GoodSlap)), None)
        return None if decided is None else decided - self.script.presses[0][0]


def _between(rng: random.Random, span: tuple[int, int]) -> int:
    """A whole number in the span, spread evenly on a log scale (microseconds and tens of ms alike)."""
    low, high = span
    return round(math.exp(rng.uniform(math.log(low), math.log(high))))


def script(seed: int, timing: RaceTiming | None = None) -> RaceScript:
    """One race: a card, its double 0.3-1 s later, and two to four seats slapping it."""
    timing = timing or RaceTiming()
    rng = random.Random(seed)
    rank = rng.randint(2, 10)  # no face card: its challenge would only wait for the next card
    first, double = rng.sample([c for c in make_deck(1) if c.rank == rank], 2)
    landed = SECOND + rng.randrange(SECOND)
    doubled = landed + rng.randrange(300 * MS, SECOND)
    t = doubled + rng.randrange(*timing.reaction_ns)
    presses, edges = [], []
    for seat in rng.sample(range(PLAYERS), rng.randint(2, PLAYERS)):
        presses.append((t, seat))
        edges.append((seat, tuple(slap_edges(t, rng))))
        t += _between(rng, timing.gap_ns)
    return RaceScript(seed, ((landed, first.code), (doubled, double.code)), tuple(presses), tuple(edges))


def gpio_deliveries(race: RaceScript, timing: RaceTiming) -> list[Delivered]:
    """Each seat's edges on their way from the pin: a pin's in order, 0.05-15 ms each."""
    rng = random.Random(f"{race.seed}:gpio")
    out = []
    for seat, edges in race.edges:
        arrival = 0
        for t, pressed in edges:
            arrival = max(arrival, t + rng.randrange(*timing.delivery_ns))
            out.append(Delivered(seat, pressed, t, t, arrival))
    return out


# -------------------------------------------------------------------------------- the camera


def _quad(center: tuple[float, float], size: tuple[float, float], turn_deg: float) -> np.ndarray:
    w, h = size
    corners = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]])
    a = math.radians(turn_deg)
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    return corners @ rot.T + np.array(center)


def _pile_zone(point: tuple[float, float]) -> tuple[str, int | None] | None:
    return ("pile", None) if math.dist(point, PILE_AT) < 150 else None


def camera_reports(
    race: RaceScript, camera: CameraModel, timing: RaceTiming | None = None
) -> list[tuple[int, FrameReport]]:
    """The camera's reports on the race, each with the moment it reaches the loop: frames of the
    pile as it lies, read one after another, made into reports by the table's tracker."""
    timing = timing or RaceTiming()
    rng = random.Random(f"{race.seed}:{camera.name}")
    tracker = CardTracker(zone_of=_pile_zone, config=TrackerConfig.for_camera(2, timing.camera_bound_ns))
    turns = [rng.uniform(-20, 20) for _ in race.cards]
    hands = [
        (t - HAND_NS[0], max(u for u, pressed in edges if not pressed) + HAND_NS[1])
        for (t, _), (_, edges) in zip(race.presses, race.edges, strict=True)
        if camera.hands
    ]
    blurred = [rng.random() < camera.blurred for _ in race.cards]
    frame_ns = camera.frame_ns
    start = race.cards[0][0] - 500 * MS + rng.randrange(frame_ns)
    end = max(t for _, edges in race.edges for t, _ in edges) + 500 * MS
    out, done, last_scene = [], 0, None
    for f in range(start, end, frame_ns):
        scene: tuple[Any, ...] = ("bare",)
        cards: list[SeenCard] = []
        lying = [n for n, (landed, _) in enumerate(race.cards) if landed <= f]
        if any(a <= f <= b for a, b in hands):
            scene = ("hand",)
            cards = [SeenCard(None, 0.0, _quad(PILE_AT, (110.0, 130.0), 0.0))]
        elif lying:
            n = lying[-1]
            landed, code = race.cards[n]
            fresh = blurred[n] and f - landed < frame_ns
            scene = ("card", n, fresh)
            quad = _quad(PILE_AT, CARD_PX, turns[n])
            cards = [SeenCard(None, 0.0, quad) if fresh else SeenCard(code, 0.97, quad)]
        arrived = f + rng.randrange(*camera.transfer_ns)
        cost = camera.reading_ns if scene != last_scene else camera.gated_ns
        done = max(done, arrived) + rng.randrange(*cost)
        last_scene = scene
        out.append((done, tracker_report(tracker, f, cards)))
    return out


# -------------------------------------------------------------------------------- the loop


def run_race(
    race: RaceScript, deliveries: list[Delivered | Vouched], camera: CameraModel, path: str, **options: Any
) -> Race:
    """The race through ``TableCore`` on the simulation's clock, inputs handed over as they
    arrive. ``path``: ``gpio`` (the edges go through gpiozero's mock pins and the table's
    ``GpioButtons`` as they arrive) or ``bridge`` (the bridge's recorded edges, as it stamped them).
    ``options``: ``timing`` (``RaceTiming``), ``pins`` (``MockPinSeats`` to reuse)."""
    timing: RaceTiming = options.get("timing") or RaceTiming()
    pins: MockPinSeats | None = options.get("pins")
    result = Race(race, path, camera.name)
    rng = random.Random(f"{race.seed}:loop")
    setup = setup_game("ers", "standard", players=PLAYERS, seed=race.seed)
    clock = [0]
    outputs = Outputs(decisions=[lambda d, _referee: result.decisions.append((clock[0], d))])
    edges = timing.edges_bound_ns + (BridgeTiming().link_ns if path == "bridge" else 0)  # as the live table adds
    core = TableCore(setup, {CAMERA: timing.camera_bound_ns, path: edges}, outputs, seat_source=path)
    core.start(0)
    inbox: list[tuple[int, int, Any]] = []
    for n, d in enumerate(deliveries):
        inbox.append((d.arrival_ns, n, d))
    for n, (arrival, report) in enumerate(camera_reports(race, camera, timing), start=len(inbox)):
        inbox.append((arrival, n, report))
    heapq.heapify(inbox)
    own_pins = pins is None and path == "gpio"
    if own_pins:
        pins = MockPinSeats(PLAYERS)
    try:
        now = free = 0
        while inbox:
            start = max(inbox[0][0], free)
            wake = core.next_wakeup(now)
            if wake < start:  # the loop wakes for the core before the next input
                now = clock[0] = max(wake, now + US)
                core.tick(now)
                continue
            now = clock[0] = start
            taken = []  # as the live loop does: everything that came while it was busy, in one go
            while inbox and inbox[0][0] <= now:
                taken.append(heapq.heappop(inbox)[2])
            with core.batch(now):
                for item in taken:
                    _hand(core, item, pins, now)
            free = now + sum(rng.randrange(*timing.handling_ns) for _ in taken)
        end = now + SECOND
        while core.waiting() and now < end:
            now = clock[0] = max(core.next_wakeup(now), now + US)
            core.tick(now)
    finally:
        if own_pins and pins is not None:
            pins.close()
    return result


def _hand(core: TableCore, item: Any, pins: MockPinSeats | None, now: int) -> None:
    """One input to the core, as the live loop hands it over."""
    if isinstance(item, FrameReport):
        core.frame(item, now)
    elif isinstance(item, Vouched):
        core.vouch(item.t_ns, now)
    elif pins is not None:  # the pin goes over at its moment, and its callback queues the edge
        for edge in pins.edge(item.seat, item.pressed, item.t_ns):
            core.edge(edge.seat, edge.pressed, edge.t_ns, now)
    else:
        core.edge(item.seat, item.pressed, item.stamped_ns, now)


# -------------------------------------------------------------------------------- the bridge


class _Arrivals:
    """Where the bridge queues its edges, noting the moment each reached the table."""

    def __init__(self) -> None:
        self.items: list[tuple[int, object]] = []
        self.lock = threading.Lock()

    def put(self, edge: object) -> None:
        with self.lock:
            self.items.append((time.monotonic_ns(), edge))

    def take(self) -> list[tuple[int, object]]:
        with self.lock:
            items, self.items = self.items, []
        return items


def record_bridge(
    races: list[RaceScript],
    timing: RaceTiming | None = None,
    board: BoardConfig | None = None,
    warm_s: float = 2.0,
    latency_ns: int = 0,
    again: list[int] | None = None,
) -> list[list[Delivered | Vouched]]:
    """Each race's edges pressed on the fake board at their moments (delivered 0.05-15 ms after,
    a button's in order), through the pseudo-terminal and the bridge driver, in real time after
    ``warm_s`` of clock sync: for each race, its edges as the bridge stamped them and when they
    arrived, and its word on which edges are all in, on the race's own clock. An edge that never
    came is left out. ``latency_ns``: the firmware's interrupt stamps edges this long after the
    first of them (``interrupt_stamps``); 0 stamps each when it happened.

    A race whose recording was held up (its own loop, which tells the board the host's time,
    stalled over ``HELD_UP_NS``: the machine running it was busy, which is no part of a table) is
    recorded again, ``TRIES`` times in all; each race recorded again has its seed added to
    ``again``, so a result can say so."""
    from firmware_bridge.host import Bridge

    timing = timing or RaceTiming()
    config = board or BoardConfig(buttons=PLAYERS, lights=PLAYERS, drift_ppm=60, seed=3)
    # The board in a process of its own, as a real board is a machine of its own: the bridge's
    # threads never hold it up.
    process = subprocess.Popen(
        [sys.executable, "-m", "sim.fake_board", json.dumps(dataclasses.asdict(config), default=list)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert process.stdin is not None and process.stdout is not None
    bridge = None
    try:
        arrivals = _Arrivals()
        bridge = Bridge(process.stdout.readline().strip(), edges=arrivals)  # type: ignore[arg-type]
        bridge.on_vouch = lambda t_ns: arrivals.put(EdgesVouched(t_ns))
        bridge.start()
        deadline = time.monotonic() + 10
        while not (bridge.status == "connected" and bridge.fit.ready):
            if time.monotonic() > deadline:
                raise RuntimeError(f"the fake board did not connect: {bridge.status} {bridge.problem}")
            time.sleep(0.01)
        time.sleep(warm_s)
        arrivals.take()
        out = []
        for race in races:
            for tried in range(1, TRIES + 1):
                got, held_ns = _bridge_race(race, process.stdin, arrivals, timing, latency_ns)
                if held_ns <= HELD_UP_NS or tried == TRIES:
                    break
                time.sleep(0.1)  # what is still on its way from the spoilt try
                arrivals.take()
            if tried > 1 and again is not None:
                again.append(race.seed)
            out.append(got)
        return out
    finally:
        if bridge is not None:
            bridge.stop()
        process.stdin.close()
        process.wait(timeout=10)


def interrupt_stamps(race: RaceScript, latency_ns: int) -> dict[int, list[tuple[int, int, bool]]]:
    """Each seat's edges as the firmware's interrupt stamps them: (when it happened, the time it
    is stamped with, pressed). An edge raises an interrupt that runs ``latency_ns`` later, reads
    every pin at once and stamps each button that changed with that one time: edges that came
    before it ran share it (a bounce within it leaves only the level it settled at). With no
    latency, every edge is stamped when it happened."""
    edges = sorted((t, seat, pressed) for seat, seat_edges in race.edges for t, pressed in seat_edges)
    out: dict[int, list[tuple[int, int, bool]]] = {seat: [] for seat, _ in race.edges}
    if latency_ns <= 0:
        for t, seat, pressed in edges:
            out[seat].append((t, t, pressed))
        return out
    level = dict.fromkeys(out, False)
    i = 0
    while i < len(edges):
        runs = edges[i][0] + latency_ns  # the interrupt's handler reads the pins then
        settled: dict[int, tuple[int, bool]] = {}
        while i < len(edges) and edges[i][0] <= runs:
            t, seat, pressed = edges[i]
            first = settled.get(seat, (t, pressed))[0]
            settled[seat] = (first, pressed)
            i += 1
        for seat, (first, pressed) in settled.items():
            if pressed != level[seat]:
                level[seat] = pressed
                out[seat].append((first, runs, pressed))
    return out


def _bridge_race(
    race: RaceScript, board: TextIO, arrivals: _Arrivals, timing: RaceTiming, latency_ns: int = 0
) -> tuple[list[Delivered | Vouched], int]:
    """One race through the board: what came, and the longest its loop was held up (ns)."""
    rng = random.Random(f"{race.seed}:bridge")
    first = min(t for _, edges in race.edges for t, _ in edges)
    step = time.monotonic_ns()
    base = step + LEAD_NS - first  # the race's clock on the host's (the board's process shares it)
    truth = interrupt_stamps(race, latency_ns)
    last_due = 0
    for seat, edges in truth.items():
        due = 0
        for _t, stamped, pressed in edges:
            due = max(due, stamped + rng.randrange(*timing.delivery_ns))
            board.write(f"{seat} {int(pressed)} {base + stamped} {due - stamped}\n")
        last_due = max(last_due, due)
    board.write(f"h {time.monotonic_ns() + LEAD_NS}\n")
    board.flush()
    got: list[tuple[int, object]] = []
    last = base + max(t for _, edges in race.edges for t, _ in edges)
    deadline = base + last_due + 500 * MS
    edges_in = 0
    count = sum(len(edges) for edges in truth.values())
    held = 0
    while (edges_in < count or time.monotonic_ns() < last + 50 * MS) and time.monotonic_ns() < deadline:
        time.sleep(0.002)
        now = time.monotonic_ns()
        held, step = max(held, now - step), now
        board.write(f"h {time.monotonic_ns() + LEAD_NS}\n")  # every press to come is stamped after this
        board.flush()
        taken = arrivals.take()
        edges_in += sum(isinstance(e, RawEdge) for _, e in taken)
        got += taken
    out: list[Delivered | Vouched] = [Vouched(v.t_ns - base, at - base) for at, v in got if isinstance(v, EdgesVouched)]
    for seat, edges in truth.items():
        mine = [(at, e) for at, e in got if isinstance(e, RawEdge) and e.seat == seat]
        for (t, _, pressed), (at, edge) in zip(edges, mine, strict=False):
            out.append(Delivered(seat, edge.pressed, t, edge.t_ns - base, at - base))
            assert edge.pressed == pressed, "the bridge delivered a seat's edges out of their order"
    return out, held


# -------------------------------------------------------------------------------- summaries


@dataclass(frozen=True)
class RaceRow:
    """How one path and camera did over many races (``python -m benchmarks races`` prints these)."""

    path: str
    camera: str
    races: int
    first_won: int
    wrong_winner: int  # a later presser took the pile, with no exact tie
    no_winner: int
    press_dropped: int  # races in which a press came too late to be ordered
    verdict_wait_ms_median: float
    verdict_wait_ms_p99: float
    tied: int = 0  # races whose first presses were stamped alike (an exact tie, settled by the rules' ``tie``)

    @classmethod
    def of(cls, races: list[Race], path: str | None = None) -> RaceRow:
        waits = sorted(w / MS for r in races if (w := r.verdict_wait_ns) is not None)
        p99 = waits[min(len(waits) - 1, math.ceil(0.99 * len(waits)) - 1)] if waits else float("nan")
        return cls(
            path=path or races[0].path,
            camera=races[0].camera,
            races=len(races),
            first_won=sum(r.first_won for r in races),
            wrong_winner=sum(bool(r.winners) and not r.first_won and not r.tied for r in races),
            no_winner=sum(not r.winners for r in races),
            press_dropped=sum(bool(r.dropped) for r in races),
            verdict_wait_ms_median=round(statistics.median(waits), 2) if waits else float("nan"),
            verdict_wait_ms_p99=round(p99, 2),
            tied=sum(r.tied for r in races),
        )


INTERRUPT_NS = 25 * US  # MicroPython's hard interrupt on the RP2040 runs some 20-25 µs after the edge


def race_rows(
    count: int, cameras: tuple[CameraModel, ...] = CAMERAS, bridge: bool = True, timing: RaceTiming | None = None
) -> list[RaceRow]:
    """``count`` races a row: on the GPIO path, then (``bridge``) through the fake board with
    each camera, its edges stamped when they happened; then once more stamped as the firmware's
    interrupt stamps them (``INTERRUPT_NS`` late, the edges it catches alike), with the last camera."""
    timing = timing or RaceTiming()
    scripts = [script(seed, timing) for seed in range(count)]
    rows = []
    pins = MockPinSeats(PLAYERS)
    try:
        for camera in cameras:
            races = [run_race(s, gpio_deliveries(s, timing), camera, "gpio", timing=timing, pins=pins) for s in scripts]
            rows.append(RaceRow.of(races))
    finally:
        pins.close()
    if bridge:
        again: list[int] = []
        recorded = record_bridge(scripts, timing, again=again)
        for camera in cameras:
            races = [run_race(s, d, camera, "bridge", timing=timing) for s, d in zip(scripts, recorded, strict=True)]
            rows.append(RaceRow.of(races, _recorded_again("bridge", again)))
        again = []
        recorded = record_bridge(scripts, timing, latency_ns=INTERRUPT_NS, again=again)
        camera = CAMERAS[-1]
        races = [run_race(s, d, camera, "bridge", timing=timing) for s, d in zip(scripts, recorded, strict=True)]
        rows.append(
            RaceRow.of(races, _recorded_again(f"bridge, stamped by a {INTERRUPT_NS // US} µs interrupt", again))
        )
    return rows


def _recorded_again(path: str, again: list[int]) -> str:
    """A bridge row's path, saying how many of its races were recorded again (``record_bridge``)."""
    return f"{path} ({len(again)} recorded again: the machine held the recording up)" if again else path


__all__ = [
    "CAMERAS",
    "CameraModel",
    "Delivered",
    "Race",
    "RaceRow",
    "RaceScript",
    "RaceTiming",
    "Vouched",
    "camera_reports",
    "gpio_deliveries",
    "interrupt_stamps",
    "race_rows",
    "record_bridge",
    "run_race",
    "script",
]

"""The frame every simulated table shares: a virtual clock, an event queue, the table's core.

A game's simulation keeps the physical truth (which card is really where), lets its bots act with
human timing, and delivers each input as the hardware would. Inputs go through the table's own
core (``table.controller``: gestures, the sequencer, journal, referee and lights), and the
referee's decisions are carried out on the physical cards as players at a real table would.

What stands in for the hardware is chosen in ``SimOptions``:

* ``camera="rendered"``: every 1/15 s of simulated time the cards as they lie are drawn by the
  renderer and read by the table's own vision, gate and tracker (``sim.rendered_camera``); the
  report reaches the core after the reading's time. ``camera="reports"`` skips the pictures: a
  card put down is reported 60-160 ms after it appeared, stamped with the frame it first showed in.
* ``seats="gpio"``: bots press buttons: the raw edges of a slap or a gesture, with contact
  bounce, on gpiozero's mock pins read by the table's own ``GpioButtons`` and gesture reader
  (``sim.presses``); an edge reaches the core within 2 ms, stamped with the moment it happened.
  ``seats="actions"`` hands the core each press or action already made.

* ``seats="bridge"``: the same edges on the fake board over a pseudo-terminal, read by the table's
  bridge driver, whose threads run on the host's clock: only at a real pace (``speed`` > 0),
  and a slap's time comes back within the board's ping fit (``press_tolerance_ns``).

Otherwise every part runs on the virtual clock and draws chance from the seed: a game is the
same on every run.
"""

from __future__ import annotations

import heapq
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from sim.bots import Bot, make_bots
from sim.layout import Place, TableLayout
from sim.options import SimOptions
from sim.presses import BoardSeats, MockPinSeats, action_edges, slap_edges
from sim.virtual_clock import VirtualClock
from table.buttons import RawEdge
from table.cards import parse_card
from table.controller import FrameReport, Outputs, TableCore
from table.decisions import Decision
from table.events import ButtonPressed, CardGone, CardSeen, Event, SeatAction
from table.games import GameSetup
from table.journal import JournalWriter
from table.referee import Referee
from table.units import MS

if TYPE_CHECKING:
    from sim.rendered_camera import RenderedCamera

LOOK_AGAIN_NS = 2_500 * MS  # a card put down and not taken by then is straightened
UNDER_WAY = ("edge", "arrive", "report", "tick")  # what still reaches the table once a game is over
STUCK_NS = 120_000 * MS  # nothing decided for this long: the table has lost count of the cards, and the game stops


@dataclass
class SimResult:
    winners: tuple[int, ...] | None
    cards_played: int
    decisions: list[Decision] = field(default_factory=list)
    abandoned: bool = False
    stuck: str | None = None  # why the game stopped with no winner, when the table lost count

    @property
    def winner(self) -> int | None:
        """The single winner, when there is exactly one."""
        return self.winners[0] if self.winners is not None and len(self.winners) == 1 else None


class TableSimulation:
    """Runs one game; subclasses say how the physical table answers each decision."""

    THINK_MS = 300  # a turn's thinking on top of the bot's own play delay
    DEFAULT_CAMERA = "rendered"  # what cardtable sim draws the cards with unless told

    def __init__(
        self,
        setup: GameSetup,
        options: SimOptions | None = None,
        journal: JournalWriter | None = None,
        on_decision: Callable[[Decision, Any], None] | None = None,
    ) -> None:
        self.options = options or SimOptions()
        self.setup = self.prepare(setup)
        source = "bridge" if self.options.seats == "bridge" else "gpio"
        # The board's edges take real milliseconds to come: on the simulation's clock, times its pace.
        buttons_ms = self.options.buttons_lateness_ms * max(1.0, self.options.speed if source == "bridge" else 1.0)
        lateness = {"camera": self.options.lateness_ms * MS, source: round(buttons_ms * MS)}
        self.core = TableCore(self.setup, lateness, Outputs(decisions=[self._decided]), journal, seat_source=source)
        self.rng = random.Random(f"{setup.seed}:table")
        self.fingers = random.Random(f"{setup.seed}:fingers")  # how long a press is held, how it bounces
        self.rendered: RenderedCamera | None = None
        if self.options.camera == "rendered":
            from sim.rendered_camera import RenderedCamera  # vision loads only for the rendered camera

            width, height = self.options.frame_size
            self.rendered = RenderedCamera(TableLayout(setup.players, width, height), setup.seed, self.options.fps)
        self.pins: MockPinSeats | BoardSeats | None = None  # opened by run(), closed when it ends
        # How exactly a slap's time comes back: to the nanosecond on the mock pins; through the
        # board's ping fit (tens of microseconds of the host's clock) times the pace on the board.
        self.press_tolerance_ns = round(250_000 * self.options.speed) if self.options.seats == "bridge" else 0
        self.truth_presses: list[tuple[int, int]] = []  # (t_ns, seat) of every slap the bots really made
        self.press_arrivals: list[tuple[int, int, int]] = []  # (arrival, t_ns, seat) of each slap's first edge
        self.truth_actions: list[tuple[int, int, str, int | None]] = []  # (t_ns, seat, action, value) begun
        self.truth_cards: list[tuple[int, str, Place]] = []  # (t_ns, code, place) of every card put face up
        self._seat_free: dict[int, int] = {}  # when each seat's finger is free for its next gesture
        self._edge_arrival: dict[int, int] = {}  # the last edge's arrival by seat: a pin's edges arrive in order
        self._nudges: set[Place] = set()
        self._awaiting: dict[Place, str] = {}  # cards put face up that the camera has not reported yet
        self.nudged = 0  # cards straightened because the table did not take them
        self.bots: list[Bot] = make_bots(setup.players, self.rng)
        self.clock = VirtualClock()
        self.on_decision = on_decision
        self.queue: list[tuple[int, int, str, Any]] = []
        self._order = 0
        self._ticks: set[int] = set()  # times a tick is already queued for
        self.cards_played = 0
        self.result = SimResult(None, 0)
        self._wall_start = 0.0
        self._wall_start_ns = time.monotonic_ns()

    @property
    def referee(self) -> Referee:
        return self.core.referee

    @property
    def journal(self) -> JournalWriter | None:
        return self.core.journal

    @journal.setter
    def journal(self, writer: JournalWriter | None) -> None:
        self.core.journal = writer

    def prepare(self, setup: GameSetup) -> GameSetup:
        """The set-up the referee gets (the ERS simulator fills in its deal)."""
        return setup

    def think_ns(self, seat: int) -> int:
        """How long the player at ``seat`` takes over a turn."""
        return self.bots[seat].play_delay_ns(self.rng) + self.THINK_MS * MS

    # ------------------------------------------------------------- scheduling

    def at(self, t: int, kind: str, payload: Any = None) -> None:
        """Run ``self._on_<kind>(t, payload)`` at virtual time ``t``."""
        self._order += 1
        heapq.heappush(self.queue, (t, self._order, kind, payload))

    def run(self) -> SimResult:
        self._wall_start = time.monotonic()
        self._wall_start_ns = time.monotonic_ns()
        self.core.start(0)
        self.settle(0)
        if self.rendered is not None:
            self.at(0, "frame")
        try:
            self.pins = self._open_seats()
            self._events()
            if self.referee.finished:
                self._finish_inputs()
        finally:
            if self.pins is not None:
                self.pins.close()
        self.result.winners = self.winners()
        self.result.cards_played = self.cards_played
        return self.result

    def _open_seats(self) -> MockPinSeats | BoardSeats | None:
        """The seats' buttons the options ask for (None: the bots hand over finished actions)."""
        players = self.setup.players
        if self.options.seats == "gpio":
            return MockPinSeats(players)
        if self.options.seats == "bridge":
            speed = self.options.speed
            seats = BoardSeats(
                players,
                to_host=lambda t: self._wall_start_ns + round(t / speed),
                to_table=lambda host: round((host - self._wall_start_ns) * speed),
            )
            self.core.outputs.lights = seats.bridge.show  # the lights' commands go to the board too
            return seats
        return None

    def _events(self) -> None:
        while self.queue and not self.referee.finished:
            if self.cards_played >= self.options.max_cards:
                self.result.abandoned = True
                return
            t, _, kind, payload = heapq.heappop(self.queue)
            last = self.result.decisions[-1].t_ns if self.result.decisions else 0
            if t - last > STUCK_NS:  # the table waits for what will not come: say so, do not hang
                self.result.stuck = (
                    f"nothing decided for {STUCK_NS // 10**9} s of play; the referee waits: {self.referee.expects()}"
                )
                return
            self.clock.advance_to(t)
            self._pace(t)
            getattr(self, f"_on_{kind}")(t, payload)
            if isinstance(self.pins, BoardSeats) and (edges := self.pins.drain()):  # come when its thread has them
                self._seat_edges(edges, t)
                self._after(t)

    def _finish_inputs(self) -> None:
        """Inputs under way as the game ended (a tap as the last card went down) reach the table
        as they would at a real one, and are in its journal: the referee hands them back refused,
        as a replay will. Nobody starts anything new."""
        while self.queue:
            t, _, kind, payload = heapq.heappop(self.queue)
            if kind in UNDER_WAY:
                self.clock.advance_to(max(t, self.clock.monotonic_ns()))
                getattr(self, f"_on_{kind}")(t, payload)

    def winners(self) -> tuple[int, ...] | None:
        """The game's winners once it is over (the round games keep them in their state)."""
        state = getattr(self.referee, "state", None)
        won = getattr(state, "winners", None)
        return None if won is None else tuple(won)

    def _pace(self, t: int) -> None:
        if self.options.speed <= 0:
            return
        target = self._wall_start + t / 1e9 / self.options.speed
        delay = target - time.monotonic()
        if delay > 0:
            time.sleep(delay)

    # ------------------------------------------------------------ the cards on the table

    def put(self, t: int, code: str, place: Place, offset: int = 0) -> None:
        """At ``t`` a card is put down on ``place``, face up (or ``"back"``: face down)."""
        if code != "back":
            self.truth_cards.append((t, code, place))
        if self.rendered is not None:
            self.at(t, "table", ("lay", code, place, offset))
        elif code != "back":
            self._reported(CardSeen(t, "camera", parse_card(code), *place), t)

    def turn_up(self, t: int, place: Place, code: str) -> None:
        """At ``t`` the face-down card on ``place`` is turned face up: it is ``code``."""
        self.truth_cards.append((t, code, place))
        if self.rendered is not None:
            self.at(t, "table", ("turn_up", place, code))
        else:
            self._reported(CardSeen(t, "camera", parse_card(code), *place), t)

    def take(self, t: int, place: Place | None = None) -> None:
        """At ``t`` the cards on ``place`` are picked up (every card on the table, with None)."""
        if self.rendered is not None:
            self.at(t, "table", ("take", place))
        elif place is not None:
            self._reported(CardGone(t, "camera", place[0], seat=place[1]), t)

    def tuck(self, t: int, place: Place) -> None:
        """At ``t`` a card goes face down under the cards on ``place`` (a burned card)."""
        if self.rendered is not None:
            self.at(t, "table", ("tuck", place))

    def _reported(self, event: Event, t: int) -> None:
        lo, hi = self.options.vision_latency_ms
        self.deliver(event, t + self.rng.randint(lo, hi) * MS)

    def _on_table(self, t: int, change: tuple[Any, ...]) -> None:
        assert self.rendered is not None
        what, *args = change
        getattr(self.rendered, what)(*args)
        if what in ("lay", "turn_up"):
            code, place = (args[0], args[1]) if what == "lay" else (args[1], args[0])
            if code != "back":
                self._awaiting[place] = code
                self.at(t + LOOK_AGAIN_NS, "look", (place, code))

    def _on_look(self, t: int, put: tuple[Place, str]) -> None:
        """A player whose card the table has not taken (the camera never reported it: it could
        not find it, or read another card there) straightens it, as the table's lights ask."""
        place, code = put
        if self._awaiting.get(place) == code and self.rendered is not None and self.rendered.top(place) == code:
            self.rendered.nudge(place)
            self.nudged += 1
            self.at(t + LOOK_AGAIN_NS, "look", put)

    def _on_frame(self, t: int, _: None) -> None:
        """The rendered camera exposes a frame; its report reaches the core once read."""
        assert self.rendered is not None
        report = self.rendered.frame(t)
        self.at(t + self.rendered.interval_ns, "frame")
        lo, hi = self.options.reading_ms
        self.at(t + self.rng.randint(lo, hi) * MS, "report", report)
        for place in report.unsure:  # a player straightens the card the table asks to see again
            if place not in self._nudges and self.rendered.top(place) is not None:
                self._nudges.add(place)
                self.at(t + self.rng.randint(600, 1200) * MS, "nudge", place)

    def _on_report(self, t: int, report: FrameReport) -> None:
        for event in report.events:
            place = (event.zone, getattr(event, "seat", None))
            if isinstance(event, CardSeen) and event.card is not None and self._awaiting.get(place) == event.card.code:
                del self._awaiting[place]
        self.core.frame(report, t)
        self._after(t)

    def _on_nudge(self, t: int, place: Place) -> None:
        assert self.rendered is not None
        self._nudges.discard(place)
        self.rendered.nudge(place)

    # ---------------------------------------------------------------- the seats' buttons

    def press(self, t: int, seat: int) -> None:
        """A slap: the button goes down at ``t``."""
        if self.pins is None:
            self.truth_presses.append((t, seat))
            lo, hi = self.options.gpio_latency_us
            self.deliver(ButtonPressed(t, "gpio", seat), t + self.rng.randint(lo, hi) * 1000)
            return
        t = max(t, self._seat_free.get(seat, 0))  # a hand still on its button presses once it is up
        self.truth_presses.append((t, seat))
        edges = slap_edges(t, self.fingers)
        self._seat_free[seat] = edges[-1][0] + 10 * MS
        self.press_arrivals.append((self._edges(seat, edges), t, seat))

    def gesture(self, t: int, seat: int, action: str, value: int | None = None) -> None:
        """A seat's gesture for ``action``: with buttons, begun at ``t`` (or once the seat's last
        gesture is done), otherwise completed at ``t``."""
        if self.pins is None:
            self.truth_actions.append((t, seat, action, value))
            lo, hi = self.options.gpio_latency_us
            self.deliver(SeatAction(t, "gpio", seat, action, value), t + self.rng.randint(lo, hi) * 1000)
            return
        t = max(t, self._seat_free.get(seat, 0))
        self.truth_actions.append((t, seat, action, value))
        if self.core.slaps:  # where every press is a slap, so is the gesture's first
            self.truth_presses.append((t, seat))
        edges = action_edges(self.core.meanings, action, value, t, self.fingers, self.core.gestures.timing)
        self._seat_free[seat] = edges[-1][0] + self.core.gestures.timing.pause_ns + 100 * MS
        self._edges(seat, edges)

    def _edges(self, seat: int, edges: list[tuple[int, bool]]) -> int:
        """Each edge on its way to the table; when the first arrives."""
        lo, hi = self.options.gpio_latency_us
        arrivals = []
        for at, pressed in edges:
            arrival = max(at + self.rng.randint(lo, hi) * 1000, self._edge_arrival.get(seat, 0) + 1)
            self._edge_arrival[seat] = arrival
            self.at(arrival, "edge", (seat, pressed, at))
            arrivals.append(arrival)
        return arrivals[0]

    def _on_edge(self, t: int, edge: tuple[int, bool, int]) -> None:
        assert self.pins is not None
        self._seat_edges(self.pins.edge(*edge), t)
        self._after(t)

    def _seat_edges(self, edges: list[RawEdge], t: int) -> None:
        for raw in edges:
            self.core.edge(raw.seat, raw.pressed, raw.t_ns, t)

    # ----------------------------------------------------------------- inputs

    def deliver(self, event: Event, arrival: int) -> None:
        self.at(arrival, "arrive", event)

    def _on_arrive(self, t: int, event: Event) -> None:
        if isinstance(event, CardSeen | CardGone):
            self.core.frame(FrameReport(event.t_ns, (event,)), t)
        else:
            self.core.seat_input(event, t)  # type: ignore[arg-type]
        self._after(t)

    def _on_tick(self, t: int, _: None) -> None:
        self._ticks.discard(t)
        self.core.tick(t)
        self._after(t)

    def _after(self, t: int) -> None:
        """Once the core has taken an input or time has passed: the players' next moves, and a
        tick queued for when the core next has something to do."""
        self.settle(t)
        wake = self.core.next_wakeup(t)
        if self.core.waiting() and wake not in self._ticks:
            self._ticks.add(wake)
            self.at(wake, "tick")

    # -------------------------------------------------------------- decisions

    def _decided(self, decision: Decision, referee: Referee) -> None:
        self.result.decisions.append(decision)
        if self.on_decision is not None:
            self.on_decision(decision, referee)
        self.apply(decision, self.clock.monotonic_ns())

    def apply(self, decision: Decision, t: int) -> None:
        """Carry one decision out on the physical table."""

    def settle(self, t: int) -> None:
        """After a batch of decisions: schedule what the players do next."""

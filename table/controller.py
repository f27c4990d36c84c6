"""The table's core: every input in, in time order through the sequencer, to the referee; its
decisions out to the lights, the journal's reader and whoever listens.

The core does no I/O of its own and reads no clock: the loop that drives it (``table.live`` on a
real table, the simulator on a virtual clock) hands it each input with the moment it arrived
(``now_ns``) and tells it when time has passed (``tick``); ``next_wakeup`` says when it next
has something to do if no input comes. So the table and the simulator run the same code, and a
simulated game is repeatable.

Inputs:
    ``frame``   what the camera's reader made of one frame: the tracker's events, the time up to
                which it vouches for them, and the zones whose card it cannot read;
    ``edge``    a seat button's raw edge, stamped where it entered (``table.buttons``);
    ``seat_input``  a seat's press or action already made of its gestures (the simulator's bots);
    ``fault``   a part that failed or recovered (the camera lost, the board unplugged).
Seat buttons go through ``table.gestures``: debounced presses are slaps (Egyptian Rat Screw),
gestures become the game's seat actions; a stuck or chattering button is a fault.

While any fault stands the game is paused: the lights say so, and inputs are set aside (logged,
not played), since the referee cannot know what happened while it could not see or hear.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from table.decisions import Decision, InputTooLate
from table.events import ButtonPressed, CardGone, CardSeen, Command, Event, SeatAction
from table.games import GAMES, GameSetup
from table.gestures import Gesture, GestureKind, GestureReader, GestureTiming, meaning
from table.journal import Journal, JournalError, JournalWriter
from table.laid_while_down import LAID_PART, LaidWhileDown
from table.lights import Pattern
from table.referee import Referee
from table.replay import Replay
from table.sequencer import Sequencer
from table.signals import Signals
from table.units import MS

log = logging.getLogger("cardtable")

CAMERA = "camera"
JOURNAL = "journal"  # the part whose fault is a journal that cannot be written (a full disk)
JOURNAL_RETRY_NS = 1_000 * MS  # between tries to write out a journal that could not be
COMMAND = "command"  # the source of inputs given as commands (``cardtable send``), not from the seats or camera
ALL_HELD_NS = 3_000 * MS  # every seat's button held down together this long: deal a new game


def seat_events_bound(edge_lateness_ns: int, gestures: GestureTiming) -> int:
    """The sequencer's bound for the seats' inputs: an edge reaches the table at most
    ``edge_lateness_ns`` after it happened (the pin's callback, the board's link and its
    batching), and the gesture it completes is decided at most ``gestures.decision_ns`` after
    that edge (its bounce window): a press is handed over that much later than its own time."""
    return edge_lateness_ns + gestures.decision_ns


ZoneView = tuple[str, int | None, tuple[str | None, ...]]


@dataclass(frozen=True)
class FrameReport:
    """What the camera's reader made of one frame exposed at ``t_ns``."""

    t_ns: int
    events: tuple[Event, ...] = ()  # the tracker's CardSeen and CardGone
    vouched_to: int | None = None  # every event up to this time has been reported
    unsure: tuple[tuple[str, int | None], ...] = ()  # zones whose card it cannot read
    reported_ns: int | None = None  # when the reader handed it over (host clock), to measure the loop by
    # Each zone with a card on top, as the frame shows it: zone, seat, and the codes read there,
    # lowest first, the top last (None: a covered card it could not read).
    views: tuple[ZoneView, ...] = ()


@dataclass
class Outputs:
    """Where decisions and light patterns go."""

    lights: Callable[[int, Pattern], None] = lambda seat, pattern: None
    decisions: list[Callable[[Decision, Referee], None]] = field(default_factory=list)
    ticks: list[Callable[[int, bool], None]] = field(default_factory=list)  # the time and paused, each tick (sounds)


class TableCore:
    def __init__(
        self,
        setup: GameSetup,
        lateness_ns: dict[str, int],
        outputs: Outputs | None = None,
        journal: JournalWriter | None = None,
        gestures: GestureTiming | None = None,
        meanings: dict[str, str] | None = None,
        seat_source: str = "gpio",
        button_names: tuple[str, ...] = (),
    ) -> None:
        """``lateness_ns``: how late each input source's inputs may reach the core: ``camera``,
        and for ``seat_source`` (the seats': ``gpio`` or ``bridge``) how late a button's edge
        may; the sequencer's bound for the seats adds the gesture reader's decision
        (``seat_events_bound``). ``button_names``: where each seat's button is wired ("pin 17"),
        for the faults' messages."""
        self.setup = setup
        self.seat_source = seat_source
        self.button_names = button_names
        self._edges_late_ns = lateness_ns.get(seat_source, 0)  # how late a seat's edge may reach the core
        self.referee = setup.referee()
        game = GAMES[setup.game]
        if meanings is None:
            meanings = dict(game.gestures) if game.gestures_used(setup.rules_value()) else {}
        self.meanings = meanings
        self.slaps = game.timed_races  # every press is a slap, whatever gesture it begins
        # Taps are paired into double taps only where a double tap means something: elsewhere a
        # press soon after a tap (a slap, then a contest) is a press of its own.
        self.gestures = GestureReader(setup.players, gestures, double_taps=GestureKind.DOUBLE_TAP in self.meanings)
        bounds = dict(lateness_ns)
        if seat_source in bounds:
            bounds[seat_source] = seat_events_bound(bounds[seat_source], self.gestures.timing)
        self.sequencer = Sequencer({**bounds, COMMAND: 0})  # a command is stamped as it comes
        self.outputs = outputs or Outputs()
        self.journal = journal
        self.names: tuple[str, ...] = ()  # the players' names for this game, as its journal has them
        self.signals = Signals(setup.players)
        self.faults: dict[str, str] = {}  # what is wrong, by part: the game is paused while any is
        self.set_aside = 0  # inputs that came while paused
        self.redated = 0  # cards the camera confirmed after its bound, dated as late as they had to be
        self.lost_edges = 0  # button edges found missing by the pins' or the board's level
        self.new_game_asked = False  # every button held together ``ALL_HELD_NS``: the loop deals anew
        self.decisions: list[Decision] = []
        self.inputs: list[tuple[Event, str | None]] = []  # every input taken, as journaled (with why it came too late)
        self.restart: LaidWhileDown | None = None  # after a restart: what each zone showed (``table.laid_while_down``)
        self._edges_vouched: int | None = None  # the seats' source has delivered every edge up to here
        self._batched = False  # inputs handed over together: the tick waits for the last
        self._journal_tried_ns = 0  # when a journal that could not be written was last tried again
        self._paused_from = 0  # when the game last paused (a part failed)

    @classmethod
    def resumed(
        cls, journal: Journal, writer: JournalWriter | None, lateness_ns: dict[str, int], now_ns: int, **options: Any
    ) -> TableCore:
        """A core that goes on with a journaled game (the table was killed or lost power): the
        referee as replaying the journal leaves it, every journaled input decided once. Inputs
        dated before the journal's last are too late. The camera, started afresh, reports the
        cards lying in the zones again: each zone's first report is weighed against what the
        journal left there (``table.laid_while_down``)."""
        core = cls(journal.setup, lateness_ns, journal=writer, **options)
        replay = Replay(journal)
        core.decisions = list(replay.decisions())
        core.referee = replay.referee
        for d in core.decisions:
            core.signals.decided(d, core.referee, now_ns - 10**15)  # the standing patterns, no old message
        entries = sorted((e for e in journal.entries if e.late_ns is None), key=lambda e: e.event.sort_key())
        core.restart = LaidWhileDown(entry.event for entry in entries)
        if journal.entries:
            core.sequencer.released_to = max(e.event.t_ns for e in journal.entries)
        core._lights(now_ns)
        return core

    # ------------------------------------------------------------------------------ inputs

    def start(self, now_ns: int) -> None:
        """The game's opening decisions."""
        self._emit(self.referee.start(now_ns), now_ns)
        self._lights(now_ns)

    def frame(self, report: FrameReport, now_ns: int) -> None:
        if self.restart is not None:
            self.restart.see(report.views)
            self._laid_while_down(self.restart.answers(report.t_ns), now_ns)
        for event in report.events:
            self._input(event, now_ns)
        if report.vouched_to is not None and CAMERA in self.sequencer.sources:
            self.sequencer.progress(CAMERA, report.vouched_to)
        self._unsure(report.unsure)
        self.tick(now_ns)

    def edge(self, seat: int, pressed: bool, t_ns: int, now_ns: int) -> None:
        if not 0 <= seat < self.setup.players:
            log.warning("an edge from seat %s, but the table has seats 0 to %s: ignored", seat, self.setup.players - 1)
            return
        self._gestures(self.gestures.edge(seat, pressed, t_ns), now_ns)
        self.tick(now_ns)

    def vouch(self, t_ns: int, now_ns: int) -> None:
        """The seats' source has delivered every edge up to ``t_ns`` (the bridge's board says so
        in its heartbeat): their gestures are decided that far, without waiting out the bound."""
        if self._edges_vouched is None or t_ns > self._edges_vouched:
            self._edges_vouched = t_ns
        self.tick(now_ns)

    @contextlib.contextmanager
    def batch(self, now_ns: int) -> Iterator[None]:
        """Inputs handed over together (all that came while the loop was busy) are all taken
        before time is decided: the first one's tick must not release what a later one precedes."""
        self._batched = True
        try:
            yield
        finally:
            self._batched = False
            self.tick(now_ns)

    def held_at_start(self, seat: int, now_ns: int, why: str = "held down as the table started") -> None:
        """The seat's button reads pressed where no press was seen: a fault until it is let go."""
        self.lost_edges += "an edge lost" in why
        self._set_fault(self._button(seat), f"{why} (stuck, or wired to ground?)", now_ns)
        self.gestures.held_at_start(seat, now_ns)
        self.tick(now_ns)

    def pressed_before(self, seat: int, now_ns: int) -> None:
        """The seat's button is down from a press the table saw before this game (the hold that
        dealt it): no fault, and its release is no gesture."""
        self.gestures.pressed_before(seat, now_ns)
        self.tick(now_ns)

    def let_go(self, seat: int, now_ns: int) -> None:
        """The seat's button is up though its release never came: let go, nothing decided from it."""
        self.lost_edges += 1
        self._gestures(self.gestures.let_go(seat), now_ns)
        self.tick(now_ns)

    def command(self, name: str, now_ns: int) -> None:
        """A game command for the referee (``table.events.END``), stamped now, decided in time order."""
        self._input(Command(now_ns, COMMAND, name), now_ns)
        self.tick(now_ns)

    def seat_input(self, event: ButtonPressed | SeatAction, now_ns: int) -> None:
        """A seat's input already made out of its gestures (the simulator's bots, which decide
        in actions): into the sequencer like any other."""
        self._input(event, now_ns)
        self.tick(now_ns)

    def fault(self, part: str, problem: str | None, now_ns: int) -> None:
        """``part`` failed (``problem`` says how) or recovered (None): the game pauses while any has failed."""
        self._set_fault(part, problem, now_ns)
        self.tick(now_ns)

    def _set_fault(self, part: str, problem: str | None, now_ns: int) -> None:
        if not self.faults:
            self._paused_from = now_ns  # inputs from before it were made before the game paused: taken
        if problem is None:
            if self.faults.pop(part, None) is not None:
                log.warning("%s: recovered%s", part, "" if self.faults else "; the game goes on")
        elif self.faults.get(part) != problem:
            self.faults[part] = problem
            log.warning("%s: %s; the game is paused", part, problem)
        self.signals.paused = bool(self.faults)

    @property
    def paused(self) -> bool:
        return bool(self.faults)

    def tick(self, now_ns: int) -> None:
        """Time has passed up to ``now_ns``: gestures completed by waiting, events whose moment
        every source has reported, messages on the lights that have played."""
        if self._batched:
            return
        if JOURNAL in self.faults and now_ns - self._journal_tried_ns >= JOURNAL_RETRY_NS:
            self._journal_tried_ns = now_ns
            with contextlib.suppress(JournalError):
                if self.journal is not None:
                    self.journal.sync()
                self._set_fault(JOURNAL, None, now_ns)
        # Gestures are decided only as far as every edge has surely arrived: a release stamped
        # 699 ms into a press, reaching the table at 701 ms, is a tap and not a long press.
        surely = now_ns - self._edges_late_ns
        if self._edges_vouched is not None:
            surely = max(surely, min(self._edges_vouched, now_ns))
        self._gestures(self.gestures.poll(surely), now_ns)
        decided = self.gestures.decided_to()
        if decided is not None and self.seat_source in self.sequencer.sources:
            self.sequencer.progress(self.seat_source, decided)  # a press out of its bounce window waits no longer
        held = self._all_held_since()
        if held is not None and now_ns - held >= ALL_HELD_NS and not self.new_game_asked:
            log.warning("every button held %g s: the players ask for a new game", ALL_HELD_NS / 1e9)
            self.new_game_asked = True
        for event in self.sequencer.release(now_ns):
            self._emit(self.referee.handle(event), now_ns)
        if self.sequencer.released_to is not None:
            self._emit(self.referee.advance(self.sequencer.released_to), now_ns)
        self._lights(now_ns)
        for tick in self.outputs.ticks:
            tick(now_ns, self.paused)

    def waiting(self) -> bool:
        """Whether time alone will bring something: an event held, a gesture or a referee's window
        to close (a table fed by a simulation, with no camera frames to tick it, needs telling)."""
        return any(t is not None for t in self._due())

    def next_wakeup(self, now_ns: int) -> int:
        """When the core next has something to do with no input: a held event's release (at its
        source's bound at the latest), a gesture's deadline, a referee's window closing, a light's
        message ending."""
        times = [*self._due(), self.signals.next_change(now_ns)]
        held = self._all_held_since()
        if held is not None and not self.new_game_asked:
            times.append(held + ALL_HELD_NS)
        return max(now_ns, min((t for t in times if t is not None), default=now_ns + 1_000 * MS))

    def _due(self) -> tuple[int | None, int | None, int | None]:
        """When the sequencer, the gesture reader and the referee next act with no input (None: never)."""
        deadline = self.gestures.next_deadline()
        waits = self.referee.wakeup()  # released (and so advanced to) once every source is past it
        return (
            self.sequencer.next_release(),
            None if deadline is None else deadline + self._edges_late_ns,
            None if waits is None else waits + self.sequencer.lateness_ns,
        )

    # ---------------------------------------------------------------------------- internals

    def _all_held_since(self) -> int | None:
        """Since when every seat's button has been held down together (None: not every one is)."""
        held = [s.down_since for s in self.gestures.seats if s.state and s.down_since is not None]
        return max(held) if len(held) == self.setup.players else None

    def _button(self, seat: int) -> str:
        """A seat's button as faults name it: the seat, and where it is wired when known."""
        where = f" ({self.button_names[seat]})" if seat < len(self.button_names) else ""
        return f"seat {seat}'s button{where}"

    def _gestures(self, gestures: list[Gesture], now_ns: int) -> None:
        source = self.seat_source
        for g in gestures:
            if g.kind == GestureKind.STUCK and self._button(g.seat) in self.faults:
                continue  # held since the start: said so already
            if g.kind in (GestureKind.STUCK, GestureKind.CHATTERING):
                problem = "stuck down" if g.kind == GestureKind.STUCK else "chattering"
                self._set_fault(self._button(g.seat), problem, now_ns)
            elif g.kind == GestureKind.RECOVERED:
                self._set_fault(self._button(g.seat), None, now_ns)  # the tick under way lights it
            elif g.kind == GestureKind.PRESS and self.slaps:
                self._input(ButtonPressed(g.t_ns, source, g.seat), now_ns)
            elif (action := meaning(self.meanings, g)) is not None:
                self._input(SeatAction(g.t_ns, source, g.seat, action[0], action[1]), now_ns)

    def go_on(self, now_ns: int) -> bool:
        """The players say each top card the restarted table asks about was the only one laid
        while it was down; whether it asked."""
        if self.restart is None or not self.restart.questions:
            return False
        self._laid_while_down(self.restart.go_on(), now_ns)
        self.tick(now_ns)
        return True

    def _laid_while_down(self, inputs: list[Event], now_ns: int) -> None:
        """The restarted table's question asked or answered (its fault), then what it answers played."""
        assert self.restart is not None
        self._set_fault(LAID_PART, self.restart.question(), now_ns)
        for event in inputs:
            self._take(event, now_ns)

    def _input(self, event: Event, now_ns: int) -> None:
        if self.restart is not None:
            instead = self.restart.take(event)
            if instead is not None:
                self._laid_while_down(instead, now_ns)
                return
        self._take(event, now_ns)

    def _take(self, event: Event, now_ns: int) -> None:
        if self.paused and event.t_ns >= self._paused_from:
            self.set_aside += 1
            log.info("paused (%s): set aside %s", "; ".join(self.faults), event.to_json())
            return
        late = self.sequencer.push(event)
        if late is not None and isinstance(event, CardSeen | CardGone) and self.sequencer.released_to is not None:
            # A card the camera confirmed only after its bound (read unsurely for a while): not
            # lost, since it lies where it lies and cannot be shown again, but dated just after
            # every moment already decided. The log says so.
            log.warning("%s came %d ms too late; dated %d ms later", event.to_json(), late // MS, late // MS)
            event = dataclasses.replace(event, t_ns=self.sequencer.released_to + 1)
            self.redated += 1
            late = self.sequencer.push(event)
        self.inputs.append((event, late))
        if self.journal is not None:
            try:
                self.journal.record(event, late)
            except JournalError as exc:  # the input is taken and its line kept to write: nothing more until it is
                self._set_fault(JOURNAL, f"{exc}: free some space; the game goes on once it is written", now_ns)
                self._journal_tried_ns = now_ns
        if late is not None:
            self._emit([InputTooLate(event.t_ns, event.TYPE, getattr(event, "seat", None), late)], now_ns)

    def _unsure(self, zones: tuple[tuple[str, int | None], ...]) -> None:
        waiting = self.referee.expects().seat
        self.signals.show_again(waiting if zones and waiting is not None else None)

    def _emit(self, decisions: list[Decision], now_ns: int) -> None:
        for d in decisions:
            self.decisions.append(d)
            self.signals.decided(d, self.referee, now_ns)
            for listener in self.outputs.decisions:
                listener(d, self.referee)

    def _lights(self, now_ns: int) -> None:
        for seat, pattern in self.signals.changes(now_ns).items():
            self.outputs.lights(seat, pattern)

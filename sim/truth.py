"""What the table decided, checked against what really happened at the simulated table.

The simulator knows the truth the table can only infer: which card was really put down where and
when, which button was really pressed when, which gesture a player really meant. ``compare``
splits what differs into two kinds:

* **the table's errors** (``problems``): an input that came too late to be used, a slap that did
  not reach the referee stamped with its own moment (or one nobody made), a gesture read as
  another action, a pile won by a slap that was not the first after the card as the camera dated
  it. None of these may happen: they are bugs of the buttons, gestures, sequencer or referee.
* **the camera's errors**, counted: a card read as another (``misread``), a card never seen or seen
  that was not there, cards seen more than a frame after they landed (``seen_late``: the player
  had to straighten it) and cards dated by a frame before they landed (``dated_early``). Slap
  races a late card changed (the first slap after the card really landed was not the first
  after the camera saw it) are counted in ``camera_changed``, and the counts a player had to put
  right (``out-of-cards`` given by a player left with no card the referee still counted) in
  ``corrected``.

So an end-to-end test of a whole game through rendered frames, vision, mock pins and gestures
can require a table without error and bound the camera's.
"""

from __future__ import annotations

import difflib
import itertools
from collections import Counter
from dataclasses import dataclass, field

from sim.table_sim import TableSimulation
from table.controller import COMMAND
from table.decisions import GoodSlap, Rejected
from table.events import ButtonPressed, CardSeen, SeatAction

PILE = ("pile", None)


@dataclass
class TruthReport:
    cards: int = 0  # cards really put face up
    presses: int = 0  # slaps really made
    actions: int = 0  # gestures really made
    races: int = 0  # slaps won, each checked against the presses really made
    out_of_order: int = 0  # slaps whose first edge reached the table after a later slap's
    refused: int = 0  # cards the camera reported that the referee refused (seen again, shown again)
    misread: list[str] = field(default_factory=list)  # the camera's: a card read as another, missed, or made up
    seen_late: int = 0  # cards the camera dated more than a frame after they landed
    dated_early: int = 0  # cards dated by a frame before they landed (an unreadable frame taken for their landing)
    camera_changed: int = 0  # slap races a card seen late changed
    corrected: int = 0  # hand counts a player put right (a card the camera missed had been credited to another)
    problems: list[str] = field(default_factory=list)  # the table's own errors

    def __str__(self) -> str:
        said = (
            f"{self.cards} cards ({len(self.misread)} misread, {self.seen_late} seen late, {self.dated_early} dated "
            f"early, {self.refused} refused "
            f"reports), {self.presses} slaps ({self.out_of_order} arriving out of order), {self.actions} gestures, "
            f"{self.races} slaps won ({self.camera_changed} changed by a card seen late)"
        )
        if self.corrected:
            said += f", {self.corrected} hand count(s) put right by their player"
        if not self.problems:
            return f"the referee agreed with the table's truth: {said}"
        return f"{len(self.problems)} disagreements with the table's truth ({said}): " + "; ".join(self.problems[:5])


def compare(sim: TableSimulation) -> TruthReport:
    """The table's errors and the camera's, against the simulation's truth."""
    report = TruthReport(len(sim.truth_cards), len(sim.truth_presses), len(sim.truth_actions))
    taken = [event for event, late in sim.core.inputs if late is None]
    report.problems += [f"{e.TYPE} at {e.t_ns} came too late" for e, why in sim.core.inputs if why is not None]
    # A card the referee refused was one the camera saw again (a card under the top one, shown
    # when the top one was straightened): the table asked for the card again, and it came.
    refused = Counter(d.t_ns for d in sim.result.decisions if isinstance(d, Rejected) and d.event == CardSeen.TYPE)
    seen = []
    for e in (e for e in taken if isinstance(e, CardSeen)):
        if refused[e.t_ns]:  # each refusal takes one card report of its moment
            refused[e.t_ns] -= 1
            report.refused += 1
        else:
            seen.append(e)
    _cards(sim, seen, report)
    _presses(sim, [e for e in taken if isinstance(e, ButtonPressed)], seen, report)
    _actions(sim, [e for e in taken if isinstance(e, SeatAction) and e.source != COMMAND], report)
    report.corrected = sum(1 for e in taken if isinstance(e, SeatAction) and e.source == COMMAND)
    return report


def _cards(sim: TableSimulation, seen: list[CardSeen], report: TruthReport) -> None:
    """The camera's cards on each place against the cards really put face up there, in order."""
    frame_ns = 1e9 / sim.options.fps
    places = {place for _, _, place in sim.truth_cards} | {(e.zone, e.seat) for e in seen}
    for place in sorted(places, key=str):
        truth = sorted((t, code) for t, code, where in sim.truth_cards if where == place)
        got = [(e.t_ns, e.card.code if e.card else "") for e in seen if (e.zone, e.seat) == place]
        matcher = difflib.SequenceMatcher(None, [c for _, c in truth], [c for _, c in got], autojunk=False)
        for op, t0, t1, g0, g1 in matcher.get_opcodes():
            if op == "equal":
                for (t, _), (at, _) in zip(truth[t0:t1], got[g0:g1], strict=True):
                    report.dated_early += at < t
                    report.seen_late += at > t + frame_ns
                continue
            put = ", ".join(f"{code} at {t}" for t, code in truth[t0:t1]) or "nothing"
            read = ", ".join(f"{code} at {t}" for t, code in got[g0:g1]) or "nothing"
            report.misread.append(f"on {place}: {put} put, {read} seen")


def _presses(sim: TableSimulation, pressed: list[ButtonPressed], seen: list[CardSeen], report: TruthReport) -> None:
    """Every slap reached the referee stamped with the moment it was made (within the fake board's
    clock fit, ``press_tolerance_ns``), and each pile won by
    a slap went to whoever slapped first after the card that made it slappable, as the camera
    dated that card."""
    if not sim.truth_presses:
        return
    within = sim.press_tolerance_ns
    for seat in range(sim.setup.players):
        want = sorted(t for t, s in sim.truth_presses if s == seat)
        got = sorted(e.t_ns for e in pressed if e.seat == seat)
        for t, at in zip(want, got, strict=False):
            if abs(at - t) > within:
                report.problems.append(f"seat {seat}'s slap at {t} reached the referee stamped {at}")
        report.problems += [f"seat {seat}'s slap at {t} never reached the referee" for t in want[len(got) :]]
        report.problems += [f"the referee had a slap by seat {seat} at {t} that nobody made" for t in got[len(want) :]]
    by_arrival = [(t, seat) for _, t, seat in sorted(sim.press_arrivals)]
    report.out_of_order = sum(1 for a, b in itertools.pairwise(by_arrival) if a > b)
    dated = sorted(e.t_ns for e in seen if (e.zone, e.seat) == PILE)
    landed = sorted(t for t, _, place in sim.truth_cards if place == PILE)
    for d in sim.result.decisions:
        if not isinstance(d, GoodSlap):
            continue
        report.races += 1
        first = _first_press(sim.truth_presses, dated, d.t_ns + within)
        if first is None or abs(first[0] - d.t_ns) > within or first[1] not in (d.seat, *d.tied_with):
            report.problems.append(f"seat {d.seat} won a slap at {d.t_ns}, but the first slap was {first}")
        report.camera_changed += _first_press(sim.truth_presses, landed, d.t_ns) != first


def _first_press(presses: list[tuple[int, int]], cards: list[int], slap: int) -> tuple[int, int] | None:
    """The first press at or after the last card (of those landing at ``cards``) before ``slap``."""
    card = max((t for t in cards if t <= slap), default=0)
    return min((p for p in presses if p[0] >= card), default=None)


def _actions(sim: TableSimulation, acted: list[SeatAction], report: TruthReport) -> None:
    """Each seat's gestures were read as the actions its player meant, in order."""
    for seat in range(sim.setup.players):
        meant = [(a, v) for _, s, a, v in sorted(sim.truth_actions) if s == seat]
        read = [(e.action, e.value) for e in acted if e.seat == seat]
        if meant != read:
            report.problems.append(f"seat {seat} meant {meant[:6]}..., the table read {read[:6]}...")

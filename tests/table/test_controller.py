"""The table's core (``table.controller``): inputs in time order to the referee, lights, faults, journal."""

from __future__ import annotations

from pathlib import Path

import pytest

from table import signals as sg
from table.cards import parse_card
from table.controller import FrameReport, Outputs, TableCore
from table.decisions import BadSlap, CardPlayed, GoodSlap, InputTooLate, PileWon, PlayContested, SlapIgnored
from table.events import ButtonPressed, CardSeen
from table.games import setup_game
from table.games.cuckoo.decisions import Kept, Traded
from table.games.ers.referee import CONTESTABLE
from table.journal import JournalError, JournalWriter, read_journal
from table.units import MS

BOUNDS = {"camera": 250 * MS, "gpio": 20 * MS}


class Lights:
    """What each seat's light was last told."""

    def __init__(self) -> None:
        self.shown: dict[int, object] = {}
        self.sent = 0

    def __call__(self, seat: int, pattern: object) -> None:
        self.shown[seat] = pattern
        self.sent += 1


def _core(game: str = "ers", players: int = 3, journal: JournalWriter | None = None) -> tuple[TableCore, Lights]:
    lights = Lights()
    core = TableCore(setup_game(game, players=players, seed=1), BOUNDS, Outputs(lights=lights), journal)
    core.start(0)
    return core, lights


def _card(core: TableCore, code: str, landed: int, now: int) -> None:
    """The camera reports a card first seen at ``landed``, vouching for everything up to ``now``'s frame."""
    core.frame(FrameReport(landed, (CardSeen(landed, "camera", parse_card(code), "pile"),), vouched_to=landed), now)


def _press(core: TableCore, seat: int, t: int, now: int, held_ms: int = 100) -> None:
    core.edge(seat, True, t, now)
    core.edge(seat, False, t + held_ms * MS, now + held_ms * MS)


def test_the_first_slap_wins_though_the_double_and_the_other_slap_arrive_first() -> None:
    core, lights = _core()
    assert lights.shown == {0: sg.OFF, 1: sg.TURN, 2: sg.OFF}
    _card(core, "7H", 1_000 * MS, 1_100 * MS)
    _card(core, "7S", 2_000 * MS, 2_130 * MS)
    # Seat 0 slapped 30 us before seat 2, but seat 2's press reaches the table first.
    core.edge(2, True, 2_300 * MS + 30_000, 2_301 * MS)
    core.edge(0, True, 2_300 * MS, 2_310 * MS)
    core.tick(2_330 * MS)  # the presses settled (5 ms) and could not be overtaken by an earlier edge (20 ms)
    assert not [d for d in core.decisions if isinstance(d, GoodSlap)]  # the camera has not vouched past them
    assert core.next_wakeup(2_330 * MS) == 2_300 * MS + 250 * MS  # ... and at worst its bound runs out
    core.frame(FrameReport(2_333 * MS, vouched_to=2_333 * MS), 2_380 * MS)
    good = [d for d in core.decisions if isinstance(d, GoodSlap | PileWon)]
    assert [(type(d), d.seat) for d in good] == [(GoodSlap, 0), (PileWon, 0)]
    assert lights.shown[0] == sg.WON
    core.tick(2_380 * MS + 1_200 * MS)
    assert lights.shown[0] == sg.TURN  # the winner leads


def test_a_slap_before_the_double_landed_is_bad_whenever_the_double_is_reported() -> None:
    core, _ = _core()
    _card(core, "7H", 1_000 * MS, 1_100 * MS)
    core.edge(1, True, 1_990 * MS, 1_991 * MS)  # 10 ms before the 7S lands
    _card(core, "7S", 2_000 * MS, 2_200 * MS)
    core.tick(2_300 * MS)
    assert [d.seat for d in core.decisions if isinstance(d, BadSlap)] == [1]


def test_round_games_take_gestures_a_tap_keeps_and_a_long_press_trades() -> None:
    core, lights = _core("cuckoo", players=3)
    first = core.referee.expects().seat
    _press(core, first, 1_000 * MS, 1_001 * MS)  # a tap: keep, at its release: no double tap means anything here
    core.tick(1_340 * MS)
    assert not [d for d in core.decisions if isinstance(d, Kept)]  # no frame vouches: the camera's bound
    core.tick(1_360 * MS)
    assert [d.seat for d in core.decisions if isinstance(d, Kept)] == [first]
    second = core.referee.expects().seat
    _press(core, second, 2_000 * MS, 2_001 * MS, held_ms=900)  # held 0.9 s: trade
    core.tick(3_500 * MS)
    assert [d.seat for d in core.decisions if isinstance(d, Traded)] == [second]
    assert lights.shown[core.referee.expects().seat] == sg.TURN


def test_a_slap_held_long_contests_where_the_rules_have_contests_and_means_nothing_elsewhere() -> None:
    for preset, contests in (("wikipedia-extras", True), ("standard", False)):
        lights = Lights()
        core = TableCore(setup_game("ers", preset, players=3, seed=1), BOUNDS, Outputs(lights=lights))
        core.start(0)
        _card(core, "7H", 1_000 * MS, 1_100 * MS)
        _press(core, 0, 1_300 * MS, 1_301 * MS)  # a bad slap
        _press(core, 2, 1_500 * MS, 1_501 * MS, held_ms=900)  # a slap too, then held: a contest
        core.tick(2_600 * MS)
        bad = [d.seat for d in core.decisions if isinstance(d, BadSlap)]
        quiet = [d.seat for d in core.decisions if isinstance(d, SlapIgnored) and d.reason == CONTESTABLE]
        assert (quiet, bad) == (([0, 2], []) if contests else ([], [0, 2]))  # contested: no alarm for a bad slap
        contested = [d for d in core.decisions if isinstance(d, PlayContested)]
        assert contested == ([PlayContested(2_200 * MS, 2, 0, True, 1)] if contests else [])
        assert (lights.shown[2] == sg.WON) is contests


def test_a_fault_pauses_the_game_sets_inputs_aside_and_the_game_resumes_where_it_was() -> None:
    core, lights = _core()
    core.fault("camera", "no frame for 3 s", 1_000 * MS)
    assert core.paused and set(lights.shown.values()) == {sg.PAUSED}
    _card(core, "7H", 1_100 * MS, 1_200 * MS)
    core.edge(0, True, 1_300 * MS, 1_301 * MS)
    core.tick(3_000 * MS)
    assert core.set_aside == 2 and len(core.sequencer) == 0
    core.fault("camera", None, 3_000 * MS)
    assert not core.paused and lights.shown == {0: sg.OFF, 1: sg.TURN, 2: sg.OFF}


def test_a_button_held_down_is_a_fault_until_it_is_let_go() -> None:
    core, lights = _core()
    core.edge(2, True, 1_000 * MS, 1_001 * MS)
    core.tick(21_021 * MS)  # held 20 s: stuck (decided once a later edge could no longer be on its way)
    assert core.faults == {"seat 2's button": "stuck down"} and lights.shown[2] == sg.PAUSED
    core.edge(2, False, 22_000 * MS, 22_001 * MS)
    core.tick(22_030 * MS)
    assert not core.paused and lights.shown[1] == sg.TURN


def test_every_input_is_journaled_as_it_enters_and_one_too_late_is_marked(tmp_path: Path) -> None:
    setup = setup_game("ers", players=3, seed=1)
    with JournalWriter(tmp_path / "game.jsonl", setup, fsync=False) as journal:
        core, _ = _core(journal=journal)
        _card(core, "7H", 1_000 * MS, 1_100 * MS)
        core.tick(1_400 * MS)
        core.seat_input(ButtonPressed(900 * MS, "gpio", 2), 1_401 * MS)  # dated before what was already released
    entries = read_journal(tmp_path / "game.jsonl").entries
    assert [(e.event.TYPE, e.late_ns is not None) for e in entries] == [("card-seen", False), ("press", True)]
    assert any(isinstance(d, InputTooLate) for d in core.decisions)


def test_a_card_the_camera_confirmed_after_its_bound_is_played_dated_as_late_as_it_must_be(tmp_path: Path) -> None:
    """Read unsurely for a while, a card is confirmed after the sequencer has released its moment:
    it is not lost (it lies where it lies, and showing it again there makes no new report), but
    dated just after everything already decided, and journaled so."""
    setup = setup_game("ers", players=3, seed=1)
    with JournalWriter(tmp_path / "game.jsonl", setup, fsync=False) as journal:
        core, _ = _core(journal=journal)
        _card(core, "7H", 1_000 * MS, 1_100 * MS)
        core.tick(1_400 * MS)
        released = core.sequencer.released_to
        _card(core, "9C", 900 * MS, 1_401 * MS)
        core.tick(2_000 * MS)
    played = [d for d in core.decisions if isinstance(d, CardPlayed)]
    assert [(d.card.code, d.t_ns) for d in played] == [("7H", 1_000 * MS), ("9C", released + 1)]
    assert core.redated == 1 and not any(isinstance(d, InputTooLate) for d in core.decisions)
    entries = read_journal(tmp_path / "game.jsonl").entries
    assert [(e.event.t_ns, e.late_ns) for e in entries][1] == (released + 1, None)


def test_a_press_made_before_a_part_failed_is_taken_though_it_is_told_after_the_pause() -> None:
    """The cable is pulled 3 ms after a slap: the press reached the table, but its gesture is
    told after the board's fault has paused the game. It was made before: it counts. A press
    made after the pause is set aside."""
    core, _ = _core()
    _card(core, "7H", 1_000 * MS, 1_100 * MS)
    _card(core, "7S", 2_000 * MS, 2_100 * MS)
    core.edge(2, True, 2_300 * MS, 2_301 * MS)
    core.fault("seat board", "unplugged", 2_303 * MS)
    core.edge(0, True, 2_400 * MS, 2_401 * MS)  # after the pause
    core.tick(3_000 * MS)
    assert [d.seat for d in core.decisions if isinstance(d, GoodSlap)] == [2]
    assert core.set_aside == 1


class FillingDisk:
    """A journal file's stand-in whose writes to the disk fail while ``full`` is set (the
    lines stay in the file's buffer, as a real file's do)."""

    def __init__(self, file) -> None:
        self.file, self.full = file, False

    def write(self, text: str) -> int:
        return self.file.write(text)

    def flush(self) -> None:
        if self.full:
            raise OSError(28, "No space left on device")
        self.file.flush()

    def fileno(self) -> int:
        return self.file.fileno()

    def close(self) -> None:
        try:
            self.flush()
        finally:
            self.file.close()


def test_a_journal_that_cannot_be_written_pauses_the_game_until_it_is_and_loses_no_line(tmp_path: Path) -> None:
    """The disk fills up: the input that could not be written out is taken and its line kept,
    the game pauses naming the journal, and once there is room again every line is written and
    the game goes on."""
    setup = setup_game("ers", players=3, seed=1)
    path = tmp_path / "game.jsonl"
    journal = JournalWriter(path, setup, fsync=False)
    disk = journal._file = FillingDisk(journal._file)
    core, _ = _core(journal=journal)
    _card(core, "7H", 1_000 * MS, 1_100 * MS)
    disk.full = True
    _card(core, "7S", 2_000 * MS, 2_100 * MS)
    assert core.paused and "cannot write the journal: No space left on device" in core.faults["journal"]
    _card(core, "9C", 3_000 * MS, 3_100 * MS)  # set aside while paused
    core.tick(3_500 * MS)
    assert core.paused
    disk.full = False
    core.tick(4_600 * MS)  # tried again: written
    assert not core.paused
    _press(core, 2, 5_000 * MS, 5_010 * MS)
    core.tick(6_000 * MS)
    journal.close()
    entries = read_journal(path).entries
    assert [e.event.TYPE for e in entries] == ["card-seen", "card-seen", "press"]
    assert [d.seat for d in core.decisions if isinstance(d, GoodSlap)] == [2]  # the double of sevens
    assert core.set_aside == 1


def test_a_journal_whose_last_lines_cannot_be_written_as_the_table_stops_is_said_and_closed(tmp_path: Path) -> None:
    setup = setup_game("ers", players=3, seed=1)
    journal = JournalWriter(tmp_path / "game.jsonl", setup, fsync=False)
    disk = journal._file = FillingDisk(journal._file)
    core, _ = _core(journal=journal)
    disk.full = True
    _card(core, "7H", 1_000 * MS, 1_100 * MS)
    with pytest.raises(JournalError, match="its last lines could not be written: No space left on device"):
        journal.close()
    assert disk.file.closed


def test_a_journal_whose_set_up_line_cannot_be_written_leaves_no_file(tmp_path: Path, monkeypatch) -> None:
    def no_room(self, data) -> None:
        raise JournalError(f"{self.path}: cannot write the journal: No space left on device")

    monkeypatch.setattr(JournalWriter, "_write", no_room)
    with pytest.raises(JournalError, match="No space left"):
        JournalWriter(tmp_path / "game.jsonl", setup_game("ers", players=3, seed=1), fsync=False)
    assert list(tmp_path.iterdir()) == []


def test_an_unreadable_card_asks_the_seat_that_played_it_to_show_it_again() -> None:
    core, lights = _core()
    core.frame(FrameReport(1_000 * MS, vouched_to=999 * MS, unsure=(("pile", None),)), 1_050 * MS)
    assert lights.shown[1] == sg.SHOW_AGAIN
    _card(core, "7H", 1_500 * MS, 1_600 * MS)
    core.tick(1_900 * MS)
    assert lights.shown[1] == sg.OFF and lights.shown[2] == sg.TURN


def test_a_core_resumed_from_the_journal_goes_on_where_the_killed_one_was(tmp_path: Path) -> None:
    setup = setup_game("ers", players=3, seed=1)
    path = tmp_path / "game.jsonl"
    journal = JournalWriter(path, setup, fsync=False)
    killed, _ = _core(journal=journal)
    _card(killed, "7H", 1_000 * MS, 1_100 * MS)
    _card(killed, "9S", 2_000 * MS, 2_100 * MS)
    core_press = 2_500 * MS
    killed.edge(0, True, core_press, core_press + MS)
    killed.tick(2_600 * MS)  # the press journaled, not yet decided (the camera's bound) when the table dies
    journal.close()
    killed.journal = None
    with open(path, "a", encoding="utf-8") as torn:
        torn.write('{"card":"KC","source":"camera","t":2600')  # the line being written as it died
    lights = Lights()
    resumed = TableCore.resumed(
        read_journal(path), JournalWriter.resume(path, fsync=False), BOUNDS, 3_000 * MS, outputs=Outputs(lights=lights)
    )
    killed.tick(10_000 * MS)  # what the killed table would have decided, given the time
    assert resumed.referee.snapshot() == killed.referee.snapshot()
    assert [d.seat for d in resumed.decisions if isinstance(d, BadSlap)] == [0]
    assert lights.shown[0] == sg.TURN  # the standing patterns, no old message replayed
    # The camera, started afresh, reports the 9S still lying on the pile: not played again.
    _card(resumed, "9S", 3_100 * MS, 3_200 * MS)
    _card(resumed, "QD", 4_000 * MS, 4_100 * MS)
    resumed.tick(5_000 * MS)
    entries = read_journal(path).entries
    assert [e.event.card.code for e in entries if e.event.TYPE == "card-seen"] == ["7H", "9S", "QD"]
    played = [d.card.code for d in resumed.decisions if d.KIND == "card-played"]
    assert played == ["7H", "9S", "QD"]


def test_every_button_held_three_seconds_asks_for_a_new_game() -> None:
    core, _ = _core(players=3)
    for seat in (0, 1):
        core.edge(seat, True, 1_000 * MS + seat, 1_000 * MS + seat)
    core.tick(5_000 * MS)
    assert not core.new_game_asked  # seat 2 never joined in
    core.edge(2, True, 5_000 * MS, 5_000 * MS)
    now = 5_000 * MS  # a loop sleeping to each wakeup is woken when the three seconds are up
    while not core.new_game_asked:
        now = core.next_wakeup(now)
        core.tick(now)
    assert now == 8_000 * MS


def test_a_press_within_its_edge_bound_is_never_too_late_however_far_the_camera_has_vouched() -> None:
    """A press reaches the core 20 ms late (the edges' bound) and is handed to the sequencer once
    its bounce window has passed: the seats' bound covers both, however far the camera vouches."""
    core, _ = _core()
    _card(core, "7H", 1_000 * MS, 1_100 * MS)
    _card(core, "7S", 2_000 * MS, 2_050 * MS)
    core.edge(0, True, 2_100 * MS, 2_120 * MS)
    core.frame(FrameReport(2_200 * MS, vouched_to=2_200 * MS), 2_121 * MS)
    for now in range(2_122, 2_140):
        core.tick(now * MS)
    assert not [d for d in core.decisions if isinstance(d, InputTooLate)]
    assert [(d.seat, d.t_ns) for d in core.decisions if isinstance(d, GoodSlap)] == [(0, 2_100 * MS)]
    assert core.sequencer.lateness_ns == 250 * MS and core.sequencer.bound_ns("gpio") == 25 * MS


def test_a_button_held_as_the_table_starts_is_a_fault_naming_its_pin_until_let_go() -> None:
    lights = Lights()
    pins = ("pin 17", "pin 27", "pin 22")
    core = TableCore(setup_game("ers", players=3, seed=1), BOUNDS, Outputs(lights=lights), button_names=pins)
    core.start(0)
    core.held_at_start(1, 10 * MS)
    assert core.faults == {"seat 1's button (pin 27)": "held down as the table started (stuck, or wired to ground?)"}
    assert lights.shown[1] == sg.PAUSED
    core.tick(30_000 * MS)
    assert len(core.faults) == 1  # said once, not again as stuck 20 s on
    core.edge(1, False, 31_000 * MS, 31_001 * MS)
    core.tick(31_030 * MS)
    assert not core.paused
    _press(core, 1, 32_000 * MS, 32_001 * MS)
    core.tick(32_200 * MS)
    assert not core.paused


def test_a_source_that_vouches_for_its_edges_has_a_slap_judged_without_waiting_out_its_bound() -> None:
    """The bridge's board says which edges are all in: the press is decided once its bounce
    window is vouched for, long before the seats' bound (here 120 ms) runs out."""
    core = TableCore(
        setup_game("ers", players=3, seed=1), {"camera": 250 * MS, "bridge": 120 * MS}, seat_source="bridge"
    )
    core.start(0)
    for code, landed in (("7H", 1_000), ("7S", 2_000)):
        t = landed * MS
        core.frame(FrameReport(t, (CardSeen(t, "camera", parse_card(code), "pile"),), vouched_to=t), t + 50 * MS)
    core.edge(0, True, 2_100 * MS, 2_102 * MS)
    core.frame(FrameReport(2_200 * MS, vouched_to=2_200 * MS), 2_103 * MS)
    assert not [d for d in core.decisions if isinstance(d, GoodSlap)]
    core.vouch(2_106 * MS, 2_108 * MS)  # every edge up to 2,106 ms is in: the press is out of its bounce window
    assert [(d.seat, d.t_ns) for d in core.decisions if isinstance(d, GoodSlap)] == [(0, 2_100 * MS)]


def test_inputs_taken_together_are_all_in_before_time_is_decided() -> None:
    """After the loop was held up, a frame that vouches far ahead and a press from before it are
    handed over together: the press is not judged too late."""
    core, _ = _core()
    _card(core, "7H", 1_000 * MS, 1_100 * MS)
    _card(core, "7S", 2_000 * MS, 2_050 * MS)
    with core.batch(2_200 * MS):
        core.frame(FrameReport(2_150 * MS, vouched_to=2_150 * MS), 2_200 * MS)
        core.edge(0, True, 2_100 * MS, 2_200 * MS)  # in the inbox all along, behind the frame
    core.tick(2_230 * MS)
    assert not [d for d in core.decisions if isinstance(d, InputTooLate)]
    assert [d.seat for d in core.decisions if isinstance(d, GoodSlap)] == [0]

"""The host driver against a fake board on a pseudo-terminal, through pyserial as on a real port."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

import pytest

from firmware_bridge import protocol as p
from firmware_bridge.host import JUMPED_PONGS, Bridge, BridgeTiming
from sim.fake_board import BoardConfig, FakeBoard
from table.buttons import ButtonLevel
from table.lights import GREEN, RED, flash, steady
from table.units import MS

pytestmark = pytest.mark.system


def wait_for(condition: Callable[[], object], timeout: float = 5.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("timed out waiting")
        time.sleep(0.005)


@pytest.fixture
def rig(tmp_path) -> Iterator[Callable[..., tuple[FakeBoard, Bridge]]]:
    made: list[tuple[FakeBoard, Bridge]] = []

    def make(config: BoardConfig | None = None, timing: BridgeTiming | None = None, **kw) -> tuple[FakeBoard, Bridge]:
        board = FakeBoard(config, folder=str(tmp_path)).start()
        bridge = Bridge(board.path, timing=timing, **kw).start()
        made.append((board, bridge))
        return board, bridge

    yield make
    for board, bridge in made:
        bridge.stop()
        board.stop()


def test_handshake_and_presses_on_the_host_clock(rig) -> None:
    board, bridge = rig(BoardConfig(offset_us=(1 << 30) - 1_500_000, drift_ppm=80))
    wait_for(lambda: bridge.status == "connected" and bridge.fit.ready)
    assert bridge.info is not None and bridge.info.firmware == "cardtable-fake 1" and bridge.info.buttons == 4
    time.sleep(2.0)  # across the board timer's wrap
    at = time.monotonic_ns()
    board.press(2, at)
    wait_for(lambda: not bridge.edges.empty())
    edge = bridge.drain()[0]
    assert edge.seat == 2 and edge.pressed
    assert abs(edge.t_ns - at) < 2 * MS  # loose: the fit's accuracy is measured in the benchmark


def test_presses_are_ordered_by_the_board_clock_not_by_arrival(rig) -> None:
    board, bridge = rig(BoardConfig(jitter_ns=300_000))
    wait_for(lambda: bridge.fit.ready)
    at = time.monotonic_ns()
    board.press(3, at + 5_000, delay_ns=0)  # pressed 5 µs later, arrives first
    board.press(1, at, delay_ns=600 * MS)  # delays far apart: a test held up between the calls
    board.press(0, at + 1_000, delay_ns=300 * MS)  # does not change the order they arrive in
    wait_for(lambda: bridge.edges.qsize() >= 3)
    edges = bridge.drain()
    assert [e.seat for e in edges] == [3, 0, 1]  # arrival order
    in_time = sorted(edges, key=lambda e: e.t_ns)
    assert [e.seat for e in in_time] == [1, 0, 3]  # in the board's order, however the fit moved between them
    # Each time is placed within the fit's bound of the truth: their gap within two bounds of 1 µs
    # (the fit moves with every pong between two presses converted 300 ms apart).
    assert in_time[1].t_ns - in_time[0].t_ns == pytest.approx(1_000, abs=2 * bridge.fit.bound_ns())


def test_light_commands_are_acknowledged_and_a_newer_one_wins(rig) -> None:
    board, bridge = rig()
    wait_for(lambda: bridge.status == "connected")
    bridge.show(1, steady(GREEN))
    bridge.show(1, flash(3, RED))
    wait_for(lambda: board.lights.get(1) is not None and board.lights[1].pattern == p.FLASH)
    wait_for(lambda: len(bridge.ack_latencies_ns) >= 1)
    assert board.lights[1].colour == (255, 0, 0) and board.lights[1].count == 3
    assert bridge.stats["lights lost"] == 0


def test_an_unacknowledged_command_is_sent_again_then_counted_lost(rig) -> None:
    board, bridge = rig(BoardConfig(ack_lights=False), BridgeTiming(ack_ns=10 * MS, retries=3))
    wait_for(lambda: bridge.status == "connected")
    bridge.show(0, steady())
    wait_for(lambda: bridge.stats["lights lost"] == 1)
    assert bridge.stats["light resends"] == 3
    # The board reads on its own thread: on a busy machine the last resends may still be in the pty.
    wait_for(lambda: sum(1 for kind, _ in board.received if kind == p.LIGHT) >= 4)
    time.sleep(0.05)  # nothing more follows a command counted lost
    assert sum(1 for kind, _ in board.received if kind == p.LIGHT) == 4


def test_lost_and_corrupted_frames_are_recovered_by_resending(rig) -> None:
    board, bridge = rig(BoardConfig(drop_rate=0.3, corrupt_rate=0.2, seed=3), BridgeTiming(ack_ns=10 * MS, retries=20))
    wait_for(lambda: bridge.status == "connected", timeout=10)
    for k in range(4):
        bridge.show(k, steady((k * 60, 0, 0)))
    wait_for(lambda: all(board.lights.get(k) and board.lights[k].colour[0] == k * 60 for k in range(4)))
    wait_for(lambda: not bridge._pending)
    assert bridge.stats["lights lost"] == 0


def test_garbage_on_the_line_is_counted_and_the_next_frames_are_read(rig) -> None:
    board, bridge = rig()
    wait_for(lambda: bridge.fit.ready)
    board.inject(b"\x17\xff\xfe line noise \x01\x02")
    board.inject(b"\x00")
    board.press(1)
    wait_for(lambda: not bridge.edges.empty())
    assert bridge.drain()[0].seat == 1
    assert sum(v for k, v in bridge.stats.items() if k.startswith("dropped")) >= 1
    assert bridge.status == "connected"


def test_unplugged_and_plugged_back_in(rig) -> None:
    board, bridge = rig(timing=BridgeTiming(reopen_ns=50 * MS))
    statuses: list[str] = []
    bridge.on_status = lambda status, problem: statuses.append(status)
    wait_for(lambda: bridge.status == "connected")
    bridge.show(2, steady(GREEN))
    wait_for(lambda: board.lights.get(2) is not None)
    board.unplug()
    wait_for(lambda: bridge.status == "disconnected")
    assert "ttyCARDTABLE" in bridge.problem
    board.lights.clear()  # a board that lost power comes back dark
    board.plug()
    wait_for(lambda: bridge.status == "connected")
    wait_for(lambda: board.lights.get(2) is not None)  # the table puts its lights back
    board.press(0)
    wait_for(lambda: not bridge.edges.empty())
    assert "disconnected" in statuses and statuses[-1] == "connected" and bridge.stats["connects"] == 2


def test_a_board_with_other_firmware_is_refused_with_advice(rig) -> None:
    _, bridge = rig(BoardConfig(protocol=9, firmware="someone-else 3"))
    wait_for(lambda: bridge.status == "wrong-firmware")
    assert "protocol 9" in bridge.problem and "someone-else 3" in bridge.problem and "flash" in bridge.problem


def test_a_second_table_on_the_same_board_is_refused_and_the_first_plays_on(rig) -> None:
    board, first = rig()
    wait_for(lambda: first.status == "connected")
    second = Bridge(board.path, timing=BridgeTiming(reopen_ns=20 * MS)).start()
    try:
        wait_for(lambda: second.status == "disconnected")
        assert (
            second.problem
            == f"cannot open {board.path}: in use by another program (a table already running on this board?)"
        )
        time.sleep(0.3)
        at = time.monotonic_ns()
        board.press(1, at)
        wait_for(lambda: not first.edges.empty())
        assert first.status == "connected" and first.drain()[0].seat == 1 and first.stats["disconnects"] == 0
    finally:
        second.stop()


def test_no_board_at_all_is_a_status_not_a_crash(tmp_path) -> None:
    bridge = Bridge(str(tmp_path / "ttyNOTHING"), timing=BridgeTiming(reopen_ns=20 * MS)).start()
    wait_for(lambda: bridge.status == "disconnected")
    assert "cannot open" in bridge.problem
    bridge.stop()


def test_buttons_map_to_seats_and_unused_buttons_are_counted(rig) -> None:
    board, bridge = rig(seat_of_button={0: 3, 1: 2})
    wait_for(lambda: bridge.fit.ready)
    board.press(1)
    board.press(3)
    wait_for(lambda: bridge.stats["edges from unused buttons"] == 1)
    assert [e.seat for e in bridge.drain()] == [2]


def test_a_re_flashed_board_is_checked_again(rig) -> None:
    board, bridge = rig(BoardConfig(protocol=9), BridgeTiming(recheck_ns=100 * MS, reopen_ns=50 * MS))
    wait_for(lambda: bridge.status == "wrong-firmware")
    board.config.protocol = p.PROTOCOL_VERSION  # flashed with this table's firmware
    board.config.firmware = "cardtable-fake 2"
    wait_for(lambda: bridge.status == "connected")
    assert bridge.info is not None and bridge.info.firmware == "cardtable-fake 2"


def test_bad_light_commands_are_refused_to_the_caller_and_the_thread_lives_on(rig) -> None:
    from table.lights import Pattern

    board, bridge = rig()
    wait_for(lambda: bridge.status == "connected")
    with pytest.raises(ValueError, match="light must be a whole number"):
        bridge.show(-1, steady())
    with pytest.raises(ValueError, match="not a light pattern"):
        bridge.show(0, "red")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="flash count 300"):
        bridge.show(0, Pattern("blink", count=300))  # a count the wire cannot carry
    bridge.show(0, steady(GREEN))
    wait_for(lambda: board.lights.get(0) is not None)
    assert bridge._thread is not None and bridge._thread.is_alive()


def test_a_timer_value_past_the_wrap_is_left_out_and_the_link_stays_up(rig, caplog) -> None:
    board, bridge = rig()
    wait_for(lambda: bridge.fit.ready)
    board.send_raw(p.EDGE, (1, 1, (1 << 30) + 5, -1))  # valid on the wire (numbered as it goes), impossible
    wait_for(lambda: bridge.stats["impossible edges"] == 1)
    assert "board button 1 (seat 1)" in caplog.text and "past its wrap" in caplog.text
    board.press(1)
    wait_for(lambda: not bridge.edges.empty())
    assert bridge.drain()[0].seat == 1 and bridge.status == "connected" and bridge.stats["connects"] == 1


def test_an_edge_300_s_ahead_is_no_phantom_press_and_the_seats_next_slaps_come(rig) -> None:
    board, bridge = rig()
    wait_for(lambda: bridge.fit.ready)
    time.sleep(0.1)
    board.send_raw(p.EDGE, (2, 1, board.board_us(time.monotonic_ns() + 300 * 10**9), -1))
    wait_for(lambda: bridge.stats["impossible edges"] == 1)
    for _ in range(5):
        board.press(2)
        time.sleep(0.01)
        board.release(2)
        time.sleep(0.01)
    wait_for(lambda: bridge.edges.qsize() >= 10)
    edges = bridge.drain()
    assert [e.pressed for e in edges] == [True, False] * 5 and bridge.stats["impossible edges"] == 1


def test_an_edge_lost_on_the_way_is_asked_for_again_and_comes_in_its_place(rig) -> None:
    board, bridge = rig(BoardConfig(drop_edges=frozenset({1})))
    wait_for(lambda: bridge.fit.ready)
    at = time.monotonic_ns()
    for k, button in enumerate((0, 1, 2)):
        board.press(button, at + k * 1_000)
        time.sleep(0.005)
    wait_for(lambda: bridge.edges.qsize() >= 3)
    assert [e.seat for e in bridge.drain()] == [0, 1, 2]  # in the board's order, the lost one in its place
    assert bridge.stats["edges asked for again"] >= 1 and board.resends >= 1
    assert bridge.stats["edges lost on the link"] == 0


def test_the_last_edge_lost_shows_in_the_heartbeat_and_is_asked_for(rig) -> None:
    board, bridge = rig(BoardConfig(drop_edges=frozenset({0})))
    wait_for(lambda: bridge.fit.ready)
    board.press(3)
    wait_for(lambda: not bridge.edges.empty(), timeout=3)  # the next heartbeat tells of it
    assert bridge.drain()[0].seat == 3 and bridge.stats["edges asked for again"] >= 1


def test_edges_the_board_no_longer_holds_are_reported_lost_and_the_rest_go_on(rig, caplog) -> None:
    board, bridge = rig(BoardConfig(drop_edges=frozenset({0, 1})))
    wait_for(lambda: bridge.fit.ready)
    board.press(0)
    board.press(1)
    wait_for(lambda: board.next_edge == 2)
    board.sent_edges.clear()  # as if a flood of edges had written over them
    board.press(2)
    wait_for(lambda: bridge.stats["edges lost on the link"] == 2)
    wait_for(lambda: not bridge.edges.empty())
    assert [e.seat for e in bridge.drain()] == [2]
    assert "2 button edges lost on the link" in caplog.text and bridge.status == "connected"
    # The heartbeats say buttons 0 and 1 are down: the table is told, to hold them as stuck until let go.
    wait_for(lambda: bridge.edges.qsize() >= 2)
    assert bridge.drain() == [
        ButtonLevel(seat, True, f"board button {seat} (seat {seat})", "an edge lost") for seat in (0, 1)
    ]
    assert bridge.stats["level mismatches"] == 2 and bridge.held() == [0, 1, 2]


def test_the_first_frame_after_line_noise_is_read(rig) -> None:
    board, bridge = rig()
    wait_for(lambda: bridge.fit.ready)
    board.inject(b"\x17\xff\xfe line noise with no end \x01\x02")  # no zero: the next frame's own ends it
    board.press(1)
    wait_for(lambda: not bridge.edges.empty())
    assert bridge.drain()[0].seat == 1 and bridge.stats["edges asked for again"] == 0


def test_a_button_down_as_the_link_starts_is_reported_held(rig) -> None:
    board, bridge = rig(BoardConfig(held=frozenset({2})))
    wait_for(lambda: not bridge.edges.empty())
    assert bridge.drain() == [ButtonLevel(2, True, "board button 2 (seat 2)")] and bridge.held() == [2]
    board.release(2)
    wait_for(lambda: not bridge.edges.empty())
    edge = bridge.drain()[0]
    assert (edge.seat, edge.pressed) == (2, False) and bridge.held() == []


def test_buttons_let_go_or_pressed_while_the_board_was_unplugged_are_told_as_it_comes_back(rig) -> None:
    """Seat 0 holds its button as the cable is pulled and lets go before it is back; seat 1
    holds on throughout; seat 2 presses while it is out. Back, the board's first heartbeat
    tells the table seat 0 is up and seat 2 down; seat 1, as the table has it, is not told again."""
    board, bridge = rig(timing=BridgeTiming(reopen_ns=50 * MS))
    wait_for(lambda: bridge.fit.ready)
    board.press(0)
    board.press(1)
    wait_for(lambda: bridge.edges.qsize() >= 2)
    bridge.drain()
    board.unplug()
    wait_for(lambda: bridge.status == "disconnected")
    board.release(0)
    board.press(2)
    board.plug()
    wait_for(lambda: bridge.status == "connected" and not bridge.edges.empty())
    time.sleep(0.2)  # the first heartbeat's every word
    assert sorted(bridge.drain(), key=lambda level: level.seat) == [
        ButtonLevel(0, False, "board button 0 (seat 0)", "let go while the link was down"),
        ButtonLevel(2, True, "board button 2 (seat 2)"),
    ]
    assert bridge.held() == [1, 2]


def test_a_board_that_restarts_behind_an_open_port_is_found_at_its_next_heartbeat(rig) -> None:
    """A board behind a USB-serial chip resets and the port stays open: its timer and its edge
    numbers start again from 0. Its next heartbeat says it has sent fewer edges than came: the
    link is made anew at once (its clock, its numbers), not after the pongs stop fitting."""
    board, bridge = rig(timing=BridgeTiming(reopen_ns=50 * MS))
    statuses: list[tuple[str, str]] = []
    bridge.on_status = lambda status, problem: statuses.append((status, problem))
    wait_for(lambda: bridge.fit.ready)
    for _ in range(3):
        board.press(1)
        board.release(1)
    wait_for(lambda: bridge.edges.qsize() >= 6)
    bridge.drain()
    with board._lock:  # the reset: the timer from 0, the edges numbered from 0, nothing on its way
        board._out.clear()
        board.next_edge = 0
        board.sent_edges.clear()
        board.config.offset_us = -(time.monotonic_ns() // 1000)
    wait_for(lambda: bridge.stats["disconnects"] == 1)
    # Found by the heartbeat: a pong already on its way may come first and be left out, but the
    # link is not dropped for pongs that stopped fitting.
    assert any("the board restarted behind an open port" in problem for _, problem in statuses)
    assert bridge.stats["impossible pongs"] < JUMPED_PONGS
    wait_for(lambda: bridge.status == "connected" and bridge.fit.ready)
    board.press(2)
    wait_for(lambda: not bridge.edges.empty())
    assert [(e.seat, e.pressed) for e in bridge.drain()] == [(2, True)]


def test_a_version_the_host_did_not_ask_for_changes_nothing(rig) -> None:
    board, bridge = rig()
    wait_for(lambda: bridge.fit.ready)
    info = bridge.info
    board.send_raw(p.VERSION, (1, 30, 4, 4), "cardtable-old 0.9")
    wait_for(lambda: bridge.stats["unexpected messages"] == 1)
    assert bridge.info == info and bridge.status == "connected"


def test_an_impossible_pong_is_left_out_of_the_fit(rig) -> None:
    board, bridge = rig()
    wait_for(lambda: bridge.fit.ready)
    bridge._pings[999] = time.monotonic_ns()
    board.send_raw(p.PONG, (999, 5, 5 + 400_000))  # held 400 ms on the board by its own timer
    wait_for(lambda: bridge.stats["impossible pongs"] == 1)
    assert bridge.status == "connected"


def test_the_sync_bound_is_published_and_holds_with_a_slow_board_and_uneven_trips(rig) -> None:
    config = BoardConfig(drift_ppm=90, jitter_ns=200_000, jitter_back_ns=1_500_000, board_ns=(300_000, 1_200_000))
    board, bridge = rig(config)
    wait_for(lambda: bridge.fit.ready)
    time.sleep(2.5)
    bound = bridge.sync_bound_ns
    assert bound is not None and bound < 5 * MS
    misses = []
    for _ in range(20):
        at = time.monotonic_ns()
        board.press(0, at)
        wait_for(lambda: not bridge.edges.empty())
        error = abs(bridge.drain()[0].t_ns - at)
        if error > bridge.sync_bound_ns:
            misses.append(error)
        board.release(0)
        wait_for(lambda: not bridge.edges.empty())
        bridge.drain()
    assert not misses


def test_the_board_vouches_for_its_edges_every_10_ms_and_never_past_one_still_on_its_way(rig) -> None:
    vouched: list[tuple[int, bool]] = []  # each word, and whether the edge on its way had come by then
    board, bridge = rig()
    bridge.on_vouch = lambda t_ns: vouched.append((t_ns, not bridge.edges.empty()))
    wait_for(lambda: bridge.fit.ready)
    wait_for(lambda: len(vouched) > 15)
    assert [t for t, _ in vouched] == sorted(t for t, _ in vouched)
    at = time.monotonic_ns()
    first = len(vouched)
    board.press(1, at, delay_ns=40 * MS)  # held 40 ms on its way
    wait_for(lambda: not bridge.edges.empty())
    wait_for(lambda: vouched[-1][0] > at)
    before = [t for t, come in vouched[first:] if not come]
    assert all(t < at for t in before)  # never past the press while it was on its way

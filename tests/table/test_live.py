"""The live table (``table.live``, ``cardtable run``): real vision on rendered frames, gpiozero's mock
pins for buttons and lights, a real journal, faults that pause the game."""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import cv2
import pytest
from gpiozero.pins.mock import MockFactory

from sim.mock_gpio import MOCK_PINS_ENV, press, release, timed_mock_factory
from table import signals as sg
from table.config import ConfigError, load_config
from table.live import LiveTable
from tests.live_tables import MOCK_PINS, ROOT, journal_lines, rendered_table, run_table, wait_until

pytestmark = pytest.mark.slow


def test_cardtable_run_reads_the_card_on_the_pile_and_journals_it(tmp_path: Path) -> None:
    config = rendered_table(tmp_path)
    done = run_table(config, 5)
    assert done.returncode == 0, done.stderr
    lines = journal_lines(tmp_path)
    assert lines[0]["game"] == "ers" and lines[0]["players"] == 4
    assert [(e["type"], e.get("card"), e.get("zone")) for e in lines[1:]] == [("card-seen", "QH", "pile")]
    assert "Bob plays  QH" in done.stdout
    assert f"the recording folder:{tmp_path / 'frames'} has ended; the game is paused" in done.stderr
    assert (
        "12 frames (" in done.stderr
        and " 0 failed, 0 showing no scene)" in done.stderr
        and "could not take" not in done.stderr
    )


def test_cardtable_run_check_says_what_the_configuration_sets_up(tmp_path: Path) -> None:
    config = rendered_table(tmp_path, frames=1)
    command = [sys.executable, "-m", "table.cli", "run", "--config", str(config), "--check"]
    for fps, status, says in ((5, 0, "ers (standard) for 4 seats (Ann, Bob, Cyd, Dee) on gpio"), (0, 2, "fps: 0 must")):
        config.write_text(config.read_text(encoding="utf-8").replace("fps = 5", f"fps = {fps}"), encoding="utf-8")
        done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=60, env=MOCK_PINS)
        assert done.returncode == status and says in done.stdout + done.stderr


def test_a_slap_on_the_mock_pins_is_journaled_and_the_lights_follow(tmp_path: Path) -> None:
    """In process, on gpiozero's mock pins: the table lights seat 1 (who leads), a press on seat
    2's pin is a journaled slap, and the recording's end pauses the table on every light."""
    config = load_config(rendered_table(tmp_path, frames=15, card_from=20))  # no card: nothing to slap
    factory = timed_mock_factory()
    table = LiveTable(config, pin_factory=factory)
    runner = threading.Thread(target=table.run, kwargs={"max_seconds": 20})
    runner.start()
    try:
        wait_until(lambda: table.games and table.games[0].signals.patterns(time.monotonic_ns())[1] == sg.TURN)
        wait_until(lambda: factory.pin(6).state > 0)  # the lights are driven later in the same tick
        assert factory.pin(5).state == 0  # seat 1's light on, seat 0's off
        now = time.monotonic()
        press(factory, 22, now)  # seat 2's button
        release(factory, 22, now + 0.08)
        wait_until(lambda: any(d.KIND == "bad-slap" for d in table.games[0].decisions))
        wait_until(lambda: table.games[0].paused)  # the 15 frames at 5 a second have played
        assert set(table.games[0].signals.patterns(time.monotonic_ns())) == {sg.PAUSED}
    finally:
        table.stop()
        runner.join(timeout=10)
    assert not runner.is_alive()
    presses = [e for e in journal_lines(tmp_path)[1:] if e["type"] == "press"]
    assert [(e["seat"], e["source"]) for e in presses] == [(2, "gpio")] and table.stats.errors == 0


def test_a_table_killed_mid_game_resumes_from_its_journal_with_nothing_lost_or_played_twice(tmp_path: Path) -> None:
    config = rendered_table(tmp_path, frames=25, card_from=3, second_from=15)  # the 7C lands 2.4 s after the QH
    env = {**os.environ, **MOCK_PINS_ENV}
    command = [sys.executable, "-m", "table.cli", "run", "--config", str(config), "--quiet"]
    first = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_until(
            lambda: (
                (tmp_path / "journal").is_dir()
                and any('"QH"' in p.read_text() for p in (tmp_path / "journal").glob("*.jsonl"))
            ),
            30,
        )
    finally:
        first.kill()  # SIGKILL: no clean stop, as a power cut or kill -9
        first.wait()
    assert [e.get("card") for e in journal_lines(tmp_path)[1:]] == ["QH"]
    done = subprocess.run(
        [*command, "--max-seconds", "8"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert "resuming the game in" in done.stderr and "QH on the pile lay there before the restart" in done.stderr
    lines = journal_lines(tmp_path)  # still the one journal, the game going on in it
    assert [(e["type"], e.get("card")) for e in lines[1:]] == [("card-seen", "QH"), ("card-seen", "7C")]


def test_cardtable_run_goes_on_from_a_journal_with_a_line_of_the_wrong_type_and_keeps_it_aside(tmp_path: Path) -> None:
    """A line that is valid JSON, checksummed right, of the wrong type (as a bug would write it):
    the table goes on from the lines before it, says so, and keeps the damaged journal."""
    from table.cards import parse_card
    from table.events import CardSeen
    from table.journal import JournalWriter
    from tests.journal_helpers import append_as_written

    config = rendered_table(tmp_path, frames=10, card_from=999)
    folder = tmp_path / "journal"
    folder.mkdir()
    path = folder / "20261203-080000-ers-1.jsonl"
    with JournalWriter(path, load_config(config).setup(5), fsync=False, start_ns=1, number=1) as writer:
        writer.record(CardSeen(2, "camera", parse_card("9S"), "pile"))
    append_as_written(path, {"t": 3, "type": []}, {"t": 4, "type": "press", "seat": 1})
    done = run_table(config, 3)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    assert "ers-1.jsonl:3: unknown event type []" in done.stderr
    assert "the game goes on from the 1 inputs before it" in done.stderr and "resuming the game in" in done.stderr
    assert (folder / (path.name + ".damaged")).exists()
    assert [e.get("card") for e in journal_lines(tmp_path)[1:]] == ["9S"]


def test_on_the_bridge_a_press_is_journaled_and_an_unplugged_board_pauses_until_it_is_back(
    tmp_path: Path, caplog
) -> None:
    """The seats on the fake microcontroller over a pseudo-terminal, speaking the real protocol;
    a board unplugged is said once (not again at each try to open its port), and once back."""
    from firmware_bridge import protocol
    from sim.fake_board import FakeBoard

    def lit(seat: int) -> bool:  # the seat's light shows steady white: the referee waits on it
        state = board.lights.get(seat)
        return state is not None and (state.pattern, state.colour) == (protocol.STEADY, sg.TURN.colour)

    board = FakeBoard(folder=str(tmp_path)).start()
    path = rendered_table(tmp_path, frames=75, card_from=99)  # 15 s of an empty table
    text = "\n".join(line for line in path.read_text().splitlines() if not line.startswith(("buttons =", "lights =")))
    path.write_text(text.replace('backend = "gpio"', f'backend = "bridge"\nport = "{board.path}"'), encoding="utf-8")
    table = LiveTable(load_config(path))
    runner = threading.Thread(target=table.run, kwargs={"max_seconds": 30})
    runner.start()
    try:
        wait_until(lambda: lit(1))
        board.press(2)
        board.release(2, time.monotonic_ns() + 80_000_000)
        wait_until(lambda: any(d.KIND == "bad-slap" for d in table.games[0].decisions))
        board.unplug()
        wait_until(lambda: table.games[0].paused)
        assert "is its USB cable in?" in table.games[0].faults["seat board"]  # what to check
        board.lights.clear()  # a board that lost power comes back dark
        time.sleep(0.5)  # tries to open the port that is not there
        board.plug()
        wait_until(lambda: "seat board" not in table.games[0].faults)
        wait_until(lambda: lit(1))  # its lights put back
        said = [
            r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING and "disconnected" in r.getMessage()
        ]
        assert len(said) == 1 and said[0].startswith("seat board: disconnected")  # once, by the table
    finally:
        table.stop()
        runner.join(timeout=10)
        board.stop()
    presses = [e for e in journal_lines(tmp_path)[1:] if e["type"] == "press"]
    assert [(e["seat"], e["source"]) for e in presses] == [(2, "bridge")] and table.stats.errors == 0


def test_the_command_line_changes_the_game_the_preset_and_the_names(tmp_path: Path) -> None:
    config = rendered_table(tmp_path, frames=1)
    command = [sys.executable, "-m", "table.cli", "run", "--config", str(config), "--check"]
    done = subprocess.run(
        [*command, "--game", "cuckoo", "--names", "Al, Bo,Cy,Di"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        env=MOCK_PINS,
    )
    assert done.returncode == 0 and "cuckoo (its standard preset) for 4 seats (Al, Bo, Cy, Di)" in done.stdout
    done = subprocess.run(
        [*command, "--rules", "screw"], cwd=ROOT, capture_output=True, text=True, timeout=60, env=MOCK_PINS
    )
    assert done.returncode == 0 and "ers (screw) for 4 seats" in done.stdout
    done = subprocess.run(
        [*command, "--names", "Al,Bo,Cy"], cwd=ROOT, capture_output=True, text=True, timeout=60, env=MOCK_PINS
    )
    assert done.returncode == 0 and "for 3 seats (Al, Bo, Cy) on gpio (seat 3 dark)" in done.stdout, done.stderr
    done = subprocess.run(
        [*command, "--names", "A,B,C,D,E"], cwd=ROOT, capture_output=True, text=True, timeout=60, env=MOCK_PINS
    )
    assert done.returncode == 2 and "[seats] buttons: 4 pins for 5 seats" in done.stderr


def test_a_camera_that_opens_only_later_pauses_the_game_until_it_does(tmp_path: Path) -> None:
    config = load_config(rendered_table(tmp_path, frames=40, card_from=99))  # 8 s of an empty table
    (tmp_path / "frames").rename(tmp_path / "away")  # unplugged when the table starts
    table = LiveTable(config, pin_factory=timed_mock_factory())
    runner = threading.Thread(target=table.run, kwargs={"max_seconds": 20})
    runner.start()
    try:
        wait_until(lambda: table.games and table.games[0].paused)
        assert "does not exist" in table.games[0].faults["camera"]
        (tmp_path / "away").rename(tmp_path / "frames")  # plugged in: the reader's next try opens it
        wait_until(lambda: table.camera.frames > 0 and not table.games[0].paused)  # frames again: the game goes on
    finally:
        table.stop()
        runner.join(timeout=10)
    assert table.stats.errors == 0


def test_a_covered_lens_pauses_the_game_saying_so_and_takes_no_card_away(tmp_path: Path) -> None:
    """Two seconds of black frames (a hand over the lens is shorter than ``lost_after_s``, a cap
    is not): the game pauses naming what the camera shows, the black frames are not read (the
    card on the pile is not taken away by them), and the first frame of the table again goes on."""
    path = rendered_table(tmp_path, frames=40, card_from=2)
    path.write_text(
        path.read_text(encoding="utf-8").replace("lost_after_s = 3 ", "lost_after_s = 1 "), encoding="utf-8"
    )
    config = load_config(path)
    black = cv2.imread(str(tmp_path / "frames" / "frame-000.png")) * 0
    for i in range(10, 25):
        cv2.imwrite(str(tmp_path / "frames" / f"frame-{i:03d}.png"), black)
    table = LiveTable(config, pin_factory=timed_mock_factory())
    runner = threading.Thread(target=table.run, kwargs={"max_seconds": 20})
    runner.start()
    try:
        wait_until(lambda: table.games and "camera" in table.games[0].faults)
        assert "shows black: the lens is covered or the room is dark" in table.games[0].faults["camera"]
        wait_until(lambda: "camera" not in table.games[0].faults)  # the table again: the game goes on
    finally:
        table.stop()
        runner.join(timeout=10)
    assert table.stats.errors == 0 and table.camera.skipped_frames == 15
    seen = [e["type"] for e in journal_lines(tmp_path)[1:]]
    assert seen == ["card-seen"]  # the queen, once: nothing taken away while the lens was covered


class SteeredCamera:
    """A camera showing a still picture whose reads raise while ``failing`` is set (a driver's
    error, a cable pulled half out), and whose frames are 640x480 while ``small`` is (a webcam
    that did not take the size asked), as ``vision.frames.open_source`` would open it."""

    def __init__(self, picture: Path) -> None:
        self.picture, self.failing, self.small, self.opened = picture, False, False, 0

    def open(self, spec: str, **kw) -> object:
        from vision.frames import StillFileSource

        self.opened += 1
        source = StillFileSource(self.picture, kw.get("fps") or 5)
        real_read = source.read

        def read():
            if self.failing:
                time.sleep(0.05)
                raise OSError(19, "No such device")
            frame = real_read()
            if frame is not None and self.small:
                frame = dataclasses.replace(frame, image=cv2.resize(frame.image, (640, 480)))
            return frame

        source.read = read  # type: ignore[method-assign]
        return source


@contextlib.contextmanager
def steered_table(tmp_path: Path, monkeypatch) -> Iterator[tuple[LiveTable, SteeredCamera]]:
    """A live table on a steered camera, run until the block ends, its first frame read."""
    import vision.frames

    config = load_config(rendered_table(tmp_path, frames=1, card_from=9))
    camera = SteeredCamera(tmp_path / "frames" / "frame-000.png")
    monkeypatch.setattr(vision.frames, "open_source", camera.open)
    table = LiveTable(config, pin_factory=timed_mock_factory())
    runner = threading.Thread(target=table.run, kwargs={"max_seconds": 30})
    runner.start()
    try:
        wait_until(lambda: table.camera.frames > 0)
        yield table, camera
    finally:
        table.stop()
        runner.join(timeout=10)


def test_a_camera_whose_reads_fail_pauses_the_game_once_and_goes_on_when_frames_come_again(
    tmp_path: Path, monkeypatch, caplog
) -> None:
    with steered_table(tmp_path, monkeypatch) as (table, camera):
        camera.failing = True
        wait_until(lambda: table.games[0].paused and camera.opened >= 3)  # named, and opened again and again
        assert "stopped delivering frames: [Errno 19] No such device" in table.games[0].faults["camera"]
        camera.failing = False
        wait_until(lambda: "camera" not in table.games[0].faults)  # frames again: the game goes on
    assert table.camera.is_alive() is False and table.stats.errors == 0
    assert sum("stopped delivering frames" in r.getMessage() for r in caplog.records) == 1  # said once


def test_frames_that_cannot_be_read_one_after_another_pause_the_game_with_one_traceback(
    tmp_path: Path, monkeypatch, caplog
) -> None:
    from table.frame_reports import FrameReader

    failing = threading.Event()
    real_report = FrameReader.report

    def report(self, image, t_ns, *args):
        if failing.is_set():
            raise ValueError("operands could not be broadcast together")
        return real_report(self, image, t_ns, *args)

    monkeypatch.setattr(FrameReader, "report", report)
    with steered_table(tmp_path, monkeypatch) as (table, _):
        failing.set()
        wait_until(lambda: table.games[0].paused and table.camera.failed_frames >= 6)
        assert "cannot be read (ValueError: operands" in table.games[0].faults["camera"]
        failing.clear()
        wait_until(lambda: "camera" not in table.games[0].faults)
    assert sum(r.exc_info is not None for r in caplog.records) == 1  # one traceback, not one a frame


def test_frames_of_another_size_than_the_calibration_s_pause_the_game_and_are_not_read(
    tmp_path: Path, monkeypatch
) -> None:
    with steered_table(tmp_path, monkeypatch) as (table, camera):
        camera.small = True
        wait_until(lambda: table.games[0].paused)
        assert "delivers 640x480 frames; the table was calibrated at 800x600" in table.games[0].faults["camera"]
        read = table.camera.frames
        time.sleep(0.5)
        assert table.camera.frames == read  # not read: its zones would be wrong
        camera.small = False
        wait_until(lambda: "camera" not in table.games[0].faults)
    assert table.stats.errors == 0


def test_a_journal_folder_that_cannot_be_made_stops_the_table_naming_it(tmp_path: Path) -> None:
    """The configuration's check passes a folder whose every part above it is a folder, but the
    system may still refuse to make it (``/proc``): the table does not play keeping no record."""
    path = rendered_table(tmp_path, frames=1, card_from=9)
    path.write_text(path.read_text().replace('folder = "journal"', 'folder = "/proc/cardtable-journal"'))
    table = LiveTable(load_config(path), pin_factory=timed_mock_factory())
    with pytest.raises(ConfigError) as caught:
        table.run(max_seconds=5)
    assert str(caught.value).startswith(f"{path}: [journal] folder: /proc/cardtable-journal cannot be made")


def test_a_button_held_as_the_table_starts_pauses_the_game_naming_its_seat_and_pin(tmp_path: Path, caplog) -> None:
    config = load_config(rendered_table(tmp_path, frames=15, card_from=20))
    factory = timed_mock_factory()
    table = LiveTable(config, pin_factory=factory)
    factory.pin(27).drive_low()  # seat 1's button (pin 27) held, or wired to ground, as the table starts
    runner = threading.Thread(target=table.run, kwargs={"max_seconds": 20})
    runner.start()
    try:
        wait_until(lambda: table.games and table.games[0].paused)
        assert table.games[0].faults == {
            "seat 1's button (pin 27)": "held down as the table started (stuck, or wired to ground?)"
        }
        assert "seat 1's button (pin 27) is down as the game starts" in caplog.text
        release(factory, 27, time.monotonic())  # let go: the game goes on
        wait_until(lambda: "seat 1's button (pin 27)" not in table.games[0].faults)
    finally:
        table.stop()
        runner.join(timeout=10)
    assert table.stats.errors == 0 and table.metrics()["buttons down as a game started"] == 1


def test_a_press_whose_edge_never_came_is_found_by_the_pins_level(tmp_path: Path, caplog) -> None:
    """A pin's callback missed (an edge lost under load): the table holds the pins' levels against
    the edges once a second, and a button down with no press seen is a fault naming its pin, as
    at the start; let go, the game goes on."""
    with _playing(tmp_path) as (table, factory):
        pin = factory.pin(22)  # seat 2's button
        pin._state = False  # down, and the callback never told: the edge is lost
        wait_until(lambda: "seat 2's button (pin 22)" in table.games[0].faults)
        assert "is down where no press was seen (an edge lost)" in caplog.text
        release(factory, 22, time.monotonic())
        wait_until(lambda: "seat 2's button (pin 22)" not in table.games[0].faults)
    assert table.metrics()["edges found lost by a button's level"] == 1 and table.stats.errors == 0


@contextlib.contextmanager
def _playing(tmp_path: Path) -> Iterator[tuple[LiveTable, MockFactory]]:
    """A table on mock pins and 6 s of an empty table's frames, playing until the block ends."""
    factory = timed_mock_factory()
    table = LiveTable(load_config(rendered_table(tmp_path, frames=30, card_from=99)), pin_factory=factory)
    runner = threading.Thread(target=table.run, kwargs={"max_seconds": 20})
    runner.start()
    try:
        wait_until(lambda: table.games and not table.games[0].paused)
        yield table, factory
    finally:
        table.stop()
        runner.join(timeout=10)


def test_a_release_whose_edge_never_came_lets_the_button_go_with_nothing_decided_from_it(tmp_path: Path) -> None:
    with _playing(tmp_path) as (table, factory):
        press(factory, 22, time.monotonic())  # seat 2 presses, and the table hears it
        wait_until(lambda: table.games[0].gestures.seats[2].state)
        factory.pin(22)._state = True  # ... lets go, and the callback never told
        wait_until(lambda: not table.games[0].gestures.seats[2].state)
        time.sleep(0.5)
        assert not table.games[0].paused  # no fault: the button is up, as it should be
    assert table.metrics()["edges found lost by a button's level"] == 1 and table.stats.errors == 0

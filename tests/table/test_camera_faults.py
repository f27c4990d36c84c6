"""The camera reader's faults: each kind told once as it begins and ends, and one kind's end never
taking back another still on; a recording's damaged frame left out in a line."""

from __future__ import annotations

import logging
import queue
import threading
import time
from pathlib import Path

import numpy as np
import pytest

import vision.frames
from table.camera_reader import CameraFaults, CameraReader
from table.config import load_config
from table.faults import Fault
from tests.live_tables import rendered_table, wait_until
from vision.frames import BaseSource, Frame


def _told(inbox: queue.SimpleQueue) -> list[str | None]:
    out = []
    while not inbox.empty():
        item = inbox.get()
        if isinstance(item, Fault):
            out.append(item.problem)
    return out


def test_one_problem_ending_leaves_another_still_on_told() -> None:
    inbox: queue.SimpleQueue = queue.SimpleQueue()
    faults = CameraFaults(inbox)
    faults.set("size", "640x480 frames")
    faults.set("size", "640x480 frames")  # going on: said once
    faults.set("lost", "no frame for 3 s")  # the first still on is what the players are told
    assert _told(inbox) == ["640x480 frames"]
    assert faults.set("lost", None) and _told(inbox) == []  # the size is still wrong: nothing taken back
    assert faults.set("size", None) and _told(inbox) == [None]
    faults.set("lost", "no frame for 3 s")
    faults.set("size", "640x480 frames")
    faults.set("lost", None)  # the camera is back, its frames still the wrong size: that is said now
    assert _told(inbox) == ["no frame for 3 s", "640x480 frames"]
    assert not faults.set("view", None) and _told(inbox) == []


class _Scripted(BaseSource):
    """A camera whose frames are all 640x480 (the table was calibrated at 800x600), lost for a spell."""

    name = "usb:scripted"

    def __init__(self) -> None:
        self.started, self.index = time.monotonic(), 0

    @property
    def lost(self) -> bool:
        return 0.6 <= time.monotonic() - self.started < 1.4

    def read(self) -> Frame | None:
        time.sleep(0.05)
        self.index += 1
        return None if self.lost else Frame(np.full((480, 640, 3), 128, np.uint8), time.monotonic_ns(), self.index)


def test_a_camera_lost_and_back_with_frames_of_the_wrong_size_keeps_the_game_paused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(vision.frames, "open_source", lambda *args, **kwargs: _Scripted())
    inbox: queue.SimpleQueue = queue.SimpleQueue()
    stop = threading.Event()
    reader = CameraReader(load_config(rendered_table(tmp_path, frames=1)), inbox, stop)
    reader.start()
    try:
        wait_until(lambda: reader.skipped_frames >= 24, 30)  # a dozen before the spell, a dozen after
        told = _told(inbox)
    finally:
        stop.set()
        reader.join(10)
    assert len(told) == 1 and "delivers 640x480 frames" in str(told[0]), told  # said once, never taken back


def test_a_recordings_damaged_frame_is_left_out_in_a_line_and_the_rest_are_read(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    config = load_config(rendered_table(tmp_path, frames=8, card_from=20))
    shots = sorted((tmp_path / "frames").iterdir())
    shots[3].write_bytes(shots[3].read_bytes()[:200])  # cut short, as a copy stopped half way
    inbox: queue.SimpleQueue = queue.SimpleQueue()
    stop = threading.Event()
    reader = CameraReader(config, inbox, stop)
    caplog.set_level(logging.INFO)
    reader.start()
    try:
        wait_until(lambda: not reader.is_alive(), 30)  # the recording played to its end
    finally:
        stop.set()
        reader.join(10)
    assert reader.frames == 7  # every frame but the damaged one
    said = [r for r in caplog.records if "left out" in r.getMessage()]
    assert len(said) == 1 and shots[3].name in said[0].getMessage() and said[0].exc_info is None
    assert not [r for r in caplog.records if r.exc_info], "no traceback"
    assert _told(inbox)[-1] == f"the recording folder:{tmp_path / 'frames'} has ended"

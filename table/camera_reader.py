"""The camera's side of the live table: a thread that reads frames, finds and reads their cards,
tracks them into events, and queues one report a frame for the loop; a camera that will not open
or stops delivering is a fault, and the thread keeps trying."""

from __future__ import annotations

import dataclasses
import logging
import queue
import threading
import time
from typing import TYPE_CHECKING, Any

import numpy as np

from table.config import TableConfig
from table.controller import CAMERA
from table.faults import Fault
from table.units import MS

if TYPE_CHECKING:  # the vision code loads in the camera thread, not when the table starts
    from table.frame_reports import FrameReader

log = logging.getLogger("cardtable")

CAMERA_RETRY_S = 2.0  # between attempts to open a camera that would not open, or stopped
FAILED_FRAMES_FAULT = 3  # frames in a row that cannot be read: a fault, not a frame left out
MOST_HOLES = 1_000  # a recording's frames in a row whose files cannot be read: it cannot go on


class CameraFaults:
    """The camera's problems at once, by kind (it would not open, stopped, lost, frames of
    another size, frames that cannot be read, a view that shows no card): the loop is told the
    first still on whenever that changes, and that none is once none is. One problem's end does
    not take back another still on."""

    def __init__(self, inbox: queue.SimpleQueue[Any]) -> None:
        self.inbox = inbox
        self.on: dict[str, str] = {}
        self.told: str | None = None

    def set(self, kind: str, problem: str | None) -> bool:
        """The problem of that kind now (None: it is over); whether one was on before."""
        was = kind in self.on
        if problem is None:
            self.on.pop(kind, None)
        elif not was:
            self.on[kind] = problem  # (a problem going on is said once, as it began)
        self._tell()
        return was

    def only(self, problem: str) -> None:
        """The one problem there is now, whatever else was on (the camera will not go on)."""
        self.on = {"last": problem}
        self._tell()

    def _tell(self) -> None:
        first = next(iter(self.on.values()), None)
        if first != self.told:
            self.told = first
            self.inbox.put(Fault(CAMERA, first))


class CameraReader(threading.Thread):
    """Reads frames, finds and reads their cards, tracks them into events, and puts one
    ``FrameReport`` a frame in the inbox. A recording (a folder or a video) plays at its own pace."""

    def __init__(self, config: TableConfig, inbox: queue.SimpleQueue[Any], stop: threading.Event) -> None:
        super().__init__(name="camera", daemon=True)
        self.config, self.inbox, self.stop_event = config, inbox, stop
        self.frames = 0
        self.read_frames = 0  # of them, those read (the others were like the last one read: ``vision.gate``)
        self.failed_frames = 0
        self.skipped_frames = 0  # frames that could show no card (black, white, without colour): not read
        self.cpu_ns = 0  # the reader's own CPU time (identify and track), for the loop's CPU share
        # Set once the networks have loaded and the camera was first tried (opened, or its fault
        # told): the table is ready then, not before (systemd's READY=1).
        self.ready = threading.Event()
        self.first_try = ""  # what that first try found, in a few words
        self.faults = CameraFaults(inbox)
        self.calibrated_size: tuple[int, int] | None = None  # the frames' size the calibration was made at

    def run(self) -> None:
        from vision.frames import FrameSourceError

        try:
            self._run()
            return
        except FrameSourceError as exc:  # a recording that cannot go on: said in a line
            log.error("the camera reader stopped: %s", exc)
            why = exc
        except Exception as exc:  # a fault of the reader's own: its traceback, for whoever mends it
            log.exception("the camera reader stopped")
            why = exc
        self._tried(f"the camera reader stopped: {why}")  # the game pauses, and says why
        self.faults.only(f"the camera reader stopped: {why}")

    def _tried(self, found: str) -> None:
        if not self.ready.is_set():
            self.first_try = found
            self.ready.set()

    def _run(self) -> None:
        from vision.cores import use_one_core
        from vision.frames import FrameSourceError, open_source

        use_one_core()
        reader = self._reader()
        camera = self.config.camera
        reader.read(np.full((camera.height, camera.width, 3), 128, np.uint8))  # the networks load now, not on frame 1
        while not self.stop_event.is_set():
            try:
                source = open_source(
                    camera.source,
                    width=camera.width,
                    height=camera.height,
                    fps=camera.fps,
                    lost_after_s=camera.lost_after_s,
                )
            except FrameSourceError as exc:
                self._tried(f"camera: {exc}")
                self.faults.set("open", str(exc))
                self.stop_event.wait(CAMERA_RETRY_S)
                continue
            self._tried(f"camera {camera.source} open")
            self.faults.set("open", None)  # (one that stopped delivering is broken until a frame comes)
            with source:
                self._frames(source, reader)
            if source.ended:
                self.faults.only(f"the recording {camera.source} has ended")
                return

    def _reader(self) -> FrameReader:
        from table.frame_reports import frame_reader
        from vision.calibration import Calibration
        from vision.profile import load_deck

        camera = self.config.camera
        deck = load_deck(self.config.resolve(camera.deck)) if camera.deck else None
        calibration = Calibration.load(self.config.resolve(camera.calibration))
        self.calibrated_size = calibration.image_size
        return frame_reader(
            calibration, self.config.zones, deck, camera.threshold, camera.confirm_frames, camera.lateness_ms * MS
        )

    def _frames(self, source: Any, reader: FrameReader) -> None:
        from vision.frame_check import ProblemWatch
        from vision.frames import FrameSourceError

        faults = self.faults
        failed = 0  # frames in a row that could not be read
        holes = 0  # a recording's frames in a row that could not be read from their files
        watch = ProblemWatch(round(self.config.camera.lost_after_s * 1e9))
        while not self.stop_event.is_set():
            try:
                frame = source.read()
            except FrameSourceError as exc:
                if not getattr(source, "recording", False) or holes >= MOST_HOLES:
                    raise
                holes += 1  # a recording's damaged or missing frame: left out, as a camera's dropped one
                if holes == 1:
                    log.warning("%s; left out", exc)
                if holes == FAILED_FRAMES_FAULT:
                    faults.set("unreadable", f"frames of {source.name} cannot be read: {exc}")
                continue
            except Exception as exc:  # the driver's error: said once, and the camera opened again
                if getattr(source, "recording", False):
                    raise  # a recording that cannot go on stops there: opened again, it would start again
                faults.set("broken", f"{source.name} stopped delivering frames: {exc}")  # (the loop names it)
                self.stop_event.wait(CAMERA_RETRY_S)
                return
            if frame is None:
                if source.ended:
                    return
                if source.lost:
                    faults.set("lost", f"no frame from {source.name} for {self.config.camera.lost_after_s:g} s")
                continue
            holes = 0
            faults.set("broken", None)
            faults.set("lost", None)
            height, width = frame.image.shape[:2]
            if self.calibrated_size not in (None, (width, height)):  # its pixels would land in the wrong zones
                w, h = self.calibrated_size  # type: ignore[misc]
                why = f"{source.name} delivers {width}x{height} frames; the table was calibrated at {w}x{h}"
                faults.set("size", f"{why}: set [camera] width and height, or calibrate again")
                self.skipped_frames += 1
                continue
            faults.set("size", None)
            _, problem = watch.see(frame.image, frame.t_ns)
            faults.set("view", None if problem is None else f"{source.name} shows {problem}")
            if problem is not None or watch.since is not None:
                self.skipped_frames += 1
                continue  # a frame that can show no card says nothing of the table: a covered lens takes no pile away
            wait = frame.t_ns - time.monotonic_ns()
            if wait > 0:  # a recording: its frames at their recorded pace
                self.stop_event.wait(wait / 1e9)
            started = time.thread_time_ns()
            try:
                report = reader.report(frame.image, frame.t_ns)
            except Exception as exc:  # one bad frame must not stop the table: left out; many are a fault
                self.failed_frames += 1
                failed += 1
                if failed == 1:
                    log.exception("frame %d from %s could not be read; left out", frame.index, source.name)
                if failed == FAILED_FRAMES_FAULT:
                    faults.set("unreadable", f"frames from {source.name} cannot be read ({type(exc).__name__}: {exc})")
                continue
            if failed:
                log.info("frames from %s read again after %d that could not be", source.name, failed)
                failed = 0
            faults.set("unreadable", None)
            self.cpu_ns += time.thread_time_ns() - started
            self.frames += 1
            self.read_frames = reader.read_frames
            self.inbox.put(dataclasses.replace(report, reported_ns=time.monotonic_ns()))

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


class _ToldOnce:
    """One of the camera's faults, told to the loop once as it begins and once as it ends."""

    def __init__(self, inbox: queue.SimpleQueue[Any]) -> None:
        self.inbox, self.on = inbox, False

    def begins(self, problem: str) -> None:
        if not self.on:
            self.on = True
            self.inbox.put(Fault(CAMERA, problem))

    def ends(self) -> bool:
        """The fault is over (told if it was on); whether it was."""
        was, self.on = self.on, False
        if was:
            self.inbox.put(Fault(CAMERA, None))
        return was


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
        self.broken = _ToldOnce(inbox)  # the camera raised an error reading: a fault until a frame comes again
        self.calibrated_size: tuple[int, int] | None = None  # the frames' size the calibration was made at

    def run(self) -> None:
        try:
            self._run()
        except Exception as exc:  # the reader itself failed: the game pauses, and says why
            log.exception("the camera reader stopped")
            self._tried(f"the camera reader stopped: {exc}")
            self.inbox.put(Fault(CAMERA, f"the camera reader stopped: {exc}"))

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
                self.inbox.put(Fault(CAMERA, str(exc)))
                self.stop_event.wait(CAMERA_RETRY_S)
                continue
            self._tried(f"camera {camera.source} open")
            if not self.broken.on:  # opened: whatever kept it from opening is over (a broken one: once it delivers)
                self.inbox.put(Fault(CAMERA, None))
            with source:
                self._frames(source, reader)
            if source.ended:
                self.inbox.put(Fault(CAMERA, f"the recording {camera.source} has ended"))
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

        lost, wrong_size, unreadable = _ToldOnce(self.inbox), _ToldOnce(self.inbox), _ToldOnce(self.inbox)
        failed = 0  # frames in a row that could not be read
        watch = ProblemWatch(round(self.config.camera.lost_after_s * 1e9))
        while not self.stop_event.is_set():
            try:
                frame = source.read()
            except Exception as exc:  # the driver's error: said once, and the camera opened again
                if getattr(source, "recording", False):
                    raise  # a recording with a hole in it stops there: opened again, it would start again
                self.broken.begins(f"{source.name} stopped delivering frames: {exc}")  # (the loop names it)
                self.stop_event.wait(CAMERA_RETRY_S)
                return
            if frame is None:
                if source.ended:
                    return
                if source.lost:
                    lost.begins(f"no frame from {source.name} for {self.config.camera.lost_after_s:g} s")
                continue
            self.broken.ends()
            if lost.ends():
                watch = ProblemWatch(watch.after_ns)  # the fault is taken back: a lasting problem is said again
            height, width = frame.image.shape[:2]
            if self.calibrated_size not in (None, (width, height)):  # its pixels would land in the wrong zones
                w, h = self.calibrated_size  # type: ignore[misc]
                why = f"{source.name} delivers {width}x{height} frames; the table was calibrated at {w}x{h}"
                wrong_size.begins(f"{why}: set [camera] width and height, or calibrate again")
                self.skipped_frames += 1
                continue
            wrong_size.ends()
            changed, problem = watch.see(frame.image, frame.t_ns)
            if changed:
                self.inbox.put(Fault(CAMERA, None if problem is None else f"{source.name} shows {problem}"))
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
                    unreadable.begins(f"frames from {source.name} cannot be read ({type(exc).__name__}: {exc})")
                continue
            if failed:
                log.info("frames from %s read again after %d that could not be", source.name, failed)
                unreadable.ends()
                failed = 0
            self.cpu_ns += time.thread_time_ns() - started
            self.frames += 1
            self.read_frames = reader.read_frames
            self.inbox.put(dataclasses.replace(report, reported_ns=time.monotonic_ns()))

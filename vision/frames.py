"""Frame sources: cameras, image folders, video files and the simulator, behind one small interface.

Every source hands out :class:`Frame` values whose ``t_ns`` is integer nanoseconds on the host's
CLOCK_MONOTONIC (``time.monotonic_ns()``), converted once here, where the frame enters. The vision
code downstream never reads a clock: the card a frame shows happened at that frame's ``t_ns``.
A folder of images or a video file opened from a spec plays as a recording made from that
moment (its frames at their recorded spacing); made directly, it starts at ``start_ns`` (0 by
default: a replay's timeline, the same every run). ``lost`` says a camera stopped delivering.

``read()`` returns ``None`` when there is no frame now: the end of a file source (``ended`` is then
true), or a camera that timed out or was lost (``ended`` stays false; keep polling). Iterating a
source yields frames until it has ended, so ``for frame in source`` never stops on a camera hiccup.

Open a source from a command-line spec with :func:`open_source`: ``usb:0``, ``usb:/dev/video2``,
``picamera``, ``folder:PATH``, ``video:PATH``, or a bare path (a folder of images or a video file).
"""

from __future__ import annotations

import contextlib
import inspect
import math
import os
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any, Protocol, Self, runtime_checkable

import cv2
import numpy as np

from table.errors import CardtableError

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".tif", ".tiff", ".webp")  # what OpenCV's wheels decode
PICAMERA2_HELP = (
    "on Raspberry Pi OS install it with `sudo apt install python3-picamera2` and create the virtual "
    "environment with `python3 -m venv --system-site-packages .venv` so that it can see the system package"
)


# OpenCV's V4L2 backend waits this many seconds for each frame before it gives up (10 by
# default): a webcam that stalls without being unplugged held each read for 10 s, and was
# reported lost after minutes. Read once, at the first capture; a value set outside is kept.
os.environ.setdefault("OPENCV_VIDEOIO_V4L_SELECT_TIMEOUT", "1")
CAMERA_LOST_S = 3.0  # a camera that has delivered no frame for this long is lost: the game pauses

# picamera2 from apt imports apt's simplejpeg, built for numpy 1.x; a venv's numpy 2 cannot load it.
NUMPY_HELP = (
    "a module it imports was built for another numpy (apt's simplejpeg is for numpy 1.x): install "
    "PyPI's into the virtual environment with `pip install simplejpeg` (`make PI=1` and the install script do)"
)


def _first_line(exc: BaseException) -> str:
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0]


class FrameSourceError(CardtableError, RuntimeError):
    """A source that cannot deliver (unplugged camera, unreadable file, bad spec); the message names it."""


def image_files(folder: Path, suffixes: tuple[str, ...] = IMAGE_SUFFIXES) -> list[Path]:
    """A folder's image files (by suffix, any case), sorted by name. Hidden files are left out:
    a macOS copy onto a USB stick adds ``._QH_1.jpg`` beside ``QH_1.jpg``, a file of its own
    metadata that no decoder reads."""
    return sorted(
        (p for p in folder.iterdir() if p.suffix.lower() in suffixes and not p.name.startswith(".") and p.is_file()),
        key=lambda p: p.name,
    )


class ImageFileError(CardtableError, ValueError):
    """An image file that cannot be read; the message says why (the caller names the file)."""


def read_image(path: str | Path, flags: int = cv2.IMREAD_COLOR) -> np.ndarray:
    """An image file's pixels (``cv2.imread`` with ``flags``), or ``ImageFileError`` saying why
    not: no such file, a folder, not readable, empty, or nothing OpenCV can decode. ``imread``
    itself answers None for all of these alike, and a player who typed a wrong name should not
    be told the photo is damaged."""
    path = Path(path)
    try:
        image = cv2.imread(str(path), flags)
    except cv2.error as exc:  # a header claiming more pixels than OpenCV will hold, say
        raise ImageFileError(f"cannot read: too large or damaged (OpenCV: {exc.err or exc})") from None
    if image is not None and image.size:
        return image
    if not path.exists():
        raise ImageFileError("cannot read: no such file")
    if path.is_dir():
        raise ImageFileError("cannot read: a folder, not an image file")
    try:
        with path.open("rb") as file:
            empty = not file.read(1)
    except OSError as exc:
        raise ImageFileError(f"cannot read: {exc.strerror or exc}") from None
    if empty:
        raise ImageFileError("cannot read: the file is empty")
    raise ImageFileError(f"cannot read: not an image OpenCV can decode ({', '.join(IMAGE_SUFFIXES)}), or damaged")


@dataclass(frozen=True, eq=False, slots=True)
class Frame:
    """One image and the moment it was exposed.

    ``image`` is BGR uint8 (height, width, 3); ``t_ns`` is host CLOCK_MONOTONIC nanoseconds;
    ``index`` is the source's frame number from 0 (a skipped file leaves a gap, see
    :class:`ImageFolderSource`).
    """

    image: np.ndarray
    t_ns: int
    index: int

    def __post_init__(self) -> None:
        if type(self.t_ns) is not int:
            raise ValueError(f"frame: t_ns must be integer nanoseconds, not {self.t_ns!r}")
        if type(self.index) is not int or self.index < 0:
            raise ValueError(f"frame: index must be a whole number from 0, not {self.index!r}")
        image = self.image
        if not isinstance(image, np.ndarray) or image.dtype != np.uint8 or image.ndim != 3 or image.shape[2] != 3:
            what = f"{image.dtype} {image.shape}" if isinstance(image, np.ndarray) else type(image).__name__
            raise ValueError(f"frame: image must be a BGR uint8 array (height, width, 3), not {what}")


@runtime_checkable
class FrameSource(Protocol):
    """What the vision loop needs from a source of frames."""

    @property
    def lost(self) -> bool: ...

    def read(self) -> Frame | None: ...

    def close(self) -> None: ...


def as_bgr(image: np.ndarray) -> np.ndarray:
    """Grey, BGRA and 16-bit images as BGR uint8, so every source hands out one format."""
    if image.dtype == np.uint16:
        image = (image >> 8).astype(np.uint8)
    elif image.dtype != np.uint8:
        raise ValueError(f"unsupported image type {image.dtype}")
    if image.ndim == 2:
        return cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    if image.ndim == 3 and image.shape[2] == 1:
        return cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    if image.ndim == 3 and image.shape[2] == 4:
        return cv2.cvtColor(image, cv2.COLOR_BGRA2BGR)
    if image.ndim == 3 and image.shape[2] == 3:
        return image
    raise ValueError(f"unsupported image shape {image.shape}")


class BaseSource:
    """Context-manager support and iteration shared by the concrete sources."""

    name: str = "source"
    ended: bool = False
    recording: bool = False  # frames made before (a folder, a video): opened again, it starts again

    @property
    def lost(self) -> bool:
        """Whether the source stopped delivering (a camera unplugged or stalled): worth telling
        the players and pausing the game. A file never is: its end is ``ended``."""
        return False

    def read(self) -> Frame | None:
        raise NotImplementedError

    def close(self) -> None:
        """Release the device or file; safe to call twice."""

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def __iter__(self) -> Iterator[Frame]:
        """Frames until the source has ended; a camera's ``None`` (timeout, lost) is waited through."""
        while True:
            frame = self.read()
            if frame is not None:
                yield frame
            elif self.ended:
                return

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r})"

    def _delivered(self, frame: Frame) -> Frame:
        """A camera's frame came: count it and forget the failures before it."""
        self._index = frame.index + 1
        self.failures = 0
        return frame


def _interval_ns(fps: float, what: str) -> float:
    if isinstance(fps, bool) or not isinstance(fps, int | float) or not math.isfinite(fps) or fps <= 0:
        raise FrameSourceError(f"{what}: fps must be a positive number, not {fps!r}")
    return 1e9 / fps


def _check_start(start_ns: int, what: str) -> None:
    if type(start_ns) is not int:
        raise FrameSourceError(f"{what}: start_ns must be integer nanoseconds, not {start_ns!r}")


class OpenCVCamera(BaseSource):
    """A USB (UVC) camera through ``cv2.VideoCapture``.

    Timestamp: ``time.monotonic_ns()`` taken right after ``grab()`` returns. That is always *after*
    the exposure, by the rest of the exposure, the sensor readout, the USB transfer and the driver's
    queue: typically one to two frame periods (30-70 ms at 30 fps), more if the program reads slower
    than the camera delivers and the driver hands out an older buffered frame. We ask for a
    one-frame buffer (``CAP_PROP_BUFFERSIZE``, honoured by V4L2) to keep that short. The residual
    latency is never negative, so the sequencer's ``lateness`` bound absorbs it; a CSI camera
    (:class:`PiCamera2Source`) stamps frames at the sensor instead and is preferable when the order
    of a card and a button press within a few tens of milliseconds matters.

    Once opened, ``read()`` never raises: a frame that does not come returns ``None`` and adds one
    to ``failures`` (reset by the next good frame), so a controller can report "camera lost"
    (``lost``: no frame for ``lost_after_s``) and keep polling. Every ``reopen_after`` consecutive
    failures the device is released and opened again (``reopens`` counts the attempts), which
    recovers a camera that was unplugged and plugged back in under the same name. A failed
    ``read()`` takes at least ``retry_s`` in all before it returns ``None``, so a polling loop
    does not spin.
    """

    def __init__(
        self,
        device: int | str,
        width: int | None = None,
        height: int | None = None,
        fps: float | None = None,
        *,
        reopen_after: int = 30,
        retry_s: float = 0.1,
        lost_after_s: float = CAMERA_LOST_S,
    ) -> None:
        if isinstance(device, str) and device.strip().isdigit():
            device = int(device)
        if isinstance(device, bool) or not isinstance(device, int | str) or device == "":
            raise FrameSourceError(f"camera: device must be an index or a path such as /dev/video0, not {device!r}")
        if type(reopen_after) is not int or reopen_after < 1:
            raise FrameSourceError(f"camera {device}: reopen_after must be a whole number from 1, not {reopen_after!r}")
        self.device = device
        self.name = f"usb:{device}"
        self.width, self.height, self.fps = width, height, fps
        self.reopen_after = reopen_after
        self.retry_s = retry_s
        self.lost_after_s = lost_after_s
        self.failures = 0
        self.reopens = 0
        self.ended = False
        self._index = 0
        self._closed = False
        self._last_frame = time.monotonic()  # when the latest frame came (opening counts as one)
        self._cap: Any = self._open()
        if self._cap is None:
            raise FrameSourceError(
                f"camera {self.name}: cannot open it (is it plugged in, is the number or path right, "
                "and is no other program using it?)"
            )

    def _open(self) -> Any:
        """A started ``VideoCapture``, or None when the device cannot be opened."""
        try:
            cap = cv2.VideoCapture(self.device)
            if not cap.isOpened():
                cap.release()
                return None
            if self.width:
                cap.set(cv2.CAP_PROP_FRAME_WIDTH, float(self.width))
            if self.height:
                cap.set(cv2.CAP_PROP_FRAME_HEIGHT, float(self.height))
            if self.fps:
                cap.set(cv2.CAP_PROP_FPS, float(self.fps))
            cap.set(cv2.CAP_PROP_BUFFERSIZE, 1.0)
            return cap
        except cv2.error:
            return None

    def _release(self) -> None:
        if self._cap is not None:
            with contextlib.suppress(cv2.error):
                self._cap.release()
            self._cap = None

    def _failed(self, started: float) -> None:
        """Count a missing frame, reopen every ``reopen_after`` of them, and pace a failing loop."""
        self.failures += 1
        if self.failures % self.reopen_after == 0:
            self._release()
            self.reopens += 1
            self._cap = self._open()
        remaining = self.retry_s - (time.monotonic() - started)
        if remaining > 0:
            time.sleep(remaining)

    @property
    def lost(self) -> bool:
        """True once frames have stopped: ``reopen_after`` in a row did not come, or none has come
        for ``lost_after_s`` (a stalled camera's every read waits the driver's timeout): worth
        telling the players."""
        stopped = time.monotonic() - self._last_frame >= self.lost_after_s
        return self.failures >= self.reopen_after or (self.failures > 0 and stopped)

    def read(self) -> Frame | None:
        if self._closed:
            return None
        started = time.monotonic()
        try:
            if self._cap is None or not self._cap.grab():
                self._failed(started)
                return None
            t_ns = time.monotonic_ns()
            ok, image = self._cap.retrieve()
            if not ok or image is None or image.size == 0:
                self._failed(started)
                return None
            frame = Frame(as_bgr(image), t_ns, self._index)
        except (cv2.error, ValueError):
            self._failed(started)
            return None
        self._last_frame = time.monotonic()
        return self._delivered(frame)

    def close(self) -> None:
        self._closed = True
        self._release()


def _now_monotonic_and_boottime() -> tuple[int, int]:
    """Both clocks read back to back; where there is no CLOCK_BOOTTIME (not Linux) they are one clock."""
    monotonic = time.monotonic_ns()
    boottime_id = getattr(time, "CLOCK_BOOTTIME", None)
    return monotonic, (monotonic if boottime_id is None else time.clock_gettime_ns(boottime_id))


def sensor_timestamp_to_monotonic(sensor_ns: int, now_monotonic_ns: int, now_boottime_ns: int) -> tuple[int, str]:
    """Convert libcamera's ``SensorTimestamp`` to CLOCK_MONOTONIC; also return which clock it was on.

    libcamera documents SensorTimestamp as CLOCK_BOOTTIME nanoseconds, the Picamera2 manual as
    "nanoseconds since the system booted", yet on Raspberry Pi the value is the V4L2 buffer
    timestamp, which is CLOCK_MONOTONIC (libcamera's bug tracker, #254; picamera2's GitHub, #703
    and #787, compare it with ``time.monotonic_ns()`` directly). The two clocks differ only by
    the time the machine spent suspended, which on a Pi is zero. So: a timestamp later than "now"
    on the monotonic clock can only be boottime, and we subtract the measured offset; otherwise
    it is taken as monotonic. The decision is made once, on the first frame, and kept.
    """
    offset = now_boottime_ns - now_monotonic_ns
    if offset > 1_000_000 and sensor_ns > now_monotonic_ns:
        return sensor_ns - offset, "boottime"
    return sensor_ns, "monotonic"


class PiCamera2Source(BaseSource):
    """A Raspberry Pi CSI camera through Picamera2 (libcamera).

    ``t_ns`` is the frame's ``SensorTimestamp`` metadata, converted to CLOCK_MONOTONIC once as
    :func:`sensor_timestamp_to_monotonic` explains. The kernel driver stamps a frame when its first
    row starts arriving from the sensor, i.e. at the end of that row's exposure (which began
    ``ExposureTime`` microseconds earlier); the ISP, the request queue and Python come after it, so
    it is much closer to the moment a card landed than :class:`OpenCVCamera`'s time of arrival.

    Like the USB camera, ``read()`` never raises once the camera is running: a frame that does not
    arrive within ``timeout_s`` gives ``None`` and counts in ``failures``; ``lost_after`` of them in
    a row and the camera is ``lost`` (a loose ribbon, a stalled pipeline) until a frame comes. A CSI
    camera cannot be hot-plugged, so there is no reopening.
    """

    def __init__(
        self,
        width: int = 1280,
        height: int = 720,
        fps: float = 30.0,
        *,
        camera_num: int = 0,
        timeout_s: float = 1.0,
        lost_after: int = 2,
    ) -> None:
        self.name = f"picamera:{camera_num}"
        if type(lost_after) is not int or lost_after < 1:
            raise FrameSourceError(f"camera {self.name}: lost_after must be a whole number from 1, not {lost_after!r}")
        self.lost_after = lost_after
        self.failures = 0
        self.ended = False
        self.clock: str | None = None
        self.timeout_s = timeout_s
        self._index = 0
        self._job: Any = None
        self._closed = False
        self._camera: Any = None
        _interval_ns(fps, self.name)
        try:
            from picamera2 import Picamera2  # type: ignore[import-not-found]
        except ImportError as exc:
            raise FrameSourceError(
                f"camera {self.name}: the picamera2 module is not available ({exc}); {PICAMERA2_HELP}"
            ) from None
        except Exception as exc:  # a module of its built for another numpy: "numpy.dtype size changed"
            raise FrameSourceError(
                f"camera {self.name}: picamera2 cannot be loaded ({_first_line(exc)}); {NUMPY_HELP}"
            ) from None
        try:
            camera = Picamera2(camera_num)
        except Exception as exc:  # picamera2 raises RuntimeError/IndexError for a missing camera
            raise FrameSourceError(
                f"camera {self.name}: cannot open it ({exc}); check the ribbon cable and `rpicam-hello --list-cameras`"
            ) from None
        self._camera = camera
        try:
            # Older Picamera2 releases have wait(job) without a timeout: there a read blocks until a frame.
            self._wait_has_timeout = "timeout" in inspect.signature(camera.wait).parameters
        except (TypeError, ValueError):
            self._wait_has_timeout = True
        try:
            # RGB888 is 24 bits a pixel stored [B, G, R]: OpenCV's BGR without a conversion.
            config = camera.create_video_configuration(
                main={"size": (int(width), int(height)), "format": "RGB888"},
                controls={"FrameRate": float(fps)},
            )
            camera.configure(config)
            camera.start()
        except Exception as exc:
            self.close()
            raise FrameSourceError(f"camera {self.name}: cannot start {width}x{height} at {fps} fps ({exc})") from None

    @property
    def lost(self) -> bool:
        """True once ``lost_after`` frames in a row did not come."""
        return self.failures >= self.lost_after

    def read(self) -> Frame | None:
        if self._closed:
            return None
        camera = self._camera
        try:
            # One request in flight: after a timeout we wait for the same job next time rather than
            # queueing another, so no completed request is left unreleased.
            if self._job is None:
                self._job = camera.capture_request(wait=False)
            if self._wait_has_timeout:
                request = camera.wait(self._job, timeout=self.timeout_s)
            else:
                request = camera.wait(self._job)
        except TimeoutError:
            self.failures += 1
            return None
        except Exception:
            self._job = None
            self.failures += 1
            return None
        self._job = None
        try:
            image = request.make_array("main")
            metadata = request.get_metadata()
        except Exception:
            self.failures += 1
            return None
        finally:
            request.release()
        try:
            sensor_ns = int(metadata["SensorTimestamp"])
            now_monotonic, now_boottime = _now_monotonic_and_boottime()
            if self.clock is None:
                self.clock = sensor_timestamp_to_monotonic(sensor_ns, now_monotonic, now_boottime)[1]
            t_ns = sensor_ns - (now_boottime - now_monotonic) if self.clock == "boottime" else sensor_ns
            frame = Frame(as_bgr(np.ascontiguousarray(image[:, :, :3])), t_ns, self._index)
        except (KeyError, TypeError, ValueError):
            self.failures += 1
            return None
        return self._delivered(frame)

    def close(self) -> None:
        self._closed = True
        camera, self._camera = self._camera, None
        if camera is not None:
            for method in ("stop", "close"):
                with contextlib.suppress(Exception):
                    getattr(camera, method)()


class ImageFolderSource(BaseSource):
    """Images in a folder, sorted by file name, as frames ``1/fps`` seconds apart from ``start_ns``.

    Name the files so they sort in order (``frame-0001.png``, ...). Frame ``i`` (the file's place
    in that order) has ``t_ns = start_ns + round(i * 1e9 / fps)``. A file OpenCV cannot read raises
    :class:`FrameSourceError` naming it: a recorded test case with a hole in it should not pass
    silently. With ``skip_unreadable=True`` such a file is skipped instead and its path added to
    ``skipped``; the frames after it keep their own index and time, so the timeline does not shift.
    """

    recording = True

    def __init__(
        self, path: str | Path, fps: float = 10.0, start_ns: int = 0, *, skip_unreadable: bool = False
    ) -> None:
        self.path = Path(path)
        self.name = f"folder:{self.path}"
        self._interval = _interval_ns(fps, self.name)
        _check_start(start_ns, self.name)
        if not self.path.exists():
            raise FrameSourceError(f"image folder {self.path} does not exist")
        if not self.path.is_dir():
            raise FrameSourceError(f"image folder {self.path} is not a folder")
        self.files = image_files(self.path)
        if not self.files:
            raise FrameSourceError(f"image folder {self.path} has no images ({', '.join(IMAGE_SUFFIXES)})")
        self.fps = fps
        self.start_ns = start_ns
        self.skip_unreadable = skip_unreadable
        self.skipped: list[Path] = []
        self.ended = False
        self._next = 0

    def __len__(self) -> int:
        return len(self.files)

    def read(self) -> Frame | None:
        while self._next < len(self.files):
            i = self._next
            self._next += 1
            path = self.files[i]
            try:
                image = read_image(path, cv2.IMREAD_UNCHANGED)
            except ImageFileError as exc:
                if self.skip_unreadable:
                    self.skipped.append(path)
                    continue
                raise FrameSourceError(f"image {path}: {exc}") from None
            try:
                bgr = as_bgr(image)
            except ValueError as exc:
                raise FrameSourceError(f"image {path}: {exc}") from None
            return Frame(bgr, self.start_ns + round(i * self._interval), i)
        self.ended = True
        return None


class StillFileSource(BaseSource):
    """One picture file read again ``fps`` times a second, each frame stamped when it is taken
    and the next taken no sooner than ``1/fps`` seconds after, however slow the read: a
    camera that shows whatever the file holds then. For a demonstration or a test that changes
    the table by replacing the file (write another, then rename it over this one), even while
    the table is stopped: what it shows goes on without it, as a real table does."""

    def __init__(self, path: str | Path, fps: float = 10.0, lost_after_s: float = CAMERA_LOST_S) -> None:
        self.path = Path(path)
        self.name = f"still:{self.path}"
        self._interval = _interval_ns(fps, self.name)
        if not self.path.is_file():
            what = "is not a file" if self.path.exists() else "does not exist"
            raise FrameSourceError(f"picture {self.path} {what}")
        self.ended = False
        self._index = 0
        self._next_ns = time.monotonic_ns()
        self._lost_after_ns = round(lost_after_s * 1e9)
        self._last_read_ns = self._next_ns  # the last picture read whole

    @property
    def lost(self) -> bool:
        """No picture could be read for ``lost_after_s``: gone, or replaced by one that is not whole."""
        return time.monotonic_ns() - self._last_read_ns > self._lost_after_ns

    def read(self) -> Frame | None:
        wait = self._next_ns - time.monotonic_ns()
        if wait > 0:
            time.sleep(wait / 1e9)
        t_ns = time.monotonic_ns()  # the moment it is taken, as a camera stamps its exposure
        self._next_ns = t_ns + self._interval
        try:
            image = as_bgr(read_image(self.path, cv2.IMREAD_UNCHANGED))
        except (ImageFileError, ValueError):
            return None  # being replaced: the next read has it (or, for ``lost_after_s``, none does)
        self._index += 1
        self._last_read_ns = t_ns
        return Frame(image, t_ns, self._index)


class VideoFileSource(BaseSource):
    """A video file's frames, stamped ``start_ns`` plus the frame's position in the video.

    The position is the container's presentation time (``CAP_PROP_POS_MSEC``, converted once to
    integer nanoseconds); when a backend does not report it (zero or less after the first frame, or
    not increasing) the frame index and the file's frame rate are used instead. A video that ends
    early or has a damaged frame ends the source there.
    """

    recording = True

    def __init__(self, path: str | Path, start_ns: int = 0) -> None:
        self.path = Path(path)
        self.name = f"video:{self.path}"
        _check_start(start_ns, self.name)
        if not self.path.exists():
            raise FrameSourceError(f"video {self.path} does not exist")
        if not self.path.is_file():
            raise FrameSourceError(f"video {self.path} is not a file")
        cap = cv2.VideoCapture(str(self.path))
        if not cap.isOpened():
            cap.release()
            raise FrameSourceError(f"video {self.path}: cannot open it (not a video, or no decoder for it)")
        self._cap: Any = cap
        fps = cap.get(cv2.CAP_PROP_FPS)
        self.fps = fps if math.isfinite(fps) and fps > 0 else None
        self.start_ns = start_ns
        self.ended = False
        self._index = 0
        self._last_ms = -1.0

    def _position_ns(self) -> int:
        ms = self._cap.get(cv2.CAP_PROP_POS_MSEC)
        if math.isfinite(ms) and ms >= 0 and (self._index == 0 or ms > self._last_ms):
            self._last_ms = ms
            return round(ms * 1_000_000)
        if self.fps is None:
            raise FrameSourceError(f"video {self.path}: it gives neither frame times nor a frame rate")
        return round(self._index * 1e9 / self.fps)

    def read(self) -> Frame | None:
        if self.ended or self._cap is None:
            return None
        if not self._cap.grab():
            self.ended = True
            return None
        offset = self._position_ns()
        ok, image = self._cap.retrieve()
        if not ok or image is None:
            self.ended = True
            return None
        frame = Frame(as_bgr(image), self.start_ns + offset, self._index)
        self._index += 1
        return frame

    def close(self) -> None:
        self.ended = True
        if self._cap is not None:
            self._cap.release()
            self._cap = None


class CallableSource(BaseSource):
    """Frames from a function ``render(i) -> (image, t_ns) | None``: the simulator's renderer.

    ``render`` is called with 0, 1, 2, ...; it returns ``None`` at the end. Its ``t_ns`` is used as
    given (the simulator's virtual clock), but must be integer nanoseconds.
    """

    def __init__(self, render: Callable[[int], tuple[np.ndarray, int] | None], *, name: str = "callable") -> None:
        if not callable(render):
            raise FrameSourceError(f"callable source: render must be a function, not {render!r}")
        self.render = render
        self.name = name
        self.ended = False
        self._next = 0

    def read(self) -> Frame | None:
        if self.ended:
            return None
        i = self._next
        result = self.render(i)
        if result is None:
            self.ended = True
            return None
        if not isinstance(result, tuple) or len(result) != 2:
            raise FrameSourceError(f"{self.name}: frame {i}: render must return (image, t_ns) or None, not {result!r}")
        image, t_ns = result
        if isinstance(t_ns, np.integer):
            t_ns = int(t_ns)
        try:
            frame = Frame(as_bgr(image) if isinstance(image, np.ndarray) else image, t_ns, i)
        except ValueError as exc:
            raise FrameSourceError(f"{self.name}: frame {i}: {exc}") from None
        self._next += 1
        return frame


SPEC_HELP = "usb:N, usb:/dev/videoN, picamera, folder:PATH, video:PATH, still:PATH, or the path of a folder or video"


def _no_photo(spec: str, path: Path) -> Path:
    """A video's path, or ``FrameSourceError`` where it names one photo (OpenCV would play it as a
    video of one frame, and the source would end at once)."""
    if path.suffix.lower() in IMAGE_SUFFIXES:
        raise FrameSourceError(f"frame source {spec!r} is one image: give a camera, a video or a folder of images")
    return path


def parse_spec(spec: str) -> tuple[str, str]:
    """What a command-line spec names, without opening it: ``(kind, argument)``, the kind one of
    usb, picamera, folder or video (a bare path: a folder or a video, as the file is), or
    ``FrameSourceError`` saying what is wrong with it."""
    if not isinstance(spec, str) or not spec.strip():
        raise FrameSourceError(f"empty frame source; use {SPEC_HELP}")
    spec = spec.strip()
    kind, sep, rest = spec.partition(":")
    kind = kind.lower()
    if sep and kind in ("usb", "folder", "video", "picamera", "still"):
        if kind == "picamera":
            if not rest.isdigit():
                raise FrameSourceError(f"frame source {spec!r}: picamera takes a camera number, as in picamera:0")
            return kind, rest
        if not rest:
            raise FrameSourceError(f"frame source {spec!r}: {kind}: needs a {'device' if kind == 'usb' else 'path'}")
        if kind == "video":
            _no_photo(spec, Path(rest))
        return kind, rest
    if spec.lower() == "picamera":
        return "picamera", "0"
    path = Path(spec)
    if path.is_dir():
        return "folder", spec
    if path.is_file():
        return "video", str(_no_photo(spec, path))
    if sep and len(kind) > 1:
        raise FrameSourceError(f"unknown frame source {spec!r}; use {SPEC_HELP}")
    raise FrameSourceError(f"frame source {spec!r}: no such folder or file; use {SPEC_HELP}")


def open_source(
    spec: str,
    *,
    width: int | None = None,
    height: int | None = None,
    fps: float | None = None,
    lost_after_s: float = CAMERA_LOST_S,
) -> BaseSource:
    """Open the frame source a command-line spec names; ``fps`` is the camera rate or a folder's pace.
    A folder or a video plays as a recording made from the moment it is opened: its first frame
    is stamped with the host's monotonic clock then, the rest at their recorded spacing. A camera
    is ``lost`` after ``lost_after_s`` without a frame."""
    kind, rest = parse_spec(spec)
    if kind == "picamera":
        rate = fps or 30.0
        timeout = 1.0
        return PiCamera2Source(
            width or 1280, height or 720, rate, camera_num=int(rest), lost_after=max(1, round(lost_after_s / timeout))
        )
    if kind == "usb":
        return OpenCVCamera(rest, width, height, fps, lost_after_s=lost_after_s)
    if kind == "folder":
        return ImageFolderSource(rest, fps or 10.0, time.monotonic_ns())
    if kind == "still":
        return StillFileSource(rest, fps or 10.0, lost_after_s)
    return VideoFileSource(Path(rest), time.monotonic_ns())

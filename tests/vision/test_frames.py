"""Frame sources: every frame is BGR uint8 with integer monotonic nanoseconds, and every failure is named."""

from __future__ import annotations

import itertools
import os
import re
import struct
import sys
import time
import types
import zlib
from pathlib import Path
from typing import Any, ClassVar

import cv2
import numpy as np
import pytest

from vision import frames
from vision.frames import (
    CallableSource,
    Frame,
    FrameSource,
    FrameSourceError,
    ImageFileError,
    ImageFolderSource,
    OpenCVCamera,
    PiCamera2Source,
    VideoFileSource,
    open_source,
    read_image,
    sensor_timestamp_to_monotonic,
)


def solid(value: int, size: tuple[int, int] = (48, 64)) -> np.ndarray:
    return np.full((*size, 3), value, np.uint8)


def write_folder(folder: Path, names: list[str]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for i, name in enumerate(names):
        assert cv2.imwrite(str(folder / name), solid(20 * (i + 1)))


# --- Frame ---------------------------------------------------------------------------------------


def test_frame_needs_integer_nanoseconds_and_a_bgr_image() -> None:
    Frame(solid(1), 5, 0)
    with pytest.raises(ValueError, match="integer nanoseconds"):
        Frame(solid(1), 1.5, 0)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="BGR uint8"):
        Frame(np.zeros((4, 4), np.uint8), 1, 0)
    with pytest.raises(ValueError, match="index"):
        Frame(solid(1), 1, -1)


# --- image folders -------------------------------------------------------------------------------


def test_folder_frames_come_in_name_order_with_evenly_spaced_timestamps(tmp_path: Path) -> None:
    write_folder(tmp_path, ["b.png", "a.png", "c.PNG"])
    (tmp_path / "notes.txt").write_text("not an image")
    with ImageFolderSource(tmp_path, fps=4.0, start_ns=1_000) as source:
        assert isinstance(source, FrameSource)
        got = list(source)
    assert [f.index for f in got] == [0, 1, 2]
    assert [f.t_ns for f in got] == [1_000, 1_000 + 250_000_000, 1_000 + 500_000_000]
    assert all(type(f.t_ns) is int for f in got)
    # a.png was written second (value 40), b.png first (20), c.PNG third (60)
    assert [int(f.image[0, 0, 0]) for f in got] == [40, 20, 60]
    assert got[0].image.shape == (48, 64, 3) and got[0].image.dtype == np.uint8
    assert source.ended and source.read() is None


def test_folder_timestamps_are_rounded_integers(tmp_path: Path) -> None:
    write_folder(tmp_path, [f"f{i:02d}.png" for i in range(4)])
    source = ImageFolderSource(tmp_path, fps=3.0)
    assert [f.t_ns for f in source] == [0, 333_333_333, 666_666_667, 1_000_000_000]


def test_folder_grey_images_become_bgr(tmp_path: Path) -> None:
    cv2.imwrite(str(tmp_path / "grey.png"), np.full((10, 12), 77, np.uint8))
    (frame,) = list(ImageFolderSource(tmp_path))
    assert frame.image.shape == (10, 12, 3) and int(frame.image[0, 0, 2]) == 77


def test_a_corrupt_image_is_named(tmp_path: Path) -> None:
    write_folder(tmp_path, ["a.png", "c.png"])
    (tmp_path / "b.png").write_bytes(b"\x89PNG\r\n\x1a\n not really a png")
    source = ImageFolderSource(tmp_path)
    assert source.read() is not None
    with pytest.raises(FrameSourceError, match=r"b\.png"):
        source.read()


def test_a_corrupt_image_can_be_skipped_keeping_the_timeline(tmp_path: Path) -> None:
    write_folder(tmp_path, ["a.png", "c.png"])
    (tmp_path / "b.jpg").write_bytes(b"garbage")
    source = ImageFolderSource(tmp_path, fps=10.0, skip_unreadable=True)
    got = list(source)
    assert [(f.index, f.t_ns) for f in got] == [(0, 0), (2, 200_000_000)]
    assert source.skipped == [tmp_path / "b.jpg"]


def _png_header(width: int, height: int) -> bytes:
    """A PNG file that says it is ``width`` x ``height`` (its pixels are not there)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"\x00")) + chunk(b"IEND", b"")


@pytest.mark.parametrize(
    ("make", "reason"),
    [
        (lambda p: None, "no such file"),
        (lambda p: p.mkdir(), "a folder, not an image file"),
        (lambda p: p.write_bytes(b""), "the file is empty"),
        (lambda p: p.write_bytes(b"\xff\xd8\xff not really a jpeg"), "not an image OpenCV can decode"),
        (lambda p: p.write_bytes(_png_header(100_000, 100_000)), "too large or damaged"),
    ],
)
def test_an_image_file_that_cannot_be_read_says_why(tmp_path: Path, make, reason: str) -> None:
    """``read_image`` tells a wrong name, a folder, an empty file and a damaged one apart, where
    ``cv2.imread`` answers None to all four; a real image is read as ``imread`` reads it."""
    path = tmp_path / "card.jpg"
    make(path)
    with pytest.raises(ImageFileError, match=f"cannot read: {reason}"):
        read_image(path)
    picture = np.full((6, 8, 3), (10, 20, 30), np.uint8)
    cv2.imwrite(str(tmp_path / "ok.png"), picture)
    assert np.array_equal(read_image(tmp_path / "ok.png"), picture)


def test_an_empty_folder_is_refused(tmp_path: Path) -> None:
    (tmp_path / "readme.txt").write_text("no images here")
    with pytest.raises(FrameSourceError, match=f"{re.escape(str(tmp_path))}.*no images"):
        ImageFolderSource(tmp_path)


def test_a_missing_folder_is_named(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere"
    with pytest.raises(FrameSourceError, match=f"{re.escape(str(missing))} does not exist"):
        ImageFolderSource(missing)


def test_a_file_is_not_a_folder(tmp_path: Path) -> None:
    path = tmp_path / "x.png"
    cv2.imwrite(str(path), solid(3))
    with pytest.raises(FrameSourceError, match="not a folder"):
        ImageFolderSource(path)


@pytest.mark.parametrize("fps", [0, -1.0, float("nan"), "10"])
def test_folder_fps_must_be_positive(tmp_path: Path, fps: Any) -> None:
    write_folder(tmp_path, ["a.png"])
    with pytest.raises(FrameSourceError, match="fps"):
        ImageFolderSource(tmp_path, fps=fps)


def test_folder_start_must_be_integer_nanoseconds(tmp_path: Path) -> None:
    write_folder(tmp_path, ["a.png"])
    with pytest.raises(FrameSourceError, match="start_ns"):
        ImageFolderSource(tmp_path, start_ns=1.5)  # type: ignore[arg-type]


# --- video files ---------------------------------------------------------------------------------


def write_video(path: Path, count: int, fps: float = 10.0) -> None:
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"MJPG"), fps, (64, 48))
    assert writer.isOpened(), "this OpenCV cannot write MJPG into .avi"
    for i in range(count):
        writer.write(solid(30 * i))
    writer.release()


def test_video_frames_have_increasing_timestamps(tmp_path: Path) -> None:
    path = tmp_path / "clip.avi"
    write_video(path, 6, fps=10.0)
    with VideoFileSource(path, start_ns=5_000_000_000) as source:
        got = list(source)
    assert [f.index for f in got] == list(range(6))
    times = [f.t_ns for f in got]
    assert all(type(t) is int for t in times)
    assert times[0] == 5_000_000_000
    assert all(b > a for a, b in itertools.pairwise(times))
    # 10 fps: 100 ms apart, whichever way the backend reports the position
    assert [t - times[0] for t in times] == [i * 100_000_000 for i in range(6)]
    assert got[0].image.shape == (48, 64, 3)
    assert abs(int(got[3].image[10, 10, 0]) - 90) < 10
    assert source.ended and source.read() is None


def test_a_missing_video_is_named(tmp_path: Path) -> None:
    with pytest.raises(FrameSourceError, match=r"missing\.avi does not exist"):
        VideoFileSource(tmp_path / "missing.avi")


def test_a_file_that_is_not_a_video_is_named(tmp_path: Path) -> None:
    path = tmp_path / "notes.avi"
    path.write_text("this is not a video")
    with pytest.raises(FrameSourceError, match=r"notes\.avi"):
        VideoFileSource(path)


# --- callable sources ----------------------------------------------------------------------------


def test_callable_source_wraps_a_renderer() -> None:
    calls: list[int] = []

    def render(i: int) -> tuple[np.ndarray, int] | None:
        calls.append(i)
        return None if i == 3 else (solid(i), 1_000 + i * 40_000_000)

    source = CallableSource(render)
    got = list(source)
    assert [(f.index, f.t_ns, int(f.image[0, 0, 0])) for f in got] == [
        (0, 1_000, 0),
        (1, 40_001_000, 1),
        (2, 80_001_000, 2),
    ]
    assert calls == [0, 1, 2, 3]
    assert source.read() is None and calls == [0, 1, 2, 3]


def test_callable_source_accepts_numpy_integer_times() -> None:
    source = CallableSource(lambda i: (solid(1), np.int64(7)) if i == 0 else None)
    frame = source.read()
    assert frame is not None and frame.t_ns == 7 and type(frame.t_ns) is int


@pytest.mark.parametrize(
    ("result", "message"),
    [
        ((solid(1), 1.5), "integer nanoseconds"),
        ((np.zeros((4, 4), np.float32), 1), "frame 0"),
        ("nonsense", r"\(image, t_ns\)"),
    ],
)
def test_callable_source_names_a_bad_frame(result: Any, message: str) -> None:
    source = CallableSource(lambda i: result, name="sim")
    with pytest.raises(FrameSourceError, match=message):
        source.read()


# --- cameras -------------------------------------------------------------------------------------


def test_a_camera_that_does_not_exist_is_named() -> None:
    with pytest.raises(FrameSourceError, match="/dev/video-does-not-exist"):
        OpenCVCamera("/dev/video-does-not-exist")


def test_a_camera_index_that_does_not_exist_is_named() -> None:
    with pytest.raises(FrameSourceError, match="usb:97"):
        OpenCVCamera(97)


class FakeCapture:
    """Stands in for cv2.VideoCapture: plays a script of True (a frame) and False (no frame)."""

    script: ClassVar[list[bool]] = []
    opened: ClassVar[list[Any]] = []
    openable: ClassVar[bool] = True

    def __init__(self, device: Any) -> None:
        self.device = device
        FakeCapture.opened.append(device)
        self.props: dict[int, float] = {}

    def isOpened(self) -> bool:
        return FakeCapture.openable

    def set(self, prop: int, value: float) -> bool:
        self.props[prop] = value
        return True

    def grab(self) -> bool:
        if not FakeCapture.script:
            raise cv2.error("device gone")
        return FakeCapture.script.pop(0)

    def retrieve(self) -> tuple[bool, np.ndarray]:
        return True, np.full((6, 8), 9, np.uint8)

    def release(self) -> None:
        pass


def test_a_stalled_camera_is_lost_by_time_and_opencv_waits_a_second_a_frame(monkeypatch: pytest.MonkeyPatch) -> None:
    """A webcam that stalls without being unplugged makes every read wait the driver's timeout
    (OpenCV's V4L2 default is 10 s; the table asks for 1 s), so counting misses would take
    minutes: no frame for ``lost_after_s`` is lost, and the next frame ends it."""
    assert "OPENCV_VIDEOIO_V4L_SELECT_TIMEOUT" in os.environ  # 1 s, set on import unless set outside
    clock = [100.0]
    monkeypatch.setattr(time, "monotonic", lambda: clock[0])
    monkeypatch.setattr(cv2, "VideoCapture", FakeCapture)
    FakeCapture.opened, FakeCapture.openable = [], True
    FakeCapture.script = [True, False, False, False, True]
    camera = OpenCVCamera(0, reopen_after=30, retry_s=0, lost_after_s=3.0)
    assert camera.read() is not None and not camera.lost
    for misses in (1, 2):  # each stalled read: a second in the driver
        clock[0] += 1.0
        assert camera.read() is None and not camera.lost and camera.failures == misses
    clock[0] += 1.0
    assert camera.read() is None and camera.lost and camera.failures == 3 < camera.reopen_after
    assert camera.read() is not None and not camera.lost


def test_a_camera_that_stops_counts_failures_reopens_and_never_raises(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cv2, "VideoCapture", FakeCapture)
    FakeCapture.opened = []
    FakeCapture.openable = True
    FakeCapture.script = [True, False, False, False, False, True]
    camera = OpenCVCamera(2, 640, 480, 30, reopen_after=2, retry_s=0)
    assert FakeCapture.opened == [2]
    first = camera.read()
    assert first is not None and first.index == 0 and first.image.shape == (6, 8, 3)
    assert camera.read() is None and camera.failures == 1 and not camera.lost
    assert camera.read() is None and camera.failures == 2 and camera.lost
    assert camera.reopens == 1 and FakeCapture.opened == [2, 2]
    FakeCapture.openable = False  # unplugged: reopening fails, read() still only says None
    assert camera.read() is None
    assert camera.read() is None and camera.reopens == 2
    assert camera.read() is None and camera.failures == 5
    FakeCapture.openable = True  # plugged back in
    assert camera.read() is None and camera.failures == 6 and camera.reopens == 3
    frame = camera.read()
    assert frame is not None and frame.index == 1 and camera.failures == 0
    assert camera.read() is None  # the script is empty: grab() raises, read() does not
    camera.close()
    assert camera.read() is None


def test_camera_timestamps_are_monotonic_ns_taken_after_grab(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cv2, "VideoCapture", FakeCapture)
    FakeCapture.openable = True
    FakeCapture.script = [True, True]
    clock = iter([111, 222])
    monkeypatch.setattr(frames.time, "monotonic_ns", lambda: next(clock))
    with OpenCVCamera("/dev/video0") as camera:
        assert [f.t_ns for f in (camera.read(), camera.read()) if f is not None] == [111, 222]


def test_picamera2_missing_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "picamera2", None)  # makes the import fail even on a Pi
    with pytest.raises(FrameSourceError, match="python3-picamera2") as info:
        PiCamera2Source(640, 480, 30)
    assert "--system-site-packages" in str(info.value)


class FakeRequest:
    def __init__(self, metadata: dict[str, Any]) -> None:
        self.metadata = metadata
        self.released = False

    def make_array(self, name: str) -> np.ndarray:
        assert name == "main"
        return np.full((4, 6, 3), 5, np.uint8)

    def get_metadata(self) -> dict[str, Any]:
        return self.metadata

    def release(self) -> None:
        self.released = True


class FakePicamera2:
    """Enough of Picamera2 for the source: configure, start, asynchronous requests with a timeout."""

    queue: ClassVar[list[Any]] = []

    def __init__(self, camera_num: int = 0) -> None:
        self.config: Any = None
        self.started = self.closed = False
        self.requests: list[FakeRequest] = []

    def create_video_configuration(self, **kwargs: Any) -> dict[str, Any]:
        return kwargs

    def configure(self, config: Any) -> None:
        self.config = config

    def start(self) -> None:
        self.started = True

    def capture_request(self, wait: bool = True) -> str:
        assert wait is False
        return "job"

    def wait(self, job: str, timeout: float | None = None) -> FakeRequest:
        item = FakePicamera2.queue.pop(0)
        if isinstance(item, Exception):
            raise item
        request = FakeRequest(item)
        self.requests.append(request)
        return request

    def stop(self) -> None:
        self.started = False

    def close(self) -> None:
        self.closed = True


def test_picamera2_frames_use_the_sensor_timestamp(monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[FakePicamera2] = []

    def factory(camera_num: int = 0) -> FakePicamera2:
        made.append(FakePicamera2(camera_num))
        return made[-1]

    monkeypatch.setitem(sys.modules, "picamera2", types.SimpleNamespace(Picamera2=factory))
    now = frames.time.monotonic_ns()
    FakePicamera2.queue = [
        {"SensorTimestamp": now - 30_000_000, "ExposureTime": 10_000},
        TimeoutError(),
        {"SensorTimestamp": now - 10_000_000},
    ]
    with PiCamera2Source(640, 480, 25.0) as camera:
        cam = made[0]
        assert cam.started and cam.config["main"] == {"size": (640, 480), "format": "RGB888"}
        assert cam.config["controls"] == {"FrameRate": 25.0}
        first = camera.read()
        assert first is not None and first.t_ns == now - 30_000_000 and first.index == 0
        assert camera.clock == "monotonic"
        assert camera.read() is None and camera.failures == 1
        second = camera.read()
        assert second is not None and second.t_ns == now - 10_000_000 and second.index == 1
        assert camera.failures == 0
        assert all(r.released for r in cam.requests)
    assert cam.closed


def test_sensor_timestamps_on_the_boot_clock_are_moved_to_the_monotonic_clock() -> None:
    # No suspend: the clocks agree, the timestamp is used as it is.
    assert sensor_timestamp_to_monotonic(990, 1_000, 1_000) == (990, "monotonic")
    # After 5 s of suspend a boottime stamp is "in the future" on the monotonic clock.
    suspended = 5_000_000_000
    stamp = 1_000_000_000 + suspended - 20_000_000
    assert sensor_timestamp_to_monotonic(stamp, 1_000_000_000, 1_000_000_000 + suspended) == (
        980_000_000,
        "boottime",
    )
    # A monotonic stamp after a suspend stays as it is.
    assert sensor_timestamp_to_monotonic(980_000_000, 1_000_000_000, 1_000_000_000 + suspended) == (
        980_000_000,
        "monotonic",
    )


# --- open_source ---------------------------------------------------------------------------------


def test_open_source_parses_folder_and_video_specs(tmp_path: Path) -> None:
    folder = tmp_path / "shots"
    write_folder(folder, ["a.png", "b.png"])
    video = tmp_path / "clip.avi"
    write_video(video, 2)
    before = frames.time.monotonic_ns()
    with open_source(f"folder:{folder}", fps=5.0) as source:
        assert isinstance(source, ImageFolderSource) and not source.lost
        first, second = (f.t_ns for f in source)
    assert before <= first <= frames.time.monotonic_ns() and second - first == 200_000_000  # a recording from now
    before = frames.time.monotonic_ns()
    with open_source(f"video:{video}") as source:
        assert isinstance(source, VideoFileSource)
        assert before <= next(iter(source)).t_ns <= frames.time.monotonic_ns()
    with open_source(str(folder)) as source:
        assert isinstance(source, ImageFolderSource) and source.fps == 10.0
    with open_source(str(video)) as source:
        assert isinstance(source, VideoFileSource)


def test_open_source_makes_cameras(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cv2, "VideoCapture", FakeCapture)
    FakeCapture.openable = True
    FakeCapture.opened = []
    assert isinstance(open_source("usb:0"), OpenCVCamera)
    assert isinstance(open_source("usb:/dev/video2", width=1280, height=720, fps=30), OpenCVCamera)
    assert FakeCapture.opened == [0, "/dev/video2"]
    made: list[FakePicamera2] = []
    monkeypatch.setitem(
        sys.modules, "picamera2", types.SimpleNamespace(Picamera2=lambda n=0: made.append(FakePicamera2(n)) or made[-1])
    )
    assert isinstance(open_source("picamera"), PiCamera2Source)
    assert isinstance(open_source("picamera:1", width=640, height=480), PiCamera2Source)
    assert made[1].config["main"]["size"] == (640, 480)


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("", "empty frame source"),
        ("rtsp://camera/stream", "unknown frame source 'rtsp://camera/stream'"),
        ("webcam:1", "unknown frame source 'webcam:1'"),
        ("usb:", "needs a device"),
        ("folder:", "needs a path"),
        ("picamera:left", "camera number"),
        ("no/such/place", "no such folder or file"),
    ],
)
def test_open_source_names_a_bad_spec(spec: str, message: str) -> None:
    with pytest.raises(FrameSourceError, match=message) as info:
        open_source(spec)
    if message.startswith(("unknown", "no such", "empty")):
        assert "usb:N, usb:/dev/videoN, picamera, folder:PATH, video:PATH" in str(info.value)


def test_open_source_names_a_missing_folder(tmp_path: Path) -> None:
    with pytest.raises(FrameSourceError, match="does not exist"):
        open_source(f"folder:{tmp_path / 'nope'}")


def test_picamera2_without_a_wait_timeout_still_works(monkeypatch: pytest.MonkeyPatch) -> None:
    class OldPicamera2(FakePicamera2):
        def wait(self, job: str) -> FakeRequest:  # type: ignore[override]
            return super().wait(job)

    monkeypatch.setitem(sys.modules, "picamera2", types.SimpleNamespace(Picamera2=OldPicamera2))
    FakePicamera2.queue = [{"SensorTimestamp": 5}]
    with PiCamera2Source() as camera:
        frame = camera.read()
    assert frame is not None and frame.t_ns == 5


def test_picamera2_frames_without_a_timestamp_count_as_failures(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "picamera2", types.SimpleNamespace(Picamera2=FakePicamera2))
    FakePicamera2.queue = [{"ExposureTime": 100}, RuntimeError("camera stopped")]
    with PiCamera2Source() as camera:
        assert camera.read() is None and camera.failures == 1 and not camera.lost
        assert camera.read() is None and camera.failures == 2 and camera.lost


def test_one_image_is_no_frame_source(tmp_path: Path) -> None:
    """A bare path to one image (a truncated JPEG made a video source that quietly ended)."""
    photo = tmp_path / "shot.jpg"
    cv2.imwrite(str(photo), np.zeros((20, 20, 3), np.uint8))
    with pytest.raises(FrameSourceError, match="is one image"):
        open_source(str(photo))
    with pytest.raises(FrameSourceError, match="is one image: give a camera, a video"):  # named as a video
        open_source(f"video:{photo}")


def test_a_still_picture_is_read_again_at_the_camera_rate_and_shows_what_replaced_it(tmp_path: Path) -> None:
    path = tmp_path / "table.png"
    cv2.imwrite(str(path), np.full((60, 80, 3), 10, np.uint8))
    source = open_source(f"still:{path}", fps=20.0)
    first, second = source.read(), source.read()
    assert first is not None and second is not None and int(first.image[0, 0, 0]) == 10
    assert second.t_ns - first.t_ns >= 50_000_000  # a twentieth of a second apart, or more
    fresh = tmp_path / "table.new.png"
    cv2.imwrite(str(fresh), np.full((60, 80, 3), 200, np.uint8))
    fresh.replace(path)
    third = source.read()
    assert third is not None and int(third.image[0, 0, 0]) == 200 and not source.ended
    with pytest.raises(FrameSourceError, match="does not exist"):
        open_source(f"still:{tmp_path / 'nothing.png'}")
    with pytest.raises(FrameSourceError, match="is not a file"):
        open_source(f"still:{tmp_path}")


def test_a_still_picture_gone_or_broken_for_a_while_is_a_lost_camera_until_one_is_read(tmp_path: Path) -> None:
    path = tmp_path / "table.png"
    cv2.imwrite(str(path), np.full((60, 80, 3), 10, np.uint8))
    whole = path.read_bytes()
    source = open_source(f"still:{path}", fps=50.0, lost_after_s=1.0)
    assert source.read() is not None and not source.lost
    path.write_bytes(whole[:100])  # a picture cut short, then none at all
    assert source.read() is None
    path.unlink()
    deadline = time.monotonic() + 5
    while not source.lost:
        assert source.read() is None and time.monotonic() < deadline
    path.write_bytes(whole)
    assert source.read() is not None and not source.lost

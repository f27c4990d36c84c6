"""The live table's loop: its CPU share and latency on the machine it runs on (the slap races: ``bench_races``).

Targets: the controller's whole loop fits in one core with room to spare at 15 frames a second
of 1280x720; from the last input a decision needs to the light command, under 50 ms at the 99th
percentile (the lateness window apart).
"""

from __future__ import annotations

import random
import resource
import tempfile
import threading
import time
from pathlib import Path

import cv2
import numpy as np

from sim.races import MS


def bench_live(seconds: float = 8.0, fps: int = 15) -> None:
    """``cardtable run``'s loop on a recording: 1280x720 frames at ``fps``, seven cards lying in
    the seats' zones and one more landing on the pile every half second, read by the real vision;
    seats pressed on gpiozero's mock pins about three times a second."""
    from sim.mock_gpio import press, release, timed_mock_factory
    from table.config import load_config
    from table.live import LiveTable

    with tempfile.TemporaryDirectory() as folder:
        config = load_config(_recording(Path(folder), round(seconds * fps), fps))
        factory = timed_mock_factory()
        table = LiveTable(config, pin_factory=factory)
        pressing = threading.Event()

        def presser() -> None:
            rng = random.Random(3)
            while not pressing.wait(rng.uniform(0.1, 0.5)):
                pin, now = rng.choice(config.seats.buttons), time.monotonic()
                press(factory, pin, now)
                release(factory, pin, now + 0.08)

        threading.Thread(target=presser, daemon=True).start()
        before, start = resource.getrusage(resource.RUSAGE_SELF), time.perf_counter()
        table.run(max_seconds=seconds + 2.0)  # the networks load first; the recording then plays
        after, wall = resource.getrusage(resource.RUSAGE_SELF), time.perf_counter() - start
        pressing.set()
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    camera = table.camera
    reading = camera.cpu_ns / max(camera.frames, 1) / 1e6
    print(
        f"the live loop, {camera.frames} frames of 1280x720 at {fps} a second ({seconds:g} s of recording, "
        f"{sum(len(g.decisions) for g in table.games)} decisions), {camera.read_frames} of them read "
        "(the others showed what the last one read showed: vision.gate):"
    )
    print(
        f"  CPU {cpu:.1f} s in {wall:.1f} s: {cpu / wall:.0%} of one core, the networks' loading included; "
        f"the camera reader {reading:.1f} ms of CPU a frame, {reading * fps / 10:.0f}% of a core at {fps} frames "
        "a second (the recording's PNG decoding apart, as a camera's frames come decoded)"
    )
    for title, values in (
        ("a frame's report handed over to the lights told", table.stats.frame_latencies_ns),
        ("the loop woken to the lights told", table.stats.latencies_ns),
    ):
        ms = np.array(values) / MS
        print(f"  {title}: median {np.median(ms):.2f} ms, 99th percentile {np.percentile(ms, 99):.2f} ms")


def _recording(folder: Path, count: int, fps: int) -> Path:
    """A configuration whose camera is a folder of rendered frames, and the frames."""
    from sim.render import CardPlacement, SceneSpec, render_scene
    from vision.calibration import calibrate_from_points

    rng = random.Random(11)
    codes = [f"{r}{s}" for r in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K") for s in "CDHS"]
    rng.shuffle(codes)
    seats = [CardPlacement(codes.pop(), x, y, rng.uniform(-20, 20), 150) for x, y in _SEAT_CARDS]
    pile: list[CardPlacement] = []
    shots = folder / "frames"
    shots.mkdir()
    noise = np.random.default_rng(11)
    picture = np.zeros((720, 1280, 3), np.float32)
    for i in range(count):
        if i % (fps // 2) == 0:  # a card lands on the pile: the table is drawn again
            x, y, turn = 640 + rng.uniform(-15, 15), 360 + rng.uniform(-10, 10), rng.uniform(0, 360)
            pile.append(CardPlacement(codes.pop(), x, y, turn, 150))
            spec = SceneSpec(width=1280, height=720, cards=tuple(seats + pile[-3:]), seed=7, noise=0.0)
            picture = render_scene(spec)[0].astype(np.float32)
        frame = np.clip(picture + noise.normal(0, 3.0, picture.shape), 0, 255).astype(np.uint8)  # fresh sensor noise
        cv2.imwrite(str(shots / f"frame-{i:04d}.png"), frame)
    table = [[0, 0], [800, 0], [800, 600], [0, 600]]
    calibrate_from_points([[80, 40], [1200, 40], [1200, 680], [80, 680]], table, (1280, 720)).save(
        folder / "calibration.json"
    )
    text = (Path(__file__).resolve().parents[1] / "table.example.toml").read_text(encoding="utf-8")
    text = text.replace('source = "usb:0"', 'source = "folder:frames"').replace("fps = 15", f"fps = {fps}")
    (folder / "table.toml").write_text(text, encoding="utf-8")
    return folder / "table.toml"


_SEAT_CARDS = [(640, 650), (440, 650), (120, 360), (120, 200), (640, 80), (840, 80), (1160, 360)]


def main() -> None:
    bench_live()


if __name__ == "__main__":
    main()

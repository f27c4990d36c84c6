"""A process reading frames uses one core (``vision.cores``): no thread pool spins beside it."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import cv2

from sim.render import random_scene, render_scene

ROOT = Path(__file__).resolve().parents[2]

# A child process, as the table's is: it holds its pools at one thread, reads the frame a few
# times to warm up, then prints the CPU time and the wall time of ten more reads, and the
# thread counts of OpenCV and of every pool threadpoolctl finds.
CHILD = """
import resource, sys, time
import cv2
from threadpoolctl import threadpool_info
from vision.cores import use_one_core
use_one_core()
from vision.identify import identify
frame = cv2.imread(sys.argv[1])
for _ in range(3):
    identify(frame)
usage, start = resource.getrusage(resource.RUSAGE_SELF), time.perf_counter()
for _ in range(10):
    identify(frame)
after, wall = resource.getrusage(resource.RUSAGE_SELF), time.perf_counter() - start
cpu = after.ru_utime - usage.ru_utime + after.ru_stime - usage.ru_stime
print(cpu, wall, cv2.getNumThreads(), *(pool["num_threads"] for pool in threadpool_info()))
"""


def test_reading_frames_takes_no_more_cpu_time_than_wall_time(tmp_path: Path) -> None:
    # Eight cards on a 1280x720 frame: the outline refiner's product is big enough for OpenBLAS
    # to share out, and its pool then kept a second thread spinning (69 ms of CPU a 35 ms frame).
    # One thread cannot use more CPU time than the time that passes, however busy the machine.
    frame = tmp_path / "frame.png"
    cv2.imwrite(str(frame), render_scene(random_scene(random.Random(5), 1280, 720, cards=8))[0])
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(frame)], cwd=ROOT, capture_output=True, text=True, check=True
    )
    cpu, wall, *threads = done.stdout.split()
    assert float(cpu) < 1.15 * float(wall), (cpu, wall)
    assert set(threads) == {"1"}, threads

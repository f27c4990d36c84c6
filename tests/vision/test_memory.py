"""Frames stop paying for fresh pages once the process keeps its freed memory (``vision.memory``)."""

from __future__ import annotations

import platform
import subprocess
import sys
from pathlib import Path

import cv2
import pytest

from sim.render import CardPlacement, SceneSpec, render_scene

ROOT = Path(__file__).resolve().parents[2]

# A child process reads the frame from a file, as a camera's process gets it (no renderer's heap
# behind it), reads it a few times to warm up, then counts the page faults of five more reads.
CHILD = """
import resource, sys
import cv2
from vision.memory import keep_freed_memory
keep = sys.argv[2] == "keep"
print("kept" if keep and keep_freed_memory() else "default")
from vision.identify import identify
frame = cv2.imread(sys.argv[1])
for _ in range(3):
    cards = identify(frame)
before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
for _ in range(5):
    assert [c.code for c in identify(frame)] == [c.code for c in cards]
print((resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before) / 5)
"""


def _faults_a_frame(frame: Path, keep: bool) -> tuple[str, float]:
    done = subprocess.run(
        [sys.executable, "-c", CHILD, str(frame), "keep" if keep else "default"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    how, faults = done.stdout.split()
    return how, float(faults)


@pytest.mark.skipif(platform.libc_ver()[0] != "glibc", reason="the allocator's knobs are glibc's")
def test_a_frame_read_again_reuses_the_pages_its_buffers_had(tmp_path: Path) -> None:
    # A pale carpet: the index search labels the ink marks of its grain all over the frame (on a
    # dark table the card read is all the paper in view and the search is left out, with its big
    # buffers; on a plain grey one only the box round the card's ink is labelled, and glibc's
    # own threshold, rising as big blocks are freed, served a frame's blocks from the heap in one
    # run of eight).
    spec = SceneSpec(cards=(CardPlacement("QH", 400, 300, 20.0, 200),), seed=3, noise=3.0, table="carpet")
    frame = tmp_path / "frame.png"
    cv2.imwrite(str(frame), render_scene(spec)[0])
    runs = [_faults_a_frame(frame, keep=True) for _ in range(2)]
    assert all(how == "kept" for how, _ in runs)
    kept = min(faults for _, faults in runs)  # other work on the machine only adds faults to a run
    # The same reads with the C library's defaults: each frame maps and zeroes pages anew. Kept,
    # a run faults 0 pages a frame mostly, now and then a 136 KB block's 34 pages once more
    # (measured over twenty runs: 0-13.6 a frame, 22.2 once in CI, 61-77 with both cores busy
    # with other work); by default some 1,500.
    _, default = _faults_a_frame(frame, keep=False)
    assert kept < 150 and default > 10 * max(kept, 1.0), (kept, default)

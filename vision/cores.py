"""Vision on one core: OpenCV's and numpy's BLAS thread pools held at one thread each.

The table reads frames on one core and leaves the other to the camera, the buttons and the
broker (the networks already run on one thread, ``vision.runtime``). numpy's OpenBLAS starts a
thread per core and, after a product big enough to share out (the outline refiner's), keeps
the other one spinning while it waits for more: measured on this project's 2-core machines,
identify used 69 ms of CPU for each 35 ms frame, and the same 35 ms with the pool held at one.
The answers are the same: OpenBLAS splits a product's rows and columns among its threads,
never the sums of one element, so every element is summed in the same order.
"""

from __future__ import annotations

import cv2
from threadpoolctl import threadpool_limits


def use_one_core() -> None:
    """Hold OpenCV's threads and every BLAS or OpenMP pool numpy loaded at one thread, for the
    rest of the process. Call it once, where a process that reads frames starts."""
    cv2.setNumThreads(1)
    threadpool_limits(limits=1)

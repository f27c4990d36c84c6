"""Frame-sized buffers served from memory the process already holds, not fresh from the kernel.

Every frame allocates the same few dozen buffers of a frame's size or a good part of it (a copy
in four channels to warp from, the darkest channel, threshold masks, label images). glibc's
``malloc`` serves big blocks by mapping new pages and gives them back on ``free``, so each frame
the kernel hands out, and zeroes, the same pages again: about 1,300 page faults an 800x600 frame
and 1,800 a 1280x720 one whose ink the index search labels all over (a pale carpet), a
millisecond or two of a 10 ms budget (``python -m benchmarks vision`` shows both). Raising the
two thresholds keeps such blocks in the heap and the heap's freed top in the process, so the
next frame reuses the pages. The cost is memory the process keeps: its
peak, a few tens of megabytes more than it would hold between frames.

Only glibc has these knobs (Raspberry Pi OS and Debian do); elsewhere nothing changes.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import platform

M_TRIM_THRESHOLD = -1  # mallopt's parameters (glibc's malloc.h)
M_MMAP_THRESHOLD = -3
MAPPED_FROM = 32 << 20  # bytes: blocks this big or bigger still get pages of their own
KEPT_FREE = 128 << 20  # bytes: freed memory at the heap's top given back past this much


def keep_freed_memory() -> bool:
    """Serve blocks under ``MAPPED_FROM`` from the heap and keep up to ``KEPT_FREE`` of it once
    freed, for the rest of the process. Returns whether the C library took both settings (False
    where it is not glibc). Call it once, where a long-running vision process starts."""
    if platform.libc_ver()[0] != "glibc":
        return False
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        mallopt = libc.mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes, mallopt.restype = (ctypes.c_int, ctypes.c_int), ctypes.c_int
    return mallopt(M_MMAP_THRESHOLD, MAPPED_FROM) == 1 and mallopt(M_TRIM_THRESHOLD, KEPT_FREE) == 1

"""Which camera frames are worth reading: the ones where something changed, and a few after.

At a card table most frames show what the frame before showed: the cards lie still between
plays. Reading a 1280x720 frame takes 30-90 ms of a core (more for piles); at 15 frames a second
that is more than the Pi has. The gate compares each frame with the last one read, as block means
of its grey picture (``CELL`` pixels square, which averages the sensor's noise away: a block's
mean wanders a few tenths of a grey level where a pixel's wanders three), and a frame is read
when any block moved by ``CHANGED`` grey levels or more: a card landing, a hand over the table,
the light changing. Block means keep still while a card's blur settles, so the ``SETTLE``
frames after a change are read too, and one frame in ``REFRESH`` is read whatever it shows.
A frame not read is given the last frame's readings, stamped with its own time: the picture
is the same, and the tracker's count of frames goes on.
"""

from __future__ import annotations

import cv2
import numpy as np

CELL = 16  # pixels: the side of the blocks compared
CHANGED = 8.0  # grey levels a block's mean must move by, against the last frame read
SETTLE = 3  # frames read after a change, whatever they show (a card's blur settling, a hand leaving)
REFRESH = 5  # one frame in this many is read anyway


class FrameGate:
    """Says of each frame whether to read it (``read``), from what it shows and what came before."""

    def __init__(self, changed: float = CHANGED, settle: int = SETTLE, refresh: int = REFRESH) -> None:
        if changed <= 0 or settle < 0 or refresh < 1:
            raise ValueError(f"gate: changed > 0, settle >= 0 and refresh >= 1, not {changed}, {settle}, {refresh}")
        self.changed, self.settle, self.refresh = changed, settle, refresh
        self._last: np.ndarray | None = None  # the block means of the last frame read
        self._settling = 0
        self._since_read = 0
        self.read_frames = 0
        self.skipped_frames = 0

    def read(self, image: np.ndarray) -> bool:
        """Whether to read this frame (BGR or grey)."""
        means = _block_means(image)
        moved = self._last is None or self._last.shape != means.shape or _moved(self._last, means) >= self.changed
        if moved:
            self._settling = self.settle
        elif self._settling > 0:
            self._settling -= 1
            moved = True
        if moved or self._since_read + 1 >= self.refresh:
            self._last, self._since_read = means, 0
            self.read_frames += 1
            return True
        self._since_read += 1
        self.skipped_frames += 1
        return False


def _block_means(image: np.ndarray) -> np.ndarray:
    grey = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    h, w = grey.shape
    return cv2.resize(grey, (max(1, w // CELL), max(1, h // CELL)), interpolation=cv2.INTER_AREA).astype(np.int16)


def _moved(before: np.ndarray, now: np.ndarray) -> float:
    return float(np.abs(now - before).max())

"""Whether a frame can show cards at all, said in one line for the person at the table.

A camera whose lens is covered hands out black frames; one facing a lamp or set far too bright,
white ones; one in its monochrome or infrared mode, frames without colour (red suits cannot be
told from black); a driver that failed, a flat grey or a sliver of a picture. None of these is
an error of the reader's: it reads no card in them, and the camera's owner is told why.
``frame_problem`` looks at every eighth pixel each way, a few hundredths of a millisecond for
a 1280 x 720 frame, so the live table asks it of every frame.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision.tuning import tuned


@dataclass(frozen=True)
class FrameCheckTuning:
    """The tuned numbers of telling frames that show nothing, each with its unit and why it has its value
    (``vision.tuning``: a test or an experiment reads with others)."""

    min_frame: int = 8  # pixels a side a frame needs to show a card at all
    black: int = 24  # grey levels: a frame whose brightest part (its 99th percentile) is this dark shows nothing
    white: int = 232  # ... whose darkest part (its 1st percentile) is this bright is washed out
    flat: float = 2.0  # grey levels: a frame varying less than this (its standard deviation) is one flat colour
    step: int = 8  # every eighth pixel each way is looked at


TUNING = FrameCheckTuning()


def frame_problem(image: object) -> str | None:
    """What keeps a frame from showing cards, in a few words, or None when it may show them."""
    tune = tuned(TUNING)
    if not isinstance(image, np.ndarray) or image.ndim not in (2, 3) or image.size == 0:
        return f"not a picture ({_kind(image)})"
    h, w = image.shape[:2]
    if min(h, w) < tune.min_frame:
        return f"only {w} x {h} pixels: too small to show a card"
    sample = image[:: tune.step, :: tune.step]
    if sample.dtype == np.uint16:
        sample = (sample >> 8).astype(np.uint8)
    grey = sample if sample.ndim == 2 else sample[..., :3].max(axis=2)
    darkest, brightest = np.percentile(grey, (1, 99))
    if brightest <= tune.black:
        return "black: the lens is covered or the room is dark"
    if darkest >= tune.white:
        return "white all over: the camera faces a light or its exposure is far too high"
    if float(grey.std()) < tune.flat:
        return "one flat colour: the camera shows no scene (its driver, or a cap on the lens)"
    if sample.ndim == 2 or sample.shape[2] == 1 or _same_channels(sample):
        return "no colour: red suits cannot be told from black (a monochrome or infrared camera mode)"
    return None


def _same_channels(sample: np.ndarray) -> bool:
    return bool(np.array_equal(sample[..., 0], sample[..., 1]) and np.array_equal(sample[..., 1], sample[..., 2]))


def _kind(image: object) -> str:
    if isinstance(image, np.ndarray):
        return f"an array of shape {image.shape}"
    return type(image).__name__


def colourless(image: np.ndarray) -> bool:
    """Whether a frame has no colour: grey, or its three channels equal (a monochrome or infrared
    camera, a picture saved grey), judged on every eighth pixel each way. The corner networks
    tell red suits from black by colour first: in grey they read hearts as clubs, surely."""
    tune = tuned(TUNING)
    if image.ndim == 2 or image.shape[2] == 1:
        return True
    return _same_channels(image[:: tune.step, :: tune.step])


class ProblemWatch:
    """A camera's frame problem that lasts: said once it has lasted ``after_ns`` (a hand over the
    lens for a moment is no fault), and taken back at the first frame without it."""

    def __init__(self, after_ns: int) -> None:
        self.after_ns = after_ns
        self.since: int | None = None  # when the frames' present problem began
        self.said: str | None = None  # the problem last said, until it is taken back

    def see(self, image: np.ndarray, t_ns: int) -> tuple[bool, str | None]:
        """Whether what is said changes with this frame, and what is said now (None: all is well)."""
        problem = frame_problem(image)
        if problem is None:
            self.since = None
            changed, self.said = self.said is not None, None
            return changed, None
        if self.since is None:
            self.since = t_ns
        if t_ns - self.since >= self.after_ns and problem != self.said:
            self.said = problem
            return True, problem
        return False, self.said

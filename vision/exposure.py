"""Whether a camera's frames are overexposed where reading needs them: the cards' paper round
their indices.

A webcam on automatic exposure sets it for the table, and over a dark cloth it clips the cards'
paper to pure white: a red index's pale strokes clip with it, and a court's index reads as a
number (the troubleshooting's first advice is to turn the exposure down).
A clipped pixel shows no ink, so the share of the read cards' index corners that is white in all
three channels tells an overexposed frame. Measured on the cards read in the photographs: 38-78%
of the corners' pixels in each of the webcam's frames, none in the phone's; 3 of 60 rendered
scenes (the brightest light the renderer draws) reach 25%.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from vision.detect import CardQuad, warp_source
from vision.outline_reader import warp_corners
from vision.reader import BACK
from vision.seen import SeenCard
from vision.tuning import tuned


@dataclass(frozen=True)
class ExposureTuning:
    """The tuned numbers of judging a camera's exposure, each with its unit and why it has its value
    (``vision.tuning``: a test or an experiment reads with others)."""

    clipped: int = 250  # each channel this bright or more: the camera's white, no detail left
    overexposed: float = 0.25  # this share of the read cards' corners clipped: the frame is overexposed


TUNING = ExposureTuning()


def clipped_share(image: np.ndarray, cards: Sequence[SeenCard]) -> float | None:
    """The share of the pixels of the face-up cards' index corners (read, not lying under
    others) that are clipped white in every channel; None when the frame shows no such card."""
    tune = tuned(TUNING)
    quads = [CardQuad(c.corners, 1.0) for c in cards if c.code not in (None, BACK) and not c.covered]
    if not quads or image.ndim != 3:
        return None
    source = warp_source(image)
    shares = [float(np.mean(corner.min(axis=2) >= tune.clipped)) for q in quads for corner in warp_corners(source, q)]
    return float(np.mean(shares))


def overexposure_advice(image: np.ndarray, cards: Sequence[SeenCard]) -> str | None:
    """A line for the person setting the camera up when the frame is overexposed, else None."""
    tune = tuned(TUNING)
    share = clipped_share(image, cards)
    if share is None or share < tune.overexposed:
        return None
    return (
        f"overexposed: {share:.0%} of the cards' corners are clipped white, where pale ink is lost; "
        "turn the camera's exposure down (README: 'Troubleshooting')"
    )

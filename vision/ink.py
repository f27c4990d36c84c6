"""Ink on a warped card: where it is, how red it is, how many colours it comes in.

Every witness of a card (its index's colour, its pips, a picture, a back's pattern) asks the
same few questions of the same pixels, each of its own part of the card. ``Planes`` answers the
per-pixel part once a card (the darkest channel, the redness, hue and saturation), and each
witness cuts its part from those, with the same results as converting each crop (every plane
is computed pixel by pixel) and about a tenth less time a card read.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

RED_INK = 25  # median redness (red over the other two channels, grey levels) of a red index
HUE_BINS = 11  # OpenCV's 0-180 hue in steps of 15, the last bin folded into the first
HUE_STEP = 15  # hue units a bin spans
ONE_INK = 4.0  # hue spread (standard deviation) under which two neighbouring bins' pixels are one ink
PAPER_LEVEL = 200  # flattened darkest channel at and above which a pixel is paper (inks: 150 and under)
PAPER_TINTED = 1.15  # paper whose brightest channel is this many times its darkest one is tinted


@dataclass(frozen=True, eq=False)
class Planes:
    """A BGR picture (a warped card, or part of one) with its per-pixel planes: the darkest
    channel (ink of any colour is dark in it, paper stays bright), the redness (red over the
    other two channels, signed) and HSV."""

    bgr: np.ndarray
    low: np.ndarray
    redness: np.ndarray
    hsv: np.ndarray

    @classmethod
    def of(cls, image: np.ndarray, cell: int | None = None) -> Planes:
        """The planes of a BGR picture; ``cell``: ``flattened``'s, for a picture smaller than a
        warped card's full size."""
        image = np.ascontiguousarray(image)
        b, g, r = (np.ascontiguousarray(image[:, :, i]) for i in range(3))  # cv2.split takes 3 times as long
        return cls(
            image,
            flattened(darkest(image), cell or PAPER_CELL),
            cv2.subtract(r, cv2.max(b, g), dtype=cv2.CV_16S),
            cv2.cvtColor(image, cv2.COLOR_BGR2HSV),
        )

    def cut(self, top: int, bottom: int, left: int, right: int) -> Planes:
        """The planes of a part of the picture (views, no copies): rows top:bottom, columns left:right."""
        rows, cols = slice(top, bottom), slice(left, right)
        return Planes(self.bgr[rows, cols], self.low[rows, cols], self.redness[rows, cols], self.hsv[rows, cols])

    def turned(self) -> Planes:
        """The planes turned half round (the bottom-right index, upright)."""
        return Planes(*(cv2.flip(p, -1) for p in (self.bgr, self.low, self.redness, self.hsv)))

    @property
    def shape(self) -> tuple[int, int]:
        return self.low.shape[:2]


_ACROSS_PIXEL = np.ones((1, 3), np.uint8)  # one pixel's three channels, side by side in a row


def darkest(image: np.ndarray) -> np.ndarray:
    """The darkest of a picture's channels at each pixel (ink of any colour is dark in it, paper
    is not): each row's interleaved channels eroded three wide, so that each pixel's green
    byte takes the least of its blue, green and red; five times as fast as splitting the
    channels on one core (a grey picture is its own). OpenCV takes the green bytes out in
    two thirds of numpy's time for a strided copy (0.2 ms against 0.3 on a 1280 x 720 frame)."""
    if image.ndim == 2:
        return image
    h, w = image.shape[:2]
    rows = np.ascontiguousarray(image).reshape(h, w * 3)
    return cv2.extractChannel(cv2.erode(rows, _ACROSS_PIXEL).reshape(h, w, 3), 1)


PAPER_CELL = 24  # pixels of a full-size warped card: the paper's brightness is the brightest in cells this big
PAPER_REACH = 3  # cells: how far the paper round a wholly inked cell is looked for
PAPER_FALL = 0.85  # ... each cell away, its brightness counts this much (light falls off across a card)


def flattened(low: np.ndarray, cell: int = PAPER_CELL) -> np.ndarray:
    """The darkest channel with the light's fall across the card taken out: each pixel over the
    paper's brightness round it (the brightest in each cell, smoothed), so that pips in the
    shade of a hand or the far side of a lamp's pool are as dark against their paper as the
    ones in the light, and one threshold finds them all."""
    h, w = low.shape
    rows, cols = max(1, h // cell), max(1, w // cell)
    if rows < 2 and cols < 2:
        return low
    cut = low[: rows * cell, : cols * cell]  # each cell's brightest: down its rows, then along
    cells = cut.reshape(rows, cell, -1).max(axis=1).reshape(rows, cols, cell).max(axis=2)
    # A cell wholly inked (a picture, a big pip) is no sample of the paper: the paper round it
    # is, a little darker each cell away (as light falls off); a few cells reach an ace's middle.
    cells = cells.astype(np.float32)
    for _ in range(PAPER_REACH):
        cells = np.maximum(cells, cv2.dilate(cells, np.ones((3, 3), np.uint8)) * PAPER_FALL)
    paper = cv2.resize(cv2.GaussianBlur(cells, (3, 3), 0), (w, h), interpolation=cv2.INTER_LINEAR)
    lifted = cv2.multiply(low.astype(np.float32), 255.0 / np.maximum(paper, 16.0))
    return cv2.threshold(lifted, 255, 255, cv2.THRESH_TRUNC)[1].astype(np.uint8)  # as np.clip, twice as fast


def planes(image: np.ndarray | Planes) -> Planes:
    """A picture's planes, computing them unless they are given."""
    return image if isinstance(image, Planes) else Planes.of(image)


def ink_mask(image: np.ndarray | Planes) -> tuple[float, np.ndarray]:
    """Where the ink is (Otsu's threshold on the darkest channel), and that threshold: a low one
    means there is little contrast, so little ink, to speak of."""
    level, ink = cv2.threshold(255 - planes(image).low, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    return level, ink


def median_redness(redness: np.ndarray) -> float:
    """The median of a set of pixels' redness (``Planes.redness`` cut by a mask)."""
    return float(np.median(redness))


def components(ink: np.ndarray) -> tuple[int, np.ndarray, np.ndarray]:
    """Connected blobs of a mask (8-connected): their count, label image and stats (Grana's
    algorithm: the same blobs, in a third of the default's time on a card)."""
    count, labels, stats, _ = cv2.connectedComponentsWithStatsWithAlgorithm(ink, 8, cv2.CV_32S, cv2.CCL_GRANA)
    return count, labels, stats


def hue_histogram(hues: np.ndarray) -> np.ndarray:
    """How many of the inked pixels' ``hues`` (``hsv[:, :, 0][inked]``) fall in each of the hue
    bins (red sits at both ends of the hue circle, so the last bin is folded into the first)."""
    hist = np.bincount((hues // HUE_STEP).ravel(), minlength=HUE_BINS + 1).astype(np.float64)
    hist[0] += hist[HUE_BINS]
    return hist[:HUE_BINS]


def inks(image: np.ndarray | Planes) -> int:
    """How many distinct coloured inks cover a real share of the picture (black and white not
    counted). One ink whose hues straddle two bins counts once: a webcam's colour cast turns
    black pips dark blue, on a bin's border, and two inks would make them a picture. Paper is
    no ink however a warm lamp tints it: where two show, they are counted again on the picture
    balanced to grey paper (``paper_balanced``), which a lamp's yellow and the orange fringe
    it gives red pips do not survive."""
    image = planes(image)
    count = _inks(image.hsv)
    if count >= 2 and (balanced := paper_balanced(image)) is not None:
        count = _inks(cv2.cvtColor(balanced, cv2.COLOR_BGR2HSV))
    return count


def paper_balanced(image: Planes) -> np.ndarray | None:
    """The picture (BGR) with its channels scaled so that its paper is grey, when the paper is
    tinted (one channel ``PAPER_TINTED`` times another or more); None when it is not, or when
    little of the picture is paper (the pixels at least ``PAPER_LEVEL`` in the flattened darkest
    channel: ink is far darker)."""
    paper = (image.low >= PAPER_LEVEL).astype(np.uint8)
    if cv2.countNonZero(paper) < 0.1 * paper.size:
        return None
    colour = np.maximum(np.array(cv2.mean(image.bgr, mask=paper)[:3], np.float32), 1.0)
    if colour.max() < PAPER_TINTED * colour.min():
        return None
    return np.clip(image.bgr * (colour.max() / colour), 0, 255).astype(np.uint8)


def _inks(hsv: np.ndarray) -> int:
    """``inks`` of a picture's HSV planes."""
    inked = (hsv[:, :, 1] > 80) & (hsv[:, :, 2] > 60)
    hues = hsv[:, :, 0][inked]
    shown = hue_histogram(hues) > 0.02 * inked.size
    count = int(shown.sum())
    if count < 2:
        return count
    hue = hues.astype(np.float32)
    for b in np.flatnonzero(shown & np.roll(shown, -1)):
        start = 180 - HUE_STEP if b == 0 else HUE_STEP * b  # bin 0 holds the fold, two steps wide
        span = HUE_STEP * (3 if b in (0, HUE_BINS - 1) else 2)
        pair = (hue - start) % 180
        pair = pair[pair < span]
        if pair.size and float(pair.std()) < ONE_INK:
            count -= 1
    return count


def ink_redness(corner: np.ndarray | Planes) -> float:
    """How red a corner's index is (its topmost mark clear of the crop's top and sides: a joker's
    J, or its letters blurred into one column running on past the crop's foot): its median
    redness (red over the other two channels); above ``RED_INK`` it is red ink.

    Only that mark is asked: a printed border line, a court frame or the joker's picture share
    the corner and may be any colour."""
    corner = planes(corner)
    _, ink = ink_mask(corner)
    count, labels, stats = components(ink)
    h, w = ink.shape
    marks = [
        i
        for i in range(1, count)
        if stats[i, 0] > 0 and stats[i, 1] > 0 and stats[i, 0] + stats[i, 2] < w and stats[i, 3] >= 0.05 * h
    ]
    if not marks:
        return 0.0
    top = min(marks, key=lambda i: stats[i, 1])
    x, y, bw, bh = stats[top, :4]
    box = (slice(y, y + bh), slice(x, x + bw))
    return median_redness(corner.redness[box][labels[box] == top])


def ink_is_red(corner: np.ndarray | Planes) -> bool:
    return ink_redness(corner) > RED_INK

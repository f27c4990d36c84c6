"""Ink on a warped card: where it is, how red it is, how many colours it comes in.

Every witness of a card (its index's colour, its pips, a picture, a back's pattern) asks the
same few questions of the same pixels, each of its own part of the card. ``Planes`` answers the
per-pixel part once a card (the darkest channel, the redness, hue and saturation), and each
witness cuts its part from those, with the same results as converting each crop (every plane
is computed pixel by pixel) and about a tenth less time a card read.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import cv2
import numpy as np

from vision.tuning import tuned


@dataclass(frozen=True)
class InkTuning:
    """The tuned numbers of telling ink from paper, each with its unit and why it has its value
    (``vision.tuning``: a test or an experiment reads with others)."""

    # An index's mark is drawn this thick at least (its ink over its longest side), of its corner's
    # crop's width: a joker's letters 0.08-0.23, a ten's 1 0.07 (rendered designs, sharp and blurred,
    # on the half-size face). A printed border line inside the card's edge, its corner's bracket or
    # the pieces of a faint one are thinner (0.03-0.05), and such a line runs past the crop's foot as
    # a joker's letters blurred into one column do: a red joker's black border taken for his letters
    # would make him black.
    mark_stroke: float = 0.06
    mark_contrast: int = 10  # grey levels: a mark fainter than this against its paper counts as this faint
    # An index's ink is red above this share of red (``mark_red_share``). Measured on the jokers'
    # corners of 300 random rendered scenes (half in hard light): black ink -0.17-0.59 (99% under
    # 0.29), red -0.08-0.99 (99% over 0.43).
    red_share: float = 0.36
    red_ink: int = 25  # median redness (red over the other two channels, grey levels) of a red index
    hue_bins: int = 11  # OpenCV's 0-180 hue in steps of 15, the last bin folded into the first
    hue_step: int = 15  # hue units a bin spans
    one_ink: float = 4.0  # hue spread (standard deviation) under which two neighbouring bins' pixels are one ink
    paper_level: int = 200  # flattened darkest channel at and above which a pixel is paper (inks: 150 and under)
    paper_tinted: float = 1.15  # paper whose brightest channel is this many times its darkest one is tinted
    paper_cell: int = 24  # pixels of a full-size warped card: the paper's brightness is the brightest in cells this big
    paper_reach: int = 3  # cells: how far the paper round a wholly inked cell is looked for
    paper_fall: float = 0.85  # ... each cell away, its brightness counts this much (light falls off across a card)
    # The least gap between a deck's blacks and reds that tells them apart: the cheap webcam's look
    # leaves 0.11 on the vintage design's dull reds (0.2-0.7 elsewhere); a red photographed in a
    # light with no colour, 0.01.
    ink_gap: float = 0.08
    # a table's black indices lie at most 0.01 redder than the deck's enrolment photos' (rendered looks)
    ink_slack: float = 0.02
    # the share of the gap between a deck's blacks and reds, either side of its middle, that says neither
    ink_doubt: float = 0.25


TUNING = InkTuning()


@dataclass(frozen=True, eq=False)
class Planes:
    """A BGR picture (a warped card, or part of one) with its per-pixel planes: the darkest
    channel (ink of any colour is dark in it, paper stays bright) flattened (``low``) and as lit
    (``dark``), the redness (red over the other two channels, signed) and HSV."""

    bgr: np.ndarray
    low: np.ndarray
    redness: np.ndarray
    hsv: np.ndarray
    dark: np.ndarray

    @classmethod
    def of(cls, image: np.ndarray, cell: int | None = None) -> Planes:
        """The planes of a BGR picture; ``cell``: ``flattened``'s, for a picture smaller than a
        warped card's full size."""
        tune = tuned(TUNING)
        image = np.ascontiguousarray(image)
        b, g, r = cv2.split(image)  # a third of numpy's strided copies' time on a warped card
        dark = _least(b, g, r)
        return cls(
            image,
            flattened(dark, cell or tune.paper_cell),
            cv2.subtract(r, cv2.max(b, g), dtype=cv2.CV_16S),
            cv2.cvtColor(image, cv2.COLOR_BGR2HSV),
            dark,
        )

    def cut(self, top: int, bottom: int, left: int, right: int) -> Planes:
        """The planes of a part of the picture (views, no copies): rows top:bottom, columns left:right."""
        rows, cols = slice(top, bottom), slice(left, right)
        return Planes(*(p[rows, cols] for p in (self.bgr, self.low, self.redness, self.hsv, self.dark)))

    def turned(self) -> Planes:
        """The planes turned half round (the bottom-right index, upright)."""
        return Planes(*(cv2.flip(p, -1) for p in (self.bgr, self.low, self.redness, self.hsv, self.dark)))

    @property
    def shape(self) -> tuple[int, int]:
        return self.low.shape[:2]


def darkest(image: np.ndarray) -> np.ndarray:
    """The darkest of a picture's channels at each pixel (ink of any colour is dark in it, paper
    is not); a grey picture is its own. Split by OpenCV and taken the least of, pixel by pixel:
    a fraction of a millisecond a 1280 x 720 frame, where numpy's least over the channels
    takes tens."""
    if image.ndim == 2:
        return image
    return _least(*cv2.split(image))


def _least(b: np.ndarray, g: np.ndarray, r: np.ndarray) -> np.ndarray:
    """The least of three channels, pixel by pixel: the darkest channel (``darkest``)."""
    return cv2.min(cv2.min(b, g), r)


def flattened(low: np.ndarray, cell: int | None = None) -> np.ndarray:
    """The darkest channel with the light's fall across the card taken out: each pixel over the
    paper's brightness round it (the brightest in each cell, ``paper_cell`` by default,
    smoothed), so that pips in the shade of a hand or the far side of a lamp's pool are as dark
    against their paper as the ones in the light, and one threshold finds them all."""
    tune = tuned(TUNING)
    cell = tune.paper_cell if cell is None else cell
    h, w = low.shape
    rows, cols = max(1, h // cell), max(1, w // cell)
    if rows < 2 and cols < 2:
        return low
    cut = low[: rows * cell, : cols * cell]  # each cell's brightest: down its rows, then along
    cells = cut.reshape(rows, cell, -1).max(axis=1).reshape(rows, cols, cell).max(axis=2)
    # A cell wholly inked (a picture, a big pip) is no sample of the paper: the paper round it
    # is, a little darker each cell away (as light falls off); a few cells reach an ace's middle.
    cells = cells.astype(np.float32)
    for _ in range(tune.paper_reach):
        cells = np.maximum(cells, cv2.dilate(cells, np.ones((3, 3), np.uint8)) * tune.paper_fall)
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
    """The median of a set of pixels' redness (``Planes.redness``, whole numbers, cut by a mask):
    ``np.median``'s value (NaN for none), from one partition of the values; a third of its time
    on a pip's or a mark's few hundred pixels, asked some twenty times a frame."""
    values = np.asarray(redness).ravel()
    half = values.size // 2
    if values.size % 2:
        return float(np.partition(values, half)[half])
    if not values.size:
        return float("nan")
    low, high = np.partition(values, (half - 1, half))[half - 1 : half + 1]
    return (float(low) + float(high)) / 2


def components(ink: np.ndarray) -> tuple[int, np.ndarray, np.ndarray]:
    """Connected blobs of a mask (8-connected): their count, label image and stats (``labelled``)."""
    count, labels, stats, _ = labelled(ink)
    return count, labels, stats


def labelled(mask: np.ndarray) -> tuple[int, np.ndarray, np.ndarray, np.ndarray]:
    """``cv2.connectedComponentsWithStats`` of a mask (8-connected): the blobs' count, label
    image, stats and centres. Grana's algorithm: the same blobs, in a third of the default's
    time on a card. OpenCV's takes twice as long where a side is odd (a half-size face is 125
    pixels wide; 1280 x 721 took 4.6 ms against 2.1), so such a mask is labelled with a row or
    column of background added, and its labels cut back: the same labels, and the same stats
    and centres but the background's (row 0, which counts the added pixels too)."""
    h, w = mask.shape[:2]
    if h % 2 or w % 2:
        mask = cv2.copyMakeBorder(mask, 0, h % 2, 0, w % 2, cv2.BORDER_CONSTANT, value=0)
    count, labels, stats, centres = cv2.connectedComponentsWithStatsWithAlgorithm(mask, 8, cv2.CV_32S, cv2.CCL_GRANA)
    return count, labels[:h, :w], stats, centres


def hue_histogram(hues: np.ndarray) -> np.ndarray:
    """How many of the inked pixels' ``hues`` (``hsv[:, :, 0][inked]``) fall in each of the hue
    bins (red sits at both ends of the hue circle, so the last bin is folded into the first)."""
    tune = tuned(TUNING)
    hist = np.bincount((hues // tune.hue_step).ravel(), minlength=tune.hue_bins + 1).astype(np.float64)
    hist[0] += hist[tune.hue_bins]
    return hist[: tune.hue_bins]


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
    tinted (one channel ``paper_tinted`` times another or more); None when it is not, or when
    little of the picture is paper (the pixels at least ``paper_level`` in the flattened darkest
    channel: ink is far darker)."""
    tune = tuned(TUNING)
    paper = (image.low >= tune.paper_level).astype(np.uint8)
    if cv2.countNonZero(paper) < 0.1 * paper.size:
        return None
    colour = np.maximum(np.array(cv2.mean(image.bgr, mask=paper)[:3], np.float32), 1.0)
    if colour.max() < tune.paper_tinted * colour.min():
        return None
    return np.clip(image.bgr * (colour.max() / colour), 0, 255).astype(np.uint8)


def _inks(hsv: np.ndarray) -> int:
    """``inks`` of a picture's HSV planes."""
    tune = tuned(TUNING)
    inked = (hsv[:, :, 1] > 80) & (hsv[:, :, 2] > 60)
    hues = hsv[:, :, 0][inked]
    shown = hue_histogram(hues) > 0.02 * inked.size
    count = int(shown.sum())
    if count < 2:
        return count
    hue = hues.astype(np.float32)
    for b in np.flatnonzero(shown & np.roll(shown, -1)):
        start = 180 - tune.hue_step if b == 0 else tune.hue_step * b  # bin 0 holds the fold, two steps wide
        span = tune.hue_step * (3 if b in (0, tune.hue_bins - 1) else 2)
        pair = (hue - start) % 180
        pair = pair[pair < span]
        if pair.size and float(pair.std()) < tune.one_ink:
            count -= 1
    return count


def ink_redness(corner: np.ndarray | Planes) -> float:
    """How red a corner's index is (``mark_redness``), 0 (black) where no mark shows."""
    redness = mark_redness(corner)
    return 0.0 if redness is None else redness


def mark_redness(corner: np.ndarray | Planes) -> float | None:
    """How red a corner's index is (``index_mark``): its median redness (red over the other two
    channels); above ``red_ink`` it is red ink. None where no mark shows."""
    corner = planes(corner)
    mark = index_mark(corner)
    return None if mark is None else median_redness(corner.redness[mark[0]][mark[1]])


def mark_red_share(corner: np.ndarray | Planes) -> float | None:
    """How much of an index's ink is red: each mark's median redness over how much darker than
    the paper its darkest channel is (both scale with the light), the median over the marks
    (``index_marks``: a joker's letters outnumber the pieces of a border line beside them).
    Black ink shows -0.2-0.3, red 0.5 and up however pale it prints: a red index washed out
    towards the paper (a webcam's overexposure) keeps that share, where its redness falls under
    ``red_ink``. None where no mark shows."""
    corner = planes(corner)
    marks = list(index_marks(corner))
    if not marks:
        return None
    paper = float(np.percentile(corner.dark, 95))
    return float(np.median([_red_share(corner, paper, box, inked) for box, inked in marks]))


def red_share(part: Planes, box: tuple[slice, slice], inked: np.ndarray) -> float:
    """How much of some ink is red (its mask ``inked`` in the ``box`` of ``part``): its median
    redness over how much darker than the part's paper its darkest channel is, as
    ``mark_red_share`` judges an index's marks; both scale with the light and the camera's
    contrast, so a webcam's dull dark reds and a dim room's keep a share far above black's."""
    return _red_share(part, float(np.percentile(part.dark, 95)), box, inked)


def _red_share(part: Planes, paper: float, box: tuple[slice, slice], inked: np.ndarray) -> float:
    """``red_share`` against the part's ``paper`` (its darkest channel's 95th percentile)."""
    tune = tuned(TUNING)
    dark = float(np.median(part.dark[box][inked]))
    return median_redness(part.redness[box][inked]) / max(paper - dark, tune.mark_contrast)


@dataclass(frozen=True)
class IndexInks:
    """An enrolled deck's index inks as its camera shows them (``mark_red_share``): the reddest
    share its black indices showed and the least red share its red ones did. A webcam's dull
    reds show a third to a fifth of the share a good camera's do, and far from ``red_share``, but still
    apart from its blacks: judged against the deck's own inks, they are red again."""

    black_most: float
    red_least: float

    @classmethod
    def learnt(cls, black: list[float], red: list[float]) -> IndexInks | None:
        """The inks from the shares of a deck's black and red indices; None where either is
        missing or the two lie closer than ``ink_gap`` (the camera does not tell them apart)."""
        tune = tuned(TUNING)
        if not black or not red or min(red) - max(black) < tune.ink_gap:
            return None
        return cls(max(black), min(red))

    def colour(self, share: float | None) -> bool | None:
        """Red (True) or black (False) for an index's share, or None: a share in the middle
        half of the gap between the deck's blacks and reds (or none) says neither, and so does
        one redder than the deck's blacks by more than ``ink_slack``: a worse camera than the
        one the deck was enrolled with (a phone's photos, a webcam at the table) shows reds
        duller, never blacks redder."""
        tune = tuned(TUNING)
        if share is None:
            return None
        middle, reach = (self.black_most + self.red_least) / 2, (self.red_least - self.black_most) * tune.ink_doubt
        if share > middle + reach:
            return True
        return False if share < min(middle - reach, self.black_most + tune.ink_slack) else None


def index_mark(corner: Planes) -> tuple[tuple[slice, slice], np.ndarray] | None:
    """A corner's index mark, its box and its mask there: the topmost of ``index_marks`` (a
    joker's J, or its letters blurred into one column), None where none shows. Only that mark
    is asked: a printed border line, a court frame or the joker's picture share the corner and
    may be any colour."""
    return next(index_marks(corner), None)


def index_marks(corner: Planes) -> Iterator[tuple[tuple[slice, slice], np.ndarray]]:
    """The marks of a corner's index, the topmost first, each its box and its mask there (cut
    as asked: most callers want the first only): what ink lies clear of the crop's top and
    sides (letters blurred into one column may run on past its foot), a twentieth of its height
    at least, and thicker than a line (``mark_stroke``); none where the index is too pale for
    its paper lit unevenly (the ink mask takes the paper too)."""
    tune = tuned(TUNING)
    _, ink = ink_mask(corner)
    _, labels, stats = components(ink)
    h, w = ink.shape
    x, y, bw, bh, area = (stats[:, k] for k in range(5))
    kept = (x > 0) & (y > 0) & (x + bw < w) & (bh >= 0.05 * h) & (area >= tune.mark_stroke * w * np.maximum(bw, bh))
    for i in sorted(np.flatnonzero(kept[1:]) + 1, key=lambda i: y[i]):
        box = (slice(y[i], y[i] + bh[i]), slice(x[i], x[i] + bw[i]))
        yield box, labels[box] == i

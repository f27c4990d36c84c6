"""The middle of a warped card as a witness that does not depend on the deck's font: the number
of pips (or a picture), the big pips' suit, the ink the pips are printed in, and a back's pattern.

Every function takes a warped card (BGR) or its ``ink.Planes``; ``reader.read_cards`` computes
the planes once a card and hands them to each witness.
"""

from __future__ import annotations

from dataclasses import dataclass
from statistics import median

import cv2
import numpy as np

from vision.ink import TUNING as INK_TUNING
from vision.ink import (
    Planes,
    components,
    hue_histogram,
    ink_mask,
    ink_redness,
    inks,
    median_redness,
    planes,
    red_share,
)
from vision.tuning import tuned

CORNER_W, CORNER_H = 0.25, 0.36  # the index region, as fractions of the card
PIP_RANKS = {1: "A", **{n: str(n) for n in range(2, 11)}}


@dataclass(frozen=True)
class MiddleTuning:
    """The tuned numbers of reading a card's middle, each with its unit and why it has its value
    (``vision.tuning``: a test or an experiment reads with others)."""

    picture_inks: int = 2  # coloured inks that make the middle a picture: pips have one (some figures only two)
    back_inked: float = 0.3  # share of the middle in saturated ink, at least, for a back (pale stripes: 0.42)
    # share of the middle as white as the card's paper, at most, for a back (faces: 0.5 and up)
    back_paper: float = 0.35
    # A back turned half round correlates with itself this much at least (``turned_alike``): rendered
    # backs 0.33-1.0 (every design), patches of brown wood and print taken for backs -0.45-0.3.
    back_turned: float = 0.2
    turn_size: tuple[int, int] = (50, 70)  # the card's picture is compared at this size (a warped card's, a fifth)
    ace_place: float = 0.12  # an ace's one pip lies this close to the middle's centre (its width and height)
    ace_specks: float = 0.2  # ... and nothing else inked there is this big beside it (a speck of the index or a fleck)
    blocking: float = 3.0  # ... a blob running off the middle's top or bottom this many times the biggest pip inside
    # a picture's frame, a line round it, fills less of its box than this (a shadow's wedge: half or more)
    frame_fill: float = 0.4
    # of the card's height: a pip whose centre lies above this is upright (pips turn at the middle)
    above_middle: float = 0.45
    # a face this wide (a full-size warp) is opened 2 x 2 against specks; a half-size one is not
    speckled_width: int = 200
    # A club's four notches are this deep, of the pip's size, at least: an ace's big club turned
    # either way up. Measured on the warped aces of 300 random rendered scenes (five designs, a
    # third in hard light): the fourth notch 0.065-0.133 of a club, 0.010-0.016 of a spade; on the
    # photographs' aces 0.15-0.23 and 0.011-0.019 (a spade crossed by a shadow's edge notches a
    # third time, 0.08-0.15).
    club_notch: float = 0.04
    # Upright black pips a quarter of the way down are this much wider than a tenth (of their
    # widest), as a pips' median: a spade's point widens steadily, a club's round leaf hardly. A
    # camera's blur widens a spade's point a tenth of the way down to a club's leaf (the one measure
    # ``pip_suit`` takes); it widens both heights alike. Measured on the black pip cards of 600
    # random rendered scenes in hard light (blur 0.7-2 pixels): a club 0.04-0.29 (median 0.13), a
    # spade 0.13-0.38 (median 0.27); on the photographs a club 0.02-0.07, a spade 0.26-0.33. The
    # notches and the point a tenth of the way down settle the pips these widenings leave between.
    spade_widening: float = 0.26
    club_widening: float = 0.17
    pip_sizes: float = 0.2  # a counted pip's width and height lie this close to the pips' median, at most
    least_pips: int = 3  # alike whole pips, at least, that rule out the ranks with fewer pips where no count is said
    pips_alike: float = 0.15  # two of a card's pips differ this much at most in width, height and ink
    measured_pips: int = 3  # a black card's pips whose shapes are measured, at most (each one a few hundredths of a ms)
    small_pip: int = 24  # pixels high: a pip smaller than this is measured finer (``_finer``)
    # left, right, top, bottom of a card: where a court's big pip lies
    court_pip_at: tuple[float, float, float, float] = (0.1, 0.5, 0.03, 0.3)
    # of the card's height: how tall it is, least and most (an inner index's rank: 0.074)
    court_pip_h: tuple[float, float] = (0.1, 0.2)
    # the share of its box it fills, at least (a pip is solid; the figure's lines are not)
    court_pip_solid: float = 0.45
    black_ink: int = 0  # median redness of ink that is surely black (a red index, small and blurred, fades to 5-25)
    # A big pip is red above this share of red (``ink.red_share``). Measured on the balanced faces
    # of the tuning scenes of every rendered camera look and the photographs' tuning part: black
    # pips -0.21-0.082 (a vintage deck's, exposed for a dark table), red 0.138 (its dull reds under
    # a cheap webcam, 24-28 grey levels of redness) to 0.98.
    red_pip: float = 0.11


TUNING = MiddleTuning()

LONE_PIP = "lone pip"  # what ``_count`` says of one pip alone in the very middle: an ace, if pip-shaped
AT_LEAST = "+"  # suffixed to a count: the middle shows that many alike pips, and something else
BLOCKED = "blocked"  # what ``centre_count`` says when something lies across the middle, past its edges


def centre_count(card: np.ndarray | Planes) -> str | None:
    """The rank the middle of the card shows, whatever the deck's font: the number of pips for
    A to 10, "court" for a picture, ``BLOCKED`` when something lies across it (a hard shadow,
    a hand: the pips it covers are not counted, and a joker's picture would not run off the
    middle's edges), or None when it cannot tell (covered, blurred, a back)."""
    return centre_witnesses(card)[0]


def centre_witnesses(card: np.ndarray | Planes) -> tuple[str | None, str | None]:
    """``centre_count`` and, but for a picture, the suit of the pips (``centre_suit``), each
    asked once. Where the pips are not counted (the lower ones pale in a lamp's light or glare),
    the upper ones still tell the suit if two of them are alike, as a card's pips are and a
    joker's star and cap are not (out of focus, the suit the index's small pip cannot tell).
    One pip no bigger than a ten's, alone in the very middle, is most decks' ace (but spades)
    when it has a pip's shape, its suit read (a speck of dirt or a reflection has none)."""
    card = planes(card)
    count = _count(card)
    suit = centre_suit(card, paired=count is None or least_pips(count) is not None) if count != "court" else None
    if count == LONE_PIP:
        count = "A" if suit is not None else None
    return count, suit


def _count(card: Planes) -> str | None:
    """``centre_count``, but one pip alone in the very middle is ``LONE_PIP``, not yet an ace."""
    tune = tuned(TUNING)
    h, w = card.shape
    x0, y0 = round(w * 0.19), round(h * 0.06)
    middle = card.cut(y0, round(h * 0.94), x0, round(w * 0.81))
    if inks(middle) >= tune.picture_inks:
        return "court"  # a picture: pips are printed in one ink, court figures in several
    level, ink = ink_mask(middle)
    if level < 40:
        return None
    if w >= tune.speckled_width:
        ink = cv2.morphologyEx(ink, cv2.MORPH_OPEN, np.ones((2, 2), np.uint8))
    count, _, stats = components(ink)
    shape = middle.shape
    area = shape[0] * shape[1]
    blobs = []
    for i in range(1, count):
        bx, by, bw, bh, size = stats[i]
        left, right, top, bottom = (bx + x0) / w, (bx + bw + x0) / w, (by + y0) / h, (by + bh + y0) / h
        in_index = (right < CORNER_W or left > 1 - CORNER_W) and (bottom < CORNER_H or top > 1 - CORNER_H)
        if size > area * 0.004 and not in_index:  # a big index reaching into the middle is no pip
            blobs.append(stats[i])
    if not blobs:
        return None
    if any(b[2] > shape[1] * 0.8 and b[3] > shape[0] * 0.6 and b[4] < tune.frame_fill * b[2] * b[3] for b in blobs):
        return "court"  # a framed picture fills the middle (a shadow's solid wedge is no frame)
    # Pips lie well inside the middle; what runs off its top or bottom is the table or another
    # card past a loose outline, unless it is a pip a tight outline cut: the size and width of
    # the pips inside, with a pip where it would be turned half round (pips are laid out so).
    cut = [b[1] == 0 or b[1] + b[3] >= shape[0] for b in blobs]
    inside = [b for b, c in zip(blobs, cut, strict=True) if not c]
    if not inside:
        return BLOCKED  # all runs off it: grain or stripes across a patch of table, or a hand
    if any(c and b[4] > tune.blocking * max(p[4] for p in inside) for b, c in zip(blobs, cut, strict=True)):
        # Far bigger than a pip and running off the middle: a shadow or a hand across the card,
        # whose pips merge with it and count short. A loose outline's table past the card's edge
        # shows so too: no count then.
        return BLOCKED
    size, width = median(b[4] for b in inside), median(b[2] for b in inside)
    cut_pips = [b for b, c in zip(blobs, cut, strict=True) if c and _like_pip(b, size, width)]
    blobs = inside + [b for b in cut_pips if _mirrored(b, inside + cut_pips, shape)]
    biggest = max(b[4] for b in blobs)
    if biggest > area * 0.12 and len(blobs) == 1:
        return "A"  # one large pip (an ace's, however decorated)
    pips = [b for b in blobs if b[4] > biggest * 0.45]
    specks = all(b[4] < biggest * tune.ace_specks for b in blobs if b is not pips[0])
    if len(pips) == 1 and specks and _centred(pips[0], shape):
        return LONE_PIP
    if len(pips) != len(blobs) or not 2 <= len(pips) <= 10 or not _one_size(pips, shape):
        return _least(blobs, shape)  # pieces of different sizes: something else is in the way
    return PIP_RANKS[len(pips)]


def least_pips(count: str | None) -> int | None:
    """The pips a middle shows at least, where ``centre_count`` says so (``AT_LEAST``)."""
    return int(count[: -len(AT_LEAST)]) if count is not None and count.endswith(AT_LEAST) else None


def _least(blobs: list[np.ndarray], shape: tuple[int, int]) -> str | None:
    """Where the middle cannot be counted (another card's edge, its index or its picture in the
    way): ``least_pips`` or more blobs lying whole inside it, alike as one card's pips are, say
    the card shows that many pips at least ("7+"), or None. The middle of an outline reaching
    under the top card of a pile shows the top card's pips: a lower court or a three is not it."""
    tune = tuned(TUNING)
    whole = [b for b in blobs if b[0] > 0 and b[0] + b[2] < shape[1] and b[1] > 0 and b[1] + b[3] < shape[0]]
    alike = max((sum(_one_size([b, o], shape, b) for o in whole) for b in whole), default=0)
    return f"{min(alike, 10)}{AT_LEAST}" if alike >= tune.least_pips else None


def _one_size(pips: list[np.ndarray], shape: tuple[int, int], typical: np.ndarray | None = None) -> bool:
    """Whether blobs are as alike in height and width as one card's pips are (``pip_sizes`` of
    their median, or of a ``typical`` blob's; a side the middle's edge cuts is not measured): an
    index's rank that a skewed outline takes into the middle is not."""
    tune = tuned(TUNING)
    heights = [float(b[3]) for b in pips if b[1] > 0 and b[1] + b[3] < shape[0]]
    widths = [float(b[2]) for b in pips if b[0] > 0 and b[0] + b[2] < shape[1]]
    for side, sizes in ((3, heights), (2, widths)):
        middle = float(typical[side]) if typical is not None else median(sizes) if sizes else 0.0
        if any(abs(size - middle) > tune.pip_sizes * middle for size in sizes):
            return False
    return True


def _centred(blob: np.ndarray, shape: tuple[int, int]) -> bool:
    """Whether a blob's centre lies in the middle of the middle (``ace_place`` of its size each way)."""
    tune = tuned(TUNING)
    x, y = (blob[0] + blob[2] / 2) / shape[1], (blob[1] + blob[3] / 2) / shape[0]
    return abs(x - 0.5) <= tune.ace_place and abs(y - 0.5) <= tune.ace_place


def _like_pip(blob: np.ndarray, size: float, width: float) -> bool:
    """Whether a blob has about the pixels and the width of the typical pip."""
    return 0.5 * size <= blob[4] <= 1.6 * size and 0.6 * width <= blob[2] <= 1.5 * width


def _mirrored(blob: np.ndarray, others: list[np.ndarray], shape: tuple[int, int]) -> bool:
    """Whether one of ``others`` covers the place where a blob would be turned half round the middle."""
    x, y = shape[1] - (blob[0] + blob[2] / 2), shape[0] - (blob[1] + blob[3] / 2)
    return any(o[0] <= x <= o[0] + o[2] and o[1] <= y <= o[1] + o[3] for o in others)


def centre_suit(card: np.ndarray | Planes, paired: bool = False) -> str | None:
    """The suit the middle's upright pips show, or None when it cannot tell (a picture, a blur);
    ``paired``, only where the top upright pip has a twin among the middle's whole pips (``_alike``).

    Big pips tell the suits of one colour apart by their tops: a club's round leaf and a heart's
    two lobes are wide a tenth of the way down, a spade and a diamond come to a point there. The
    index's own pip is small enough for a camera to blur that difference away; these are not."""
    tune = tuned(TUNING)
    card = planes(card)
    h, w = card.shape
    top = round(h * 0.06)
    middle = card.cut(top, round(h * 0.66), round(w * 0.1), round(w * 0.9))  # down to an ace's pip
    level, ink = ink_mask(middle)
    if level < 40 or inks(middle) >= tune.picture_inks:
        return None
    count, labels, stats = components(ink)
    mh, mw = ink.shape
    blobs = [i for i in range(1, count) if stats[i, 4] > 0.01 * mh * mw]
    if not blobs:
        return None
    biggest = max(stats[i, 4] for i in blobs)
    big = [i for i in blobs if stats[i, 4] >= 0.6 * biggest]
    clear = _clear_of_edges(stats, ink.shape)
    whole = [i for i in big if clear[i]]
    above = top + stats[:, 1] + stats[:, 3] / 2 < tune.above_middle * h  # each blob's centre, on the card
    # Several pips: only those well above the middle are surely upright (some designs print the
    # middle pip of a 9 upside down). One: a 2's or a 3's top pip (upright), or an ace's.
    upright = whole if len(big) == 1 else [i for i in whole if above[i]]
    if not upright:
        return None
    upright = sorted(upright, key=lambda i: stats[i, 1])  # the top pip first
    if paired and not any(_alike(stats[upright[0]], stats[i]) for i in whole if i != upright[0]):
        return None  # the top pip has no twin, upright or turned, among the whole big blobs
    pip = upright[0]
    x, y, pw, ph = stats[pip, :4]
    own = labels[y : y + ph, x : x + pw] == pip
    red = pip_is_red(middle, (slice(y, y + ph), slice(x, x + pw)), own)
    measured = [pip] if red else upright[: tune.measured_pips]  # black pips' shapes: the top ones' median
    masks = [_pip_mask(middle, labels, stats, i, level) for i in measured]
    mask = masks[0]
    ace = len(big) == 1 and not above[pip]
    if ace:
        # An ace's pip may be upside down: a card reads the same both ways up, so the warp is
        # either. Asked from both ends: a heart's lobes read as a heart, its point as a
        # diamond's, and a diamond is pointed at both; a black pip's foot reads as a spade's
        # point (or, wide, as a club's leaf): only both ends agreeing tell spade from club.
        ends = {pip_suit(mask, red), pip_suit(mask[::-1], red)}
        if red:
            return "H" if "H" in ends else "D" if ends == {"D"} else None
        said = ends.pop() if len(ends) == 1 else None
    elif red:
        return pip_suit(mask, red)
    else:
        said = _upright_black_suit(masks)
    return _notches_agree(masks, said)


def _upright_black_suit(masks: list[np.ndarray]) -> str | None:
    """The suit upright black pips (their masks, the top one first) show by their tops: a camera's
    blur widens a spade's point a tenth of the way down to a club's leaf, so a point there is a
    spade's, a leaf there tells nothing, the widening below it does (``_widening_says``)."""
    return "S" if pip_suit(masks[0], False) == "S" else _widening_says(masks)


def _notches_agree(masks: list[np.ndarray], said: str | None) -> str | None:
    """Black pips' suit, ``said`` by their tops, as their notches let it stand: a club's notches
    stay a club's, a spade's blurred point does not notch."""
    if said == "C":
        return "C"
    notched = _notched_as_clubs(masks)
    return "C" if notched and said != "S" else "S" if said == "S" and not notched else None


def _alike(one: np.ndarray, other: np.ndarray) -> bool:
    """Whether two blobs (``components``' stats) are as alike in width, height and ink as two
    pips of a card, within ``pips_alike``."""
    tune = tuned(TUNING)
    sizes = zip(one[2:5].astype(float), other[2:5].astype(float), strict=True)  # width, height, ink
    return all(abs(a - b) <= tune.pips_alike * max(a, b) for a, b in sizes)


def _widening_says(masks: list[np.ndarray]) -> str | None:
    """The suit upright black pips (their masks) show by how much wider they are a quarter of the
    way down than a tenth: a spade's point widens steadily to its lobes, a club's round leaf
    hardly does; a camera's blur widens both heights alike. The pips' median, ``spade_widening``
    or more a spade's, ``club_widening`` or less a club's, in between no verdict."""
    tune = tuned(TUNING)
    widening = float(np.median([_width_at(m, 0.25) - _width_at(m, 0.1) for m in masks]))
    return "S" if widening >= tune.spade_widening else "C" if widening <= tune.club_widening else None


def _width_at(mask: np.ndarray, down: float) -> float:
    """A pip's width ``down`` of the way from its top, over its widest."""
    row = mask[min(mask.shape[0] - 1, round(down * mask.shape[0]))]
    inked = np.flatnonzero(row)
    return (inked[-1] - inked[0] + 1) / mask.shape[1] if len(inked) else 0.0


def _pip_mask(middle: Planes, labels: np.ndarray, stats: np.ndarray, pip: int, level: float) -> np.ndarray:
    """One pip's mask (``components``' label ``pip``), drawn finer when small (``_finer``)."""
    tune = tuned(TUNING)
    x, y, pw, ph = stats[pip, :4]
    if ph < tune.small_pip:
        return _finer(middle.low, stats[pip], level)
    return labels[y : y + ph, x : x + pw] == pip


def _notched_as_clubs(masks: list[np.ndarray]) -> bool:
    """Whether black pips (their masks) are notched as clubs are, whichever way up: two notches
    between a club's three leaves and two where its stem meets them, ``club_notch`` of its size
    deep or more (the pips' median). A spade has two only, at its stem."""
    tune = tuned(TUNING)
    return bool(masks) and float(np.median([_fourth_notch(m) for m in masks])) >= tune.club_notch


def _fourth_notch(mask: np.ndarray) -> float:
    """The depth of a pip's fourth deepest notch (its outline's convexity defects), of its size."""
    contours, _ = cv2.findContours(np.pad(mask.astype(np.uint8), 1), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    if not contours:
        return 0.0
    outline = max(contours, key=cv2.contourArea)
    try:
        defects = cv2.convexityDefects(outline, cv2.convexHull(outline, returnPoints=False))
    except cv2.error:  # an outline that crosses itself
        return 0.0
    if defects is None or len(defects) < 4:
        return 0.0
    return float(np.sort(defects.reshape(-1, 4)[:, 3])[-4]) / 256.0 / max(mask.shape)  # depths come in 1/256 pixel


def court_ends(card: np.ndarray | Planes) -> tuple[str | None, str | None]:
    """The suits of a court card's big pips, printed inside its picture's frame beside each index
    (most decks): at the top-left end and the bottom-right one (turned upright), each None where
    no pip shows. They are several times the index's own pip: a blurred webcam king whose index
    pips read a spade and a club shows two clubs here.
    Measured on the faces of the photographs' court cards read surely: of 183, 106 both ends
    right, 62 one end right (the other none), 14 neither, 1 one end wrong (the other right)."""
    card = planes(card)
    return _court_pip(card, 0), _court_pip(card, 1)


def _court_pip(card: Planes, end: int) -> str | None:
    """The suit of the big pip beside a court card's top-left index (``end`` 0, ``court_pip_at``)
    or its bottom-right one (1, turned upright): the biggest blob there that lies within it
    whole and is pip-sized, pip-shaped and solid."""
    tune = tuned(TUNING)
    h, w = card.shape
    left, right, top, bottom = tune.court_pip_at
    if end == 0:
        part = card.cut(round(top * h), round(bottom * h), round(left * w), round(right * w))
    else:
        part = card.cut(h - round(bottom * h), h - round(top * h), w - round(right * w), w - round(left * w)).turned()
    level, ink = ink_mask(part)
    if level < 40:
        return None
    _, labels, stats = components(ink)
    x, y, bw, bh, area = stats.T
    low, high = tune.court_pip_h
    pip = (
        _clear_of_edges(stats, ink.shape)
        & (bh >= low * h)
        & (bh <= high * h)
        & (area >= tune.court_pip_solid * bw * bh)
    )
    pip &= (bw > 0.6 * bh) & (bw < 1.5 * bh)
    pip[0] = False
    if not pip.any():
        return None
    i = int(np.argmax(np.where(pip, area, -1)))
    mask = labels[y[i] : y[i] + bh[i], x[i] : x[i] + bw[i]] == i
    red = pip_is_red(part, (slice(y[i], y[i] + bh[i]), slice(x[i], x[i] + bw[i])), mask)
    finer = _finer(part.low, stats[i], level)  # at any size: a court pip is small on a half-size face
    # A black pip told as the middle's are (its point, its widening, its notches), which holds
    # when the face is blurred too.
    return pip_suit(finer, red) if red else _notches_agree([finer], _upright_black_suit([finer]))


def pip_is_red(part: Planes, box: tuple[slice, slice], own: np.ndarray) -> bool:
    """Whether a pip (its mask ``own`` in the ``box`` of ``part``) is printed in red ink."""
    tune = tuned(TUNING)
    return red_share(part, box, own) > tune.red_pip


def _finer(low: np.ndarray, blob: np.ndarray, level: float) -> np.ndarray:
    """A small pip's mask drawn at twice the size from its grey levels (the darkest channel,
    ``level``: ``ink_mask``'s threshold), its biggest blob: a half-size face's pips are too few
    pixels for their shape a tenth of the way down (``pip_suit``) to tell a spade from a club."""
    x, y, w, h = blob[:4]
    y0, x0 = max(0, y - 1), max(0, x - 1)
    patch = 255 - low[y0 : y + h + 1, x0 : x + w + 1]
    big = (cv2.resize(patch, None, fx=2, fy=2, interpolation=cv2.INTER_CUBIC) > level).astype(np.uint8)
    count, labels, stats = components(big)
    if count < 2:
        return big > 0
    i = 1 + int(np.argmax(stats[1:, 4]))
    bx, by, bw, bh = stats[i, :4]
    return labels[by : by + bh, bx : bx + bw] == i


def _clear_of_edges(stats: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """Which blobs (``components``' stats) touch none of the picture's edges: lie within it whole."""
    x0, y0, x1, y1 = stats[:, 0], stats[:, 1], stats[:, 0] + stats[:, 2], stats[:, 1] + stats[:, 3]
    return (x0 > 0) & (y0 > 0) & (x1 < shape[1]) & (y1 < shape[0])


def pip_suit(mask: np.ndarray, red: bool) -> str | None:
    """The suit of an upright pip (its mask) from its width a tenth of the way down: measured
    on pips of several designs, spade 0.2, club 0.38-0.44, diamond 0.15-0.25, heart 0.9 of the
    pip's width. In between there is no verdict: a spade blurred by the camera widens at its
    point (0.35 under a Gaussian of 3 pixels on a warped card), and must not pass for a club
    (the training's random clubs measure 0.365 and up)."""
    ph, pw = mask.shape
    rows = mask[round(ph * 0.05) : max(round(ph * 0.05) + 1, round(ph * 0.16))]
    spans = [np.ptp(np.nonzero(r)[0]) + 1 if r.any() else 0 for r in rows]
    ratio = float(np.mean(spans)) / pw
    if red:
        return "D" if ratio < 0.45 else "H" if ratio > 0.65 else None
    return "S" if ratio < 0.28 else "C" if ratio > 0.36 else None


def centre_redness(card: np.ndarray | Planes) -> float | None:
    """The median redness (red over the other two channels) of the ink within the middle of a
    card (``_middle_pips``), or None when the middle holds little ink."""
    found = _middle_pips(planes(card), (0.2, 0.8))
    return None if found is None else median_redness(found[0].redness[found[1]])


def centre_red_share(card: np.ndarray | Planes) -> float | None:
    """How much of the ink within the middle of a card (``_middle_pips``, from the top pip of a
    two down to its bottom one) is red (``ink.red_share``), or None when it holds little ink."""
    found = _middle_pips(planes(card), (0.06, 0.94))
    if found is None:
        return None
    middle, pips = found
    return red_share(middle, (slice(None), slice(None)), pips)


def _middle_pips(card: Planes, rows: tuple[float, float]) -> tuple[Planes, np.ndarray] | None:
    """The middle of a card (between ``rows``, shares of its height) and the mask of the ink
    within it, or None when it holds little.
    Ink running off the middle is left out: a window's shadow across a red card is grey, and was
    taken for black ink (on the benchmark's sunlit tables, 12 red cards more read with it left
    out, and no card that is not there)."""
    h, w = card.shape
    middle = card.cut(round(h * rows[0]), round(h * rows[1]), round(w * 0.19), round(w * 0.81))
    level, ink = ink_mask(middle)
    if level < 40:
        return None
    # The blobs touching the middle's edges, joined by a frame of ink round it, filled away.
    framed = cv2.copyMakeBorder(ink, 1, 1, 1, 1, cv2.BORDER_CONSTANT, value=255)
    cv2.floodFill(framed, None, (0, 0), 0, flags=8)
    pips = framed[1:-1, 1:-1] > 0
    if np.count_nonzero(pips) < 0.02 * ink.size:
        return None
    return middle, pips


def foreign_middle(card: np.ndarray | Planes, corners: list[np.ndarray] | list[Planes]) -> bool:
    """Whether the pips in the middle are printed in another ink than the index: red pips beside
    a black index, or black beside red. A card's index and its pips share one ink (in any deck, four
    colours too), so the middle is another card's, lying on this one: the outline reaches under
    the top card of a pile. Only inks clearly red or black are compared; pictures are not asked."""
    tune = tuned(TUNING)
    middle = centre_redness(card)
    if middle is None or not corners:
        return False
    index = float(np.mean([ink_redness(c) for c in corners]))
    return (index > tuned(INK_TUNING).red_ink and middle < tune.black_ink) or (
        index < tune.black_ink and middle > tuned(INK_TUNING).red_ink
    )


def is_back(card: np.ndarray | Planes) -> bool:
    """A card back: one or two inks all over the middle of the card (a lattice, stripes, a solid
    colour), where a court card's picture has several (yellow, red, blue, black) and leaves white
    paper round it, and a pip card is mostly white; and printed the same turned half round, as
    backs are (so that they tell no card's way up), where a patch of brown wood is not."""
    tune = tuned(TUNING)
    card = planes(card)
    return _one_pattern(card) and turned_alike(card.dark) >= tune.back_turned


def turned_alike(low: np.ndarray) -> float:
    """How much a card's picture (the darkest channel) is the same turned half round: the
    correlation of its broad shapes with themselves turned. Fine repeats (a lattice, dots) are
    left out, as an outline a pixel off shifts them; a plain picture counts as alike."""
    tune = tuned(TUNING)
    g = cv2.resize(low.astype(np.float32), tune.turn_size, interpolation=cv2.INTER_AREA)
    g = (cv2.GaussianBlur(g, (0, 0), 2.5) - cv2.GaussianBlur(g, (0, 0), 8))[4:-4, 4:-4]
    if float(g.std()) < 1e-3:
        return 1.0
    return float(np.corrcoef(g.ravel(), g[::-1, ::-1].ravel())[0, 1])


def _one_pattern(card: Planes) -> bool:
    """``is_back``'s inks: one or two all over the middle, little paper and no line work."""
    tune = tuned(TUNING)
    h, w = card.shape
    inner = card.cut(h // 8, h - h // 8, w // 8, w - w // 8)
    inked = inner.hsv[:, :, 1] > 70
    if inked.mean() < tune.back_inked:
        return False  # grey, black or white: a patch of table, a phone, a blank card
    hist = hue_histogram(inner.hsv[:, :, 0][inked])
    hues = int(np.sum(hist > 0.08 * hist.sum()))
    if hues > 2:
        return False
    # The darkest channel as lit, not flattened (``ink.flattened``): a back's pattern covering
    # every cell would pass for paper.
    low = card.dark
    paper = np.percentile(low, 99)
    outlines = float(np.mean(inner.bgr.max(axis=2) < 80))  # black line work: a court figure is drawn in it
    if (
        float(np.mean(low[h // 8 : h - h // 8, w // 8 : w - w // 8] > 0.85 * paper)) < tune.back_paper
        and outlines < 0.03
    ):
        return True  # hardly any paper inside the border: a printed back (every face leaves half white)
    # A court card in a dim photo can look like one ink too; a back is also a pattern (many
    # small repeats) or has no white paper even in its corners.
    corners = (low[: h // 6, : w // 6], low[-h // 6 :, -w // 6 :])
    if all(float(np.mean(c > 0.8 * paper)) < 0.4 for c in corners):
        return True
    count, _ = cv2.connectedComponents(inked.astype(np.uint8))
    return count > 40

"""Reading a card's rank and suit from its corner indices, with a confidence, or saying "unsure".

A warped card (``detect.warp_card``) has its index in the top-left corner and, turned round, in
the bottom-right one. The corner network (``vision.corner_net``) reads each corner on its own:
a rank (or a joker, or "no index here") and a suit, each with a probability. The corners are
then weighed together (``_weigh``), so a thumb or an overlapping card on one corner does not
blind the reader, with the middle of the card as a font-free witness: the number of pips and the
big pips' suit, or a picture. Below the threshold the answer is ``None``: the referee asks for
the card again rather than hear a guess.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.corner_net import RANK_CLASSES, SUIT_CLASSES
from vision.deck import Deck, builtin_deck

CORNER_W, CORNER_H = 0.25, 0.36  # the index region, as fractions of the card
UNSURE = 0.7  # default confidence threshold: below it, "unsure" (measured in the benchmark)
BACK = "back"
RED_INK = 25  # median redness (red over the other two channels, grey levels) of a red index
NO_INDEX = RANK_CLASSES.index("none")
JOKER = RANK_CLASSES.index("joker")


@dataclass(frozen=True)
class CornerReading:
    rank: str
    suit: str
    rank_confidence: float
    suit_confidence: float


@dataclass(frozen=True)
class Reading:
    """What a card is: a code (``QH``, ``RJ``, ``back``) or None when unsure, and how sure."""

    code: str | None
    confidence: float
    corners: tuple[CornerReading | None, CornerReading | None] = (None, None)


def min_channel(image: np.ndarray) -> np.ndarray:
    """The darkest of B, G, R at each pixel: ink of any colour is dark here, paper stays bright."""
    b, g, r = cv2.split(np.ascontiguousarray(image))  # OpenCV splits a cut-out view several times slower
    return cv2.min(cv2.min(b, g), r)


def _ink_mask(image: np.ndarray) -> tuple[float, np.ndarray]:
    """Where the ink is (Otsu's threshold on the darkest channel), and that threshold: a low one
    means there is little contrast, so little ink, to speak of."""
    level, ink = cv2.threshold(255 - min_channel(image), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    return level, ink


def _median_redness(pixels: np.ndarray) -> float:
    """The median of red over the other two channels, of BGR pixels (N x 3, signed)."""
    return float(np.median(pixels[:, 2] - np.maximum(pixels[:, 0], pixels[:, 1])))


def _components(ink: np.ndarray) -> tuple[int, np.ndarray, np.ndarray]:
    """Connected blobs of a mask (8-connected): their count, label image and stats (Grana's
    algorithm: the same blobs, in a third of the default's time on a card)."""
    count, labels, stats, _ = cv2.connectedComponentsWithStatsWithAlgorithm(ink, 8, cv2.CV_32S, cv2.CCL_GRANA)
    return count, labels, stats


def corner_image(card: np.ndarray, which: int) -> np.ndarray:
    """The top-left index region (which=0) or the bottom-right one turned upright (which=1)."""
    h, w = card.shape[:2]
    if which == 1:
        card = cv2.rotate(card, cv2.ROTATE_180)
    return card[: round(h * CORNER_H), : round(w * CORNER_W)]


def ink_is_red(corner: np.ndarray) -> bool:
    return ink_redness(corner) > RED_INK


def ink_redness(corner: np.ndarray) -> float:
    """Whether a corner's index (its topmost mark clear of the crop's edges: a joker's J) is red:
    its median redness (red over the other two channels) above ``RED_INK``.

    Only that mark is asked: a printed border line, a court frame or the joker's picture share
    the corner and may be any colour."""
    _, ink = _ink_mask(corner)
    count, labels, stats = _components(ink)
    h, w = ink.shape
    marks = [
        i
        for i in range(1, count)
        if stats[i, 0] > 0
        and stats[i, 1] > 0
        and stats[i, 0] + stats[i, 2] < w
        and stats[i, 1] + stats[i, 3] < h
        and stats[i, 3] >= 0.05 * h
    ]
    if not marks:
        return 0.0
    top = min(marks, key=lambda i: stats[i, 1])
    pixels = corner[labels == top].astype(np.int16)
    return _median_redness(pixels)


def _corner_reading(rank_p: np.ndarray, suit_p: np.ndarray, red: bool) -> CornerReading | None:
    """One corner's answer from the network's probabilities; None when it shows no index.
    ``red`` is the card's ink (both corners' say), which tells a red joker from a black one."""
    rank = int(np.argmax(rank_p))
    if rank == NO_INDEX:
        return None
    if rank == JOKER:
        joker = "RJ" if red else "BJ"
        return CornerReading(joker, "", float(rank_p[rank]), float(rank_p[rank]))
    suit = int(np.argmax(suit_p[:-1]))  # an index always has a suit; "none" only lowers its probability
    return CornerReading(RANK_CLASSES[rank], SUIT_CLASSES[suit], float(rank_p[rank]), float(suit_p[suit]))


def is_back(card: np.ndarray) -> bool:
    """A card back: one or two inks all over the middle of the card (a lattice, stripes, a solid
    colour), where a court card's picture has several (yellow, red, blue, black) and leaves white
    paper round it, and a pip card is mostly white."""
    h, w = card.shape[:2]
    inner = card[h // 8 : -h // 8, w // 8 : -w // 8]
    hsv = cv2.cvtColor(np.ascontiguousarray(inner), cv2.COLOR_BGR2HSV)
    inked = hsv[:, :, 1] > 70
    if inked.mean() < BACK_INKED:
        return False  # grey, black or white: a patch of table, a phone, a blank card
    hist = _hue_histogram(hsv, inked)
    hues = int(np.sum(hist > 0.08 * hist.sum()))
    if hues > 2:
        return False
    low = min_channel(card)
    paper = np.percentile(low, 99)
    inner_low = low[h // 8 : -h // 8, w // 8 : -w // 8]
    outlines = float(np.mean(inner.max(axis=2) < 80))  # black line work: a court figure is drawn in it
    if float(np.mean(inner_low > 0.85 * paper)) < BACK_PAPER and outlines < 0.03:
        return True  # hardly any paper inside the border: a printed back (every face leaves half white)
    # A court card in a dim photo can look like one ink too; a back is also a pattern (many
    # small repeats) or has no white paper even in its corners.
    corners = (low[: h // 6, : w // 6], low[-h // 6 :, -w // 6 :])
    if all(float(np.mean(c > 0.8 * paper)) < 0.4 for c in corners):
        return True
    count, _ = cv2.connectedComponents(inked.astype(np.uint8))
    return count > 40


BACK_INKED = 0.3  # share of the middle in saturated ink, at least, for a back (pale stripes: 0.42)
BACK_PAPER = 0.35  # share of the middle as white as the card's paper, at most, for a back (faces: 0.5 and up)


PIP_RANKS = {1: "A", **{n: str(n) for n in range(2, 11)}}
PICTURE_INKS = 2  # coloured inks that make the middle a picture: pips have one (some figures only two)


def _inks(image: np.ndarray) -> int:
    """How many distinct coloured inks cover a real share of the image (black and white not counted)."""
    hsv = cv2.cvtColor(np.ascontiguousarray(image), cv2.COLOR_BGR2HSV)
    inked = (hsv[:, :, 1] > 80) & (hsv[:, :, 2] > 60)
    return int(np.sum(_hue_histogram(hsv, inked) > 0.02 * inked.size))


def _hue_histogram(hsv: np.ndarray, inked: np.ndarray) -> np.ndarray:
    """How many inked pixels fall in each of 11 hue bins (OpenCV's 0-180 hue in steps of 15, the
    last bin folded into the first: red sits at both ends of the hue circle)."""
    hist = np.bincount((hsv[:, :, 0][inked] // 15).ravel(), minlength=12).astype(np.float64)
    hist[0] += hist[11]
    return hist[:11]


def centre_count(card: np.ndarray) -> str | None:
    """The rank the middle of the card shows, whatever the deck's font: the number of pips for
    A to 10, "court" for a picture, or None when it cannot tell (covered, blurred, a back)."""
    h, w = card.shape[:2]
    middle = card[round(h * 0.06) : round(h * 0.94), round(w * 0.19) : round(w * 0.81)]
    if _inks(middle) >= PICTURE_INKS:
        return "court"  # a picture: pips are printed in one ink, court figures in several
    level, ink = _ink_mask(middle)
    if level < 40:
        return None
    ink = cv2.morphologyEx(ink, cv2.MORPH_OPEN, np.ones((2, 2), np.uint8))
    count, _, stats = _components(ink)
    area = middle.shape[0] * middle.shape[1]
    x0, y0 = round(w * 0.19), round(h * 0.06)
    blobs = []
    for i in range(1, count):
        bx, by, bw, bh, size = stats[i]
        left, right, top, bottom = (bx + x0) / w, (bx + bw + x0) / w, (by + y0) / h, (by + bh + y0) / h
        in_index = (right < CORNER_W or left > 1 - CORNER_W) and (bottom < CORNER_H or top > 1 - CORNER_H)
        if size > area * 0.004 and not in_index:  # a big index reaching into the middle is no pip
            blobs.append(stats[i])
    if not blobs:
        return None
    if any(b[2] > middle.shape[1] * 0.8 and b[3] > middle.shape[0] * 0.6 for b in blobs):
        return "court"  # a framed picture fills the middle
    # Pips lie well inside the middle; what runs off its top or bottom is the table or another
    # card past a loose outline, unless it is a pip a tight outline cut: the size and width of
    # the pips inside, with a pip where it would be turned half round (pips are laid out so).
    cut = [b[1] == 0 or b[1] + b[3] >= middle.shape[0] for b in blobs]
    inside = [b for b, c in zip(blobs, cut, strict=True) if not c]
    if not inside:
        return None
    size, width = np.median([b[4] for b in inside]), np.median([b[2] for b in inside])
    shape = middle.shape[:2]
    cut_pips = [b for b, c in zip(blobs, cut, strict=True) if c and _like_pip(b, size, width)]
    blobs = inside + [b for b in cut_pips if _mirrored(b, inside + cut_pips, shape)]
    biggest = max(b[4] for b in blobs)
    if biggest > area * 0.12 and len(blobs) == 1:
        return "A"  # one large pip (an ace's, however decorated)
    pips = [b for b in blobs if b[4] > biggest * 0.45]
    if len(pips) != len(blobs) or not 2 <= len(pips) <= 10:
        return None  # pieces of different sizes: something else is in the way
    return PIP_RANKS[len(pips)]


def _like_pip(blob: np.ndarray, size: float, width: float) -> bool:
    """Whether a blob has about the pixels and the width of the typical pip."""
    return 0.5 * size <= blob[4] <= 1.6 * size and 0.6 * width <= blob[2] <= 1.5 * width


def _mirrored(blob: np.ndarray, others: list[np.ndarray], shape: tuple[int, int]) -> bool:
    """Whether one of ``others`` covers the place where a blob would be turned half round the middle."""
    x, y = shape[1] - (blob[0] + blob[2] / 2), shape[0] - (blob[1] + blob[3] / 2)
    return any(o[0] <= x <= o[0] + o[2] and o[1] <= y <= o[1] + o[3] for o in others)


def centre_suit(card: np.ndarray) -> str | None:
    """The suit the middle's upright pips show, or None when it cannot tell (a picture, a blur).

    Big pips tell the suits of one colour apart by their tops: a club's round leaf and a heart's
    two lobes are wide a tenth of the way down, a spade and a diamond come to a point there. The
    index's own pip is small enough for a camera to blur that difference away; these are not."""
    h, w = card.shape[:2]
    top = round(h * 0.06)
    middle = card[top : round(h * 0.66), round(w * 0.1) : round(w * 0.9)]  # down to an ace's pip
    level, ink = _ink_mask(middle)
    if level < 40 or _inks(middle) >= PICTURE_INKS:
        return None
    count, labels, stats = _components(ink)
    mh, mw = ink.shape
    blobs = [i for i in range(1, count) if stats[i, 4] > 0.01 * mh * mw]
    if not blobs:
        return None
    biggest = max(stats[i, 4] for i in blobs)
    big = [i for i in blobs if stats[i, 4] >= 0.6 * biggest]
    x0, y0, x1, y1 = stats[:, 0], stats[:, 1], stats[:, 0] + stats[:, 2], stats[:, 1] + stats[:, 3]
    whole = [i for i in big if x0[i] > 0 and y0[i] > 0 and x1[i] < mw and y1[i] < mh]
    # One pip: an ace's, upright. Several: only those well above the middle are surely upright
    # (some designs print the middle pip of a 9 upside down).
    upright = whole if len(big) == 1 else [i for i in whole if top + (y0[i] + y1[i]) / 2 < 0.45 * h]
    if not upright:
        return None
    pip = min(upright, key=lambda i: stats[i, 1])
    x, y, pw, ph = stats[pip, :4]
    mask = labels[y : y + ph, x : x + pw] == pip
    rows = mask[round(ph * 0.05) : max(round(ph * 0.05) + 1, round(ph * 0.16))]
    spans = [np.ptp(np.nonzero(r)[0]) + 1 if r.any() else 0 for r in rows]
    ratio = float(np.mean(spans)) / pw
    pixels = middle[y : y + ph, x : x + pw][mask].astype(np.int16)
    red = _median_redness(pixels) > RED_INK
    # Measured on pips of several designs a tenth of the way down: spade 0.2, club 0.4, diamond
    # 0.15-0.25, heart 0.9. In between there is no verdict.
    if red:
        return "D" if ratio < 0.45 else "H" if ratio > 0.65 else None
    return "S" if ratio < 0.28 else "C" if ratio > 0.34 else None


BLACK_INK = 0  # median redness of ink that is surely black (a red index, small and blurred, fades to 5-25)


def centre_redness(card: np.ndarray) -> float | None:
    """The median redness (red over the other two channels) of the ink in the middle of a card,
    or None when the middle holds little ink."""
    h, w = card.shape[:2]
    middle = card[round(h * 0.2) : round(h * 0.8), round(w * 0.19) : round(w * 0.81)]
    level, ink = _ink_mask(middle)
    if level < 40 or np.count_nonzero(ink) < 0.02 * ink.size:
        return None
    pixels = middle[ink > 0].astype(np.int16)
    return _median_redness(pixels)


def foreign_middle(card: np.ndarray, corners: list[np.ndarray]) -> bool:
    """Whether the pips in the middle are printed in another ink than the index: red pips beside
    a black index, or black beside red. A card's index and pips share one ink (in any deck, four
    colours too), so the middle is another card's, lying on this one: the outline reaches under
    the top card of a pile. Only inks clearly red or black are compared; pictures are not asked."""
    middle = centre_redness(card)
    if middle is None or not corners:
        return False
    index = float(np.mean([ink_redness(c) for c in corners]))
    return (index > RED_INK and middle < BLACK_INK) or (index < BLACK_INK and middle > RED_INK)


def read_cards(
    cards: list[np.ndarray],
    deck: Deck | None = None,
    threshold: float = UNSURE,
    whole: list[bool] | None = None,
    covered: bool = False,
) -> list[Reading]:
    """Read warped cards from both index corners (one network pass for all); below ``threshold``
    a card's code is None. ``whole`` says of each card whether its outline is a card lying whole
    (see ``_weigh``); unknown, none is. ``covered`` cards lie partly under others, painted out
    (``vision.covered``): their middle is not asked, and the one corner that shows is read."""
    deck = deck or builtin_deck()
    cards = [cv2.cvtColor(c, cv2.COLOR_GRAY2BGR) if c.ndim == 2 else c for c in cards]
    if any(min(c.shape[:2]) < 8 for c in cards):
        raise ValueError("a warped card must be a picture of at least 8 x 8 pixels")
    corners = [corner_image(card, i) for card in cards for i in (0, 1)]
    rank_p, suit_p = deck.posteriors(deck.net.read(corners))
    readings = []
    for n, card in enumerate(cards):
        ranks, suits = rank_p[2 * n : 2 * n + 2], suit_p[2 * n : 2 * n + 2]
        middle = None if covered else centre_count(card)
        suit = centre_suit(card) if middle not in (None, "court") else None
        red = _card_is_red(ranks, corners[2 * n : 2 * n + 2])
        found = (_corner_reading(ranks[0], suits[0], red), _corner_reading(ranks[1], suits[1], red))
        if found == (None, None):
            back = not covered and middle in (None, "court") and is_back(card)  # a back's pattern may look a picture
            readings.append(Reading(BACK, 0.9, found) if back else Reading(None, 0.0, found))
            continue
        shows = [i for i in (0, 1) if found[i] is not None]
        vouched = "covered" if covered else "whole" if whole and whole[n] else None
        code, confidence = _weigh(ranks[shows], suits[shows], middle, suit, red, vouched)
        pictured = middle == "court" or code[:-1] in ("J", "Q", "K") or code in ("RJ", "BJ")
        if not covered and not pictured and foreign_middle(card, [corners[2 * n + i] for i in shows]):
            confidence = min(confidence, DISAGREE)
        readings.append(Reading(code if confidence >= threshold else None, confidence, found))
    return readings


def read_card(card: np.ndarray, deck: Deck | None = None, threshold: float = UNSURE) -> Reading:
    """Read one warped card; see ``read_cards``."""
    return read_cards([card], deck, threshold)[0]


def _card_is_red(rank_p: np.ndarray, corners: list[np.ndarray]) -> bool:
    """A joker's colour, asked once of the card: the redness of the corners that read as a joker,
    averaged, so glare or a thumb on one corner cannot make one card red and black at once."""
    jokers = [c for p, c in zip(rank_p, corners, strict=True) if int(np.argmax(p)) == JOKER]
    return bool(jokers) and float(np.mean([ink_redness(c) for c in jokers])) > RED_INK


MIDDLE_DOUBT = 0.05  # how likely the middle shows what it shows when the card is another rank or suit
DISAGREE = 0.6  # the most a card whose corners disagree can score, unless the middle settles it
_PIP_CLASSES = [RANK_CLASSES.index(r) for r in PIP_RANKS.values()]


def _weigh(
    rank_p: np.ndarray,
    suit_p: np.ndarray,
    middle: str | None,
    middle_suit: str | None,
    red: bool,
    outline: str | None = None,
) -> tuple[str, float]:
    """The card's code and confidence from its witnesses: the corners that show an index (the
    network's probabilities) and the middle of the card (the pip count or a picture, and the big
    pips' suit), which does not depend on the deck's font.

    The corners share a font, so they are not independent: their probabilities are combined by a
    geometric mean. The middle weighs each class it contradicts by ``MIDDLE_DOUBT``, so a corner
    torn between 3 and 5 is settled by three pips, and a confident index against the count leaves
    the card unsure. Corners whose best answers differ (an outline spanning two cards, a misread
    index) score at most ``DISAGREE`` unless the middle names the winner itself. So does one
    corner alone that the middle does not confirm: the lower card of a pile shows one index, and
    an outline drawn round it reaches under the top card. A corner the middle rules out (a blurred
    court index read as a number, beside a picture) leaves the other alone. An outline that is
    ``whole`` (every side an edge in the picture) vouches for one corner with a picture in the
    middle, and for one corner's suit; so does a pip count that names the rank, for the suit.
    The ``outline`` of a card lying partly under others ("covered", see ``vision.covered``; its
    middle hidden) vouches for its one corner: it is known to be a lower card, and what lies
    under the cards on top was painted out. Vouched, the lone corner counts once (its own
    confidence, squared)."""
    whole, covered = outline == "whole", outline == "covered"
    rank, rank_sure = _witnesses(rank_p, _rank_likelihood(middle), vouched=covered or (whole and middle == "court"))
    if rank == JOKER:
        return ("RJ" if red else "BJ"), rank_sure
    vouch_suit = whole or covered or middle == RANK_CLASSES[rank]
    suit, suit_sure = _witnesses(suit_p, _suit_likelihood(middle_suit), vouched=vouch_suit)
    return RANK_CLASSES[rank] + SUIT_CLASSES[suit], min(rank_sure, suit_sure)


def _rank_likelihood(middle: str | None) -> np.ndarray:
    """How likely the middle looks as it does for each rank class (A-K, joker; "no index" is
    left alone: the middle says nothing about a corner)."""
    like = np.ones(len(RANK_CLASSES))
    if middle == "court":
        like[_PIP_CLASSES] = MIDDLE_DOUBT
    elif middle is not None:
        like[:-1] = MIDDLE_DOUBT
        like[RANK_CLASSES.index(middle)] = 1.0
    return like


def _suit_likelihood(middle_suit: str | None) -> np.ndarray:
    """How likely the big pips look as they do for each suit class ("no suit" is left alone: the
    middle says nothing about whether an index shows its suit)."""
    like = np.ones(len(SUIT_CLASSES))
    if middle_suit is not None:
        like[:-1] = MIDDLE_DOUBT
        like[SUIT_CLASSES.index(middle_suit)] = 1.0
    return like


def _witnesses(probabilities: np.ndarray, likelihood: np.ndarray, vouched: bool = False) -> tuple[int, float]:
    """The best index class and its probability: the corners' probabilities (one row each; the
    last class is "no index", which keeps its share) combined by a geometric mean, times the
    middle's likelihood, normalised.

    Capped at ``DISAGREE`` when the middle contradicts the answer; when the corners disagree, or
    the answer is none of theirs (a picture pushing a torn corner to a court rank), and the
    middle does not name the answer itself (a pip count names a rank; a picture only rules the
    pip ranks out); and when one corner stands alone (or beside one the middle contradicts) and
    the middle does not name its answer (its own confidence squared instead when the caller
    ``vouched`` for the outline)."""
    fused = np.exp(np.log(np.maximum(probabilities, 1e-9)).mean(axis=0)) * likelihood
    fused /= fused.sum()
    index, like = fused[:-1], likelihood[:-1]
    best = int(np.argmax(index))
    sure = float(index[best])
    named = like[best] == like.max() and np.count_nonzero(like == like.max()) == 1
    kept = [i for i, k in enumerate(np.argmax(probabilities[:, :-1], axis=1)) if like[k] == like.max()]
    answers = [int(np.argmax(probabilities[i, :-1])) for i in kept]
    said = set(answers)  # each corner's own answer, unless the middle rules it out (a misread corner)
    if like[best] < like.max():
        sure = min(sure, DISAGREE)  # the middle contradicts the answer
    elif (len(said) > 1 or best not in said) and not named:
        sure = min(sure, DISAGREE)  # the corners disagree, or the middle picked what no corner said
    elif (len(answers) == 1 and not named) or (len(probabilities) == 1 and best not in said):
        # One corner alone (or beside one the middle rules out), unconfirmed: an outline reaching
        # under another card, unless the outline was vouched for otherwise.
        alone = float(probabilities[kept, best].max()) if kept else 0.0  # that corner's own belief
        sure = min(sure, alone) ** 2 if vouched and best in said else min(sure, DISAGREE)
    return best, sure

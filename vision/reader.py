"""Reading a card's rank and suit from its corner indices, with a confidence, or saying "unsure".

A warped card (``detect.warp_card``) has its index in the top-left corner and, turned round, in
the bottom-right one. The corner network (``vision.corner_net``) reads each corner on its own:
a rank (or a joker, or "no index here") and a suit, each with a probability. The corners then
vote, so a thumb or an overlapping card on one corner does not blind the reader, and the middle
of the card is a second, font-free witness: the number of pips, or a picture. Below the
threshold the answer is ``None``: the referee asks for the card again rather than hear a guess.
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

    @property
    def confidence(self) -> float:
        return min(self.rank_confidence, self.suit_confidence)


@dataclass(frozen=True)
class Reading:
    """What a card is: a code (``QH``, ``RJ``, ``back``) or None when unsure, and how sure."""

    code: str | None
    confidence: float
    corners: tuple[CornerReading | None, CornerReading | None] = (None, None)


def min_channel(image: np.ndarray) -> np.ndarray:
    """The darkest of B, G, R at each pixel: ink of any colour is dark here, paper stays bright."""
    b, g, r = cv2.split(image)
    return cv2.min(cv2.min(b, g), r)


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
    darkness = 255 - min_channel(corner)
    _, ink = cv2.threshold(darkness, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
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
    return float(np.median(pixels[:, 2] - np.maximum(pixels[:, 0], pixels[:, 1])))


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
    """A card back: one or two inks all over the middle of the card (a lattice, a solid colour),
    where a court card's picture has several (yellow, red, blue, black) and a pip card is white."""
    h, w = card.shape[:2]
    inner = card[h // 8 : -h // 8, w // 8 : -w // 8]
    hsv = cv2.cvtColor(inner, cv2.COLOR_BGR2HSV)
    inked = hsv[:, :, 1] > 70
    if inked.mean() < 0.45:
        return False
    hist = np.bincount((hsv[:, :, 0][inked] // 15).ravel(), minlength=12).astype(np.float64)
    hist[0] += hist[11]  # red sits at both ends of the hue circle
    hues = int(np.sum(hist[:11] > 0.08 * hist.sum()))
    if hues > 2:
        return False
    # A court card in a dim photo can look like one ink too; a back is also a pattern (many
    # small repeats) or has no white paper even in its corners.
    low = min_channel(card)
    paper = np.percentile(low, 99) * 0.8
    corners = (low[: h // 6, : w // 6], low[-h // 6 :, -w // 6 :])
    if all(float(np.mean(c > paper)) < 0.4 for c in corners):
        return True
    count, _ = cv2.connectedComponents(inked.astype(np.uint8))
    return count > 40


PIP_RANKS = {1: "A", **{n: str(n) for n in range(2, 11)}}


def _inks(image: np.ndarray) -> int:
    """How many distinct coloured inks cover a real share of the image (black and white not counted)."""
    hsv = cv2.cvtColor(image, cv2.COLOR_BGR2HSV)
    inked = (hsv[:, :, 1] > 80) & (hsv[:, :, 2] > 60)
    hist = np.bincount((hsv[:, :, 0][inked] // 15).ravel(), minlength=12).astype(np.float64)
    hist[0] += hist[11]  # red sits at both ends of the hue circle
    return int(np.sum(hist[:11] > 0.02 * inked.size))


def centre_count(card: np.ndarray) -> str | None:
    """The rank the middle of the card shows, whatever the deck's font: the number of pips for
    A to 10, "court" for a picture, or None when it cannot tell (covered, blurred, a back)."""
    h, w = card.shape[:2]
    middle = card[round(h * 0.06) : round(h * 0.94), round(w * 0.19) : round(w * 0.81)]
    if _inks(middle) >= 3:
        return "court"  # a picture: pips are printed in one ink, court figures in several
    darkness = 255 - min_channel(middle)
    level, ink = cv2.threshold(darkness, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    if level < 40:
        return None
    ink = cv2.morphologyEx(ink, cv2.MORPH_OPEN, np.ones((2, 2), np.uint8))
    count, _, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
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
    # Pips lie well inside the middle; what runs off its top or bottom is the table past a loose outline.
    blobs = [b for b in blobs if b[1] > 0 and b[1] + b[3] < middle.shape[0]]
    if not blobs:
        return None
    biggest = max(b[4] for b in blobs)
    if biggest > area * 0.12 and len(blobs) == 1:
        return "A"  # one large pip (an ace's, however decorated)
    pips = [b for b in blobs if b[4] > biggest * 0.45]
    if len(pips) != len(blobs) or not 2 <= len(pips) <= 10:
        return None  # pieces of different sizes: something else is in the way
    return PIP_RANKS[len(pips)]


def centre_suit(card: np.ndarray) -> str | None:
    """The suit the middle's upright pips show, or None when it cannot tell (a picture, a blur).

    Big pips tell the suits of one colour apart by their tops: a club's round leaf and a heart's
    two lobes are wide a tenth of the way down, a spade and a diamond come to a point there. The
    index's own pip is small enough for a camera to blur that difference away; these are not."""
    h, w = card.shape[:2]
    top = round(h * 0.06)
    middle = card[top : round(h * 0.66), round(w * 0.1) : round(w * 0.9)]  # down to an ace's pip
    darkness = 255 - min_channel(middle)
    level, ink = cv2.threshold(darkness, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    if level < 40 or _inks(middle) >= 3:
        return None
    count, labels, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
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
    red = np.median(pixels[:, 2] - np.maximum(pixels[:, 0], pixels[:, 1])) > 25
    # Measured on pips of several designs a tenth of the way down: spade 0.2, club 0.4, diamond
    # 0.15-0.25, heart 0.9. In between there is no verdict.
    if red:
        return "D" if ratio < 0.45 else "H" if ratio > 0.65 else None
    return "S" if ratio < 0.28 else "C" if ratio > 0.34 else None


def read_cards(cards: list[np.ndarray], deck: Deck | None = None, threshold: float = UNSURE) -> list[Reading]:
    """Read warped cards from both index corners (one network pass for all); below ``threshold``
    a card's code is None."""
    deck = deck or builtin_deck()
    cards = [cv2.cvtColor(c, cv2.COLOR_GRAY2BGR) if c.ndim == 2 else c for c in cards]
    if any(min(c.shape[:2]) < 8 for c in cards):
        raise ValueError("a warped card must be a picture of at least 8 x 8 pixels")
    corners = [corner_image(card, i) for card in cards for i in (0, 1)]
    rank_p, suit_p = deck.posteriors(deck.net.read(corners))
    readings = []
    for n, card in enumerate(cards):
        middle = centre_count(card)
        suit = centre_suit(card) if middle not in (None, "court") else None
        red = _card_is_red(rank_p[2 * n : 2 * n + 2], corners[2 * n : 2 * n + 2])
        found = tuple(
            _checked(_corner_reading(rank_p[2 * n + i], suit_p[2 * n + i], red), middle, suit) for i in (0, 1)
        )
        readings.append(_vote(card, found, middle, threshold))  # type: ignore[arg-type]
    return readings


def read_card(card: np.ndarray, deck: Deck | None = None, threshold: float = UNSURE) -> Reading:
    """Read one warped card; see ``read_cards``."""
    return read_cards([card], deck, threshold)[0]


def _card_is_red(rank_p: np.ndarray, corners: list[np.ndarray]) -> bool:
    """A joker's colour, asked once of the card: the redness of the corners that read as a joker,
    averaged, so glare or a thumb on one corner cannot make one card red and black at once."""
    jokers = [c for p, c in zip(rank_p, corners, strict=True) if int(np.argmax(p)) == JOKER]
    return bool(jokers) and float(np.mean([ink_redness(c) for c in jokers])) > RED_INK


def _vote(
    card: np.ndarray,
    found: tuple[CornerReading | None, CornerReading | None],
    middle: str | None,
    threshold: float,
) -> Reading:
    """The card's code from its two corners' readings."""
    codes = [None if c is None else _code(c) for c in found]
    if codes[0] is None and codes[1] is None:
        if middle is None and is_back(card):  # a back shows no pips to count
            return Reading(BACK, 0.9, found)
        return Reading(None, 0.0, found)
    if codes[0] == codes[1]:
        a, b = found
        assert a is not None and b is not None
        confidence = max(a.confidence, b.confidence)  # the corners share a font: not independent witnesses
        code = codes[0]
    else:
        best = max((c for c in found if c is not None), key=lambda c: c.confidence)
        other = [c for c in found if c is not None and c is not best]
        # Corners that disagree: two readings of one card should not differ at all, so the
        # card is unsure at the default threshold whatever the corners' confidences (at most
        # 0.6); only a caller with a lower threshold hears the clearer corner. One corner alone
        # (the other covered) is one witness, not two: it must be surer to count.
        confidence = best.confidence * (1 - other[0].confidence) * 0.6 if other else best.confidence**2
        code = _code(best)
    return Reading(code if confidence >= threshold else None, confidence, found)


def _checked(corner: CornerReading | None, middle: str | None, suit: str | None = None) -> CornerReading | None:
    """A corner's reading weighed against the middle of the card: the pip count is a second,
    font-free witness of the rank, and the big pips' shape of the suit. Agreement makes the rank
    sure; disagreement makes the reading unsure."""
    if corner is not None and suit is not None and corner.suit and corner.suit != suit:
        corner = CornerReading(corner.rank, corner.suit, corner.rank_confidence, corner.suit_confidence * 0.3)
    if corner is None or middle is None:
        return corner
    if corner.rank in ("RJ", "BJ"):  # a joker's middle is a figure, never a count of pips
        if middle == "court" or middle is None:
            return corner
        return CornerReading(corner.rank, corner.suit, 0.0, corner.suit_confidence)
    court = corner.rank in ("J", "Q", "K")
    if corner.rank == middle:
        return CornerReading(corner.rank, corner.suit, max(corner.rank_confidence, 0.95), corner.suit_confidence)
    if court and middle == "court":
        return CornerReading(corner.rank, corner.suit, max(corner.rank_confidence, 0.5), corner.suit_confidence)
    # The witnesses disagree (a misread index, or a pip miscounted): ask to see the card again.
    return CornerReading(corner.rank, corner.suit, corner.rank_confidence * 0.3, corner.suit_confidence)


def _code(corner: CornerReading) -> str:
    return corner.rank if corner.rank in ("RJ", "BJ") else corner.rank + corner.suit

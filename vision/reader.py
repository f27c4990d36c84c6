"""Reading a card's rank and suit from its corner indices, with a confidence, or saying "unsure".

A warped card (``detect.warp_card``) has its index in the top-left corner and, turned round, in
the bottom-right one. Each corner is read on its own: the ink is separated from the card by a
threshold chosen in that corner, the top glyph is the rank (the two digits of a 10 are joined),
the glyph under it is the suit pip, and its colour says red or black. The two corners then vote,
so a thumb or an overlapping card on one corner does not blind the reader. Below the threshold
the answer is ``None``: the referee asks for the card again rather than hear a guess.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.glyphs import TemplateBank, builtin_ranks, builtin_suits, features, suit_features

CORNER_W, CORNER_H = 0.25, 0.36  # the index region, as fractions of the card
SUIT_SPREAD = 0.05
UNSURE = 0.7  # default confidence threshold: below it, "unsure" (measured in the benchmark)
BACK = "back"


@dataclass(frozen=True)
class Glyphs:
    """The rank and suit glyphs cut from one corner (binary masks) and whether the ink is red."""

    rank: np.ndarray
    suit: np.ndarray | None
    red: bool
    ten: bool = False  # the rank is two tall glyphs side by side: only a 10 looks like that
    stacked: int = 0  # glyphs in the column under the rank: one pip, or the O K E R of JOKER


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


def cut_glyphs(corner: np.ndarray) -> Glyphs | None:
    """The rank and suit glyphs of an index region, or None when it shows no index."""
    darkness = 255 - min_channel(corner)
    if float(darkness.std()) < 12:
        return None  # one flat colour: no ink here (covered, blank, or a card back's plain margin)
    level, ink = cv2.threshold(darkness, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    if level < 40:
        return None
    h, w = ink.shape
    # A deck's frame lines can touch the index: take long straight strokes away first.
    lines = cv2.morphologyEx(ink, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_RECT, (max(3, w * 3 // 5), 1)))
    lines |= cv2.morphologyEx(ink, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_RECT, (1, max(3, h // 2))))
    ink = cv2.subtract(ink, cv2.dilate(lines, np.ones((3, 3), np.uint8)))
    count, labels, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    parts = []
    for i in range(1, count):
        x, y, cw, ch, area = stats[i]
        if area < h * w * 0.004 or ch < h * 0.06:
            continue
        if x + cw >= w - 1 or y + ch >= h - 1:
            continue  # runs out of the index region: the card's picture or centre pips
        if x <= 1 or y <= 1:
            continue  # the card's edge, or the table showing past its rounded corner: an index has margins
        parts.append((y, x, cw, ch, i))
    if not 1 <= len(parts) <= 6:
        return None  # nothing, or a repeating pattern (a card back's lattice), not an index
    parts.sort()
    top_y, top_x, top_w, top_h, top_i = parts[0]
    rank_ids = [top_i]
    tall = 0
    y0, y1, x0, x1 = top_y, top_y + top_h, top_x, top_x + top_w
    for y, x, cw, ch, i in parts[1:]:  # join what sits beside the first glyph: the 1 and 0 of a 10
        overlap = min(y1, y + ch) - max(y0, y)
        if overlap > 0.5 * min(ch, y1 - y0) and x < x1 + w * 0.25:
            rank_ids.append(i)
            tall += ch > 0.75 * top_h and top_h > 0.75 * ch
            y0, y1, x0, x1 = min(y0, y), max(y1, y + ch), min(x0, x), max(x1, x + cw)
    rank = np.isin(labels, rank_ids).astype(np.uint8)
    suit = None
    stacked = 0
    for y, x, cw, _ch, i in parts:
        if i in rank_ids or y < y1 - 0.2 * (y1 - y0):
            continue
        if abs((x + cw / 2) - (x0 + x1) / 2) < w * 0.35:
            stacked += 1
            if suit is None:
                suit = (labels == i).astype(np.uint8)
    glyph_pixels = corner[(rank > 0) | (suit > 0 if suit is not None else False)].astype(np.int16)
    redness = glyph_pixels[:, 2] - np.maximum(glyph_pixels[:, 0], glyph_pixels[:, 1])
    return Glyphs(rank, suit, bool(np.median(redness) > 25), ten=tall == 1 and len(rank_ids) == 2, stacked=stacked)


def _confidence(score: float, second: float, spread: float = 0.12) -> float:
    """Similarity and margin over the runner-up, mapped to 0..1 (see the benchmark for its calibration).

    ``spread`` is the margin that counts as clear: pips of one colour are alike (a spade and a
    club differ in their top alone), so a suit's margin is judged on a finer scale than a rank's.
    """
    strength = np.clip((score - 0.45) / 0.35, 0.0, 1.0)
    margin = np.clip((score - second) / spread, 0.0, 1.0)
    return float(strength * margin)


def pip_shape(mask: np.ndarray, red: bool) -> tuple[str, float]:
    """Tell the two suits of a colour apart by how wide the pip is near its top.

    A heart's two lobes and a club's round top leaf make them wide a tenth of the way down;
    a diamond and a spade come to a point there. That holds for every deck's pips, whatever
    their exact drawing, so it backs up the template match. Returns the suit and how clear it was.
    """
    ys, xs = np.nonzero(mask)
    if len(xs) < 12:
        return "", 0.0
    top, height = ys.min(), ys.max() - ys.min() + 1
    widest = xs.max() - xs.min() + 1
    widths = []
    for y in range(top + round(height * 0.05), top + max(2, round(height * 0.16)) + 1):
        cols = np.nonzero(mask[y])[0]
        widths.append(cols.max() - cols.min() + 1 if len(cols) else 0)
    ratio = float(np.mean(widths)) / widest
    split = 0.6 if red else 0.35
    clear = float(np.clip(abs(ratio - split) / 0.1, 0.0, 1.0))
    if red:
        return ("H" if ratio > split else "D"), clear
    return ("C" if ratio > split else "S"), clear


def read_corner(corner: np.ndarray, ranks: TemplateBank, suits: TemplateBank) -> CornerReading | None:
    glyphs = cut_glyphs(corner)
    if glyphs is None or glyphs.suit is None:
        return None
    rank, r_score, r_second = ranks.best(features(glyphs.rank), ("10",) if glyphs.ten else None)
    if glyphs.ten:
        r_second = min(r_second, r_score - 0.12)  # the shape itself says 10
    allowed = ("D", "H", "O") if glyphs.red else ("C", "S", "O")
    suit, s_score, s_second = suits.best(suit_features(glyphs.suit), allowed)
    if suit == "O":
        joker = "RJ" if glyphs.red else "BJ"
        joker_confidence = _confidence(s_score, s_second)
        return CornerReading(joker, "", joker_confidence, joker_confidence)
    s_conf = _confidence(s_score, s_second, SUIT_SPREAD)
    shape, clear = pip_shape(glyphs.suit, glyphs.red)
    if shape == suit:
        s_conf = 1 - (1 - s_conf) * (1 - clear)
    elif shape:  # the cues disagree: the template decides, but with less certainty (blur rounds a spade's point)
        s_conf *= 1 - clear
    return CornerReading(rank, suit, _confidence(r_score, r_second), s_conf)


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


def centre_count(card: np.ndarray) -> str | None:
    """The rank the middle of the card shows, whatever the deck's font: the number of pips for
    A to 10, "court" for a picture, or None when it cannot tell (covered, blurred, a back)."""
    h, w = card.shape[:2]
    middle = card[round(h * 0.06) : round(h * 0.94), round(w * 0.19) : round(w * 0.81)]
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
    biggest = max(b[4] for b in blobs)
    if biggest > area * 0.12 and len(blobs) == 1:
        return "A"  # one large pip (an ace's, however decorated)
    if any(b[2] > middle.shape[1] * 0.8 and b[3] > middle.shape[0] * 0.6 for b in blobs):
        return "court"  # a framed picture fills the middle
    pips = [b for b in blobs if b[4] > biggest * 0.45]
    if len(pips) != len(blobs) or not 2 <= len(pips) <= 10:
        return None  # pieces of different sizes: something else is in the way
    return PIP_RANKS[len(pips)]


def read_card(
    card: np.ndarray,
    ranks: TemplateBank | None = None,
    suits: TemplateBank | None = None,
    threshold: float = UNSURE,
) -> Reading:
    """Read a warped card from both index corners; below ``threshold`` the code is None."""
    ranks = ranks or builtin_ranks()
    suits = suits or builtin_suits()
    middle = centre_count(card)
    found = tuple(_checked(read_corner(corner_image(card, i), ranks, suits), middle) for i in (0, 1))
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
        # Corners that disagree: believe the clearer one only when the other is barely readable,
        # and never fully: two readings of one card should not differ at all.
        confidence = best.confidence * (1 - other[0].confidence) * 0.6 if other else best.confidence
        code = _code(best)
    return Reading(code if confidence >= threshold else None, confidence, found)


def _checked(corner: CornerReading | None, middle: str | None) -> CornerReading | None:
    """A corner's reading weighed against the middle of the card: the pip count is a second,
    font-free witness of the rank. Agreement makes the rank sure; disagreement makes it unsure."""
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

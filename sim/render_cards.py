"""Single playing cards drawn with OpenCV and numpy alone, so every machine renders the same pixels.

No font files and no Pillow: rank indices use OpenCV's built-in Hershey fonts, drawn large and then
resized (anisotropically, to condense them), and suit pips are filled shapes built from circles and
polygons. Everything is drawn at twice the final size and area-averaged down, which gives the soft,
anti-aliased edges a camera sees. A face is drawn top half first, then that half is copied rotated by
180 degrees onto the bottom half, exactly as real cards are printed; the centre pips (which are not
symmetric for 3, 5, 7, 9 and aces) are drawn after the copy.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import cv2
import numpy as np

CARD_W, CARD_H = 250, 350  # canonical portrait size in pixels (poker ratio 63x88)

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("C", "D", "H", "S")
RED_SUITS = frozenset("DH")
ALL_CODES = (*(r + s for s in SUITS for r in RANKS), "RJ", "BJ")

_S = 2  # supersampling: draw at twice the size, then area-average down for smooth edges
_W, _H = CARD_W * _S, CARD_H * _S
_AA = cv2.LINE_AA
_SHIFT = 4  # fixed-point bits for sub-pixel precise OpenCV drawing
_ONE = 1 << _SHIFT

BGR = tuple[int, int, int]


@dataclass(frozen=True)
class DeckStyle:
    """How one brand of deck looks; the vision pipeline must cope with all of them.

    Sizes and positions are fractions of the card (x of its width, y and heights of its height) so a
    style reads like a printer's spec sheet and stays valid if the canonical size ever changes.
    """

    name: str
    font: int = cv2.FONT_HERSHEY_COMPLEX  # Hershey font of the rank index (may include cv2.FONT_ITALIC)
    weight: int = 10  # stroke thickness of the index when rastered at scale 4 (about 90 px tall)
    index_h: float = 0.085  # rank glyph height, fraction of card height
    index_w: float = 0.13  # widest a rank glyph may be, fraction of card width
    index_x: float = 0.085  # centre of the index column, fraction of card width
    index_y: float = 0.04  # top of the rank glyph, fraction of card height
    condense: float = 0.85  # horizontal squeeze of the glyphs (1 = the font's own proportions)
    index_pip: float = 0.06  # height of the small pip under the rank, fraction of card height
    paper: BGR = (240, 244, 246)  # card stock colour (slightly off-white)
    red: BGR = (40, 30, 196)
    black: BGR = (32, 28, 28)
    pip: str = "classic"  # pip shape variant: classic, round, slim, ornate
    pip_size: float = 0.13  # centre pip height, fraction of card height
    pip_dx: float = 0.2  # offset of the side pip columns from the centre line, fraction of card width
    pip_rows: tuple[float, float] = (0.2, 0.8)  # centre y of the top and bottom pip rows
    ace_size: float = 0.3  # ace pip height, fraction of card height (the ace of spades is larger)
    border: bool = False  # a thin printed line inside the card edge
    radius: float = 0.06  # corner radius, fraction of card width
    court: tuple[BGR, BGR, BGR] = ((40, 40, 190), (150, 80, 30), (40, 190, 235))  # red, blue, gold
    back: BGR = (45, 40, 175)  # back ground colour
    back2: BGR = (235, 235, 240)  # back pattern colour
    back_pattern: str = "diamonds"  # diamonds, stripes, dots, solid
    back_margin: bool = True  # a white margin around the back pattern


DECK_STYLES: dict[str, DeckStyle] = {
    s.name: s
    for s in (
        # Bicycle-like: bold serif index, red diamond-lattice back with a white margin.
        DeckStyle(name="classic"),
        # Thin sans index, bright colours, round pips, navy dotted back printed to the edge.
        DeckStyle(
            name="modern",
            font=cv2.FONT_HERSHEY_SIMPLEX,
            weight=5,
            index_h=0.08,
            index_w=0.14,
            index_x=0.09,
            condense=1.0,
            paper=(246, 246, 246),
            red=(60, 45, 230),
            black=(45, 40, 40),
            pip="round",
            pip_size=0.12,
            radius=0.075,
            court=((70, 60, 225), (170, 120, 40), (60, 200, 250)),
            back=(110, 50, 20),
            back2=(190, 140, 90),
            back_pattern="dots",
            back_margin=False,
        ),
        # Large index: pips pulled in towards the centre so they clear it; green striped back.
        DeckStyle(
            name="jumbo",
            font=cv2.FONT_HERSHEY_DUPLEX,
            weight=11,
            index_h=0.15,
            index_w=0.19,
            index_x=0.12,
            index_y=0.03,
            condense=0.72,
            index_pip=0.075,
            pip="classic",
            pip_size=0.11,
            pip_dx=0.17,
            pip_rows=(0.25, 0.75),
            ace_size=0.25,
            radius=0.06,
            back=(60, 110, 30),
            back2=(200, 230, 200),
            back_pattern="stripes",
        ),
        # Casino stock: small condensed index, slim pips, printed border, solid blue back with margin.
        DeckStyle(
            name="casino",
            font=cv2.FONT_HERSHEY_SIMPLEX,
            weight=9,
            index_h=0.07,
            index_w=0.09,
            index_x=0.09,
            index_y=0.05,
            condense=0.62,
            index_pip=0.05,
            paper=(238, 242, 243),
            red=(30, 20, 205),
            black=(20, 20, 20),
            pip="slim",
            pip_size=0.125,
            border=True,
            radius=0.045,
            back=(130, 60, 20),
            back2=(220, 200, 180),
            back_pattern="solid",
        ),
        # Old deck: italic serif index on cream stock, dark red, ornate pips, brown striped back.
        DeckStyle(
            name="vintage",
            font=cv2.FONT_HERSHEY_TRIPLEX | cv2.FONT_ITALIC,
            weight=8,
            index_h=0.09,
            index_w=0.13,
            index_x=0.11,
            index_y=0.05,
            condense=0.8,
            paper=(205, 228, 240),
            red=(35, 35, 135),
            black=(45, 50, 60),
            pip="ornate",
            pip_size=0.14,
            border=True,
            radius=0.085,
            court=((40, 50, 140), (110, 80, 50), (60, 160, 200)),
            back=(40, 60, 95),
            back2=(140, 185, 215),
            back_pattern="diamonds",
            back_margin=False,
        ),
    )
}


def parse_code(code: str) -> tuple[str, str]:
    """(rank, suit) of a card code; jokers give ("RJ"|"BJ", ""), the back gives ("back", "")."""
    c = code.strip().upper()
    if c == "BACK":
        return "back", ""
    if c in ("RJ", "BJ"):
        return c, ""
    rank, suit = c[:-1], c[-1:]
    if rank == "T":
        rank = "10"
    if rank not in RANKS or suit not in SUITS:
        raise ValueError(f"not a card code: {code!r} (expected e.g. QH, 10C, AS, RJ, BJ or back)")
    return rank, suit


def index_region(style: DeckStyle) -> tuple[float, float, float, float]:
    """(x0, y0, x1, y1) of the top-left index (rank and small pip), as fractions of the card.

    The bottom-right index is the same box rotated 180 degrees. Shared with the scene renderer so the
    ground truth says how much of each index a reader could see.
    """
    half_w = max(style.index_w * CARD_W, 0.9 * style.index_pip * CARD_H) / 2 / CARD_W
    x0 = max(0.0, style.index_x - half_w - 0.015)
    x1 = style.index_x + half_w + 0.015
    y0 = max(0.0, style.index_y - 0.012)
    y1 = style.index_y + style.index_h + 0.015 + style.index_pip + 0.012
    return x0, y0, x1, y1


# ---------------------------------------------------------------- shapes


def _pts(points: np.ndarray | list, scale: float = 1.0) -> np.ndarray:
    """Float points as OpenCV fixed-point int32 coordinates."""
    return np.round(np.asarray(points, np.float64) * scale * _ONE).astype(np.int32)


def _fill(img: np.ndarray, points, color, scale: float = 1.0) -> None:
    cv2.fillPoly(img, [_pts(points, scale)], color, _AA, _SHIFT)


def _disc(img: np.ndarray, centre, radius: float, color, scale: float = 1.0) -> None:
    c = _pts(centre, scale)
    cv2.circle(img, (int(c[0]), int(c[1])), round(radius * scale * _ONE), color, -1, _AA, _SHIFT)


def _line(img: np.ndarray, a, b, color, thickness: int) -> None:
    pa, pb = _pts(a), _pts(b)
    cv2.line(img, (int(pa[0]), int(pa[1])), (int(pb[0]), int(pb[1])), color, thickness, _AA, _SHIFT)


def _ellipse(img, centre, axes, color, thickness: int = -1, angle: float = 0.0, arc=(0, 360)) -> None:
    c, a = _pts(centre), _pts(axes)
    cv2.ellipse(
        img, (int(c[0]), int(c[1])), (int(a[0]), int(a[1])), angle, arc[0], arc[1], color, thickness, _AA, _SHIFT
    )


_PIP_VARIANTS: dict[str, dict[str, float]] = {
    #          lobe radius, lobe offset, lobe centre y, diamond half width, diamond side bend, club lobe,
    #          stem half width at the foot, stem flare exponent
    "classic": dict(lobe=0.245, dx=0.235, ly=0.30, dw=0.37, bend=0.0, club=0.2, stem=0.14, flare=2.0),
    "round": dict(lobe=0.27, dx=0.215, ly=0.31, dw=0.42, bend=-0.02, club=0.215, stem=0.1, flare=1.0),
    "slim": dict(lobe=0.205, dx=0.2, ly=0.27, dw=0.3, bend=0.04, club=0.185, stem=0.09, flare=1.5),
    "ornate": dict(lobe=0.235, dx=0.245, ly=0.29, dw=0.36, bend=0.05, club=0.2, stem=0.18, flare=3.0),
}


def _tangent_point(tip: np.ndarray, centre: np.ndarray, r: float, outer_sign: float) -> np.ndarray:
    """Where a line from `tip` touches the circle, on the side away from the shape's centre line."""
    d = centre - tip
    dist = float(np.hypot(*d))
    a = math.asin(min(1.0, r / dist))
    best = None
    for s in (1.0, -1.0):
        ca, sa = math.cos(s * a), math.sin(s * a)
        direction = np.array([d[0] * ca - d[1] * sa, d[0] * sa + d[1] * ca]) / dist
        p = tip + direction * math.sqrt(max(dist * dist - r * r, 0.0))
        if best is None or (p[0] - 0.5) * outer_sign > (best[0] - 0.5) * outer_sign:
            best = p
    return best


def _heart_parts(v: dict[str, float], flip: bool, y_top: float, y_bot: float):
    """Lobe circles and body polygon of a heart in the unit box, scaled into [y_top, y_bot].

    flip turns it upside down for the body of a spade.
    """
    r, dx, ly = v["lobe"], v["dx"], v["ly"]
    tip = np.array([0.5, 0.97])
    left, right = np.array([0.5 - dx, ly]), np.array([0.5 + dx, ly])
    tl, tr = _tangent_point(tip, left, r, -1), _tangent_point(tip, right, r, 1)
    top = ly - r
    k = (y_bot - y_top) / (tip[1] - top)

    def fit(p) -> np.ndarray:
        p = np.array(p, np.float64)
        t = (p[..., 1] - top) / (tip[1] - top)
        p[..., 1] = y_top + (1 - t if flip else t) * (y_bot - y_top)
        p[..., 0] = 0.5 + (p[..., 0] - 0.5) * k
        return p

    poly = fit([tip, tl, left, [0.5, ly - 0.05], right, tr])
    return [(fit(left), r * k), (fit(right), r * k)], poly


def _stem(v: dict[str, float], y0: float) -> np.ndarray:
    """A flared stem from y0 down to the foot of the unit box."""
    t = np.linspace(0, 1, 12)
    half = 0.02 + (v["stem"] - 0.02) * t ** v["flare"]
    y = y0 + (0.98 - y0) * t
    return np.concatenate([np.stack([0.5 - half, y], 1), np.stack([0.5 + half, y], 1)[::-1]])


@functools.lru_cache(maxsize=512)
def pip_mask(suit: str, variant: str, size: int) -> np.ndarray:
    """Coverage (0..1 float32) of an upright suit pip filling a size x size box.

    Drawn at four times the size and area-averaged down, so the edge is as smooth as print.
    """
    v = _PIP_VARIANTS[variant]
    k = 4 * size
    m = np.zeros((k, k), np.uint8)
    if suit == "H":
        circles, poly = _heart_parts(v, False, 0.04, 0.97)
        for c, r in circles:
            _disc(m, c, r, 255, k)
        _fill(m, poly, 255, k)
    elif suit == "S":
        circles, poly = _heart_parts(v, True, 0.02, 0.8)
        for c, r in circles:
            _disc(m, c, r, 255, k)
        _fill(m, poly, 255, k)
        _fill(m, _stem(v, 0.55), 255, k)
    elif suit == "D":
        w, bend = v["dw"], v["bend"]
        corners = np.array([[0.5, 0.02], [0.5 + w, 0.5], [0.5, 0.98], [0.5 - w, 0.5]])
        pts = []
        for i in range(4):
            a, b = corners[i], corners[(i + 1) % 4]
            normal = np.array([-(b - a)[1], (b - a)[0]])
            normal /= np.hypot(*normal)
            inward = normal if np.dot(np.array([0.5, 0.5]) - a, normal) > 0 else -normal
            for t in np.linspace(0, 1, 16, endpoint=False):
                pts.append(a + (b - a) * t + inward * bend * math.sin(math.pi * t))
        _fill(m, np.array(pts), 255, k)
    elif suit == "C":
        r = v["club"]
        top = np.array([0.5, 0.03 + r])
        left = np.array([0.5 - 1.08 * r, top[1] + 1.55 * r])
        right = np.array([0.5 + 1.08 * r, left[1]])
        for c in (top, left, right):
            _disc(m, c, r, 255, k)
        _fill(m, np.array([top, left, right]), 255, k)
        _fill(m, _stem(v, left[1] - 0.1), 255, k)
    else:
        raise ValueError(f"no pip for suit {suit!r}")
    return cv2.resize(m, (size, size), interpolation=cv2.INTER_AREA).astype(np.float32) / 255.0


@functools.lru_cache(maxsize=1024)
def _glyph(text: str, font: int, weight: int, height: int, condense: float, max_w: int) -> np.ndarray:
    """Coverage mask of `text` cropped to its ink and resized to `height` px, squeezed by `condense`."""
    scale = 4.0
    (tw, th), base = cv2.getTextSize(text, font, scale, weight)
    pad = weight + 20
    canvas = np.zeros((th + base + 2 * pad, tw + 2 * pad), np.uint8)
    cv2.putText(canvas, text, (pad, pad + th), font, scale, 255, weight, _AA)
    x, y, w, h = cv2.boundingRect(canvas)
    crop = canvas[y : y + h, x : x + w]
    out_w = max(1, min(max_w, round(w * height / h * condense)))
    return cv2.resize(crop, (out_w, height), interpolation=cv2.INTER_AREA).astype(np.float32) / 255.0


def _stamp(img: np.ndarray, mask: np.ndarray, x0: float, y0: float, color, flip: bool = False) -> None:
    """Blend `color` into img through a coverage mask whose top-left corner goes at (x0, y0)."""
    if flip:
        mask = mask[::-1, ::-1]
    h, w = mask.shape
    x0, y0 = round(x0), round(y0)
    ix0, iy0 = max(x0, 0), max(y0, 0)
    ix1, iy1 = min(x0 + w, img.shape[1]), min(y0 + h, img.shape[0])
    if ix1 <= ix0 or iy1 <= iy0:
        return
    m = mask[iy0 - y0 : iy1 - y0, ix0 - x0 : ix1 - x0, None]
    roi = img[iy0:iy1, ix0:ix1].astype(np.float32)
    img[iy0:iy1, ix0:ix1] = (roi + (np.float32(color) - roi) * m + 0.5).astype(np.uint8)


def _stamp_pip(img, suit: str, style: DeckStyle, cx: float, cy: float, height: float, flip: bool = False) -> None:
    mask = pip_mask(suit, style.pip, max(4, round(height)))
    colour = style.red if suit in RED_SUITS else style.black
    _stamp(img, mask, cx - mask.shape[1] / 2, cy - mask.shape[0] / 2, colour, flip)


def _rounded_mask(w: int, h: int, radius: float, inset: float = 0.0) -> np.ndarray:
    """uint8 mask of a rounded rectangle inset from a w x h canvas."""
    m = np.zeros((h, w), np.uint8)
    r = max(radius - inset, 1.0)
    x0, y0, x1, y1 = inset - 0.5, inset - 0.5, w - 0.5 - inset, h - 0.5 - inset
    _fill(m, [[x0 + r, y0], [x1 - r, y0], [x1 - r, y1], [x0 + r, y1]], 255)
    _fill(m, [[x0, y0 + r], [x1, y0 + r], [x1, y1 - r], [x0, y1 - r]], 255)
    for cx, cy in ((x0 + r, y0 + r), (x1 - r, y0 + r), (x1 - r, y1 - r), (x0 + r, y1 - r)):
        _disc(m, (cx, cy), r, 255)
    return m


# ---------------------------------------------------------------- faces


def _draw_index(img: np.ndarray, rank: str, suit: str, style: DeckStyle) -> None:
    """Rank glyph and small pip in the top-left corner (the mirror copy makes the other corner)."""
    colour = style.red if suit in RED_SUITS else style.black
    gh = round(style.index_h * _H)
    condense = style.condense * (0.8 if rank == "10" else 1.0)
    glyph = _glyph(rank, style.font, style.weight, gh, condense, round(style.index_w * _W))
    cx, top = style.index_x * _W, style.index_y * _H
    _stamp(img, glyph, cx - glyph.shape[1] / 2, top, colour)
    ph = style.index_pip * _H
    _stamp_pip(img, suit, style, cx, top + gh + 0.015 * _H + ph / 2, ph)


def _draw_joker_word(img: np.ndarray, colour, style: DeckStyle) -> None:
    """JOKER with its letters stacked in the corner column."""
    lh = round(min(style.index_h, 0.07) * 0.75 * _H)
    y = style.index_y * _H
    for letter in "JOKER":
        g = _glyph(letter, style.font, max(3, style.weight - 2), lh, style.condense, round(style.index_w * _W))
        _stamp(img, g, style.index_x * _W - g.shape[1] / 2, y, colour)
        y += lh * 1.3


def _pip_layout(n: int, t: float, b: float) -> list[tuple[int, float]]:
    """(column -1/0/1, row y) of the centre pips of an n card, in the standard arrangement."""
    m = 0.5
    q1, q2 = t + (b - t) / 3, t + 2 * (b - t) / 3
    sides = {4: [t, b], 5: [t, b], 6: [t, m, b], 7: [t, m, b], 8: [t, m, b], 9: [t, q1, q2, b], 10: [t, q1, q2, b]}
    centre = {
        2: [t, b],
        3: [t, m, b],
        5: [m],
        7: [(t + m) / 2],
        8: [(t + m) / 2, (m + b) / 2],
        9: [m],
        10: [(t + q1) / 2, (q2 + b) / 2],
    }
    return [(x, y) for y in sides.get(n, []) for x in (-1, 1)] + [(0, y) for y in centre.get(n, [])]


def _court_frame(style: DeckStyle) -> tuple[int, int, int, int]:
    """The picture frame of J, Q, K in supersampled pixels, kept clear of the corner index."""
    x0 = round(max(0.19, index_region(style)[2] + 0.035) * _W)
    y0 = round(max(0.05, style.index_y + 0.01) * _H)
    return x0, y0, _W - 1 - x0, _H - 1 - y0


def _draw_court(img: np.ndarray, rank: str, suit: str, style: DeckStyle) -> None:
    """Top half of a court picture: a framed bust in blocks of colour, with the rank and suit in it."""
    x0, y0, x1, _ = _court_frame(style)
    mid = _H / 2
    fw, fh = x1 - x0, mid - y0
    red, blue, gold = style.court
    ink = style.black
    suit_col = style.red if suit in RED_SUITS else style.black
    skin = (150, 190, 232)

    def p(u: float, v: float) -> tuple[float, float]:
        return x0 + u * fw, y0 + v * fh

    def poly(points, colour, outline: bool = True) -> None:
        pts = np.array([p(u, v) for u, v in points])
        _fill(img, pts, colour)
        if outline:
            cv2.polylines(img, [_pts(pts)], True, ink, _S, _AA, _SHIFT)

    # Each court card of a deck wears its own costume, as in real decks.
    robe, trim = {
        ("K", "S"): (blue, red),
        ("K", "H"): (red, blue),
        ("K", "D"): (red, gold),
        ("K", "C"): (blue, gold),
        ("Q", "S"): (blue, gold),
        ("Q", "H"): (blue, red),
        ("Q", "D"): (red, blue),
        ("Q", "C"): (gold, blue),
        ("J", "S"): (gold, blue),
        ("J", "H"): (red, gold),
        ("J", "D"): (blue, red),
        ("J", "C"): (red, blue),
    }[rank, suit]
    # Robe, central band and side blocks.
    poly([(0.05, 1.0), (0.1, 0.74), (0.3, 0.62), (0.7, 0.62), (0.9, 0.74), (0.95, 1.0)], robe)
    poly([(0.4, 0.64), (0.6, 0.64), (0.64, 1.0), (0.36, 1.0)], gold)
    poly([(0.1, 0.8), (0.3, 0.74), (0.3, 1.0), (0.08, 1.0)], trim)
    poly([(0.9, 0.8), (0.7, 0.74), (0.7, 1.0), (0.92, 1.0)], trim)
    for k in range(4):
        _line(img, p(0.42 + 0.05 * k, 0.7), p(0.41 + 0.06 * k, 0.98), ink, _S)
    # Hair, head, face.
    if rank == "Q":
        poly([(0.3, 0.25), (0.7, 0.25), (0.76, 0.62), (0.24, 0.62)], gold)
    head_c, head_ax = p(0.5, 0.43), (0.13 * fw, 0.17 * fh)
    _ellipse(img, head_c, head_ax, skin)
    _ellipse(img, head_c, head_ax, ink, _S)
    if rank == "K":
        poly([(0.4, 0.52), (0.6, 0.52), (0.56, 0.66), (0.5, 0.7), (0.44, 0.66)], (235, 235, 235))
    for ex in (0.45, 0.55):
        _disc(img, p(ex, 0.41), 0.012 * fw, ink)
    _line(img, p(0.46, 0.5), p(0.54, 0.5), (60, 60, 170), _S)
    # Collar.
    _ellipse(img, p(0.5, 0.62), (0.2 * fw, 0.05 * fh), (235, 235, 235))
    _ellipse(img, p(0.5, 0.62), (0.2 * fw, 0.05 * fh), ink, _S)
    # Headwear.
    if rank == "K":
        poly([(0.34, 0.3), (0.34, 0.12), (0.42, 0.2), (0.5, 0.08), (0.58, 0.2), (0.66, 0.12), (0.66, 0.3)], gold)
        for u in (0.42, 0.5, 0.58):
            _disc(img, p(u, 0.25), 0.015 * fw, red)
    elif rank == "Q":
        poly([(0.38, 0.28), (0.4, 0.16), (0.5, 0.22), (0.6, 0.16), (0.62, 0.28)], gold)
        _disc(img, p(0.5, 0.18), 0.025 * fw, blue)
    else:
        poly([(0.3, 0.3), (0.36, 0.16), (0.64, 0.16), (0.72, 0.3)], trim)
        _line(img, p(0.64, 0.18), p(0.82, 0.04), gold, 2 * _S)
    # What the figure holds: sword, flower, halberd.
    if rank == "K":
        _line(img, p(0.83, 0.22), p(0.83, 0.97), (170, 170, 170), 3 * _S)
        _line(img, p(0.76, 0.35), p(0.9, 0.35), gold, 3 * _S)
    elif rank == "Q":
        _line(img, p(0.8, 0.4), p(0.8, 0.9), (60, 140, 40), 2 * _S)
        _disc(img, p(0.8, 0.36), 0.05 * fw, red)
        _disc(img, p(0.8, 0.36), 0.02 * fw, gold)
    else:
        _line(img, p(0.84, 0.1), p(0.84, 0.97), (40, 80, 120), 2 * _S)
        poly([(0.84, 0.12), (0.94, 0.2), (0.84, 0.28)], (170, 170, 170))
    # Rank and suit inside the frame, top-left.
    gh = round(0.06 * _H)
    g = _glyph(rank, style.font, style.weight, gh, style.condense, round(0.12 * _W))
    lx, ly = x0 + 0.04 * fw + 6, y0 + 0.05 * fh
    _stamp(img, g, lx, ly, suit_col)
    _stamp_pip(img, suit, style, lx + g.shape[1] / 2, ly + gh + 0.035 * _H, 0.05 * _H)
    # The frame and the line where the picture is mirrored.
    cv2.rectangle(img, (x0, y0), (x1, _H - 1 - y0), ink, 2 * _S, _AA)
    _line(img, (x0, mid), (x1, mid), ink, _S)


def _star(cx: float, cy: float, r: float, points: int = 5, inner: float = 0.45) -> np.ndarray:
    a = -math.pi / 2 + np.arange(2 * points) * math.pi / points
    rr = np.where(np.arange(2 * points) % 2 == 0, r, r * inner)
    return np.stack([cx + rr * np.cos(a), cy + rr * np.sin(a)], 1)


def _draw_joker_figure(img: np.ndarray, red: bool, style: DeckStyle) -> None:
    """A jester's head under a three-pointed cap above a star, in the joker's colour."""
    main = style.red if red else style.black
    second = style.court[2] if red else (150, 150, 150)
    ink = style.black
    cx = _W / 2
    # Cap with three drooping points and bells.
    for dx, tip in ((-0.2, (0.2, 0.3)), (0.0, (0.5, 0.17)), (0.2, (0.8, 0.3))):
        colour = main if dx == 0 else second
        base = 0.37 * _H
        pts = np.array([(cx + (dx - 0.09) * _W, base), (tip[0] * _W, tip[1] * _H), (cx + (dx + 0.09) * _W, base)])
        _fill(img, pts, colour)
        cv2.polylines(img, [_pts(pts)], True, ink, _S, _AA, _SHIFT)
        _disc(img, (tip[0] * _W, tip[1] * _H), 0.025 * _W, main if dx else second)
    _ellipse(img, (cx, 0.43 * _H), (0.1 * _W, 0.075 * _H), (150, 190, 232))
    _ellipse(img, (cx, 0.43 * _H), (0.1 * _W, 0.075 * _H), ink, _S)
    for ex in (-0.035, 0.035):
        _disc(img, (cx + ex * _W, 0.42 * _H), 0.01 * _W, ink)
    _ellipse(img, (cx, 0.45 * _H), (0.04 * _W, 0.02 * _H), ink, _S, arc=(0, 180))
    star = _star(cx, 0.66 * _H, 0.2 * _W)
    _fill(img, star, main)


def _draw_back(img: np.ndarray, style: DeckStyle) -> None:
    """Back pattern, optionally inside a white margin."""
    margin = 0.06 * _W if style.back_margin else 0.0
    pattern = np.empty_like(img)
    pattern[:] = style.back
    c2, step = style.back2, 0.07 * _W
    if style.back_pattern == "diamonds":
        for k in range(-40, 41):
            off = _W / 2 + k * step
            _line(pattern, (off - _H, _H / 2 - _H), (off + _H, _H / 2 + _H), c2, _S + 1)
            _line(pattern, (off + _H, _H / 2 - _H), (off - _H, _H / 2 + _H), c2, _S + 1)
    elif style.back_pattern == "stripes":
        for k in range(-30, 31):
            off = _W / 2 + k * step * 1.2
            _line(pattern, (off - _H, _H / 2 - _H), (off + _H, _H / 2 + _H), c2, round(step * 0.45))
    elif style.back_pattern == "dots":
        for j, y in enumerate(np.arange(_H / 2 % step - step, _H + step, step * 0.87)):
            for x in np.arange(_W / 2 % step - step + (step / 2) * (j % 2), _W + step, step):
                _disc(pattern, (x, y), step * 0.26, c2)
    # Every back gets an inner frame line and a central emblem, as printed backs do.
    inset = margin + 0.05 * _W
    cv2.rectangle(pattern, (round(inset), round(inset)), (round(_W - inset), round(_H - inset)), c2, 2 * _S, _AA)
    _ellipse(pattern, (_W / 2, _H / 2), (0.17 * _W, 0.12 * _H), style.back)
    _ellipse(pattern, (_W / 2, _H / 2), (0.17 * _W, 0.12 * _H), c2, 2 * _S)
    _fill(pattern, _star(_W / 2, _H / 2, 0.09 * _W, 8, 0.5), c2)
    if margin:
        m = _rounded_mask(_W, _H, style.radius * _W, margin).astype(np.float32)[..., None] / 255
        img[:] = (img * (1 - m) + pattern * m + 0.5).astype(np.uint8)
    else:
        img[:] = pattern


@functools.lru_cache(maxsize=600)
def _render_card_cached(code: str, style: DeckStyle) -> np.ndarray:
    rank, suit = parse_code(code)
    img = np.empty((_H, _W, 3), np.uint8)
    img[:] = style.paper
    if rank == "back":
        _draw_back(img, style)
    else:
        if style.border:
            inset = round(0.035 * _W)
            cv2.rectangle(img, (inset, inset), (_W - 1 - inset, _H - 1 - inset), style.black, _S, _AA)
        if rank in ("RJ", "BJ"):
            _draw_joker_word(img, style.red if rank == "RJ" else style.black, style)
        else:
            if rank in ("J", "Q", "K"):
                _draw_court(img, rank, suit, style)
            _draw_index(img, rank, suit, style)
        img[_H // 2 :] = img[: _H // 2][::-1, ::-1]
        if rank in ("RJ", "BJ"):
            _draw_joker_figure(img, rank == "RJ", style)
        elif rank == "A":
            size = style.ace_size * (1.35 if suit == "S" else 1.0) * _H
            _stamp_pip(img, suit, style, _W / 2, _H / 2, size)
        elif rank not in ("J", "Q", "K"):
            for col, y in _pip_layout(int(rank), *style.pip_rows):
                _stamp_pip(img, suit, style, _W / 2 + col * style.pip_dx * _W, y * _H, style.pip_size * _H, y > 0.5)
    # A thin grey edge: the card's thickness and the cut catch less light than the face.
    full = _rounded_mask(_W, _H, style.radius * _W)
    inner = _rounded_mask(_W, _H, style.radius * _W, 2.5)
    band = full != inner  # blend only the thin band, not the whole canvas
    edge = ((full[band].astype(np.float32) - inner[band]) / 255)[:, None]
    edge_col = np.float32(style.paper) * 0.7
    img[band] = (img[band] + (edge_col - img[band]) * edge + 0.5).astype(np.uint8)
    small = cv2.resize(img, (CARD_W, CARD_H), interpolation=cv2.INTER_AREA)
    alpha = cv2.resize(full, (CARD_W, CARD_H), interpolation=cv2.INTER_AREA)
    small[alpha == 0] = edge_col.astype(np.uint8)
    out = cv2.merge([*cv2.split(small), alpha])
    out.flags.writeable = False
    return out


def render_card(code: str, style: DeckStyle) -> np.ndarray:
    """The card face (or back when code == "back") as a CARD_H x CARD_W BGRA image; alpha is 0
    outside the rounded corners.

    Cached per (code, style): a scene reuses faces, so only the first use of each pays for drawing.
    The returned array is read-only because it is shared.
    """
    rank, suit = parse_code(code)
    return _render_card_cached("back" if rank == "back" else rank + suit, style)

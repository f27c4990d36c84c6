"""Synthetic card corners to train the corner reader on: many fonts, pips, layouts and cameras.

Every sample is what ``reader.corner_image`` cuts from a warped card (the top-left index region,
``CORNER_PX`` pixels), drawn from scratch: an index in one of the system's TrueType fonts (rank on
top, suit pip under it), the things that share a real corner (the edge of a centre pip, a court
card's frame and picture, the table past the rounded corner, a thumb), then a camera's faults
(a warp a few pixels off, blur, low resolution, noise, uneven light, JPEG). Some samples show no
index at all (a back, a picture, the table, a covered corner) and are labelled so.

None of the simulator's deck styles (``sim.render_cards``) and none of the real photographs are
used here, so both stay unseen for the benchmark. Needs Pillow and fonts (see docs/training.md's
"Training the corner reader"); the table itself never imports this module.
"""

from __future__ import annotations

import glob
import re
from dataclasses import dataclass
from functools import cache

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from vision.corner_net import CORNER_PX, RANK_CLASSES, SUIT_CLASSES

FONT_DIRS = ("/usr/share/fonts", "/usr/share/texmf/fonts/opentype")
# Faces that are not index faces: symbols, scripts without Latin digits, slanted or hairline styles.
SKIP_FONT = re.compile(
    r"(?i)mono|math|emoji|symbol|dingbat|z003|d050000l|italic|oblique|ital|-it\.|boldit|lightit|cursor|"
    r"kufi|looped|music|naskh|nastaliq|rashi|nushu|_I\.|_RI|_RBI|_RZI|BdIta|_K\.|thin|extralight"
)
SUIT_CHARS = {"S": "\u2660", "C": "\u2663", "H": "\u2665", "D": "\u2666"}
SS = 2  # draw at twice the corner's size, then area-average down
COVERED = 0.15  # the share of index corners with a thumb or another card over part of them
NONE_RANK, NONE_SUIT = RANK_CLASSES.index("none"), SUIT_CLASSES.index("none")
JOKER = RANK_CLASSES.index("joker")


@dataclass(frozen=True)
class Sample:
    image: np.ndarray  # BGR corner, CORNER_PX
    rank: int  # index into RANK_CLASSES
    suit: int  # index into SUIT_CLASSES


def font_files(folders: tuple[str, ...] = FONT_DIRS) -> list[str]:
    """Upright Latin text faces installed that have every index character."""
    found = []
    for folder in folders:
        for path in sorted(glob.glob(f"{folder}/**/*.[ot]tf", recursive=True)):
            if not SKIP_FONT.search(path.rsplit("/", 1)[1]) and has_ink(path, "A234567890JQKOER"):
                found.append(path)
    return found


def has_ink(path: str, chars: str) -> bool:
    """Whether the face draws each character itself rather than its missing-glyph box."""
    font = _font(path)
    missing = _ink(font, "\ue000").tobytes()
    return all(_ink(font, ch).size > 200 and _ink(font, ch).tobytes() != missing for ch in chars)


def _ink(font: ImageFont.FreeTypeFont, text: str) -> np.ndarray:
    left, top, right, bottom = font.getbbox(text)
    img = Image.new("L", (max(1, right - left) + 4, max(1, bottom - top) + 4), 0)
    ImageDraw.Draw(img).text((2 - left, 2 - top), text, fill=255, font=font)
    arr = np.asarray(img)
    ys, xs = np.nonzero(arr > 20)
    if len(xs) == 0:
        return arr[:1, :1] * 0
    return arr[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]


@cache
def _font(path: str) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(path, 96)


@cache
def glyph(path: str, text: str) -> np.ndarray:
    """The text in that face as a tight 8-bit coverage image, about 96 px tall."""
    return _ink(_font(path), text)


@cache
def suit_fonts(paths: tuple[str, ...]) -> tuple[str, ...]:
    """The faces that really have the four suit symbols (not the missing-glyph box)."""
    keep = []
    for path in paths:
        if has_ink(path, "".join(SUIT_CHARS.values())):
            keep.append(path)
    return tuple(keep)


def pip_mask(suit: str, variant: int = 0, size: int = 64) -> np.ndarray:
    """A plain drawing of a suit pip (or the letter O), for the built-in suit templates."""
    img = np.zeros((size, size), np.uint8)
    s = size
    r = round(s * (0.22 + 0.03 * variant))
    if suit == "D":
        w = 0.30 + 0.06 * variant
        pts = np.array([[s / 2, 2], [s * (0.5 + w), s / 2], [s / 2, s - 3], [s * (0.5 - w), s / 2]], np.int32)
        cv2.fillPoly(img, [pts], 255, cv2.LINE_AA)
    elif suit == "H":
        cy = round(s * 0.35)
        cv2.circle(img, (round(s / 2 - r * 0.85), cy), r, 255, -1, cv2.LINE_AA)
        cv2.circle(img, (round(s / 2 + r * 0.85), cy), r, 255, -1, cv2.LINE_AA)
        pts = np.array([[s / 2 - r * 1.8, cy + r * 0.3], [s / 2 + r * 1.8, cy + r * 0.3], [s / 2, s - 4]], np.int32)
        cv2.fillPoly(img, [pts], 255, cv2.LINE_AA)
    elif suit == "S":
        # A point at the top, two round lobes low down, and a stem with a flared foot.
        cy = round(s * 0.58)
        cv2.circle(img, (round(s / 2 - r * 0.85), cy), r, 255, -1, cv2.LINE_AA)
        cv2.circle(img, (round(s / 2 + r * 0.85), cy), r, 255, -1, cv2.LINE_AA)
        pts = np.array([[s / 2 - r * 1.8, cy - r * 0.3], [s / 2 + r * 1.8, cy - r * 0.3], [s / 2, 3]], np.int32)
        cv2.fillPoly(img, [pts], 255, cv2.LINE_AA)
        stem = np.array([[s / 2, s * 0.55], [s / 2 + s * 0.13, s - 2], [s / 2 - s * 0.13, s - 2]], np.int32)
        cv2.fillPoly(img, [stem], 255, cv2.LINE_AA)
    elif suit == "C":
        r = round(s * (0.18 + 0.02 * variant))
        cv2.circle(img, (s // 2, r + 2), r, 255, -1, cv2.LINE_AA)
        cv2.circle(img, (round(s / 2 - r * 1.2), round(s * 0.55)), r, 255, -1, cv2.LINE_AA)
        cv2.circle(img, (round(s / 2 + r * 1.2), round(s * 0.55)), r, 255, -1, cv2.LINE_AA)
        cv2.circle(img, (s // 2, round(s * 0.45)), round(r * 0.6), 255, -1, cv2.LINE_AA)
        stem = np.array([[s / 2, s * 0.45], [s / 2 + s * 0.13, s - 2], [s / 2 - s * 0.13, s - 2]], np.int32)
        cv2.fillPoly(img, [stem], 255, cv2.LINE_AA)
    else:  # "O"
        cv2.ellipse(img, (s // 2, s // 2), (round(s * 0.3), round(s * 0.45)), 0, 0, 360, 255, round(s * 0.12))
    return (img > 127).astype(np.uint8)


def _scaled(mask: np.ndarray, height: float, condense: float) -> np.ndarray:
    h, w = mask.shape
    new_h = max(2, round(height))
    new_w = max(2, round(w * new_h / h * condense))
    return cv2.resize(mask, (new_w, new_h), interpolation=cv2.INTER_AREA)


def _paste(canvas: np.ndarray, mask: np.ndarray, x: float, y: float, colour: np.ndarray) -> None:
    """Blend a coverage mask into the canvas at (x, y) in the given colour, clipped to the canvas."""
    h, w = mask.shape
    x, y = round(x), round(y)
    x0, y0, x1, y1 = max(x, 0), max(y, 0), min(x + w, canvas.shape[1]), min(y + h, canvas.shape[0])
    if x0 >= x1 or y0 >= y1:
        return
    alpha = (mask[y0 - y : y1 - y, x0 - x : x1 - x].astype(np.float32) / 255.0)[..., None]
    region = canvas[y0:y1, x0:x1]
    region[:] = region * (1 - alpha) + colour * alpha


def _colours(rng: np.random.Generator, red: bool) -> tuple[np.ndarray, np.ndarray]:
    paper = np.array([rng.uniform(200, 255)] * 3) - np.array([rng.uniform(0, 45), rng.uniform(0, 18), 0])
    if red:
        ink = np.array([rng.uniform(0, 80), rng.uniform(0, 60), rng.uniform(140, 235)])
    else:
        ink = np.full(3, rng.uniform(0, 70)) + rng.uniform(-10, 10, 3)
    return np.clip(paper, 0, 255), np.clip(ink, 0, 255)


def random_pip(rng: np.random.Generator, suit: str, size: int = 96) -> np.ndarray:
    """A suit pip of random proportions (lobes, spread, stem and foot), as printers draw them.

    The fonts' suit symbols are few designs; decks print slim, round, squat and ornate pips, and
    at an index's size a slim club and a slim spade differ only in these proportions. Drawn at
    four times the size and area-averaged, 0-255 coverage."""
    k = 4 * size
    img = np.zeros((k, k), np.uint8)
    u = rng.uniform

    def disc(x: float, y: float, r: float) -> None:
        cv2.circle(img, (round(x * k), round(y * k)), max(1, round(r * k)), 255, -1, cv2.LINE_AA)

    def poly(points: list[tuple[float, float]]) -> None:
        cv2.fillPoly(img, [np.round(np.array(points) * k).astype(np.int32)], 255, cv2.LINE_AA)

    def stem(top: float) -> None:
        foot, waist, flare = u(0.06, 0.2), u(0.012, 0.04), u(0.8, 3.5)
        t = np.linspace(0, 1, 12)
        half = waist + (foot - waist) * t**flare
        y = top + (0.98 - top) * t
        poly([*zip(0.5 - half, y, strict=True), *zip((0.5 + half)[::-1], y[::-1], strict=True)])

    if suit in "HS":  # a heart; a spade is one upside down on a stem
        r = u(0.17, 0.28)
        dx = u(0.16, min(0.26, 0.47 - r))
        ly, tip = (u(0.25, 0.35), u(0.9, 0.98)) if suit == "H" else (u(0.5, 0.62), u(0.02, 0.1))
        side = 1 if suit == "H" else -1
        disc(0.5 - dx, ly, r)
        disc(0.5 + dx, ly, r)
        reach = u(0.75, 1.0)
        poly([(0.5 - dx - r * reach, ly + side * r * 0.3), (0.5 + dx + r * reach, ly + side * r * 0.3), (0.5, tip)])
        poly([(0.5 - dx, ly + side * r * 0.35), (0.5 + dx, ly + side * r * 0.35), (0.5, ly - side * r * u(0.3, 0.8))])
        if suit == "S":
            stem(ly + r * u(0.2, 0.8))
    elif suit == "D":
        w, bend = u(0.26, 0.44), u(-0.03, 0.06)
        t = np.linspace(0, 1, 16, endpoint=False)
        sag = bend * np.sin(np.pi * t)[:, None]
        corners = [(0.5, 0.02), (0.5 + w, 0.5), (0.5, 0.98), (0.5 - w, 0.5)]
        points = []
        for (ax, ay), (bx, by) in zip(corners, corners[1:] + corners[:1], strict=True):
            inward = np.array([0.5 - (ax + bx) / 2, 0.5 - (ay + by) / 2])
            inward /= np.hypot(*inward) + 1e-9
            points += list(np.array([ax, ay]) + np.outer(t, [bx - ax, by - ay]) + sag * inward)
        poly(points)
    else:  # a club: three round leaves, their middle filled, on a stem
        r = u(0.14, 0.24)
        top = 0.03 + r
        spread, drop = u(0.95, 1.3), u(1.3, 1.8)
        left, right = (0.5 - spread * r, top + drop * r), (0.5 + spread * r, top + drop * r)
        for x, y in ((0.5, top), left, right):
            disc(x, y, r)
        poly([(0.5, top), left, right])
        stem(left[1] - r * u(0.1, 0.6))
    return cv2.resize(img, (size, size), interpolation=cv2.INTER_AREA)


def _pip(rng: np.random.Generator, suit: str, fonts: tuple[str, ...], varied: bool = False) -> np.ndarray:
    """A suit's pip: a font's symbol or a plain drawing; ``varied``, four in ten of random shape."""
    if varied and suit in SUIT_CHARS:
        pick = rng.random()
        if fonts and pick < 0.45:
            return glyph(str(rng.choice(fonts)), SUIT_CHARS[suit])
        if pick < 0.6:
            return (pip_mask(suit, int(rng.integers(0, 3)), 96) * 255).astype(np.uint8)
        return random_pip(rng, suit)
    if suit in SUIT_CHARS and fonts and rng.random() < 0.7:
        return glyph(str(rng.choice(fonts)), SUIT_CHARS[suit])
    return (pip_mask(suit if suit in SUIT_CHARS else "O", int(rng.integers(0, 3)), 96) * 255).astype(np.uint8)


def _distractors(rng: np.random.Generator, canvas: np.ndarray, ink: np.ndarray, suit: str, fonts, varied: bool) -> None:
    """What else shows in a real corner: a centre pip cut by the crop, a court frame and picture."""
    h, w = canvas.shape[:2]
    if rng.random() < 0.5:  # a centre pip poking in from the right or the bottom
        big = _scaled(_pip(rng, suit, fonts, varied), h * rng.uniform(0.25, 0.45), rng.uniform(0.8, 1.1))
        if rng.random() < 0.5:
            _paste(canvas, big, w * rng.uniform(0.75, 0.95), h * rng.uniform(0.1, 0.8), ink)
        else:
            _paste(canvas, big, w * rng.uniform(0.2, 0.7), h * rng.uniform(0.82, 0.95), ink)
    if rng.random() < 0.3:  # a court card's frame line and a corner of its picture
        x = round(w * rng.uniform(0.7, 0.95))
        y = round(h * rng.uniform(0.05, 0.25))
        t = max(1, round(rng.uniform(1, 4)))
        colour = np.array(rng.uniform(0, 200, 3))
        cv2.line(canvas, (x, y), (x, h), colour.tolist(), t)
        if rng.random() < 0.6:
            for _ in range(int(rng.integers(2, 8))):
                c = (int(rng.integers(x, w + 20)), int(rng.integers(y, h)))
                cv2.circle(canvas, c, int(rng.integers(4, 30)), rng.uniform(0, 255, 3).tolist(), -1)


# A court picture's colours (BGR): gold, red, blue, black and a face's pink, as most decks print them.
COURT_COLOURS = np.array([[40, 190, 235], [40, 40, 190], [150, 80, 30], [25, 25, 25], [170, 200, 240]], np.float32)
COURT_FRAMED = 0.5  # the share of J, Q and K corners drawn with their frame close beside the index


def court_picture(
    rng: np.random.Generator,
    canvas: np.ndarray,
    ink: np.ndarray,
    suit: str,
    index: tuple[float, float],
    fonts,
    varied: bool,
) -> None:
    """A court card's frame close beside its index, the suit's pip in the frame's corner and the
    busy picture under it, as most decks print their J, Q and K. Drawn right of the index (the
    right side and the top of its rank's and pip's box, ``index``), so that the index itself stays
    whole: a reader must learn to read it beside a picture, not to take the picture for a rank."""
    h, w = canvas.shape[:2]
    right, top = index
    x = round(min(max(right + w * rng.uniform(0.02, 0.14), w * 0.4), w * 0.92))
    y = round(max(top + h * rng.uniform(-0.04, 0.12), 2))
    t = int(rng.integers(1, 4))
    # The frame in the index's ink, or in gold, red, blue or black (the first four: not a face's pink).
    colour = (ink if rng.random() < 0.4 else COURT_COLOURS[rng.integers(0, 4)] + rng.uniform(-25, 25, 3)).tolist()
    for inset in (0, int(rng.integers(3, 7))) if rng.random() < 0.3 else (0,):
        cv2.line(canvas, (x + inset, y + inset), (x + inset, h + 10), colour, t)
        cv2.line(canvas, (x + inset, y + inset), (w + 10, y + inset), colour, t)
    left, top = x + t + int(rng.integers(2, 8)), y + t + int(rng.integers(2, 8))
    if rng.random() < 0.7:  # the suit's pip in the frame's top corner, bigger than the index's
        pip = _scaled(_pip(rng, suit, fonts, varied), h * rng.uniform(0.12, 0.3), rng.uniform(0.85, 1.15))
        _paste(canvas, pip, left, top, ink)
        top += round(pip.shape[0] * rng.uniform(0.6, 1.1))
    picture = canvas.copy()  # the figure, kept inside the frame: blocks of colour outlined in black
    for _ in range(int(rng.integers(3, 12))):
        fill = (COURT_COLOURS[rng.integers(0, len(COURT_COLOURS))] + rng.uniform(-25, 25, 3)).tolist()
        centre = (int(rng.integers(left, w + 20)), int(rng.integers(top, h + 20)))
        axes = (int(rng.integers(3, 30)), int(rng.integers(3, 40)))
        angle = float(rng.uniform(0, 180))
        cv2.ellipse(picture, centre, axes, angle, 0, 360, fill, -1, cv2.LINE_AA)
        if rng.random() < 0.7:
            cv2.ellipse(picture, centre, axes, angle, 0, 360, (25, 25, 25), int(rng.integers(1, 3)), cv2.LINE_AA)
    inside = (slice(y + t, None), slice(x + t, None))
    canvas[inside] = picture[inside]


def _background(rng: np.random.Generator, shape: tuple[int, int]) -> np.ndarray:
    """A table: a flat or textured colour (felt, wood, carpet)."""
    h, w = shape
    base = rng.uniform(0, 255, 3)
    noise = rng.normal(0, rng.uniform(0, 40), (h // 4 + 1, w // 4 + 1, 1))
    if rng.random() < 0.5:  # grain in one direction
        noise = np.repeat(noise[:, :1], noise.shape[1], axis=1) + rng.normal(0, 8, noise.shape)
    tex = cv2.resize(noise.astype(np.float32), (w, h))[..., None]
    return np.clip(base + tex, 0, 255)


def _card_back(rng: np.random.Generator, shape: tuple[int, int]) -> np.ndarray:
    h, w = shape
    a, b = rng.uniform(0, 255, 3), rng.uniform(0, 255, 3)
    img = np.empty((h, w, 3), np.float32)
    img[:] = a
    step = int(rng.integers(8, 30))
    kind = rng.integers(0, 3)
    for i in range(-h, w + h, step):
        if kind == 0:
            cv2.line(img, (i, 0), (i + h, h), b.tolist(), 2)
            cv2.line(img, (i, h), (i + h, 0), b.tolist(), 2)
        elif kind == 1:
            cv2.line(img, (i, 0), (i, h), b.tolist(), max(1, step // 3))
        else:
            for j in range(0, h, step):
                cv2.circle(img, (i, j), step // 4 + 1, b.tolist(), -1)
    if rng.random() < 0.5:  # a white margin round the pattern
        m = int(rng.integers(4, 20))
        img[:m] = 245
        img[:, :m] = 245
    return img


def _index(
    rng: np.random.Generator, canvas: np.ndarray, rank: str, suit: str, ink, fonts, pip_fonts, varied: bool
) -> tuple:
    """Draw the rank and the pip under it in one column, the way printers lay out an index.

    Returns the boxes (x0, y0, x1, y1) the rank glyph and the pip were drawn in (a joker's
    letters, and no pip)."""
    h, w = canvas.shape[:2]
    face = str(rng.choice(fonts))
    rank_h = h * rng.uniform(0.13, 0.48)  # small indices to jumbo ones
    condense = rng.uniform(0.55, 1.1)
    if rank == "joker":
        letters = [_scaled(glyph(face, ch), rank_h * 0.45, condense) for ch in "JOKER"]
        x_c, y = w * rng.uniform(0.22, 0.5), h * rng.uniform(0.03, 0.1)
        gap = rank_h * rng.uniform(0.03, 0.12)
        top = y
        for letter in letters:
            _paste(canvas, letter, x_c - letter.shape[1] / 2, y, ink)
            y += letter.shape[0] + gap
        return (x_c - rank_h / 4, top, x_c + rank_h / 4, y), None
    text = glyph(face, rank)
    if rank == "10" and rng.random() < 0.5:  # squeezed 10s: the 1 and 0 touch or nearly
        one, zero = glyph(face, "1"), glyph(face, "0")
        pad = int(rng.integers(-6, 4))
        width = one.shape[1] + zero.shape[1] + pad
        text = np.zeros((max(one.shape[0], zero.shape[0]), max(width, zero.shape[1] + 1)), np.uint8)
        text[: one.shape[0], : one.shape[1]] = one
        region = text[: zero.shape[0], width - zero.shape[1] : width]
        np.maximum(region, zero[:, : region.shape[1]], out=region)
    if rng.random() < 0.3:  # heavier or lighter print than the face
        k = np.ones((int(rng.integers(2, 6)),) * 2, np.uint8)
        text = cv2.dilate(text, k) if rng.random() < 0.6 else cv2.erode(text, k)
    if rng.random() < 0.3:  # a slanted or hand-lettered look
        shear = rng.uniform(-0.2, 0.2)
        th, tw = text.shape
        m = np.float32([[1, shear, max(0.0, -shear * th)], [0, 1, 0]])
        text = cv2.warpAffine(text, m, (tw + round(abs(shear) * th), th))
    mark = _scaled(text, rank_h, condense)
    max_w = w * 0.7
    if mark.shape[1] > max_w:
        mark = _scaled(text, rank_h, condense * max_w / mark.shape[1])
    pip = _scaled(_pip(rng, suit, pip_fonts, varied), rank_h * rng.uniform(0.5, 0.95), rng.uniform(0.85, 1.15))
    x_c = w * rng.uniform(0.2, 0.55)
    x_c = min(max(x_c, mark.shape[1] / 2 + 3), w - mark.shape[1] / 2 - 3)
    y = h * rng.uniform(0.02, 0.15)
    _paste(canvas, mark, x_c - mark.shape[1] / 2, y, ink)
    box = (x_c - mark.shape[1] / 2, y, x_c + mark.shape[1] / 2, y + mark.shape[0])
    y += mark.shape[0] + rank_h * rng.uniform(0.03, 0.25)
    x = x_c - pip.shape[1] / 2 + rng.uniform(-0.05, 0.05) * w
    _paste(canvas, pip, x, y, ink)
    return box, (x, y, x + pip.shape[1], y + pip.shape[0])


def _camera(rng: np.random.Generator, big: np.ndarray, margin: int, varied: bool) -> np.ndarray:
    """Crop as a slightly wrong warp would, then blur, shrink, light and compress like a camera;
    ``varied``, one in five under a hard shadow's edge."""
    out_w, out_h = CORNER_PX
    h, w = out_h * SS, out_w * SS
    angle = rng.normal(0, 2.0)
    scale = rng.uniform(0.8, 1.15)
    # A card's outline found a little wide (a shadow, the table's edge) puts the index lower and
    # further right in the crop; found a little tight cuts into it.
    dx, dy = rng.uniform(-0.08, 0.3) * w, rng.uniform(-0.05, 0.25) * h
    centre = (margin + w / 2, margin + h / 2)
    m = cv2.getRotationMatrix2D(centre, angle, scale)
    m[:, 2] += (-margin + dx, -margin + dy)
    img = cv2.warpAffine(big, m, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
    img = cv2.resize(img, (out_w, out_h), interpolation=cv2.INTER_AREA)
    light = np.linspace(rng.uniform(0.55, 1.05), rng.uniform(0.55, 1.05), out_h, dtype=np.float32)
    img = img * light[:, None, None] * rng.uniform(0.88, 1.05, 3).astype(np.float32)
    if varied and rng.random() < 0.2:  # a hard shadow across the corner (a hand, a lamp's arm, sunlight)
        shade = np.ones((out_h, out_w), np.float32)
        x0, x1 = rng.uniform(-0.2, 1.2, 2) * out_w
        edge = np.int32([[x0, 0], [out_w * 3, 0], [out_w * 3, out_h], [x1, out_h]])
        cv2.fillPoly(shade, [edge], rng.uniform(0.3, 0.8))
        img = img * cv2.GaussianBlur(shade, (0, 0), rng.uniform(0.5, 4))[..., None]
    if rng.random() < 0.2:  # a patch of glare
        glare = np.zeros((out_h, out_w), np.float32)
        cv2.circle(glare, (int(rng.integers(0, out_w)), int(rng.integers(0, out_h))), int(rng.integers(5, 30)), 1.0, -1)
        img += cv2.GaussianBlur(glare, (0, 0), 6)[..., None] * rng.uniform(30, 120)
    low = rng.uniform(0.3, 1.0)  # the camera's own resolution: index glyphs 8 px tall and up
    if low < 0.95:
        small = cv2.resize(img, (max(8, round(out_w * low)), max(16, round(out_h * low))), interpolation=cv2.INTER_AREA)
        img = cv2.resize(small, (out_w, out_h), interpolation=cv2.INTER_LINEAR)
    img = out_of_focus(rng, img)
    if rng.random() < 0.15:  # a webcam's overexposure: ink washed towards the paper
        img = 255 - (255 - img) * rng.uniform(0.35, 0.75)
    img = img + rng.normal(0, rng.uniform(0, 8), img.shape)
    img = np.clip(img, 0, 255).astype(np.uint8)
    if rng.random() < 0.6:
        _ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(25, 95))])
        img = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return img


def print_mark(rng: np.random.Generator, canvas: np.ndarray, h: int) -> None:
    """Lines of print across the canvas (a page, a book, a box lying on the table): letters and
    dashes in rows, whose marks pair up as a rank over a pip would."""
    size = h * rng.uniform(0.04, 0.14)
    scale = size / 22.0  # Hershey's simplex letters are about 22 units tall at scale 1
    ink = rng.uniform(0, 90, 3)
    mask = np.zeros(canvas.shape[:2], np.uint8)
    letters = "abcdefghijklmnopqrstuvwxyz-=AEHKMNRSTW0123456789"
    y = rng.uniform(0, size * 2)
    while y < canvas.shape[0] + size:
        text = "".join(rng.choice(list(letters + "  ")) for _ in range(int(rng.integers(10, 30))))
        x0 = int(rng.uniform(-0.5, 0.1) * canvas.shape[1])
        thick = max(1, round(scale * rng.uniform(1.5, 3.5)))
        cv2.putText(mask, text, (x0, int(y)), cv2.FONT_HERSHEY_SIMPLEX, scale, 255, thick, cv2.LINE_AA)
        y += size * rng.uniform(1.4, 2.2)
    _paste(canvas, mask, 0, 0, ink)


def out_of_focus(rng: np.random.Generator, img: np.ndarray) -> np.ndarray:
    """A camera's blur: mostly slight, one corner in five defocused further (a phone's or a
    webcam's depth of field: a queen's tail is lost), one in eight shaken along a line."""
    sigma = rng.uniform(0, 1.6) if rng.random() < 0.8 else rng.uniform(1.6, 2.8)
    if sigma > 0.3:
        img = cv2.GaussianBlur(img, (0, 0), sigma)
    if rng.random() < 0.125:
        length = int(rng.integers(3, 9))
        kernel = np.zeros((length, length), np.float32)
        kernel[length // 2, :] = 1.0 / length
        turn = cv2.getRotationMatrix2D(((length - 1) / 2, (length - 1) / 2), float(rng.uniform(0, 180)), 1.0)
        kernel = cv2.warpAffine(kernel, turn, (length, length))
        img = cv2.filter2D(img, -1, kernel / max(float(kernel.sum()), 1e-6))
    return img


def thumb_mark(rng: np.random.Generator, canvas: np.ndarray, boxes: list[tuple]) -> list[float]:
    """A thumb or another card over part of the corner; returns the share of each box covered."""
    h, w = canvas.shape[:2]
    cover = np.zeros((h, w), np.uint8)
    if rng.random() < 0.5:
        centre = (int(rng.integers(0, w)), int(rng.integers(0, h)))
        axes = (int(rng.integers(w // 4, w // 2)), int(rng.integers(h // 6, h // 3)))
        cv2.ellipse(cover, centre, axes, float(rng.uniform(0, 180)), 0, 360, 255, -1)
        colour = np.array([rng.uniform(60, 150), rng.uniform(90, 170), rng.uniform(150, 230)])
    elif rng.random() < 0.5:  # the edge of another card, lying beside the index
        x = int(rng.integers(0, w))
        cv2.fillPoly(cover, [np.array([[x, 0], [w, 0], [w, h], [x + int(rng.integers(-w, w)), h]])], 255)
        colour = np.array([rng.uniform(200, 255)] * 3)
    else:  # ... or over it from below, as in a pile: the rank may show and its pip not
        y = int(rng.integers(h // 8, h // 2))
        cv2.fillPoly(cover, [np.array([[0, y], [w, y + int(rng.integers(-h // 6, h // 6))], [w, h], [0, h]])], 255)
        colour = np.array([rng.uniform(200, 255)] * 3)
    _paste(canvas, cover, 0, 0, colour)
    shares = []
    for box in boxes:
        x0, y0, x1, y1 = (max(0, round(v)) for v in box)
        shares.append(float(np.mean(cover[y0 : max(y1, y0 + 1), x0 : max(x1, x0 + 1)] > 127)))
    return shares


def sample(rng: np.random.Generator, fonts: list[str], varied: bool = False) -> Sample:
    """One random corner and its labels; ``varied`` draws pips of random shapes (``random_pip``)
    and hard shadows too (the second network's corners, see ``vision.corner_net``)."""
    out_w, out_h = CORNER_PX
    w, h = out_w * SS, out_h * SS
    margin = 64
    big_shape = (h + 2 * margin, w + 2 * margin)
    kind = rng.random()
    table = _background(rng, big_shape)
    if kind < 0.14:  # no index: a card back, a bare table, a blank card, a picture, a card's middle, print
        choice = rng.integers(0, 6)
        if choice == 0:
            canvas = _card_back(rng, big_shape)
        elif choice == 1:
            canvas = table
        else:
            canvas = np.empty((*big_shape, 3), np.float32)
            canvas[:] = _colours(rng, False)[0]
            if choice == 3:
                _distractors(rng, canvas, np.array([20.0, 20, 20]), "S", (), varied)
            if choice == 4:  # the middle of a pip card: big pips, no index
                suit = str(rng.choice(list(SUIT_CHARS)))
                ink = _colours(rng, suit in "DH")[1]
                for _ in range(int(rng.integers(1, 4))):
                    pip = _scaled(_pip(rng, suit, suit_fonts(tuple(fonts)), varied), h * rng.uniform(0.15, 0.45), 1.0)
                    _paste(canvas, pip, rng.uniform(-0.3, 0.9) * w, rng.uniform(-0.2, 0.9) * h, ink)
            if choice == 5:
                print_mark(rng, canvas, h)
        return Sample(_camera(rng, canvas, margin, varied), NONE_RANK, NONE_SUIT)
    pip_fonts = suit_fonts(tuple(fonts))
    if kind < 0.16:
        rank, suit = "joker", "none"
        red = rng.random() < 0.5
    else:
        rank = RANK_CLASSES[int(rng.integers(0, 13))]
        suit = SUIT_CLASSES[int(rng.integers(0, 4))]
        red = suit in ("D", "H")
    paper, ink = _colours(rng, red)
    canvas = table.copy()
    card = np.empty((h, w, 3), np.float32)
    card[:] = paper
    radius = int(rng.integers(4, 26))
    shape = np.zeros((h, w), np.uint8)
    cv2.rectangle(shape, (radius, 0), (w * 2, h * 2), 255, -1)
    cv2.rectangle(shape, (0, radius), (w * 2, h * 2), 255, -1)
    cv2.circle(shape, (radius, radius), radius, 255, -1, cv2.LINE_AA)
    if rng.random() < 0.25:  # a printed border line just inside the card's edge
        inset = round(w * rng.uniform(0.03, 0.1))
        colour = ink if rng.random() < 0.5 else rng.uniform(0, 160, 3)
        cv2.rectangle(card, (inset, inset), (w * 3, h * 3), colour.tolist(), int(rng.integers(1, 5)))
    box, pip_box = _index(rng, card, rank, suit, ink, fonts, pip_fonts, varied)
    if rank in ("J", "Q", "K") and rng.random() < COURT_FRAMED:
        right = box[2] if pip_box is None else max(box[2], pip_box[2])
        court_picture(rng, card, ink, suit, (right, box[1]), pip_fonts, varied)
    _distractors(rng, card, ink, suit if suit in SUIT_CHARS else "S", pip_fonts, varied)
    inner = canvas[margin : margin + h, margin : margin + w]
    alpha = (shape.astype(np.float32) / 255)[..., None]
    inner[:] = inner * (1 - alpha) + card * alpha
    if rng.random() < COVERED:
        shown = canvas[margin : margin + h, margin : margin + w]
        hidden = thumb_mark(rng, shown, [box] if pip_box is None else [box, pip_box])
        if hidden[0] > 0.2:
            rank, suit = "none", "none"  # a rank mostly hidden is no reading (a little hidden still is)
        elif len(hidden) > 1 and hidden[1] > 0.5:
            suit = "none"  # the rank shows and its pip does not: no suit to read, not a guess
    return Sample(_camera(rng, canvas, margin, varied), RANK_CLASSES.index(rank), SUIT_CLASSES.index(suit))


def dataset(
    count: int, seed: int, fonts: list[str] | None = None, varied: bool = False
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``count`` corners as the reader's inputs, with rank and suit labels (``sample``)."""
    from vision.corner_net import corner_input

    rng = np.random.default_rng(seed)
    fonts = fonts or font_files()
    if not fonts:
        raise RuntimeError("no fonts found: install the packages docs/training.md lists")
    xs, ranks, suits = [], [], []
    for _ in range(count):
        s = sample(rng, fonts, varied)
        xs.append(corner_input(s.image))
        ranks.append(s.rank)
        suits.append(s.suit)
    return np.stack(xs), np.array(ranks, np.int32), np.array(suits, np.int32)

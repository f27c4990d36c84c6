"""Overhead camera frames of playing cards on a table, with the ground truth of every card.

The simulator, the vision tests and the vision benchmark all need pictures whose answer is known.
A scene is built the way a photograph is: a textured table, each card laid on it with a soft shadow
(later cards on top), the room's light falloff and a glare spot, then the camera: a tilt (a
homography applied to the whole frame, ground truth transformed the same way), lens blur, sensor
noise and optionally JPEG compression. Everything is seeded, so a spec always gives the same frame.

Coordinates are OpenCV's: x right, y down, pixel centres at integers. A card's ``angle`` turns it
counter-clockwise as seen in the image (the sense of ``cv2.getRotationMatrix2D``).
"""

from __future__ import annotations

import functools
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from statistics import NormalDist

import cv2
import numpy as np

from sim.hands import HandPlacement, draw_hand
from sim.render_cards import (
    ALL_CODES,
    CARD_H,
    CARD_W,
    DECK_STYLES,
    DeckStyle,
    index_region,
    parse_code,
    render_card,
)
from vision.frames import CallableSource

__all__ = [
    "ALL_CODES",
    "CARD_H",
    "CARD_W",
    "DECK_STYLES",
    "TABLES",
    "CardPlacement",
    "DeckStyle",
    "PlacedCard",
    "SceneSpec",
    "card_corners",
    "load_pictures",
    "random_scene",
    "render_card",
    "render_scene",
    "table_background",
]

TABLES = ("felt", "wood", "carpet", "grey", "paper", "dark", "cloth", "limed")
# ``random_scene`` draws from the first seven: a seed's scene stays what it was before "limed"
# (whitewashed wood, grey-white with dark grain: as pale as a card) was added for the segmenter.
_SCENE_TABLES = TABLES[:7]
# How much a glare spot shows on each table compared with on a glossy card.
_GLOSS = {"felt": 0.15, "wood": 0.6, "carpet": 0.1, "grey": 0.4, "paper": 0.3, "dark": 0.5, "cloth": 0.15, "limed": 0.4}


@dataclass(frozen=True)
class PlacedCard:
    """Ground truth for one card in a rendered frame."""

    code: str  # card code, or "back" for a face-down card
    corners: np.ndarray  # 4x2 float32 image pixels of the card's own corners, in the order
    # top-left, top-right, bottom-right, bottom-left of the upright card image
    visible: float  # fraction of the card's area not covered by cards drawn after it
    index_visible: tuple[float, float]  # fraction visible of the top-left and bottom-right index regions
    style: str = ""  # deck style it was drawn in


@dataclass(frozen=True)
class CardPlacement:
    code: str  # or "back"
    x: float  # centre in pixels (before perspective)
    y: float
    angle: float  # degrees counter-clockwise in the image, any value
    height: float = 150.0  # card height in pixels (before perspective)
    style: str | None = None  # overrides the scene's deck style


@dataclass(frozen=True)
class SceneSpec:
    width: int = 800
    height: int = 600
    table: str = "felt"  # one of TABLES
    cards: tuple[CardPlacement, ...] = ()  # drawn in order, later ones on top
    style: str = "classic"  # deck style name (per card override allowed in CardPlacement)
    light: float = 0.3  # strength of a smooth light gradient (0 = even)
    glare: float = 0.0  # strength of a specular glare blob (0..1)
    blur: float = 0.0  # gaussian blur sigma in pixels
    noise: float = 2.0  # sensor noise sigma (grey levels)
    perspective: float = 0.0  # camera tilt: 0 = straight down, 0.15 = moderate
    seed: int = 0
    jpeg_quality: int | None = None  # compress and decompress like a JPEG camera stream
    clutter: float = 0.0  # things lying on the table under the cards: 0 none, 1 a busy desk
    pictures: str | None = None  # a folder of photos for the clutter's book covers and magazines
    shade: float = 0.0  # hard shadows of a window's bars or an object across table and cards (0..1)
    hands: tuple[HandPlacement, ...] = ()  # players' hands over everything (``sim.hands``)
    camera: str | None = None  # a cheap camera and a room's light (``sim.camera_looks.LOOKS``), applied last


# ---------------------------------------------------------------- tables


_NORMAL_LUT = np.array([NormalDist().inv_cdf((i + 0.5) / 256) for i in range(256)], np.float32)


def _gauss(g: np.random.Generator, shape: tuple[int, ...], sigma: float) -> np.ndarray:
    """Gaussian noise from random bytes through an inverse-CDF table: 4x faster than standard_normal,
    and 256 levels out to +-2.9 sigma are plenty for sensor noise and textures."""
    return cv2.LUT(g.integers(0, 256, shape, dtype=np.uint8), _NORMAL_LUT * np.float32(sigma))


def _smooth(g: np.random.Generator, h: int, w: int, cell: float) -> np.ndarray:
    """Smooth noise in about [-1, 1] with features `cell` pixels across (bicubic upsampled grid)."""
    gh, gw = max(2, math.ceil(h / cell) + 2), max(2, math.ceil(w / cell) + 2)
    return cv2.resize(_gauss(g, (gh, gw), 0.6), (w, h), interpolation=cv2.INTER_CUBIC)


def _to_uint8(img: np.ndarray) -> np.ndarray:
    """Round and saturate a float image to uint8 (5x faster than np.clip then astype)."""
    return cv2.convertScaleAbs(np.maximum(img, 0, out=img))


def table_background(kind: str, width: int, height: int, rng: random.Random) -> np.ndarray:
    """A BGR uint8 table surface of the given kind; variation comes from rng, so it is reproducible."""
    return _to_uint8(_table(kind, width, height, rng))


def _table(kind: str, width: int, height: int, rng: random.Random) -> np.ndarray:
    """table_background as float32, which is what the scene needs to work in."""
    if kind not in TABLES:
        raise ValueError(f"unknown table {kind!r}; expected one of {', '.join(TABLES)}")
    g = np.random.default_rng(rng.getrandbits(64))
    h, w = height, width

    def jitter(colour, amount: float) -> np.ndarray:
        """The colour made lighter or darker by up to `amount`, and its hue nudged by a quarter of that."""
        shade = rng.uniform(-amount, amount)
        return np.float32(colour) + np.float32([shade + rng.uniform(-amount, amount) / 4 for _ in range(3)])

    grain: np.ndarray | float = 0.0  # per-pixel texture added to every channel
    if kind == "felt":
        base = jitter((45, 105, 25), 10)
        lum = 1 + 0.06 * _smooth(g, h, w, 120) + 0.03 * _smooth(g, h, w, 12)
        grain = cv2.GaussianBlur(_gauss(g, (h, w), 5), (0, 0), 0.7)
    elif kind in ("wood", "limed"):
        transpose = rng.random() < 0.5
        hh, ww = (w, h) if transpose else (h, w)
        base = jitter((55, 100, 150), 15) if kind == "wood" else jitter((200, 205, 208), 20)
        # Streaks vary fast across the grain and slowly along it; rings wander; planks have seams.
        streak = cv2.resize(_gauss(g, (hh // 2, max(2, ww // 80)), 1), (ww, hh), interpolation=cv2.INTER_CUBIC)
        cols = max(2, ww // 8)
        y = np.arange(hh, dtype=np.float32)[:, None]
        warp = 25 * _smooth(g, hh, cols, 25)
        rings = cv2.resize(np.sin((y + warp) * np.float32(2 * math.pi / rng.uniform(18, 35))), (ww, hh))
        plank = rng.uniform(110, 220)
        seam = (np.abs(((y + rng.uniform(0, plank)) % plank) - plank / 2) > plank / 2 - 1.5).astype(np.float32)
        if kind == "wood":
            lum = 1 + 0.07 * streak + 0.06 * rings + 0.08 * _smooth(g, hh, ww, 150) - 0.35 * seam
        else:  # the lime fills the open grain white; the dense late wood stays dark, in thin lines
            lines = np.maximum(rings, 0) ** rng.uniform(3, 8) * rng.uniform(0.3, 0.6)
            lum = 1 + 0.1 * streak - lines + 0.06 * _smooth(g, hh, ww, 150) - 0.35 * seam
        lum = np.ascontiguousarray(lum.T) if transpose else lum
        grain = _gauss(g, (h, w), 3)
    elif kind == "carpet":
        base = jitter((110, 140, 165), 20)
        lum = 1 + 0.08 * _smooth(g, h, w, 90)
        tufts = cv2.GaussianBlur(_gauss(g, (h, w), 40), (0, 0), 2.0)
        grain = cv2.GaussianBlur(_gauss(g, (h, w, 3), 30), (0, 0), 0.8) + tufts[..., None]
    elif kind == "grey":
        base = jitter((125, 125, 128), 15)
        lum = 1 + 0.04 * _smooth(g, h, w, 150)
        grain = _gauss(g, (h, w), 2)
    elif kind == "paper":
        base = jitter((228, 233, 236), 5)
        lum = 1 + 0.02 * _smooth(g, h, w, 100)
        grain = cv2.GaussianBlur(_gauss(g, (h, w), 6), (0, 0), 1.2)
    elif kind == "dark":
        base = jitter((24, 24, 28), 5)
        lum = 1 + 0.15 * _smooth(g, h, w, 100)
        grain = _gauss(g, (h, w), 2)
    else:  # cloth: a blue woven fabric
        base = jitter((135, 70, 35), 12)
        period = rng.uniform(3.5, 5.5)
        x = np.sin(np.arange(w, dtype=np.float32) * np.float32(2 * math.pi / period))[None, :]
        yy = np.sin(np.arange(h, dtype=np.float32) * np.float32(2 * math.pi / period))[:, None]
        weave = np.sign(x * yy) * (0.6 + 0.4 * np.abs(x + yy) / 2)
        lum = 1 + 0.07 * weave + 0.05 * _smooth(g, h, w, 3) + 0.04 * _smooth(g, h, w, 80)
        grain = _gauss(g, (h, w), 2)
    if isinstance(grain, np.ndarray) and grain.ndim == 3:
        return cv2.merge([lum * base[c] for c in range(3)]) + grain
    return cv2.merge([lum * base[c] + grain for c in range(3)])


@functools.lru_cache(maxsize=4)
def load_pictures(folder: str) -> tuple[np.ndarray, ...]:
    """Every image in a folder, as float32 BGR: what book covers and magazines show."""
    out = []
    for path in sorted(Path(folder).iterdir()):
        image = cv2.imread(str(path)) if path.is_file() else None
        if image is None or min(image.shape[:2]) < 32:
            continue
        scale = min(1.0, 1024 / max(image.shape[:2]))  # a cover is a small part of a frame
        if scale < 1:
            image = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        out.append(image.astype(np.float32))
    return tuple(out)


def _cover(
    canvas: np.ndarray, box: np.ndarray, g: np.random.Generator, rng: random.Random, pictures: tuple[np.ndarray, ...]
) -> None:
    """A book cover or a magazine: a piece of a picture when there are pictures, else colour noise."""
    ch, cw = canvas.shape[:2]
    mask = np.zeros((ch, cw), np.uint8)
    cv2.fillPoly(mask, [box], 1)
    if pictures:
        pic = rng.choice(pictures)
        ph, pw = pic.shape[:2]
        w, h = rng.uniform(0.3, 1.0) * pw, rng.uniform(0.3, 1.0) * ph
        x, y = rng.uniform(0, pw - w), rng.uniform(0, ph - h)
        src = np.float32([[x, y + h], [x, y], [x + w, y]])  # boxPoints' order: bottom-left first
        m = cv2.getAffineTransform(src, box[:3].astype(np.float32))
        picture = cv2.warpAffine(pic, m, (cw, ch), flags=cv2.INTER_LINEAR)
    else:
        x0, y0, bw, bh = cv2.boundingRect(box)
        picture = np.zeros((ch, cw, 3), np.float32)
        patch = np.stack([_smooth(g, bh, bw, rng.uniform(8, 60)) for _ in range(3)], -1)
        patch = 128 + 110 * patch * np.float32([rng.uniform(0.3, 1) for _ in range(3)])
        ys, xs = slice(max(y0, 0), min(y0 + bh, ch)), slice(max(x0, 0), min(x0 + bw, cw))
        picture[ys, xs] = patch[ys.start - y0 : ys.stop - y0, xs.start - x0 : xs.stop - x0]
    canvas[mask > 0] = picture[mask > 0]


def _clutter(canvas: np.ndarray, amount: float, short: int, rng: random.Random, pictures: str | None = None) -> None:
    """Things a real table has under and around the cards: printed paper (white, straight-edged,
    card-sized or bigger, the hardest neighbour for a card), coloured objects, book covers (cut
    from the pictures in a folder, if given) and cables. ``amount`` 1 lays about eight of them."""
    covers = load_pictures(pictures) if pictures else ()
    g = np.random.default_rng(rng.getrandbits(64))
    ch, cw = canvas.shape[:2]
    for _ in range(round(amount * rng.uniform(3, 8))):
        kind = rng.choice(("paper", "paper", "object", "cover", "cable") + (("cover",) if covers else ()))
        centre = (rng.uniform(0, cw), rng.uniform(0, ch))
        size = (short * rng.uniform(0.15, 0.9), short * rng.uniform(0.15, 0.9))
        box = cv2.boxPoints((centre, size, rng.uniform(0, 180))).astype(np.int32)
        if kind == "paper":
            cv2.fillPoly(canvas, [box], [rng.uniform(200, 255) * rng.uniform(0.97, 1.03) for _ in range(3)])
            if rng.random() < 0.4:
                continue  # a blank sheet, an envelope, a napkin
            # Lines of print along the sheet: short dark dashes in rows, like words.
            a, b, d = box[1].astype(float), box[2].astype(float), box[0].astype(float)
            rows = int(np.linalg.norm(d - box[1]) / rng.uniform(6, 14))
            ink = [rng.uniform(10, 90)] * 3 if rng.random() < 0.8 else [rng.uniform(20, 200) for _ in range(3)]
            for r in range(1, max(rows, 1)):
                if rng.random() < 0.3:
                    continue
                start, stop = a + (d - a) * r / rows, b + (d - a) * r / rows
                t = 0.08
                while t < 0.9:
                    t1 = min(t + rng.uniform(0.03, 0.12), 0.92)
                    p, q = start + (stop - start) * t, start + (stop - start) * t1
                    cv2.line(canvas, tuple(np.int32(p)), tuple(np.int32(q)), ink, rng.randint(1, 2))
                    t = t1 + rng.uniform(0.02, 0.05)
        elif kind == "object":
            colour = [rng.uniform(0, 255) for _ in range(3)]
            if rng.random() < 0.5:
                cv2.ellipse(canvas, (centre, (size[0] * 0.6, size[1] * 0.6), rng.uniform(0, 180)), colour, -1)
            else:
                cv2.fillPoly(canvas, [box // 2 + np.int32(centre) // 2], colour)
        elif kind == "cover":
            _cover(canvas, box, g, rng, covers)
        else:
            pts = [np.float32(centre)]
            heading = rng.uniform(0, 2 * math.pi)
            for _ in range(12):
                heading += rng.gauss(0, 0.4)
                pts.append(pts[-1] + short * 0.08 * np.float32([math.cos(heading), math.sin(heading)]))
            shade = [rng.uniform(0, 60)] * 3 if rng.random() < 0.7 else [rng.uniform(150, 255)] * 3
            cv2.polylines(canvas, [np.int32(pts)], False, shade, max(2, round(short * rng.uniform(0.005, 0.02))))


# ---------------------------------------------------------------- geometry


def card_corners(x: float, y: float, angle: float, height: float) -> np.ndarray:
    """The 4 corners (TL, TR, BR, BL of the upright card) of a card centred at (x, y), as float32."""
    w = height * CARD_W / CARD_H
    a = math.radians(angle)
    c, s = math.cos(a), math.sin(a)
    local = np.array([[-w / 2, -height / 2], [w / 2, -height / 2], [w / 2, height / 2], [-w / 2, height / 2]])
    # Counter-clockwise on screen with y pointing down.
    rot = np.array([[c, s], [-s, c]])
    return (local @ rot.T + [x, y]).astype(np.float32)


def _tilt_homography(w: int, h: int, amount: float, rng: random.Random) -> np.ndarray:
    """Homography from the straight-down view to one from a camera tilted by `amount`.

    A pinhole camera at a distance of the frame's larger side looks at the table plane turned about
    an axis of random direction; the result is scaled and centred so the whole straight-down frame
    stays in view (the tilted camera sees more table around it, as a real one would).
    """
    theta = rng.uniform(0, 2 * math.pi)
    tilt = min(amount, 0.4) * 1.5
    rvec = np.array([math.cos(theta), math.sin(theta), 0.0]) * tilt
    rot, _ = cv2.Rodrigues(rvec)
    dist = float(max(w, h))
    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64) - 0.5
    centred = np.hstack([src - [w / 2, h / 2], np.zeros((4, 1))]) @ rot.T
    proj = dist * centred[:, :2] / (dist + centred[:, 2:3])
    lo, hi = proj.min(0), proj.max(0)
    scale = min(w / (hi - lo)[0], h / (hi - lo)[1])
    dst = (proj - (lo + hi) / 2) * scale + [w / 2 - 0.5, h / 2 - 0.5]
    return cv2.getPerspectiveTransform(src.astype(np.float32), dst.astype(np.float32))


def _apply_h(hm: np.ndarray, pts: np.ndarray) -> np.ndarray:
    return cv2.perspectiveTransform(np.asarray(pts, np.float32).reshape(-1, 1, 2), hm).reshape(-1, 2)


# ---------------------------------------------------------------- compositing


@functools.lru_cache(maxsize=600)
def _premultiplied(code: str, style: DeckStyle) -> np.ndarray:
    """The card as premultiplied BGRA uint8, so warping and shrinking blend edges with no dark fringe."""
    card = render_card(code, style)
    out = card.copy()
    out[..., :3] = cv2.multiply(card[..., :3], cv2.merge([card[..., 3]] * 3), scale=1 / 255)
    out.flags.writeable = False
    return out


def _card_layer(code: str, style: DeckStyle, height: float) -> np.ndarray:
    """The premultiplied card area-reduced to about `height` px (warping a much larger image aliases);
    the affine warp absorbs the rounding."""
    return _card_layer_px(code, style, round(height))


@functools.lru_cache(maxsize=512)
def _card_layer_px(code: str, style: DeckStyle, height: int) -> np.ndarray:
    card = _premultiplied(code, style)
    scale = height / CARD_H
    if scale < 0.9:
        size = (max(2, round(CARD_W * scale)), max(2, round(CARD_H * scale)))
        card = cv2.resize(card, size, interpolation=cv2.INTER_AREA)
        card.flags.writeable = False  # shared through the cache
    return card


def _composite(
    canvas: np.ndarray,
    cover: np.ndarray,
    layer: np.ndarray,
    corners: np.ndarray,
    shadow: tuple[float, float, float, float],
    tint: np.ndarray,
) -> None:
    """Lay one card on the canvas: shadow first, then the card, within the card's bounding box."""
    dx, dy, sigma, strength = shadow
    ch, cw = canvas.shape[:2]
    pad = math.ceil(max(abs(dx), abs(dy)) + 3 * sigma + 2)
    x0 = max(math.floor(corners[:, 0].min()) - pad, 0)
    y0 = max(math.floor(corners[:, 1].min()) - pad, 0)
    x1 = min(math.ceil(corners[:, 0].max()) + pad + 1, cw)
    y1 = min(math.ceil(corners[:, 1].max()) + pad + 1, ch)
    if x1 <= x0 or y1 <= y0:
        return
    lh, lw = layer.shape[:2]
    src = np.float32([[-0.5, -0.5], [lw - 0.5, -0.5], [lw - 0.5, lh - 0.5]])
    m = cv2.getAffineTransform(src, (corners[:3] - [x0, y0]).astype(np.float32))
    size = (x1 - x0, y1 - y0)
    warped = cv2.warpAffine(layer, m, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
    warped = warped.astype(np.float32)
    alpha = warped[..., 3] * np.float32(1 / 255)
    shift = np.float32([[1, 0, dx], [0, 1, dy]])
    shade = cv2.GaussianBlur(cv2.warpAffine(alpha, shift, size), (0, 0), sigma)
    # Table (and earlier cards) darkened by the shadow, then covered by the card: OpenCV's per-element
    # arithmetic is about 3x faster here than numpy broadcasting.
    keep = (1 - strength * shade) * (1 - alpha)
    under = cv2.multiply(canvas[y0:y1, x0:x1], cv2.merge([keep, keep, keep]))
    canvas[y0:y1, x0:x1] = cv2.add(under, cv2.multiply(warped[..., :3], (*map(float, tint), 0.0)))
    cov = cover[y0:y1, x0:x1]
    cov *= 1 - alpha
    cov += alpha


def _fraction_visible(label: np.ndarray, poly: np.ndarray, ident: int, origin: np.ndarray) -> float:
    """Share of the polygon's pixels whose label is `ident` (the card itself is on top there)."""
    p = poly - origin
    x0, y0 = np.floor(p.min(0)).astype(int)
    x1, y1 = np.ceil(p.max(0)).astype(int) + 1
    x0, y0 = max(x0, 0), max(y0, 0)
    x1, y1 = min(x1, label.shape[1]), min(y1, label.shape[0])
    if x1 <= x0 or y1 <= y0:
        return 0.0
    own = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillPoly(own, [np.round((p - [x0, y0]) * 16).astype(np.int32)], 1, cv2.LINE_8, 4)
    area = int(own.sum())
    if area == 0:
        return 0.0
    return float(np.count_nonzero(own & (label[y0:y1, x0:x1] == ident))) / area


def _ground_truth(
    polys: list[np.ndarray], regions: list[tuple[np.ndarray, np.ndarray]], over: Sequence[np.ndarray] = ()
) -> list[tuple]:
    """visible and index_visible of each card, from a label image of who is on top where (the
    outlines ``over`` lie over every card: hands)."""
    if not polys:
        return []
    allp = np.vstack(polys)
    origin = np.floor(allp.min(0)) - 2
    size = np.ceil(allp.max(0) - origin).astype(int) + 3
    label = np.zeros((size[1], size[0]), np.uint16)
    for i, p in enumerate(polys):
        cv2.fillPoly(label, [np.round((p - origin) * 16).astype(np.int32)], i + 1, cv2.LINE_8, 4)
    if len(over):
        cv2.fillPoly(label, [np.round((p - origin) * 16).astype(np.int32) for p in over], len(polys) + 1, cv2.LINE_8, 4)
    out = []
    for i, p in enumerate(polys):
        vis = _fraction_visible(label, p, i + 1, origin)
        idx = tuple(_fraction_visible(label, r, i + 1, origin) for r in regions[i])
        out.append((vis, idx))
    return out


def _outlines(masks: Sequence[np.ndarray], origin: np.ndarray) -> list[np.ndarray]:
    """The outlines (N x 2, in the straight-down canvas's coordinates) of what covers half a pixel
    or more in any of the ``masks`` (hands' ``hand_mask``), for the ground truth."""
    if not masks:
        return []
    mask = (np.maximum.reduce(masks) >= 0.5).astype(np.uint8)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    return [c.reshape(-1, 2).astype(np.float64) + origin for c in contours if len(c) >= 3]


def _region_polys(corners: np.ndarray, style: DeckStyle) -> tuple[np.ndarray, np.ndarray]:
    """The two index regions of a flat card (a parallelogram) as quadrilaterals in its corners' space."""
    tl, tr, _, bl = corners.astype(np.float64)
    ex, ey = tr - tl, bl - tl

    def quad(u0: float, v0: float, u1: float, v1: float) -> np.ndarray:
        return np.array([tl + u * ex + v * ey for u, v in ((u0, v0), (u1, v0), (u1, v1), (u0, v1))])

    # Kept a hair inside the card so rasterising the region never strays past the card's own edge.
    x0, y0, x1, y1 = np.clip(index_region(style), 0.01, 0.99)
    return quad(x0, y0, x1, y1), quad(1 - x1, 1 - y1, 1 - x0, 1 - y0)


# ---------------------------------------------------------------- scenes


def _style(name: str) -> DeckStyle:
    try:
        return DECK_STYLES[name]
    except KeyError:
        raise ValueError(f"unknown deck style {name!r}; expected one of {', '.join(DECK_STYLES)}") from None


def render_scene(spec: SceneSpec) -> tuple[np.ndarray, list[PlacedCard]]:
    """A BGR uint8 frame and the ground truth of every card in it (after perspective)."""
    rng = random.Random(spec.seed)
    w, h = spec.width, spec.height
    hm = _tilt_homography(w, h, spec.perspective, rng) if spec.perspective > 0 else np.eye(3)
    # The straight-down canvas must cover whatever the tilted camera sees, which may exceed the frame.
    frame = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32) - 0.5
    seen = _apply_h(np.linalg.inv(hm), frame) if spec.perspective > 0 else frame
    lo = np.floor(np.minimum(seen.min(0), 0)).astype(int) - 1
    hi = np.ceil(np.maximum(seen.max(0), [w, h])).astype(int) + 1
    origin = lo.astype(np.float32)
    canvas = _table(spec.table, int(hi[0] - lo[0]), int(hi[1] - lo[1]), rng)
    if spec.clutter > 0:
        # Its own generator, so that adding clutter leaves the cards, light and camera as they were.
        _clutter(canvas, spec.clutter, min(w, h), random.Random(f"clutter {spec.seed}"), spec.pictures)
    cover = np.zeros(canvas.shape[:2], np.float32)

    # One light for the whole room: shadows fall the same way for every card.
    light_dir = rng.uniform(0, 2 * math.pi)
    placed_src, styles = [], []
    for c in spec.cards:
        style = _style(c.style or spec.style)
        rank, suit = parse_code(c.code)
        code = rank + suit  # normalised: "td" -> "10D", "BACK" -> "back"
        corners = card_corners(c.x, c.y, c.angle, c.height)
        reach = c.height * rng.uniform(0.015, 0.03)
        shadow = (-math.cos(light_dir) * reach, -math.sin(light_dir) * reach, c.height * 0.025, rng.uniform(0.3, 0.45))
        # Card stock and its angle to the light differ a little from card to card.
        tint = np.float32([rng.uniform(0.985, 1.015) for _ in range(3)]) * np.float32(rng.uniform(0.92, 1.0))
        _composite(canvas, cover, _card_layer(code, style, c.height), corners - origin, shadow, tint)
        placed_src.append((code, corners))
        styles.append(style)

    hands = [  # each its own generator: adding a hand leaves the rest alone
        draw_hand(canvas, cover, hand, origin, light_dir, random.Random(f"hand {spec.seed} {n}").getrandbits(32))
        for n, hand in enumerate(spec.hands)
    ]
    _light(canvas, cover, spec, rng, origin, light_dir)
    if spec.perspective > 0:
        shift = np.array([[1, 0, origin[0]], [0, 1, origin[1]], [0, 0, 1]])
        img = cv2.warpPerspective(canvas, hm @ shift, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    else:
        img = canvas[-lo[1] : -lo[1] + h, -lo[0] : -lo[0] + w]
    if spec.blur > 0:
        img = cv2.GaussianBlur(img, (0, 0), spec.blur)
    if spec.noise > 0:
        img = img + _gauss(np.random.default_rng(rng.getrandbits(64)), img.shape, spec.noise)
    out = _to_uint8(img)
    if spec.jpeg_quality is not None:
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(spec.jpeg_quality)])
        if ok:
            out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    if spec.camera is not None:
        from sim.camera_looks import LOOKS

        out = LOOKS[spec.camera].apply(out, spec.seed)

    polys = [_apply_h(hm, corners) for _, corners in placed_src]
    # Index regions are laid out on the flat card, then seen through the same camera.
    regions = [
        tuple(_apply_h(hm, r) for r in _region_polys(corners, s))
        for (_, corners), s in zip(placed_src, styles, strict=True)
    ]
    over = [_apply_h(hm, q) for q in _outlines(hands, origin)] if polys else []
    truth = _ground_truth(polys, regions, over)
    return out, [
        PlacedCard(code, poly, vis, idx, style.name)
        for (code, _), poly, (vis, idx), style in zip(placed_src, polys, truth, styles, strict=True)
    ]


def _light(
    canvas: np.ndarray, cover: np.ndarray, spec: SceneSpec, rng: random.Random, origin: np.ndarray, light_dir: float
) -> None:
    """Room light on the table plane: a gradient towards the lamp, falloff, a colour cast, glare.

    The fields are smooth, so they are computed on a grid 8 times coarser and interpolated up.
    """
    w, h = spec.width, spec.height
    ch, cw = canvas.shape[:2]
    sh, sw = max(2, ch // 8), max(2, cw // 8)
    x = ((np.linspace(0, cw - 1, sw, dtype=np.float32) + origin[0]) / w - 0.5)[None, :]
    y = ((np.linspace(0, ch - 1, sh, dtype=np.float32) + origin[1]) / h - 0.5)[:, None]
    if spec.light > 0:
        cx, cy = rng.uniform(-0.3, 0.3), rng.uniform(-0.3, 0.3)
        grad = 0.5 * spec.light * (math.cos(light_dir) * x + math.sin(light_dir) * y)
        fall = 0.9 * spec.light * ((x - cx) ** 2 + ((y - cy) * h / w) ** 2)
        lum = cv2.resize((1 + 0.15 * spec.light + grad - fall).astype(np.float32), (cw, ch))
        cast = [1 + rng.uniform(-0.04, 0.04) * spec.light for _ in range(3)]
        cv2.multiply(canvas, cv2.merge([lum * np.float32(c) for c in cast]), dst=canvas)
    if spec.shade > 0:
        # Its own generator, like the clutter's: adding shadows leaves the rest of the scene alone.
        _shadows(canvas, spec.shade, min(w, h), random.Random(f"shade {spec.seed}"))
    if spec.glare > 0:
        gx, gy = rng.uniform(-0.3, 0.3), rng.uniform(-0.3, 0.3)
        sigma = rng.uniform(0.06, 0.14)
        blob = np.exp(-((x - gx) ** 2 + ((y - gy) * h / w) ** 2) / (2 * sigma**2)).astype(np.float32)
        blob = cv2.resize(blob * np.float32(255 * min(spec.glare, 1.0)), (cw, ch))
        gloss = _GLOSS.get(spec.table, 0.3)
        add = blob * (gloss + (1 - gloss) * cover)
        cv2.add(canvas, cv2.merge([add, add, add]), dst=canvas)


def _shadows(canvas: np.ndarray, amount: float, short: int, rng: random.Random) -> None:
    """Hard shadows, as the sun through a window or a lamp past a bottle casts them: sharp-edged,
    darkening table and cards alike, so a card's white face is cut into a lit and a shaded part.
    ``amount`` 1 takes away a third to two thirds of the light."""
    ch, cw = canvas.shape[:2]
    mask = np.zeros((ch, cw), np.float32)
    for _ in range(rng.randint(1, 3)):
        if rng.random() < 0.5:  # a window's bars: parallel stripes
            angle = rng.uniform(0, math.pi)
            period = short * rng.uniform(0.25, 0.9)
            width = period * rng.uniform(0.1, 0.5)
            across = np.arange(cw, dtype=np.float32)[None, :] * math.cos(angle) + np.arange(ch, dtype=np.float32)[
                :, None
            ] * math.sin(angle)
            bars = ((across + rng.uniform(0, period)) % period) < width
            if rng.random() < 0.5:  # only part of the table lies in the window's light
                side = np.arange(ch, dtype=np.float32)[:, None] * math.cos(angle) - np.arange(cw)[None, :] * math.sin(
                    angle
                )
                bars |= side > rng.uniform(-0.5, 0.5) * max(ch, cw)
            mask = np.maximum(mask, bars.astype(np.float32))
        else:  # an object's shadow: a rough blob
            centre = np.float32([rng.uniform(0, cw), rng.uniform(0, ch)])
            size = short * rng.uniform(0.15, 0.6)
            pts = centre + np.float32([[rng.gauss(0, size), rng.gauss(0, size)] for _ in range(7)])
            cv2.fillPoly(mask, [cv2.convexHull(pts.astype(np.int32))], 1.0)
    mask = cv2.GaussianBlur(mask, (0, 0), max(0.5, short * rng.uniform(0.002, 0.012)))  # the penumbra
    dark = amount * rng.uniform(0.35, 0.65)
    sky = [1.0 - rng.uniform(0, 0.08), 1.0, 1.0 + rng.uniform(0, 0.08)]  # B, G, R: shade, lit by the sky, is bluer
    cv2.multiply(canvas, cv2.merge([1 - dark * mask * np.float32(c) for c in sky]), dst=canvas)


class SceneSource(CallableSource):
    """The renderer as a camera: the scenes as frames ``1/fps`` apart from ``start_ns`` (the
    simulator's clock), read by the real vision pipeline like any source's; ``truth`` keeps each
    frame's ground truth by its index, to check what vision made of it."""

    def __init__(self, specs: Sequence[SceneSpec], fps: float = 15.0, start_ns: int = 0) -> None:
        self.truth: dict[int, list[PlacedCard]] = {}
        interval = 1e9 / fps

        def render(i: int) -> tuple[np.ndarray, int] | None:
            if i >= len(specs):
                return None
            image, self.truth[i] = render_scene(specs[i])
            return image, start_ns + round(i * interval)

        super().__init__(render, name="sim:render")


def random_scene(
    rng: random.Random,
    width: int = 800,
    height: int = 600,
    cards: int = 1,
    style: str | None = None,
    table: str | None = None,
    hard: bool = False,
    pile: bool = False,
    codes: Sequence[str] | None = None,
    fan: bool = False,
    backs: float = 0.0,
) -> SceneSpec:
    """A random but sensible scene: cards that fit in the frame, not overlapping unless pile=True
    (then the cards are stacked at the centre with small random offsets and rotations, like a
    played pile, the last one on top and fully visible) or fan=True (side by side, each card
    over the last by 40-75% of its width: a trick laid down, a hand spread on the table);
    hard=True adds more light gradient,
    glare, blur, noise and perspective.

    codes picks the cards (default: distinct random cards, jokers rare); backs is the chance that
    a card lies face down.
    """
    style = style or rng.choice(sorted(DECK_STYLES))
    table = table or rng.choice(_SCENE_TABLES)
    if codes is None:
        pool = list(ALL_CODES[:52]) + (["RJ", "BJ"] if rng.random() < 0.2 else [])
        chosen = rng.sample(pool, cards) if cards <= len(pool) else [rng.choice(pool) for _ in range(cards)]
    else:
        chosen = list(codes)
    chosen = ["back" if rng.random() < backs else c for c in chosen]
    short = min(width, height)
    if pile:
        card_h = min(rng.uniform(0.25, 0.38) * short * 600 / 600, 0.62 * short)
        half_diag = 0.5 * math.hypot(card_h, card_h * CARD_W / CARD_H)
        base = rng.uniform(0, 360)
        cx = rng.uniform(-0.05, 0.05) * width + width / 2
        cy = rng.uniform(-0.05, 0.05) * height + height / 2
        spread = 0.1 * card_h
        placements = []
        for code in chosen:
            x = min(max(cx + rng.gauss(0, spread), half_diag + 2), width - half_diag - 2)
            y = min(max(cy + rng.gauss(0, spread), half_diag + 2), height - half_diag - 2)
            placements.append(CardPlacement(code, x, y, base + rng.gauss(0, 18), card_h))
    elif fan:
        placements = _fan(rng, chosen, width, height)
    else:
        placements = _spread(rng, chosen, width, height)
    if hard:
        fx = dict(
            light=rng.uniform(0.5, 0.9),
            glare=rng.uniform(0.25, 0.7),
            blur=rng.uniform(0.7, 2.0),
            noise=rng.uniform(4, 9),
            perspective=rng.uniform(0.06, 0.2),
            jpeg_quality=rng.choice([None, 55, 70, 85]),
        )
    else:
        fx = dict(
            light=rng.uniform(0.05, 0.4),
            glare=0.0 if rng.random() < 0.7 else rng.uniform(0.05, 0.25),
            blur=rng.uniform(0, 0.7),
            noise=rng.uniform(1, 3),
            perspective=0.0 if rng.random() < 0.5 else rng.uniform(0, 0.06),
            jpeg_quality=None,
        )
    return SceneSpec(
        width=width, height=height, table=table, cards=tuple(placements), style=style, seed=rng.randrange(2**31), **fx
    )


def _fan(rng: random.Random, codes: list[str], width: int, height: int) -> list[CardPlacement]:
    """Cards side by side, each shifted across the last by 25-60% of a card's width and turned
    a little, the whole row inside the frame."""
    short = min(width, height)
    base = rng.uniform(0, 360)
    step = rng.uniform(0.25, 0.6)  # of a card's width
    ratio = CARD_W / CARD_H
    span = (len(codes) - 1) * step * ratio + math.hypot(1, ratio)  # the row's length over a card's height
    card_h = min(rng.uniform(0.28, 0.42) * short, 0.9 * short / span)
    a = math.radians(base)
    across = np.array([math.cos(a), -math.sin(a)]) * step * ratio * card_h
    centre = np.array([width * (0.5 + rng.uniform(-0.03, 0.03)), height * (0.5 + rng.uniform(-0.03, 0.03))])
    first = centre - across * (len(codes) - 1) / 2
    return [
        CardPlacement(code, *(first + across * i), base + rng.gauss(0, 5), card_h)  # type: ignore[misc]
        for i, code in enumerate(codes)
    ]


def _spread(rng: random.Random, codes: list[str], width: int, height: int) -> list[CardPlacement]:
    """Non-overlapping placements, all of one size (one camera, one deck), inside the frame."""
    n = max(1, len(codes))
    short = min(width, height)
    # Cards fill at most about a third of the frame, and are 120-250 px tall in an 800x600 frame.
    h_max = min(250 * short / 600, math.sqrt(0.33 * width * height / (n * CARD_W / CARD_H)))
    card_h = rng.uniform(min(120 * short / 600, 0.8 * h_max), h_max)
    while True:
        placed: list[np.ndarray] = []
        out = []
        for code in codes:
            for _ in range(300):
                angle = rng.uniform(0, 360)
                corners = card_corners(0, 0, angle, card_h)
                lo, hi = corners.min(0), corners.max(0)
                m = 4
                if hi[0] - lo[0] + 2 * m > width or hi[1] - lo[1] + 2 * m > height:
                    continue
                x = rng.uniform(m - lo[0], width - m - hi[0])
                y = rng.uniform(m - lo[1], height - m - hi[1])
                quad = corners + np.float32([x, y])
                if all(not _overlap(quad, q, gap=6) for q in placed):
                    placed.append(quad)
                    out.append(CardPlacement(code, x, y, angle, card_h))
                    break
            else:
                break
        if len(out) == len(codes):
            return out
        card_h *= 0.92


def _overlap(a: np.ndarray, b: np.ndarray, gap: float = 0.0) -> bool:
    """Whether two convex quadrilaterals come closer than `gap` (separating axis test)."""
    for poly in (a, b):
        for i in range(4):
            edge = poly[(i + 1) % 4] - poly[i]
            axis = np.array([-edge[1], edge[0]]) / (np.hypot(*edge) + 1e-9)
            pa, pb = a @ axis, b @ axis
            if pa.max() + gap <= pb.min() or pb.max() + gap <= pa.min():
                return False
    return True

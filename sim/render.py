"""Overhead camera frames of cards on a table, with ground truth, for the simulator and vision.

Cards (``sim.render_cards``) are laid on a table texture with a soft shadow each, in order (later
ones on top); then the camera's faults are applied to the whole frame: a light gradient, a glare
spot, a tilt (perspective), blur, sensor noise and JPEG compression. Every card's corners are
carried through the same transforms, and its visible share (and that of its two index corners)
is measured on masks, so a test knows exactly what the camera could see.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import cv2
import numpy as np

from sim.render_cards import CARD_H, CARD_W, DECK_STYLES, render_card
from table.cards import make_deck

TABLES = ("felt", "wood", "carpet", "grey", "paper", "dark", "cloth")
_CORNER = np.array([[0, 0], [CARD_W - 1, 0], [CARD_W - 1, CARD_H - 1], [0, CARD_H - 1]], np.float32)
_INDEX = (0.22, 0.3)  # the index corner regions' size, as fractions of the card


@dataclass(frozen=True)
class CardPlacement:
    code: str  # a card code, or "back"
    x: float  # centre in pixels (before perspective)
    y: float
    angle: float  # degrees
    height: float = 150.0  # card height in pixels (before perspective)
    style: str | None = None


@dataclass(frozen=True)
class SceneSpec:
    width: int = 800
    height: int = 600
    table: str = "felt"
    cards: tuple[CardPlacement, ...] = ()
    style: str = "classic"
    light: float = 0.3  # strength of a smooth light gradient (0: even)
    glare: float = 0.0  # strength of a specular glare blob (0..1)
    blur: float = 0.0  # gaussian blur sigma in pixels
    noise: float = 2.0  # sensor noise sigma in grey levels
    perspective: float = 0.0  # camera tilt: 0 straight down, 0.15 moderate
    jpeg_quality: int | None = None
    seed: int = 0


@dataclass(frozen=True)
class PlacedCard:
    code: str
    corners: np.ndarray  # 4 x 2 float32 image pixels: the upright card's TL, TR, BR, BL
    visible: float  # share of the card not covered by later cards
    index_visible: tuple[float, float]  # share visible of the top-left and bottom-right index regions


def table_background(kind: str, width: int, height: int, rng: random.Random) -> np.ndarray:
    """A table surface: plain, woven, grained or speckled, in its usual colours."""
    if kind not in TABLES:
        raise ValueError(f"unknown table {kind!r} (known: {', '.join(TABLES)})")
    nrng = np.random.default_rng(rng.randrange(2**32))
    base = {
        "felt": (40, 105, 35), "wood": (45, 90, 140), "carpet": (120, 150, 170), "grey": (150, 150, 150),
        "paper": (228, 232, 235), "dark": (28, 26, 30), "cloth": (120, 60, 30),
    }[kind]
    img = np.empty((height, width, 3), np.float32)
    img[:] = base
    if kind == "wood":
        y = np.arange(height, dtype=np.float32)[:, None]
        x = np.arange(width, dtype=np.float32)[None, :]
        grain = np.sin(y / 7.0 + 3 * np.sin(x / 90.0) + nrng.normal(0, 0.3, (height, 1))) * 18
        img += grain[:, :, None] * np.array([0.6, 0.8, 1.0], np.float32)
    elif kind in ("carpet", "felt", "cloth"):
        grain = {"carpet": 28, "felt": 8, "cloth": 14}[kind]
        speckle = nrng.normal(0, grain, (height // 2 + 1, width // 2 + 1)).astype(np.float32)
        speckle = cv2.resize(speckle, (width, height), interpolation=cv2.INTER_LINEAR)
        img += speckle[:, :, None]
        if kind == "cloth":
            weave = ((np.arange(width)[None, :] // 3 + np.arange(height)[:, None] // 3) % 2) * 10.0
            img += weave[:, :, None]
    else:
        img += nrng.normal(0, 3, (height, width, 1)).astype(np.float32)
    return np.clip(img, 0, 255)


def _card_transform(p: CardPlacement) -> np.ndarray:
    """The affine map from a canonical card image to its place on the table."""
    scale = p.height / CARD_H
    m = cv2.getRotationMatrix2D((CARD_W / 2, CARD_H / 2), p.angle, scale)
    m[0, 2] += p.x - CARD_W / 2
    m[1, 2] += p.y - CARD_H / 2
    return m


def _index_masks(shape: tuple[int, int], m: np.ndarray) -> list[np.ndarray]:
    w, h = CARD_W * _INDEX[0], CARD_H * _INDEX[1]
    regions = [
        np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32),
        np.array([[CARD_W - w, CARD_H - h], [CARD_W, CARD_H - h], [CARD_W, CARD_H], [CARD_W - w, CARD_H]], np.float32),
    ]
    out = []
    for region in regions:
        pts = cv2.transform(region[None], m)[0]
        mask = np.zeros(shape, np.uint8)
        cv2.fillConvexPoly(mask, pts.astype(np.int32), 1)
        out.append(mask)
    return out


def render_scene(spec: SceneSpec) -> tuple[np.ndarray, list[PlacedCard]]:
    """A BGR uint8 frame and the ground truth of every card in it (after perspective)."""
    rng = random.Random(spec.seed)
    w, h = spec.width, spec.height
    img = table_background(spec.table, w, h, rng)
    owner = np.full((h, w), -1, np.int32)  # which card each pixel shows
    masks = []
    for i, p in enumerate(spec.cards):
        face = render_card(p.code, DECK_STYLES[p.style or spec.style]).astype(np.float32)
        m = _card_transform(p)
        alpha = cv2.warpAffine(face[:, :, 3], m, (w, h)) / 255.0
        offset = m + np.array([[0, 0, 3], [0, 0, 4]])  # the light comes from the top left
        shadow = cv2.GaussianBlur(cv2.warpAffine(face[:, :, 3], offset, (w, h)), (0, 0), 4) / 255.0
        img *= (1 - 0.35 * shadow)[:, :, None]
        colour = cv2.warpAffine(face[:, :, :3], m, (w, h))
        img = colour * alpha[:, :, None] + img * (1 - alpha[:, :, None])
        owner[alpha > 0.5] = i
        masks.append((m, alpha > 0.5))
    img = _lighting(img, spec, rng)
    hmat = _tilt(spec, rng)
    truth = []
    for i, (p, (m, area)) in enumerate(zip(spec.cards, masks, strict=True)):
        total = max(1, int(area.sum()))
        visible = float((owner == i).sum()) / total
        idx = []
        for region in _index_masks((h, w), m):
            n = max(1, int(region.sum()))
            idx.append(float(((owner == i) & (region > 0)).sum()) / n)
        corners = cv2.transform(_CORNER[None], m)[0]
        corners = cv2.perspectiveTransform(corners[None], hmat)[0].astype(np.float32)
        truth.append(PlacedCard(p.code, corners, visible, (idx[0], idx[1])))
    img = cv2.warpPerspective(img, hmat, (w, h), borderMode=cv2.BORDER_REFLECT)
    img = _camera(img, spec, rng)
    return img, truth


def _lighting(img: np.ndarray, spec: SceneSpec, rng: random.Random) -> np.ndarray:
    h, w = img.shape[:2]
    if spec.light:
        angle = rng.uniform(0, 2 * np.pi)
        ramp = (np.cos(angle) * np.arange(w)[None, :] / w + np.sin(angle) * np.arange(h)[:, None] / h)
        img = img * (1 - spec.light * 0.5 + spec.light * ramp.astype(np.float32))[:, :, None]
    if spec.glare:
        cx, cy = rng.uniform(0.2, 0.8) * w, rng.uniform(0.2, 0.8) * h
        r = rng.uniform(0.08, 0.2) * min(w, h)
        yy, xx = np.mgrid[0:h, 0:w]
        spot = np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * r * r)).astype(np.float32)
        img = img + spec.glare * 200 * spot[:, :, None]
    return img


def _tilt(spec: SceneSpec, rng: random.Random) -> np.ndarray:
    w, h = spec.width, spec.height
    if not spec.perspective:
        return np.eye(3, dtype=np.float64)
    k = spec.perspective * rng.choice((-1, 1))
    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    dst = src + np.array([[k * w, 0], [-k * w, 0], [0, 0], [0, 0]], np.float32) * 0.5
    return cv2.getPerspectiveTransform(src, dst)


def _camera(img: np.ndarray, spec: SceneSpec, rng: random.Random) -> np.ndarray:
    if spec.blur:
        img = cv2.GaussianBlur(img, (0, 0), spec.blur)
    if spec.noise:
        nrng = np.random.default_rng(rng.randrange(2**32))
        img = img + nrng.normal(0, spec.noise, img.shape).astype(np.float32)
    out = np.clip(img, 0, 255).astype(np.uint8)
    if spec.jpeg_quality:
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, spec.jpeg_quality])
        if ok:
            out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return out


def random_scene(
    rng: random.Random,
    width: int = 800,
    height: int = 600,
    cards: int = 1,
    style: str | None = None,
    table: str | None = None,
    hard: bool = False,
    pile: bool = False,
) -> SceneSpec:
    """A random but sensible scene: cards inside the frame, apart (or stacked when ``pile``)."""
    codes = [c.code for c in make_deck(1, 2)]
    size = rng.uniform(0.25, 0.4) * height
    placed: list[CardPlacement] = []
    reach = size * 0.62  # half the card's diagonal, roughly
    for _ in range(cards):
        code = rng.choice(codes)
        if pile:
            x = width / 2 + rng.uniform(-0.08, 0.08) * size
            y = height / 2 + rng.uniform(-0.08, 0.08) * size
        else:
            for _attempt in range(60):
                x = rng.uniform(reach, width - reach)
                y = rng.uniform(reach, height - reach)
                if all((x - q.x) ** 2 + (y - q.y) ** 2 > (2 * reach) ** 2 for q in placed):
                    break
            else:
                break
        placed.append(CardPlacement(code, x, y, rng.uniform(0, 360), size))
    return SceneSpec(
        width=width,
        height=height,
        table=table or rng.choice(TABLES),
        cards=tuple(placed),
        style=style or rng.choice(list(DECK_STYLES)),
        light=rng.uniform(0.1, 0.6 if hard else 0.35),
        glare=rng.uniform(0.0, 0.5) if hard else 0.0,
        blur=rng.uniform(0.5, 1.8 if hard else 1.0),
        noise=rng.uniform(1.0, 6.0 if hard else 3.0),
        perspective=rng.uniform(0.0, 0.15 if hard else 0.05),
        jpeg_quality=rng.choice((None, 85, 70)),
        seed=rng.randrange(2**31),
    )

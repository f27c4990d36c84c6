"""Card outlines as quadrilaterals, and the geometry every finder shares: how much of an
outline is an edge in the picture, how much of it lies inside a region, how two outlines'
boxes overlap."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cached_property

import cv2
import numpy as np

from vision.tuning import tuned


@dataclass(frozen=True)
class CardQuad:
    """A card's outline: corners in image pixels, clockwise from the top-left of the upright card.

    Upright here means portrait: the first edge (top-left to top-right) is a short side. Which
    short side is "top" is unknown (a card reads the same both ways up), and the reader looks at
    both index corners.
    """

    corners: np.ndarray  # 4 x 2 float32
    fill: float  # how much of its rectangle the region fills (1.0: a clean card outline)
    edges: float = 0.0  # how much of the outline is an edge in the picture (``edge_support``; 0: not measured)

    @cached_property
    def area(self) -> float:
        """The outline's area, asked of each outline many times a frame (sorted, compared, its
        median taken): measured once. Outlines are values: their corners are never changed."""
        return float(cv2.contourArea(self.corners.astype(np.float32)))

    @property
    def short_side(self) -> float:
        return float(np.linalg.norm(self.corners[1] - self.corners[0]))

    @property
    def center(self) -> tuple[float, float]:
        c = self.corners.mean(axis=0)
        return float(c[0]), float(c[1])


def portrait_corners(box: np.ndarray) -> np.ndarray:
    """Order four rectangle corners clockwise so that the first side is a short one. In plain
    Python on the four points: a frame orders some fifty outlines, and numpy's calls on arrays
    this small cost three times as much."""
    pts = np.asarray(box, dtype=np.float32).reshape(4, 2)
    p = pts.tolist()
    cx, cy = sum(x for x, _ in p) / 4, sum(y for _, y in p) / 4
    order = sorted(range(4), key=lambda i: math.atan2(p[i][1] - cy, p[i][0] - cx))  # clockwise (y down)
    a, b, c = (p[i] for i in order[:3])
    if math.hypot(a[0] - b[0], a[1] - b[1]) > math.hypot(b[0] - c[0], b[1] - c[1]):
        order = order[1:] + order[:1]
    return pts[order]


_ALONG = np.linspace(0.15, 0.85, 12, dtype=np.float32)[:, None]


def side_vectors(corners: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each side of a quadrilateral (..., 4, 2) as a vector from its corner to the next, and its
    unit normal pointing out of the quadrilateral (whichever way round the corners run)."""
    d = np.roll(corners, -1, axis=-2) - corners
    normal = np.stack([-d[..., 1], d[..., 0]], axis=-1) / np.maximum(np.linalg.norm(d, axis=-1, keepdims=True), 1e-6)
    inward = corners.mean(axis=-2, keepdims=True) - corners
    normal *= -np.sign(np.sum(inward * normal, axis=-1, keepdims=True))
    return d, normal


def card_sides(corners: np.ndarray) -> np.ndarray:
    """An outline's short and long sides (each the mean of its two; its corners' order puts a
    short side first)."""
    lengths = np.linalg.norm(side_vectors(np.asarray(corners, np.float64))[0], axis=-1)
    return np.array([(lengths[0] + lengths[2]) / 2, (lengths[1] + lengths[3]) / 2])


def edge_support(gray: np.ndarray, quad: np.ndarray) -> float:
    """How much of a quadrilateral's outline is an edge in the picture: for each side, the share
    of points where the two sides of the line differ clearly; the weakest side counts (a side
    running out of the frame gives no evidence either way)."""
    return float(edge_supports(gray, np.asarray(quad)[None])[0])


def edge_supports(gray: np.ndarray, quads: np.ndarray, lines: np.ndarray | None = None) -> np.ndarray:
    """``edge_support`` of N quadrilaterals (N x 4 x 2) at once. Where ``lines`` (a map of edge
    pixels the size of ``gray``) is given, a point lying on one counts as an edge too, however
    faint the step: a card lying on another shows its side as a thin line, white on white."""
    return side_supports(gray, quads, lines).min(axis=-1)


def side_supports(gray: np.ndarray, quads: np.ndarray, lines: np.ndarray | None = None) -> np.ndarray:
    """``edge_supports`` side by side: N x 4, each side's share of points on an edge (1 for a
    side wholly out of the frame)."""
    h, w = gray.shape
    a = quads.astype(np.float32)
    d, outward = side_vectors(a)
    pts = a[:, :, None, :] + _ALONG * d[:, :, None, :]  # N x 4 sides x 12 points x (x, y)
    offset = -outward[:, :, None, :] * 3
    inner, outer = pts + offset, pts - offset
    ok = (np.minimum(inner, outer).min(axis=-1) >= 0) & (inner[..., 0] < w) & (outer[..., 0] < w)
    ok &= (inner[..., 1] < h) & (outer[..., 1] < h)
    i = gray[np.where(ok, inner[..., 1], 0).astype(int), np.where(ok, inner[..., 0], 0).astype(int)].astype(np.int16)
    o = gray[np.where(ok, outer[..., 1], 0).astype(int), np.where(ok, outer[..., 0], 0).astype(int)].astype(np.int16)
    strong = np.abs(i - o) > 18
    if lines is not None:
        xs, ys = np.where(ok, pts[..., 0], 0).astype(int), np.where(ok, pts[..., 1], 0).astype(int)
        strong |= lines[ys, xs] > 0  # inside the frame wherever ``ok``: the point lies between the two
    strong &= ok
    counted = ok.sum(axis=-1)
    return np.where(counted > 0, strong.sum(axis=-1) / np.maximum(counted, 1), 1.0)


_ALONG_INSIDE = np.linspace(0.03, 0.97, 32, dtype=np.float32)[:, None]


@dataclass(frozen=True)
class QuadTuning:
    """The tuned numbers of judging outlines by their edges, each with its unit and why it has its value
    (``vision.tuning``: a test or an experiment reads with others)."""

    inside_margin: float = 0.06  # of a card's short side: points this near another outline's sides are not inside it
    grid: np.ndarray = field(
        default_factory=lambda: np.stack(
            np.meshgrid(np.linspace(0.08, 0.92, 7), np.linspace(0.08, 0.92, 7)), -1
        ).reshape(-1, 2)
    )
    # two sides meeting at a card's corner: the cosine of their angle, at most (5 degrees off)
    perpendicular: float = 0.09
    whole: float = 0.6  # an outline this much an edge in the picture on every side is a card lying whole


TUNING = QuadTuning()


def edges_inside(
    gray: np.ndarray, quad: np.ndarray, other: np.ndarray, lines: np.ndarray | None = None
) -> tuple[int, int]:
    """Of a quadrilateral's side points lying inside another one (away from its sides), how many
    there are and how many are edges in the picture. Where two cards lie one over the other, the
    top card's sides show over the lower one; the lower card's sides under it do not."""
    tune = tuned(TUNING)
    a = np.asarray(quad, np.float32)
    d, outward = side_vectors(a)
    pts = (a[:, None, :] + _ALONG_INSIDE * d[:, None, :]).reshape(-1, 2)
    normals = np.repeat(outward, len(_ALONG_INSIDE), axis=0)
    margin = tune.inside_margin * float(np.linalg.norm(d, axis=-1).min())
    contour = np.asarray(other, np.float32)
    inside = np.array([cv2.pointPolygonTest(contour, (float(x), float(y)), True) > margin for x, y in pts])
    h, w = gray.shape
    inner, outer = pts - 3 * normals, pts + 3 * normals
    inside &= (np.minimum(inner, outer).min(axis=-1) >= 0) & (np.maximum(inner[:, 0], outer[:, 0]) < w)
    inside &= np.maximum(inner[:, 1], outer[:, 1]) < h
    if not inside.any():
        return 0, 0
    pts, inner, outer = pts[inside], inner[inside].astype(int), outer[inside].astype(int)
    step = np.abs(gray[inner[:, 1], inner[:, 0]].astype(np.int16) - gray[outer[:, 1], outer[:, 0]])
    strong = step > 18
    if lines is not None:
        strong |= lines[pts[:, 1].astype(int), pts[:, 0].astype(int)] > 0
    return int(inside.sum()), int(strong.sum())


def grid_samples(image: np.ndarray, quads: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """An image sampled on a 7 x 7 grid over each quadrilateral (N x 4 x 2, corners in order):
    the values (N x 49, zero off the image) and which samples lie on it."""
    tune = tuned(TUNING)
    a, b, d = quads[:, 0], quads[:, 1], quads[:, 3]
    pts = a[:, None] + tune.grid[None, :, :1] * (b - a)[:, None] + tune.grid[None, :, 1:] * (d - a)[:, None]
    xs, ys = np.round(pts[..., 0]).astype(int), np.round(pts[..., 1]).astype(int)
    ok = (xs >= 0) & (ys >= 0) & (xs < image.shape[1]) & (ys < image.shape[0])
    return np.where(ok, image[np.where(ok, ys, 0), np.where(ok, xs, 0)], 0), ok


def inside_fractions(region: np.ndarray, quads: np.ndarray) -> list[float]:
    """How much of each quadrilateral (N x 4 x 2) lies inside the region mask, sampled on a 7 x 7 grid."""
    tune = tuned(TUNING)
    hits, _ = grid_samples(region, quads)
    return [float(v) for v in hits.sum(axis=1) / len(tune.grid)]


def boxes(quads: list[CardQuad]) -> np.ndarray:
    """Axis-aligned boxes (x0, y0, x1, y1) of outlines, one row each."""
    if not quads:
        return np.zeros((0, 4), np.float32)
    corners = np.stack([q.corners for q in quads])
    return np.concatenate([corners.min(axis=1), corners.max(axis=1)], axis=1)


def iou(box: np.ndarray, boxes: np.ndarray) -> np.ndarray:
    """Overlap over union of one box with each of several (or, given N x 4 boxes as ``box``,
    of each with each: N x M)."""
    box = box[..., None, :] if box.ndim > 1 else box
    iw = np.clip(np.minimum(box[..., 2], boxes[:, 2]) - np.maximum(box[..., 0], boxes[:, 0]), 0, None)
    ih = np.clip(np.minimum(box[..., 3], boxes[:, 3]) - np.maximum(box[..., 1], boxes[:, 1]), 0, None)
    inter = iw * ih
    own = (box[..., 2] - box[..., 0]) * (box[..., 3] - box[..., 1])
    union = own + (boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1]) - inter
    return np.where(union > 0, inter / np.maximum(union, 1e-9), 0.0)


RATIOS = (1.40, 1.56)  # a card's long side over its short side: poker, bridge


def corner_rectangles(segments: np.ndarray, gap: float) -> np.ndarray:
    """Card-shaped rectangles (N x 4 x 2) with a corner where two straight edges (S x 2 x 2, end
    points) meet at a right angle, each ending within ``gap`` of the corner and running away
    from it. How long the sides are is not known: each rectangle reaches as far as the longer
    edge asks (the other may be cut short by a card lying over it, or fade white on white), as a
    poker or a bridge card, with either edge along a short side."""
    tune = tuned(TUNING)
    seg = np.asarray(segments, np.float32).reshape(-1, 2, 2)
    seg = seg[np.linalg.norm(seg[:, 1] - seg[:, 0], axis=1) >= 1]  # a point has no direction
    if len(seg) < 2:
        return np.zeros((0, 4, 2), np.float32)
    start = seg[:, 0]
    u = seg[:, 1] - start
    u /= np.linalg.norm(u, axis=1, keepdims=True)
    i, j = np.triu_indices(len(seg), 1)
    square = np.abs((u[i] * u[j]).sum(axis=1)) < tune.perpendicular
    i, j = i[square], j[square]
    det = u[i, 0] * -u[j, 1] + u[j, 0] * u[i, 1]
    q = start[j] - start[i]
    corner = start[i] + ((q[:, 0] * -u[j, 1] + u[j, 0] * q[:, 1]) / det)[:, None] * u[i]
    ok = np.ones(len(corner), bool)
    away, reach = [], []
    for k in (i, j):
        # Where the edge's two ends lie along it, from the corner: both on one side, one near.
        t = np.stack([((seg[k, e] - corner) * u[k]).sum(axis=1) for e in (0, 1)], axis=1)
        far = t[np.arange(len(t)), np.abs(t).argmax(axis=1)]
        ok &= (np.abs(t).min(axis=1) <= gap) & ((t.min(axis=1) > -gap) | (t.max(axis=1) < gap))
        ok &= np.abs(far) > 2 * gap
        away.append(u[k] * np.sign(far)[:, None])
        reach.append(np.abs(far))
    a, (di, dj), (ri, rj) = corner[ok], (away[0][ok], away[1][ok]), (reach[0][ok], reach[1][ok])
    out = []
    for ratio in RATIOS:
        for long_i in (False, True):
            short = np.maximum(ri / ratio, rj) if long_i else np.maximum(ri, rj / ratio)
            li, lj = (short * ratio, short) if long_i else (short, short * ratio)
            b = a + di * li[:, None]
            out.append(np.stack([a, b, b + dj * lj[:, None], a + dj * lj[:, None]], axis=1))
    return np.concatenate(out).astype(np.float32)


def whole(quad: CardQuad) -> bool:
    """Whether the picture shows every side of an outline as an edge: a card lying whole, not an
    outline reaching under another card. The reader then trusts one index corner with a picture
    in the middle (the other under glare, a thumb, a blur)."""
    tune = tuned(TUNING)
    return quad.edges >= tune.whole

"""Cards laid side by side in a row, one overlapping the next (a hand laid down, a trick): one
outline round them all.

Such a row of a few cards is itself often card-shaped (three poker cards side by side are about
as wide as they are tall), so the finder takes it for one card, which then reads as none. The
top card of the row lies at one of its two ends: one side of it is the row's end, and the
opposite one a straight edge across the row, the top card's side over the card under it. So
straight edges across the row are sought; each gives a card as wide as its distance from the
end, as tall as a poker or a bridge card that wide, lying along either side of the row (the
row's outline may take in a shadow on one). The one whose whole outline is an edge in the
picture is the top card, provided the row reaches well past it (``beyond``): a loose outline
round one card (a margin of pale table taken in) holds lines too, the card's own border or a
court frame, and a card laid on those reads as another (a ten cut to its upper half as a four).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.detect import refine_quads
from vision.quads import RATIOS, CardQuad, edge_supports, side_vectors
from vision.tuning import tuned


@dataclass(frozen=True)
class FanTuning:
    """The tuned numbers of finding rows and fans of cards, each with its unit and why it has its value
    (``vision.tuning``: a test or an experiment reads with others)."""

    fan_most: float = 0.9  # a top card reaches this far along its row at most (the rest: the cards under it)
    fan_least: float = 0.3  # ... and at least this far (a row of more cards is rarely laid down)
    across_most: int = 6  # the strongest few lines across the row from each end are tried (each a few pixels apart)
    across: float = 0.5  # a line across a row this much on the picture's lines may be a card's side
    tilt: int = 4  # degrees: a top card lies this much askew of its row's end at most
    parallel: float = 0.985  # a line given to ``end_cards`` runs this near parallel to the end (cosine: 10 degrees)
    fan_tries: int = 6  # the best few cards at a row's ends are read, no more (each costs a warp and a read)
    fan_edges: float = 0.6  # how much of a top card's outline must be an edge in the picture
    # a row reaches past its top card this much (of the card across) at least (0.12 let in loose outlines)
    row_past: float = 0.22
    ridge: int = 12  # grey levels: a line this much darker than the paper either side of it is a card's shadowed side


TUNING = FanTuning()


def end_cards(row: CardQuad, segments: np.ndarray) -> np.ndarray:
    """The cards (K x 4 x 2 corners, portrait) that could lie on top at either end of a row of
    cards whose outline is ``row``, given the straight edges inside it (S x 2 x 2 end points)."""
    tune = tuned(TUNING)
    c = row.corners.astype(np.float32)
    out = []
    seg = np.asarray(segments, np.float32).reshape(-1, 2, 2)
    lengths = np.linalg.norm(seg[:, 1] - seg[:, 0], axis=1)
    seg, lengths = seg[lengths >= 1], lengths[lengths >= 1]
    v = (seg[:, 1] - seg[:, 0]) / lengths[:, None] if len(seg) else np.zeros((0, 2), np.float32)
    # The row seen from each of its four sides: (a, b) the end, (d, e) the far end.
    for k in range(4):
        a, b, e, d = np.roll(c, -k, axis=0)
        span, reach = float(np.linalg.norm(b - a)), float(np.linalg.norm((d + e - a - b) / 2))
        if span < 1 or reach < 1:
            continue
        u = (b - a) / span
        # Each edge's side of the top card: its line, pointing the way a-b does.
        cos = v @ u
        ways = v * np.sign(cos)[:, None]
        # How far the edge's line lies from the end's middle: the card's width.
        mid = (a + b) / 2
        normal = np.stack([-ways[:, 1], ways[:, 0]], axis=1)
        depth = ((mid - seg[:, 0]) * normal).sum(axis=1)
        across = (
            (np.abs(cos) >= tune.parallel)
            & (np.abs(depth) >= tune.fan_least * reach)
            & (np.abs(depth) <= tune.fan_most * reach)
        )
        across &= lengths >= 0.4 * span
        tried: list[float] = []
        for i in np.flatnonzero(across)[np.argsort(-lengths[across], kind="stable")]:
            # An edge is found as several segments side by side: each line once.
            if len(tried) == tune.across_most or any(abs(abs(depth[i]) - t) < 3 for t in tried):
                continue
            tried.append(abs(float(depth[i])))
            # The card's inner side along the edge, or through its middle parallel to the end
            # (the cards of a row lie nearly parallel; a short edge's own direction may be off).
            middle = seg[i].mean(axis=0)
            n_end = np.array([-u[1], u[0]], np.float32)
            for point, way, towards, w in (
                (seg[i, 0], ways[i], normal[i] * np.sign(depth[i]), abs(float(depth[i]))),
                (middle, u, -n_end * np.sign((middle - a) @ n_end), abs(float((middle - a) @ n_end))),
            ):
                out += _laid(point, way, towards, w, (a, b), span)
    return _portrait(np.array(out, np.float32).reshape(-1, 4, 2))


def _portrait(cards: np.ndarray) -> np.ndarray:
    """Rectangles (N x 4 x 2) with their corners in ``portrait_corners``' order: clockwise in
    the image, the first side a short one (all at once: a row gives some hundreds)."""
    x, y = cards[..., 0], cards[..., 1]
    twice_area = (x * np.roll(y, -1, axis=1) - np.roll(x, -1, axis=1) * y).sum(axis=1)
    cards = np.where((twice_area < 0)[:, None, None], cards[:, ::-1], cards)  # clockwise: y runs down
    first = np.linalg.norm(cards[:, 1] - cards[:, 0], axis=1)
    second = np.linalg.norm(cards[:, 2] - cards[:, 1], axis=1)
    return np.where((first > second)[:, None, None], np.roll(cards, -1, axis=1), cards)


def _laid(
    point: np.ndarray, way: np.ndarray, towards: np.ndarray, w: float, end: tuple[np.ndarray, np.ndarray], span: float
) -> list[np.ndarray]:
    """Cards ``w`` wide with one side on the line through ``point`` running ``way`` and the
    opposite side ``towards`` the row's ``end`` (a, b; ``span`` long), as poker or bridge cards
    either way round, along the row's one side or the other."""
    # Where the row's two sides cross the line.
    ends = [point + way * float((p - point) @ way) for p in end]
    out = []
    for tall in [w * r for r in RATIOS] + [w / r for r in RATIOS]:
        if tall > 1.1 * span:
            continue
        for p in (ends[0], ends[1] - way * tall) if span - tall > 2 else (ends[0],):
            q = p + way * tall
            out.append(np.array([p, q, q + towards * w, p + towards * w], np.float32))
    return out


def _across(row: CardQuad, lines: np.ndarray) -> np.ndarray:
    """Straight lines across a row (S x 2 x 2 end points): from each end, the lines within
    ``tilt`` degrees of parallel to it, 30-90% of the way along, that lie on ``lines`` for at
    least ``across`` of their middle 80%, the strongest few (a few pixels apart). Scanned, not
    found by a probabilistic Hough transform: its random sampling lost a faint side now and then."""
    tune = tuned(TUNING)
    c = row.corners.astype(np.float32)
    h, w = lines.shape
    out = []
    for k in range(4):
        a, b, e, d = np.roll(c, -k, axis=0)
        start, far = (a + b) / 2, (d + e) / 2
        reach, span = float(np.linalg.norm(far - start)), float(np.linalg.norm(b - a))
        if reach < 4 or span < 4:
            continue
        into = (far - start) / reach
        u = (b - a) / span
        offsets = np.arange(tune.fan_least * reach, tune.fan_most * reach, 1.0, dtype=np.float32)
        tilts = np.radians(np.arange(-tune.tilt, tune.tilt + 1, 1.0, dtype=np.float32))
        ways = np.stack([u[0] * np.cos(tilts) - u[1] * np.sin(tilts), u[0] * np.sin(tilts) + u[1] * np.cos(tilts)], 1)
        along = np.linspace(-0.4, 0.4, 24, dtype=np.float32) * span
        centres = start + offsets[:, None] * into  # offsets x 2
        pts = centres[None, :, None, :] + along[None, None, :, None] * ways[:, None, None, :]
        xs, ys = np.round(pts[..., 0]).astype(int), np.round(pts[..., 1]).astype(int)
        ok = (xs >= 0) & (ys >= 0) & (xs < w) & (ys < h)
        hit = np.where(ok, lines[np.where(ok, ys, 0), np.where(ok, xs, 0)] > 0, False)
        score = hit.mean(axis=-1)  # tilts x offsets
        best = score.max(axis=0)
        kept: list[int] = []
        for i in np.argsort(-best, kind="stable"):
            if best[i] < tune.across or len(kept) == tune.across_most:
                break
            if all(abs(i - j) > 3 for j in kept):
                kept.append(int(i))
                way = ways[int(np.argmax(score[:, i]))]
                out.append([centres[i] - way * 0.4 * span, centres[i] + way * 0.4 * span])
    return np.array(out, np.float32).reshape(-1, 2, 2)


def line_map(gray: np.ndarray) -> np.ndarray:
    """Where the picture shows a line: Canny's edges, thickened a pixel, and thin dark lines (a
    card's side over the card under it is often only its shadow, a ridge Canny's steps miss)."""
    tune = tuned(TUNING)
    ridges = cv2.morphologyEx(gray, cv2.MORPH_BLACKHAT, np.ones((5, 5), np.uint8)) > tune.ridge
    return cv2.dilate(cv2.Canny(gray, 30, 90) | (ridges.astype(np.uint8) * 255), np.ones((3, 3), np.uint8))


def fan_tops(gray: np.ndarray, row: CardQuad, reach: float, lines: np.ndarray) -> list[CardQuad]:
    """The cards at a row's ends (``end_cards``, from the straight ones of ``lines``, the
    picture's ``line_map``), moved onto the picture's edges within ``reach`` pixels, whose
    outline is an edge in the picture (``gray``, a point on a line counted too), best first."""
    tune = tuned(TUNING)
    found = _across(row, lines)
    ends = end_cards(row, found)
    if not len(ends):
        return []
    # Moved onto the edges, unless that made a side miss its faint line (white on white).
    moved = np.stack([q.corners for q in refine_quads(gray, [CardQuad(c, row.fill) for c in ends], reach)])
    first, second = edge_supports(gray, ends, lines), edge_supports(gray, moved, lines)
    cards = np.where((second >= first)[:, None, None], moved, ends)
    support = np.maximum(first, second)
    out: list[CardQuad] = []
    for i in np.argsort(-support, kind="stable"):
        if support[i] < tune.fan_edges or len(out) == tune.fan_tries:
            break
        if beyond(row, cards[i]) >= tune.row_past:
            out.append(CardQuad(cards[i], row.fill, float(support[i])))
    return out


def beyond(row: CardQuad, card: np.ndarray) -> float:
    """How far a row reaches past a card lying in it, out from the middle of one of the card's
    sides, as a share of the card across that way (the most of its four sides): a row of cards
    reaches past its top card's inner side by the strips of those under it, a loose outline
    round one card by a margin of table all round."""
    c = np.asarray(card, np.float32)
    r = row.corners.astype(np.float32)
    _, outward = side_vectors(c)
    most = 0.0
    for k in range(4):
        middle = (c[k] + c[(k + 1) % 4]) / 2
        across = float(np.linalg.norm(c[(k + 2) % 4] - c[(k + 1) % 4]))  # the card's other side
        most = max(most, _exit(r, middle, outward[k]) / max(across, 1e-6))
    return most


def _exit(polygon: np.ndarray, point: np.ndarray, direction: np.ndarray) -> float:
    """How far a ray from a point inside a convex polygon runs before it leaves it (0 when the
    point lies outside)."""
    best = np.inf
    for a, b in zip(polygon, np.roll(polygon, -1, axis=0), strict=True):
        edge = b - a
        det = direction[0] * -edge[1] + edge[0] * direction[1]
        if abs(det) < 1e-9:
            continue
        q = a - point
        t = (q[0] * -edge[1] + edge[0] * q[1]) / det  # along the ray
        s = (direction[0] * q[1] - direction[1] * q[0]) / det  # along the edge
        if t >= 0 and 0 <= s <= 1:
            best = min(best, float(t))
    return 0.0 if best == np.inf else best

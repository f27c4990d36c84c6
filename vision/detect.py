"""Finding cards in a frame: bright, unsaturated, card-shaped regions, whatever the table.

Two cues are combined, because neither works on every table. The *paper* cue finds pixels that
are whiter than the table around them, at several levels, which separates white cards from felt,
wood, carpet and dark cloth. Each candidate region becomes a card when its minimum-area rectangle
is card-shaped (a poker or bridge aspect ratio) and the region fills it. Overlapping cards of a
pile merge into one region: the region is then cut by the straight edges of the top card (see
``split_pile``). The second cue is learnt: the card segmenter (``vision.segment``) marks card
faces as a whole, which finds cards on a table as white as they are, and tells a card from a
card-shaped scrap of paper, box or tile.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from statistics import median

import cv2
import numpy as np

from vision.covered import covered_cards
from vision.ink import darkest
from vision.quads import (
    RATIOS,
    CardQuad,
    boxes,
    corner_rectangles,
    edge_supports,
    grid_samples,
    inside_fractions,
    iou,
    portrait_corners,
    side_vectors,
)
from vision.segment import INPUT_LONG, MARGIN, STRIDE, CardSegmenter, builtin_segmenter, shrink
from vision.tuning import tuned

CARD_W, CARD_H = 250, 350  # canonical portrait size of a warped card (poker ratio 63 x 88)


@dataclass(frozen=True)
class DetectTuning:
    """The tuned numbers of finding cards' outlines, each with its unit and why it has its value
    (``vision.tuning``: a test or an experiment reads with others)."""

    work_width: int = 480  # frames are searched at this width at most; corners are scaled back
    # long side over short side: poker 1.40, bridge 1.56, with slack for perspective
    aspect: tuple[float, float] = (1.15, 1.85)
    min_area: float = 0.002  # a card covers at least this fraction of the frame
    max_area: float = 0.6
    inferred_fill: float = 0.85  # the fill given to an outline inferred inside a pile (clean outlines above 0.9 win)
    # a card-shaped region filling less of its rectangle may be a tight pile: its top card is sought too
    loose: float = 0.9
    fill_split: float = 0.55  # regions filling this much of their rectangle may be several cards: split them
    face_levels: tuple[float, float, float] = (0.5, 0.75, 0.9)
    # a segmenter blob filling this much of its rectangle may be a card, if nothing else is there
    ragged_fill: float = 0.6
    ragged: float = 0.8  # ... but up to this much it is ragged (every other outline fills more)
    alone: float = 0.1  # a ragged blob's box may overlap a kept outline's this much (over their union) at most
    face_support: float = 0.3  # an outline whose middle the segmenter believes less than this is not a card
    # ... unless its region fills it as a lone card's does (``CardQuad.fill`` over ``loose``)
    clean_support: float = 0.2
    same_size: float = 0.1  # ... or has, filling it so, the area and proportions of the cards believed, within this
    covered: float = 0.9  # a region this much inside the outlines found already is not split again
    several: float = 0.9  # a region of several cards is at least this much of a card found (the median)
    edge_margin: int = 4  # pixels round a region where its pile's sides are looked for as edges
    # a corner's two edges end this near it at most (of the region's short side): corners are round
    corner_gap: float = 0.15
    corner_tries: int = 48  # the largest rectangles drawn on corners that are asked about the picture
    corner_edges: float = 0.5  # ... and how much of its outline one must show as edges to be a pile's top card
    max_rivals: int = 3
    same_card: float = 0.4  # outlines whose boxes overlap this much (over their union) are of one card
    same_outline: float = 0.85  # a rival overlapping the winner this much is the same outline again
    one_of_several: float = 0.3  # an outline inside another, under half its size but this big, may be one card of a fan
    loose_edges: float = 0.5  # an outline less an edge than this may lie loose round a card: one is sought inside it
    refit_grow: float = 1.04  # ... within the loose outline grown this much (its sides may cut the card's corners)
    refit_edges: float = 0.6  # ... and taken when this much of its outline is an edge in the picture,
    refit_gain: float = 0.2  # ... this much more than the loose outline's (thin lines counted: a pile's top card),
    refit_smallest: float = 0.2  # ... and it is at least this much of the loose outline's area


TUNING = DetectTuning()


def paper_masks(small: np.ndarray) -> list[np.ndarray]:
    """Masks of "white enough" pixels at several levels: card faces stand out at one of them.

    Whiteness is the smallest of the three channels: high only where every channel is high, so
    beige carpet, wood and felt stay dark however bright they are. Sweeping the threshold
    instead of choosing one copes with light, dark and unevenly lit tables alike.
    """
    white = cv2.medianBlur(darkest(small), 5)
    levels = sorted({int(v) for v in np.percentile(white[::4, ::4], (87, 94))})
    kernel = np.ones((3, 3), np.uint8)
    masks = []
    for level in levels:
        _, mask = cv2.threshold(white, level, 255, cv2.THRESH_BINARY)
        masks.append(cv2.morphologyEx(mask, cv2.MORPH_OPEN, kernel))
        # Closed too: at a strict level a picture or a big pip can cut a face in two.
        masks.append(cv2.morphologyEx(masks[-1], cv2.MORPH_CLOSE, np.ones((7, 7), np.uint8)))
    # Brighter than its own neighbourhood: a card in sunlight on a pale carpet, or in shade.
    k = max(15, (min(small.shape[:2]) // 5) | 1)
    local = cv2.blur(white, (k, k))
    _, mask = cv2.threshold(cv2.subtract(white, local), 12, 255, cv2.THRESH_BINARY)
    masks.append(cv2.morphologyEx(mask, cv2.MORPH_OPEN, kernel))
    return masks


def _quads_from_mask(mask: np.ndarray, frame_area: float) -> tuple[list[CardQuad], list[np.ndarray], list[np.ndarray]]:
    """Card-shaped regions of a mask as outlines, the regions that may be several cards, and
    the card-shaped regions that fill their rectangle loosely (a tight pile looks like that)."""
    tune = tuned(TUNING)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    out, merged, loose = [], [], []
    for contour in contours:
        area = cv2.contourArea(contour)
        if not tune.min_area * frame_area <= area <= tune.max_area * frame_area:
            continue
        rect = cv2.minAreaRect(contour)
        (w, h) = rect[1]
        if min(w, h) < 8:
            continue
        aspect = max(w, h) / min(w, h)
        fill = area / (w * h)
        if tune.aspect[0] <= aspect <= tune.aspect[1] and fill > 0.82:
            out.append(CardQuad(portrait_corners(cv2.boxPoints(rect)), float(fill)))
            if fill < tune.loose:
                loose.append(contour)
        elif fill > tune.fill_split and aspect <= 3.5:
            merged.append(contour)
    return out, merged, loose


def distinct_outlines(contours: list[np.ndarray]) -> list[np.ndarray]:
    """Each region once: one found at several whiteness levels, point for point the same, would be
    searched for cards again to the same outlines (a pile search costs milliseconds)."""
    out: list[np.ndarray] = []
    for contour in contours:
        if not any(contour.shape == seen.shape and np.array_equal(contour, seen) for seen in out):
            out.append(contour)
    return out


def _aspect(quad: CardQuad) -> float:
    """An outline's long side over its short one."""
    return float(np.linalg.norm(quad.corners[2] - quad.corners[1])) / max(quad.short_side, 1e-6)


def _card_sized(quad: CardQuad, area: float, aspect: float) -> bool:
    """Whether an outline has a card's ``area`` and proportions (``_aspect``), each within
    ``same_size``; no card's size known (an area of 0), none has."""
    tune = tuned(TUNING)
    return (
        area > 0 and abs(quad.area / area - 1) <= tune.same_size and abs(_aspect(quad) / aspect - 1) <= tune.same_size
    )


def explained(contour: np.ndarray, quads: list[CardQuad], card: float = 0.0) -> bool:
    """Whether card outlines found already account for a region (found at another level): one
    of them covers most of its box, or those of a whole card's size at least (``several`` of
    ``card``, the median card's area; 0: none counted so) together cover ``covered`` of it: a
    pile split already, seen again at another whiteness level (a split costs 2-3 ms and finds
    those cards). Pieces of a card do not: the region may show the card they are parts of."""
    tune = tuned(TUNING)
    if not quads:
        return False
    x, y, w, h = cv2.boundingRect(contour)
    if (iou(np.array([x, y, x + w, y + h], np.float32), boxes(quads)) > 0.6).any():
        return True
    whole_cards = [q for q in quads if card > 0 and q.area >= tune.several * card]
    if not whole_cards:
        return False
    region, found = np.zeros((h, w), np.uint8), np.zeros((h, w), np.uint8)
    cv2.drawContours(region, [contour - np.array([x, y], np.int32)], -1, 1, cv2.FILLED)
    for quad in whole_cards:  # one at a time: given several, fillPoly leaves their overlaps empty
        cv2.fillPoly(found, [np.round(quad.corners - (x, y)).astype(np.int32)], 1)
    return cv2.countNonZero(cv2.bitwise_and(region, found)) >= tune.covered * cv2.countNonZero(region)


def _split_region(contour: np.ndarray, gray: np.ndarray) -> list[CardQuad]:
    """Cards lying together (a pile, cards touching): the top card, then the top card of what
    is left once it is taken away, up to three."""
    x0, y0, bw, bh = cv2.boundingRect(contour)
    region = np.zeros((bh + 2, bw + 2), np.uint8)
    shift = np.array([x0 - 1, y0 - 1])
    cv2.drawContours(region, [contour - shift], -1, 255, thickness=cv2.FILLED)
    found: list[CardQuad] = []
    while len(found) < 3:
        quads = split_pile(contour, gray, inner_edges=not found)
        if not quads:
            break
        found += quads
        cv2.fillPoly(region, [np.round(quads[0].corners - shift).astype(np.int32)], 0)
        region = cv2.morphologyEx(region, cv2.MORPH_OPEN, np.ones((5, 5), np.uint8))  # slivers along its edges
        rest, _ = cv2.findContours(region, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        if not rest:
            break
        contour = max(rest, key=cv2.contourArea)
        if cv2.contourArea(contour) < 0.4 * quads[0].area:
            break
        contour = (contour + shift).astype(np.int32)
    return found


def split_pile(
    contour: np.ndarray,
    gray: np.ndarray | None = None,
    inner_edges: bool = False,
    edge_maps: tuple[np.ndarray, np.ndarray] | None = None,
) -> list[CardQuad]:
    """The top card of a region of overlapping cards.

    Its sides are long straight runs of the region's outline, so card-shaped rectangles are
    tried on each side of the outline's polygon. Of those that lie inside the region, the top
    card is the one whose whole outline is an edge in the picture (a rectangle spanning two cards
    crosses their faces); with no picture to ask, the largest. With ``inner_edges``, straight
    edges inside the region are tried as sides too: in a tight pile the lower cards stick out all
    round, and the top card's sides are none of the outline's. ``edge_maps``: the region's
    ``edge_lines``, when the caller has drawn them already.
    """
    tune = tuned(TUNING)
    peri = cv2.arcLength(contour, True)
    poly = cv2.approxPolyDP(contour, 0.015 * peri, True).reshape(-1, 2).astype(np.float32)
    if not 4 <= len(poly) <= 12:
        return []
    n = len(poly)
    x0, y0, bw, bh = cv2.boundingRect(contour)
    region = np.zeros((bh + 2, bw + 2), np.uint8)
    cv2.drawContours(region, [contour - [x0 - 1, y0 - 1]], -1, 1, thickness=cv2.FILLED)
    # Each side with the direction the card lies in: an outline's side, into the region; an
    # edge inside the region, either way.
    sides = [(poly[i], poly[(i + 1) % n], False) for i in range(n)]
    if gray is None:
        lines, thick = None, None
    else:
        lines, thick = edge_maps or edge_lines(gray, (x0 - 1, y0 - 1), region.shape)
    corners = np.zeros((0, 4, 2), np.float32)
    if inner_edges and lines is not None:
        short = min(cv2.minAreaRect(contour)[1])
        sides += [(a, b, True) for a, b in straight_edges(lines, region, (x0 - 1, y0 - 1), 0.35 * short)]
        # The top card's corners: where two straight edges meet at a right angle, on the outline
        # or inside (its sides, short or faint, make no side of the region's own).
        every = straight_edges(lines, region, (x0 - 1, y0 - 1), 0.25 * short, outline=True)
        segments = np.array([[a, b] for a, b, _ in sides] + [[a, b] for a, b in every], np.float32)
        corners = corner_rectangles(segments, tune.corner_gap * short)
    tried: list[tuple[float, np.ndarray]] = []
    for a, b, both_ways in sides:
        side = b - a
        length = float(np.linalg.norm(side))
        if length < 10:
            continue
        u = side / length
        normal = np.array([-u[1], u[0]], dtype=np.float32)
        inside = (poly - a) @ normal
        signs = (1.0, -1.0) if both_ways else (-1.0,) if abs(inside.min()) > abs(inside.max()) else (1.0,)
        for sign in signs:
            for depth in [length * r for r in RATIOS] + [length / r for r in RATIOS]:
                far = normal * depth * sign
                tried.append((length * depth, np.array([a, b, b + far, a + far], dtype=np.float32)))
    # The picture is asked about the largest few only: a top card is never much smaller than them.
    largest = _largest_inside(region, (x0 - 1, y0 - 1), tried, 12 if inner_edges else 4)
    on_sides = len(largest)
    largest += _largest_inside(region, (x0 - 1, y0 - 1), [(cv2.contourArea(q), q) for q in corners], tune.corner_tries)
    if not largest:
        return []
    if gray is None or thick is None:
        edges = np.ones(len(largest))
    else:  # the top card's side over the card under it is a thin line: the lines count as edges
        edges = edge_supports(gray, np.stack([q for _, _, q in largest]), thick)
    best: CardQuad | None = None
    best_score = 0.0
    for n, ((area, covered, quad), edge) in enumerate(zip(largest, edges, strict=True)):
        score = area * edge**2
        # A rectangle on a corner may be a lower card's, its hidden side crossing the top card's
        # pips: the top card's own shows most of its outline.
        if score > best_score and (n < on_sides or edge >= tune.corner_edges):
            # Inferred from a pile, not drawn by the region itself: ranks below any clean outline.
            best, best_score = CardQuad(portrait_corners(quad), min(covered, tune.inferred_fill)), score
    return [best] if best is not None else []


def _largest_inside(
    region: np.ndarray, origin: tuple[int, int], tried: list[tuple[float, np.ndarray]], most: int
) -> list[tuple[float, float, np.ndarray]]:
    """The ``most`` largest of the rectangles tried (area, corners) lying inside a region (its
    mask, placed at ``origin``), as (area, share inside, corners)."""
    if not tried:
        return []
    covered = inside_fractions(region, np.array([q for _, q in tried]) - origin)
    inside = [(float(area), c, quad) for (area, quad), c in zip(tried, covered, strict=True) if c > 0.93]
    return sorted(inside, key=lambda c: c[0], reverse=True)[:most]


def edge_lines(gray: np.ndarray, origin: tuple[int, int], shape: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
    """Canny's edges of a region's box (placed at ``origin``, ``shape`` rows and columns, clipped
    to the frame, with a few pixels round it), in a map the size of ``gray``; and the same map
    with every line a pixel thicker (a side's points may fall beside the line they run along)."""
    tune = tuned(TUNING)
    x0, y0 = origin
    h, w = shape
    gx, gy = max(0, x0 - tune.edge_margin), max(0, y0 - tune.edge_margin)
    gx1, gy1 = min(gray.shape[1], x0 + w + tune.edge_margin), min(gray.shape[0], y0 + h + tune.edge_margin)
    lines = np.zeros_like(gray)
    lines[gy:gy1, gx:gx1] = cv2.Canny(gray[gy:gy1, gx:gx1], 30, 90)
    # Thickened over the box and the one-pixel ring round it, where the lines can reach.
    tx, ty, tx1, ty1 = max(0, gx - 1), max(0, gy - 1), min(gray.shape[1], gx1 + 1), min(gray.shape[0], gy1 + 1)
    thick = np.zeros_like(gray)
    thick[ty:ty1, tx:tx1] = cv2.dilate(lines[ty:ty1, tx:tx1], np.ones((3, 3), np.uint8))
    return lines, thick


def straight_edges(
    lines: np.ndarray, region: np.ndarray, origin: tuple[int, int], shortest: float, outline: bool = False
) -> list[tuple[np.ndarray, np.ndarray]]:
    """Long straight edges inside a region (its mask, placed at ``origin`` in ``lines``, the
    frame's map of edges: ``edge_lines``), as pairs of end points in the frame's pixels; with
    ``outline``, on the region's outline too, and fainter ones (more of them, shorter)."""
    x0, y0 = origin
    h, w = region.shape
    # The region's box clipped to the frame (a region touching the frame starts a pixel off it).
    gx, gy = max(0, x0), max(0, y0)
    patch = lines[gy : y0 + h, gx : x0 + w]
    inside = region[gy - y0 :, gx - x0 :][: patch.shape[0], : patch.shape[1]]
    # Eroded, unless asked: the region's own outline is tried as sides already.
    mask = (cv2.dilate if outline else cv2.erode)(inside, np.ones((5, 5), np.uint8))
    votes = 20 if outline else 30
    found = cv2.HoughLinesP(patch & (mask * 255), 1, np.pi / 180, votes, minLineLength=int(shortest), maxLineGap=4)
    if found is None:
        return []
    shift = np.array([gx, gy], np.float32)
    most = 40 if outline else 24
    return [(np.float32(line[:2]) + shift, np.float32(line[2:]) + shift) for line in found.reshape(-1, 4)[:most]]


def _face_quads(face: np.ndarray, frame_area: float) -> tuple[list[CardQuad], list[CardQuad]]:
    """Cards from the segmenter's map (already at the working size): each blob is a card's face
    shrunk by the segmenter's margin, so its rectangle is grown back by that much. Blobs that
    fill their rectangle less (ragged: a pale, busy table bleeds into the map) come second."""
    tune = tuned(TUNING)
    contours = []
    for level in tune.face_levels:
        found, _ = cv2.findContours((face > level).astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        contours += found
    out: list[CardQuad] = []
    rough: list[CardQuad] = []
    for contour in contours:
        area = cv2.contourArea(contour)
        if area < 0.5 * tune.min_area * frame_area:
            continue
        (cx, cy), (w, h), angle = cv2.minAreaRect(contour)
        if min(w, h) < 6:
            continue
        grow = 2 * MARGIN * min(w, h) / (1 - 2 * MARGIN)
        fill = area / (w * h)
        w, h = w + grow, h + grow
        if tune.aspect[0] <= max(w, h) / min(w, h) <= tune.aspect[1] and fill > tune.ragged_fill:
            box = cv2.boxPoints(((cx, cy), (w, h), angle))
            (out if fill > tune.ragged else rough).append(
                CardQuad(portrait_corners(box), min(float(fill), tune.inferred_fill))
            )
    return out, rough


def face_belief_map(segmenter: CardSegmenter, small: np.ndarray) -> np.ndarray:
    """The segmenter's map of the working image, stretched over it (the network is trained on
    frames rendered at about the working size and shrunk the same way)."""
    face, cell = segmenter.face_map(small)
    height, width = small.shape[:2]
    rows, cols = face.shape
    if cell == round(cell) and rows * cell >= height and cols * cell >= width:
        # A whole number of pixels a cell (the working size's usual case): a plain resize puts
        # each cell's centre where the warp below does, in a tenth of its time.
        size = (round(cols * cell), round(rows * cell))
        return cv2.resize(face, size, interpolation=cv2.INTER_LINEAR)[:height, :width]
    # Map cell i covers pixels [i * cell, (i + 1) * cell): its centre is at (i + 0.5) * cell.
    m = np.float32([[cell, 0, (cell - 1) / 2], [0, cell, (cell - 1) / 2]])
    return cv2.warpAffine(face, m, (width, height), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def _mean_inside(face: np.ndarray, polygon: np.ndarray) -> float:
    """The segmenter's mean belief over a polygon (image pixels; the part outside the map is
    ignored, and a polygon wholly outside it has no support)."""
    pts = np.round(np.asarray(polygon, np.float32).reshape(-1, 2)).astype(np.int32)
    x0, y0 = np.maximum(pts.min(axis=0), 0)
    x1, y1 = np.minimum(pts.max(axis=0) + 1, (face.shape[1], face.shape[0]))
    if x1 <= x0 or y1 <= y0:
        return 0.0
    mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillPoly(mask, [pts - [x0, y0]], 1)
    if not mask.any():
        return 0.0
    return float(cv2.mean(face[y0:y1, x0:x1], mask)[0])


def face_support(face: np.ndarray, quad: CardQuad) -> float:
    """The segmenter's mean belief over the middle of an outline (half its size): near 1 on a
    card, near 0 on paper, a box or a patch of table that only looked card-shaped."""
    return face_supports(face, [quad])[0]


def face_supports(face: np.ndarray, quads: list[CardQuad]) -> list[float]:
    """``face_support`` of many outlines at once: the map sampled on a 7 x 7 grid over the
    middle half of each (the part of the map it lies on; none where it lies off the map)."""
    if not quads:
        return []
    corners = np.stack([q.corners for q in quads]).astype(np.float32)
    centre = corners.mean(axis=1, keepdims=True)
    values, ok = grid_samples(face, centre + (corners - centre) * 0.5)
    counted = ok.sum(axis=1)
    return [float(v) for v in np.where(counted > 0, values.sum(axis=1) / np.maximum(counted, 1), 0.0)]


def face_beliefs(image: np.ndarray, quads: list[CardQuad]) -> list[float]:
    """``face_support`` of outlines in a frame's pixels, the segmenter run on the frame afresh:
    for the few outlines found otherwise than by the finder (a card's index, seen alone)."""
    if image.ndim == 2:
        image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    small, scale = working_image(image)
    face = face_belief_map(builtin_segmenter(), small)
    return face_supports(face, [CardQuad(q.corners * scale, q.fill) for q in quads])


def refine_quad(gray: np.ndarray, quad: CardQuad, reach: float) -> CardQuad:
    """The outline moved onto the picture's edges. Each side is replaced by the straight line,
    within ``reach`` pixels of it, along which the brightness steps most; of lines nearly as
    strong, the outermost (the card's own edge, not the frame of a court card or an index
    just inside it). The corners are where the new sides meet. Kept as it was if that fails."""
    return refine_quads(gray, [quad], reach)[0]


def refine_quads(gray: np.ndarray, quads: list[CardQuad], reach: float) -> list[CardQuad]:
    """``refine_quad`` of every outline of a frame at once (one matrix product for all sides:
    the steps are whole grey levels, so the sums are exact whatever the order)."""
    if not quads:
        return []
    a = np.stack([q.corners for q in quads]).astype(np.float32)  # N x 4 x 2
    count = len(quads)
    d, normal = side_vectors(a)
    r = max(2, round(reach))
    steps = np.arange(-r, r + 1, dtype=np.float32)
    along = _ALONG_REFINE[:, None, None]
    pts = a[:, :, None, None, :] + along * d[:, :, None, None, :]
    pts = pts + steps[:, None] * normal[:, :, None, None, :]  # N x side x point x offset x (x, y)
    h, w = gray.shape
    inside = (pts[..., 0] >= 0) & (pts[..., 1] >= 0) & (pts[..., 0] <= w - 1) & (pts[..., 1] <= h - 1)
    shape = (-1, len(steps))
    line = cv2.remap(gray, pts[..., 0].reshape(shape), pts[..., 1].reshape(shape), cv2.INTER_LINEAR)
    points = len(_ALONG_REFINE)
    step = np.abs(np.diff(line.reshape(count * 4, points, -1).astype(np.float32), axis=2))
    inside = inside.reshape(count * 4, points, -1)
    step[~(inside[..., 1:] & inside[..., :-1])] = 0
    # Candidate lines run from any offset at the first point to any at the last; a line's score
    # is the step summed along it (sides x first x last).
    n = step.shape[2]
    first, last, at, summing = _candidate_lines(n)
    score = (step.reshape(count * 4, -1) @ summing).reshape(-1, n, n)
    best = score.reshape(count * 4, -1).max(axis=1)
    outer = np.where(score >= 0.7 * best[:, None, None], first + last, -1).reshape(count * 4, -1).argmax(axis=1)
    o1, o2 = np.unravel_index(outer, (n, n))
    # Each point's own peak near the chosen line, to a fraction of a pixel (a parabola through
    # the step and its neighbours), then the straight line through them by least squares.
    sides = np.arange(count * 4)[:, None]
    centre = np.clip(at[o1, o2], 1, n - 2)  # sides x points
    index = np.arange(points)[None, :]
    window = np.stack([step[sides, index, centre + k] for k in (-1, 0, 1)], axis=-1)
    peak = np.clip(centre + window.argmax(axis=-1) - 1, 1, n - 2)
    lo, mid, hi = (step[sides, index, peak + k] for k in (-1, 0, 1))
    curve = lo - 2 * mid + hi
    sub = np.where(curve < 0, 0.5 * (lo - hi) / np.where(curve < 0, curve, -1), 0.0)
    offset = (peak + np.clip(sub, -0.5, 0.5) - r + 0.5).reshape(count, 4, points)  # along the outward normal
    t = _ALONG_REFINE - _ALONG_REFINE.mean()
    slope = (offset * t).sum(axis=-1) / (t * t).sum()
    mean = offset.mean(axis=-1)
    start = a + _ALONG_REFINE[0] * d + (mean + slope * t[0])[..., None] * normal
    end = a + _ALONG_REFINE[-1] * d + (mean + slope * t[-1])[..., None] * normal
    u = end - start
    # Corner k is where side k - 1 meets side k: start[k-1] + s u[k-1] = start[k] + t u[k].
    p, v = np.roll(start, 1, axis=1), np.roll(u, 1, axis=1)
    det = v[..., 0] * -u[..., 1] + u[..., 0] * v[..., 1]
    q = start - p
    k = (q[..., 0] * -u[..., 1] + u[..., 0] * q[..., 1]) / np.where(np.abs(det) < 1e-3, 1.0, det)
    out = (p + k[..., None] * v).astype(np.float32)
    lengths = np.linalg.norm(np.roll(out, -1, axis=1) - out, axis=-1)
    refined = []
    for i, quad in enumerate(quads):
        if best[4 * i : 4 * i + 4].min() < 4 * points or np.abs(det[i]).min() < 1e-3:
            refined.append(quad)  # a side with no clear edge near it, or sides that do not meet
            continue
        sides_i = lengths[i]
        # A card seen from above stays nearly a rectangle: a side pulled onto a shadow's edge or
        # a neighbour's makes opposite sides differ, and the warp would distort the index.
        skewed = (
            max(abs(sides_i[0] / sides_i[2] - 1), abs(sides_i[1] / sides_i[3] - 1)) > 0.1 if sides_i.min() > 0 else True
        )
        if skewed or np.abs(out[i] - a[i]).max() > 2 * reach or not cv2.isContourConvex(out[i].reshape(-1, 1, 2)):
            refined.append(quad)
        else:
            refined.append(CardQuad(out[i], quad.fill))
    return refined


_ALONG_REFINE = np.linspace(0.12, 0.88, 16, dtype=np.float32)
_ALONG_UNIT = (_ALONG_REFINE - _ALONG_REFINE[0]) / (_ALONG_REFINE[-1] - _ALONG_REFINE[0])


@lru_cache(maxsize=8)
def _candidate_lines(n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The lines ``refine_quad`` tries across ``n`` offsets: each one's first and last offset
    (n x n), the offset it passes at each point (n x n x points), and the 0/1 matrix that sums
    a side's steps (points x n, flattened) along every line at once (one product a side: the
    frame's reach is fixed, so this is built once)."""
    first, last = np.meshgrid(np.arange(n), np.arange(n), indexing="ij")
    at = np.round(first[..., None] + (last - first)[..., None] * _ALONG_UNIT).astype(np.intp)
    summing = np.zeros((len(_ALONG_REFINE) * n, n * n), np.float32)
    points = np.arange(len(_ALONG_REFINE))
    summing[points * n + at.reshape(n * n, -1), np.arange(n * n)[:, None]] = 1.0
    return first, last, at, summing


def find_cards(image: np.ndarray, segmenter: CardSegmenter | None = None) -> list[CardQuad]:
    """Every card-shaped region in a BGR frame (cards partly under others left out), corners in
    the frame's pixels. The segmenter is the built-in one unless another is given."""
    return [found.quad for found in find_card_outlines(image, segmenter) if not found.over]


@dataclass(frozen=True)
class FoundCard:
    """A card's outline, and the rival outlines of the same card that it won over, best first:
    the reader may try those when this one cannot be read (a shadow or a neighbour cut it wrongly)."""

    quad: CardQuad
    rivals: tuple[CardQuad, ...] = ()
    over: tuple[CardQuad, ...] = ()  # outlines lying over this card: it shows only beside them (``vision.covered``)


def working_image(image: np.ndarray) -> tuple[np.ndarray, float]:
    """A frame at the size cards are searched at (``work_width`` wide at most), and its scale."""
    tune = tuned(TUNING)
    h, w = image.shape[:2]
    scale = min(1.0, tune.work_width / w)
    return shrink(image, round(w * scale), round(h * scale)), scale


def map_cell(shape: tuple[int, ...]) -> float:
    """One cell of the segmenter's map, in the pixels of a working image of ``shape``: how far
    an outline is moved onto the picture's edges at most."""
    return STRIDE * max(shape[:2]) / INPUT_LONG


def find_card_outlines(image: np.ndarray, segmenter: CardSegmenter | None = None) -> list[FoundCard]:
    """``find_cards``, with each card's rival outlines (see ``FoundCard``), and then the cards
    showing beside others that lie over them (``FoundCard.over``)."""
    tune = tuned(TUNING)
    if image.size == 0:
        return []
    if image.ndim == 2:
        image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    small, scale = working_image(image)
    frame_area = float(small.shape[0] * small.shape[1])
    face = face_belief_map(segmenter or builtin_segmenter(), small)
    candidates: list[CardQuad] = []
    merged: list[np.ndarray] = []
    loose: list[np.ndarray] = []
    for mask in paper_masks(small):
        clean, several, tight_piles = _quads_from_mask(mask, frame_area)
        candidates += clean
        merged += several
        loose += tight_piles
    gray = cv2.GaussianBlur(cv2.cvtColor(small, cv2.COLOR_BGR2GRAY), (3, 3), 0)
    reach = map_cell(small.shape)
    blobs, rough = _face_quads(face, frame_area)
    candidates += blobs
    # A region much bigger than every card already found is table showing through, not a pile.
    largest = max((q.area for q in candidates), default=tune.max_area * frame_area)
    supports = face_supports(face, candidates)
    believed = [q for q, f in zip(candidates, supports, strict=True) if f >= tune.face_support]
    # ... and a region smaller than a card is a card cut by light or shadow, not several.
    card = float(median(q.area for q in believed)) if believed else 0.0
    shape = float(median(_aspect(q) for q in believed)) if believed else 0.0
    for contour in distinct_outlines(merged):
        if (
            card * tune.several <= cv2.contourArea(contour) < 4 * largest
            and not explained(contour, candidates, card)
            and _mean_inside(face, contour) >= tune.face_support
        ):
            candidates += _split_region(contour, gray)
    clean = [q for q in candidates if q.fill > tune.loose]
    for contour in distinct_outlines(loose):
        if not explained(contour, clean, card) and _mean_inside(face, contour) >= tune.face_support:
            candidates += split_pile(contour, gray, inner_edges=True)
    supports += face_supports(face, candidates[len(supports) :])  # the outlines the splits added
    # A region filling its rectangle as a lone card's does is paper of a card's shape and size:
    # it needs less of the segmenter's belief (a court card on streaked wood), and
    # none where it is the size and shape of the cards believed (one deck's cards are one size).
    candidates = [
        q
        for q, f in zip(candidates, supports, strict=True)
        if f >= (tune.clean_support if q.fill > tune.loose else tune.face_support)
        or (q.fill > tune.loose and _card_sized(q, card, shape))
    ]
    # The same card shows at several levels: keep its largest clean outline. Cards of one deck
    # are all one size, so a much smaller outline lying inside a card is a pip or a picture on it,
    # or, inside an outline drawn round several cards, one of them: that one is kept as a rival.
    ordered = sorted(candidates, key=lambda q: (q.fill > 0.9, q.area), reverse=True)
    kept_boxes = boxes(ordered)
    overlaps = iou(kept_boxes, kept_boxes)  # each with each, once: a frame has some fifty outlines
    kept: list[int] = []
    rivals: dict[int, list[int]] = {}
    for i, quad in enumerate(ordered):
        if kept:
            overlap = overlaps[i, kept]
            if (overlap >= tune.same_card).any():
                k = int(np.argmax(overlap))
                if overlap[k] < tune.same_outline and len(rivals.setdefault(kept[k], [])) < tune.max_rivals:
                    rivals[kept[k]].append(i)
                continue
        inside = [k for k in kept if _part_of(quad, ordered[k])]
        if not inside:
            kept.append(i)
            continue
        k = inside[0]
        if quad.area >= tune.one_of_several * ordered[k].area and len(rivals.setdefault(k, [])) < tune.max_rivals:
            rivals[k].append(i)
    # A ragged blob is a card only where nothing else was found: elsewhere a tighter outline wins.
    rough = [q for q, f in zip(rough, face_supports(face, rough), strict=True) if f >= tune.face_support]
    for quad in sorted(rough, key=lambda q: q.area, reverse=True):
        if not kept or not (iou(boxes([quad])[0], kept_boxes[kept]) > tune.alone).any():
            kept_boxes = np.vstack([kept_boxes, boxes([quad])])
            ordered.append(quad)
            kept.append(len(ordered) - 1)

    # Rivals are rarely needed, so they are not refitted to the edges (it costs a millisecond each).
    refined = refine_quads(gray, [ordered[i] for i in kept], reach)
    cards = [[quad] + [ordered[j] for j in rivals.get(i, ())] for i, quad in zip(kept, refined, strict=True)]
    refit_loose(gray, cards)
    every = [quad for outlines in cards for quad in outlines]
    edges = iter(edge_supports(gray, np.stack([q.corners for q in every])) if every else ())
    scaled = [[CardQuad(q.corners / scale, q.fill, float(next(edges))) for q in outlines] for outlines in cards]
    found = [FoundCard(outlines[0], tuple(outlines[1:])) for outlines in scaled]
    return found + _covered(merged + loose, [ordered[i] for i in kept], [f.quad for f in found], face, scale)


def refit_loose(gray: np.ndarray, cards: list[list[CardQuad]]) -> None:
    """Outlines that lie off the picture's edges (a card on paper as pale as it, merged with it
    into one region, or a segmenter blob round it) are searched for a card lying inside them:
    its corners and straight sides, as in a pile (``split_pile``). One found whose outline is an
    edge in the picture, clearly more than the loose outline's, takes its place; the loose one
    becomes its first rival. ``cards`` (each card's outline, then its rivals) is updated in place."""
    tune = tuned(TUNING)
    if not cards:
        return
    loose = edge_supports(gray, np.stack([outlines[0].corners for outlines in cards]))
    for outlines, support in zip(cards, loose, strict=True):
        if support >= tune.loose_edges:
            continue
        quad = outlines[0]
        centre = quad.corners.mean(axis=0)
        grown = np.round(centre + (quad.corners - centre) * tune.refit_grow).astype(np.int32).reshape(-1, 1, 2)
        x0, y0, w, h = cv2.boundingRect(grown)
        maps = edge_lines(gray, (x0 - 1, y0 - 1), (h + 2, w + 2))  # the ones split_pile draws for this box
        thick = maps[1]
        for inner in split_pile(grown, gray, inner_edges=True, edge_maps=maps):
            plain = edge_supports(gray, inner.corners[None])[0]
            old, new = edge_supports(gray, np.stack([quad.corners, inner.corners]), thick)
            if (
                plain >= tune.refit_edges
                and new >= old + tune.refit_gain
                and inner.area >= tune.refit_smallest * quad.area
            ):
                outlines.insert(0, CardQuad(inner.corners, quad.fill))
                del outlines[tune.max_rivals + 1 :]


def _covered(
    regions: list[np.ndarray], tops: list[CardQuad], found: list[CardQuad], face: np.ndarray, scale: float
) -> list[FoundCard]:
    """The cards showing beside the cards on top in regions of several cards (``vision.covered``),
    in the frame's pixels: those the segmenter believes in, and not already found themselves.
    ``tops`` are the outlines found, as first found; ``found`` the same refitted to the edges."""
    tune = tuned(TUNING)
    out = []
    for card in covered_cards(regions, tops):
        over = tuple(found[i] for i in card.over)
        m = cv2.moments(card.strip)
        centre = (m["m10"] / m["m00"], m["m01"] / m["m00"])
        if _mean_inside(face, card.strip) < tune.face_support or any(
            cv2.pointPolygonTest(t.corners.astype(np.float32), centre, False) >= 0 for t in tops
        ):
            continue
        out.append(FoundCard(CardQuad(card.quad.corners / scale, card.quad.fill), over=over))
    return out


def box_overlap(a: CardQuad, b: CardQuad) -> float:
    """How much two outlines' boxes overlap, over their union."""
    return float(iou(boxes([a])[0], boxes([b]))[0])


def ragged(quad: CardQuad) -> bool:
    """Whether an outline came from a ragged blob of the segmenter's (a rough outline: what it
    shows without an index is no evidence of a card's back)."""
    tune = tuned(TUNING)
    return quad.fill <= tune.ragged


def overlaps(quad: CardQuad, others: list[CardQuad]) -> bool:
    """Whether an outline's box overlaps any of the others' as much as two outlines of one card do."""
    tune = tuned(TUNING)
    return bool(others) and bool((iou(boxes([quad])[0], boxes(others)) >= tune.same_card).any())


def _part_of(small: CardQuad, big: CardQuad) -> bool:
    """Whether ``small`` is under half the size of ``big`` and lies mostly inside it."""
    if small.area > 0.5 * big.area:
        return False
    inside = [cv2.pointPolygonTest(big.corners, (float(x), float(y)), False) >= 0 for x, y in small.corners]
    centre = cv2.pointPolygonTest(big.corners, small.center, False) >= 0
    return centre and sum(inside) >= 3


def warp_card(
    image: np.ndarray, quad: CardQuad, box: tuple[int, int, int, int] | None = None, scale: float = 1.0
) -> np.ndarray:
    """The card seen straight on, CARD_W x CARD_H, portrait, in BGR (grey from a grey frame);
    with ``box`` (top, bottom, left, right), only that part of it; with ``scale``, the whole
    card that much smaller. Warping from the frame's ``warp_source`` copy is faster.
    Where the outline reaches past the frame (a card cut by its edge), the frame's edge pixels
    carry on: black there would read as ink (a band of dark grain along the frame's edge can
    look a joker's letters)."""
    if box is None:
        w, h = round(CARD_W * scale), round(CARD_H * scale)
        top, bottom, left, right = 0, h, 0, w
    else:
        w, h = CARD_W, CARD_H
        top, bottom, left, right = box
    dst = np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], dtype=np.float32)
    m = cv2.getPerspectiveTransform(quad.corners.astype(np.float32), dst - np.float32([left, top]))
    card = cv2.warpPerspective(
        image, m, (right - left, bottom - top), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )
    return cv2.cvtColor(card, cv2.COLOR_BGRA2BGR) if card.ndim == 3 and card.shape[2] == 4 else card


def warp_source(image: np.ndarray) -> np.ndarray:
    """A frame (BGR, BGRA or grey) as BGRA, to warp cards from: OpenCV warps four channels in
    half the time of three (a vectorised path), and one conversion a frame costs a tenth of a warp."""
    if image.ndim == 2:
        return cv2.cvtColor(image, cv2.COLOR_GRAY2BGRA)
    return image if image.shape[2] == 4 else cv2.cvtColor(image, cv2.COLOR_BGR2BGRA)

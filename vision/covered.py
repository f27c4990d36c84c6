"""Cards lying partly under others: a trick played to the middle, a hand laid down in a fan.

Cards overlapping side by side make one region together. Once the cards on top of it are found,
what is left of the region is the strips of the cards under them. A strip wide enough to show
an index (``strip_min`` of a card's width) is the visible edge of a card of the same size as the
ones on top (one deck, one camera), so a whole card is laid over it: the strip inside it and
the card inside the region, the rest of it under the cards on top. The reader then reads it
from the index corner the strip shows, with what lies under the cards on top painted out
(``hide``), so that the top card's own index cannot be read as the covered card's.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.quads import CardQuad, boxes, inside_fractions, iou, portrait_corners, side_vectors
from vision.tuning import tuned


@dataclass(frozen=True)
class CoveredTuning:
    """The tuned numbers of finding cards lying under others, each with its unit and why it has its value
    (``vision.tuning``: a test or an experiment reads with others)."""

    strip_min: float = 0.22  # a strip narrower than this share of a card's width cannot show a whole index
    strip_area: float = 0.1  # nor one smaller than this share of a card
    holds: float = 0.85  # a card laid over a strip holds this much of the strip...
    within: float = 0.93  # ... and lies this much inside the region (its hidden part under the cards on top)
    # covered cards whose boxes overlap this much (over their union) are one (seen at two levels)
    same_strip: float = 0.6
    edge_fit_px: int = 4  # a point of the strip's own edge within this many pixels of a card's outline runs along it
    same_size: float = 0.6  # outlines on top smaller than this share of the largest are not cards (pips, pictures)
    # of a warped card's width: the painted-out part reaches this far past the top card's outline
    hide_margin: float = 0.02
    side_points: int = 24  # points sampled along each side of an outline asked whether it still shows
    clear_of_top: int = 8  # pixels: a sampled point this far outside the card on top, or more, is judged
    across: int = 4  # pixels each way across a side that its profile reaches (an outline read is off by 2-3)
    along: int = 6  # pixels each way along a side a point's profile is averaged over: a table's grain, a
    # carpet's fibres cross a side at random and average out; a card's straight side does not
    step: int = 14  # grey levels: a profile's two sides this far apart are an edge
    ridge: int = 8  # grey levels: a profile's middle this much darker than both its sides is a card's side
    # over another white card (often only a faint shadow line)
    shows_at_least: float = 0.3  # of an outline's points: fewer clear of the card on top, and nothing can be said
    side_at_least: int = 5  # points clear of the card on top: a side with fewer is not judged
    # of a side clear of the card on top, on average: this much on an edge, the card still lies there
    still_edge: float = 0.5
    look_reach: float = 0.5  # of a card's short side: the frame round its outline kept with its look
    look_step: int = 25  # grey levels: a pixel changed this much since the card was last seen has changed
    same_look: float = 0.05  # of the pixels asked: at most this many changed, nothing changed there
    ink_step: int = 50  # grey levels below a card's paper: its print (index, pips, picture)
    min_ink: int = 20  # pixels of an old card's print clear of the card on top: fewer, and its look says nothing
    min_new: float = 0.03  # of a card's area: less of the card on top reaching past the old one, and nothing is new
    look_clear: float = 0.07  # of the card on top's short side: its shadow reaches this far, and is no change
    # of a card's short side: only what lies this far inside its outline is its own (read 2-3 px off)
    look_inside: float = 0.03


TUNING = CoveredTuning()


@dataclass(frozen=True)
class CoveredCard:
    """A card partly under others: its whole outline (the hidden part inferred) and which of the
    cards on top lie over it."""

    quad: CardQuad
    over: tuple[int, ...]  # indices into the cards on top
    strip: np.ndarray  # the part that shows (a contour)


def covered_cards(regions: list[np.ndarray], tops: list[CardQuad]) -> list[CoveredCard]:
    """The cards showing as strips beside ``tops`` (the cards found on top) in regions of
    overlapping cards (contours), all in the same pixels."""
    tune = tuned(TUNING)
    if not tops:
        return []
    found: list[CoveredCard] = []
    tops_corners = np.stack([t.corners for t in tops]).astype(np.float32)
    centres, areas = tops_corners.mean(axis=1), np.array([t.area for t in tops])
    for contour in regions:
        x0, y0, bw, bh = cv2.boundingRect(contour)
        # Cheap first: a region with no card on top in its box, or no room beside it, has no strip.
        near = (centres >= (x0, y0)).all(axis=1) & (centres <= (x0 + bw, y0 + bh)).all(axis=1)
        if not near.any() or cv2.contourArea(contour) < (1 + tune.strip_area) * areas[near].max():
            continue
        origin = np.array([x0 - 1, y0 - 1], np.float32)
        region = np.zeros((bh + 2, bw + 2), np.uint8)
        cv2.drawContours(region, [contour - origin.astype(np.int32)], -1, 1, thickness=cv2.FILLED)
        inside = inside_fractions(region, tops_corners - origin)
        on_top = [i for i, f in enumerate(inside) if f > tune.holds]
        if not on_top:
            continue
        # One deck's cards are one size: a much smaller outline is a pip or a picture on a card.
        largest = max((tops[i] for i in on_top), key=lambda t: t.area)
        on_top = [i for i in on_top if tops[i].area >= tune.same_size * largest.area]
        rest = region.copy()
        for i in on_top:
            pts = np.round(tops[i].corners - origin).astype(np.int32)
            cv2.fillPoly(rest, [pts], 0)
            cv2.polylines(rest, [pts], True, 0, 3)  # the top card's outline may sit a pixel inside its edge
        rest = cv2.morphologyEx(rest, cv2.MORPH_OPEN, np.ones((5, 5), np.uint8))
        strips, _ = cv2.findContours(rest, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
        short, long = largest.short_side, float(np.linalg.norm(largest.corners[2] - largest.corners[1]))
        for strip in strips:
            if (
                cv2.contourArea(strip) < tune.strip_area * short * long
                or min(cv2.minAreaRect(strip)[1]) < tune.strip_min * short
            ):
                continue
            corners = lay_card(strip, region, short, long)
            if corners is None:
                continue
            shows = min(1.0, cv2.contourArea(strip) / (short * long))  # its fill: the share of it that shows
            quad = CardQuad(portrait_corners(corners + origin), shows)
            box = boxes([quad])[0]
            if found and (iou(box, boxes([c.quad for c in found])) > tune.same_strip).any():
                continue
            over = tuple(i for i in on_top if iou(box, boxes([tops[i]]))[0] > 0)
            if not over:
                continue  # nothing lies on it: not a covered card
            found.append(CoveredCard(quad, over, strip + origin.astype(np.int32)))
    return found


def lay_card(strip: np.ndarray, region: np.ndarray, short: float, long: float) -> np.ndarray | None:
    """The corners of a card ``short`` x ``long`` laid over a strip (a contour in ``region``'s
    pixels), or None when none fits. One of the strip's straight sides is a side of the card,
    the card lying towards the strip, from either end of that side. Of the cards that hold the
    strip and lie inside the region, the one that does both best with its outline along most of
    the strip's own edge (where the strip meets the table, not the cards on top)."""
    tune = tuned(TUNING)
    poly = cv2.approxPolyDP(strip, 0.02 * cv2.arcLength(strip, True), True).reshape(-1, 2).astype(np.float32)
    moments = cv2.moments(strip)
    if moments["m00"] <= 0:
        return None
    centre = np.array([moments["m10"], moments["m01"]], np.float32) / moments["m00"]
    tried = []
    for a, b in zip(poly, np.roll(poly, -1, axis=0), strict=True):
        length = float(np.linalg.norm(b - a))
        if length < 0.3 * short:
            continue
        u = (b - a) / length
        normal = np.array([-u[1], u[0]], np.float32)
        if (centre - a) @ normal < 0:
            normal = -normal
        for along, depth in ((short, long), (long, short)):
            if length > 1.1 * along:
                continue
            for start in (a, b - u * along):
                end = start + u * along
                tried.append(np.array([start, end, end + normal * depth, start + normal * depth], np.float32))
    if not tried:
        return None
    cards = np.stack(tried)
    in_region = np.array(inside_fractions(region, cards))
    shown = np.zeros_like(region)
    cv2.drawContours(shown, [strip], -1, 1, thickness=cv2.FILLED)
    total = max(1, int(shown.sum()))
    holds = np.zeros(len(cards))
    for i, corners in enumerate(cards):
        if in_region[i] < tune.within:
            continue
        laid = np.zeros_like(region)
        cv2.fillPoly(laid, [np.round(corners).astype(np.int32)], 1)
        holds[i] = int((laid & shown).sum()) / total
    points = strip.reshape(-1, 2)
    edge = points[cv2.erode(region, np.ones((5, 5), np.uint8))[points[:, 1], points[:, 0]] == 0].astype(np.float32)
    fits = np.zeros(len(cards))
    for i in np.flatnonzero(holds >= tune.holds):
        distances = [abs(cv2.pointPolygonTest(cards[i], (float(x), float(y)), True)) for x, y in edge[::2]]
        fits[i] = float(np.mean(np.array(distances) <= tune.edge_fit_px)) if distances else 0.0
    score = np.where((holds >= tune.holds) & (in_region >= tune.within), holds + in_region + fits, 0.0)
    best = int(np.argmax(score))
    return cards[best] if score[best] > 0 else None


def hide(card: np.ndarray, quad: CardQuad, over: tuple[CardQuad, ...]) -> np.ndarray | None:
    """A warped covered card with what lies under ``over`` painted the colour of its paper, or
    None when hardly any of it shows."""
    tune = tuned(TUNING)
    h, w = card.shape[:2]
    dst = np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], np.float32)
    m = cv2.getPerspectiveTransform(quad.corners.astype(np.float32), dst)
    hidden = np.zeros((h, w), np.uint8)
    margin = max(2, round(tune.hide_margin * w))
    for top in over:
        pts = cv2.perspectiveTransform(top.corners.reshape(-1, 1, 2).astype(np.float32), m)
        pts = np.round(pts).astype(np.int32)
        cv2.fillPoly(hidden, [pts], 255)
        cv2.polylines(hidden, [pts], True, 255, 2 * margin)
    shows = hidden == 0
    if shows.mean() < tune.strip_area:
        return None
    out = card.copy()
    out[~shows] = np.percentile(card[shows], 90, axis=0).astype(np.uint8)
    return out


def outline_shows(gray: np.ndarray, where: np.ndarray, top: np.ndarray) -> bool:
    """Whether the sides of a card that lay at ``where`` still show round ``top`` laid partly
    over it: ``still_edge`` of each side clear of ``top`` on average (``side_shares``). Asked
    with ``looks_the_same`` (a grained table's lines can pass this test alone: measured on
    limed wood, a card moved left 0.59 of its old sides on an edge, a twin laid on it 1.0)."""
    tune = tuned(TUNING)
    shares = side_shares(gray, where, top)
    return bool(shares) and float(np.mean(shares)) >= tune.still_edge


def side_shares(gray: np.ndarray, where: np.ndarray, top: np.ndarray) -> list[float] | None:
    """How surely a card that lay at ``where`` (4 x 2 corners, image pixels) still lies there,
    under ``top`` laid partly over it: for each side of it clear of ``top`` (``side_at_least``
    points), the share of its points where the grey frame shows an edge running along the side
    (a step across it, or a dark line: a card's side over another white card is often only a
    faint shadow). A card moved away leaves its old sides across whatever it lay on, and no edge
    runs along them. Each point's profile across the side is averaged along it (``along``), so a
    table's grain, crossing at random, does not count. Used where the card's index is hidden
    too (a card laid on its twin from a second deck): its sides are all that shows. None when
    too few points are clear to judge."""
    tune = tuned(TUNING)
    h, w = gray.shape
    corners = where.astype(np.float32)
    d, normal = side_vectors(corners)  # the normals point out of the card
    unit = d / np.maximum(np.linalg.norm(d, axis=1, keepdims=True), 1e-6)
    along = np.linspace(0.04, 0.96, tune.side_points, dtype=np.float32)[None, :, None]
    points = (corners[:, None, :] + along * d[:, None, :]).reshape(-1, 2)
    units, normals = np.repeat(unit, tune.side_points, axis=0), np.repeat(normal, tune.side_points, axis=0)
    reach = tune.across + tune.along + 1
    clear = np.array([cv2.pointPolygonTest(top.astype(np.float32), (float(x), float(y)), True) for x, y in points])
    clear = (clear < -tune.clear_of_top) & (points >= reach).all(axis=1) & (points[:, 0] < w - reach)
    clear &= points[:, 1] < h - reach
    if clear.sum() < tune.shows_at_least * len(points):
        return None
    sides = np.repeat(np.arange(4), tune.side_points)[clear]
    points, units, normals = points[clear], units[clear], normals[clear]
    j = np.arange(-tune.along, tune.along + 1, dtype=np.float32)[None, :, None, None]  # along the side
    k = np.arange(-tune.across, tune.across + 1, dtype=np.float32)[None, None, :, None]  # across it, outwards
    at = points[:, None, None, :] + j * units[:, None, None, :] + k * normals[:, None, None, :]
    n = len(points)
    maps = at.reshape(n * at.shape[1], at.shape[2], 2)
    sampled = cv2.remap(gray, maps[..., 0], maps[..., 1], cv2.INTER_LINEAR).astype(np.float32)
    profile = sampled.reshape(n, at.shape[1], at.shape[2]).mean(axis=1)  # n x (2 across + 1)
    inside, outside = profile[:, : tune.across - 1].mean(axis=1), profile[:, tune.across + 2 :].mean(axis=1)
    middle = profile[:, tune.across - 1 : tune.across + 2].min(axis=1)
    edge = (np.abs(inside - outside) > tune.step) | (np.minimum(inside, outside) - middle > tune.ridge)
    return [float(edge[sides == k].mean()) for k in range(4) if (sides == k).sum() >= tune.side_at_least]


Look = tuple[np.ndarray, tuple[int, int]]  # a patch of a frame, and where its top-left pixel lay


def card_look(image: np.ndarray, corners: np.ndarray) -> Look:
    """A copy of the frame round a card's outline (``look_reach`` past it, within the frame),
    and where its top-left corner lay: kept to tell later whether the card still lies there
    looking as it did (``looks_the_same``). Empty for an outline off the frame."""
    tune = tuned(TUNING)
    h, w = image.shape[:2]
    if not np.isfinite(corners).all():
        return image[:0, :0].copy(), (0, 0)
    reach = round(tune.look_reach * CardQuad(corners, 1.0).short_side)
    x0, y0 = np.clip(np.floor(corners.min(axis=0)).astype(int) - reach, 0, (w, h))
    x1, y1 = np.clip(np.ceil(corners.max(axis=0)).astype(int) + reach, (x0, y0), (w, h))
    return image[y0:y1, x0:x1].copy(), (int(x0), int(y0))


def looks_the_same(look: Look, image: np.ndarray, where: np.ndarray, top: np.ndarray, past: bool = True) -> bool:
    """Whether the card that lay at ``where`` still lies there under ``top``, a card laid partly
    over it since its ``look`` (``card_look``) was taken: what shows of its print is unchanged,
    and the frame did change where ``top`` reaches past it. A card pushed aside uncovers what lay
    under it: another card's white paper may look like its own, so only its print is compared
    (False when too little of it shows, ``min_ink``: a twin turned where it lay cannot be told
    from the card straightened). An outline only drawn otherwise round a card that stayed changes
    nothing anywhere (``min_new``; not asked without ``past``: ``top`` lies where a card of its
    code lay under the old one). The card on top's shadow is no change (``look_clear``)."""
    tune = tuned(TUNING)
    before, (x0, y0) = look
    bh, bw = before.shape[:2]
    now = image[y0 : y0 + bh, x0 : x0 + bw]
    if before.size == 0 or now.shape != before.shape or not (np.isfinite(top).all() and np.isfinite(where).all()):
        return False
    side, top_side = CardQuad(where, 1.0).short_side, CardQuad(top, 1.0).short_side
    if max(side, top_side) > sum(image.shape[:2]):  # no card of this frame
        return False
    if before.ndim == 3:
        before, now = cv2.cvtColor(before, cv2.COLOR_BGR2GRAY), cv2.cvtColor(now, cv2.COLOR_BGR2GRAY)
    changed = np.abs(now.astype(np.int16) - before) > tune.look_step
    card, over = _filled(where, (x0, y0), before.shape), _filled(top, (x0, y0), before.shape)
    clear = max(tune.clear_of_top, round(tune.look_clear * top_side))
    shadowed = cv2.dilate(over, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * clear + 1,) * 2)) > 0
    inside = max(2, round(tune.look_inside * side))  # an outline read may reach past the card
    shows = (cv2.erode(card, np.ones((2 * inside + 1,) * 2, np.uint8)) > 0) & ~shadowed
    if not shows.any():
        return False
    ink = shows & (before < np.percentile(before[shows], 90) - tune.ink_step)
    if ink.sum() < tune.min_ink or changed[ink].mean() > tune.same_look:
        return False
    if not past:
        return True
    new = (over > 0) & ~(cv2.dilate(card, np.ones((2 * tune.clear_of_top + 1,) * 2, np.uint8)) > 0)
    return bool(new.sum() >= tune.min_new * max(1, int(card.sum())) and changed[new].mean() > tune.same_look)


def _filled(corners: np.ndarray, origin: tuple[int, int], shape: tuple[int, ...]) -> np.ndarray:
    """A mask of a patch (``shape``, its top-left pixel at ``origin`` in the frame) filled inside
    an outline (frame pixels)."""
    mask = np.zeros(shape[:2], np.uint8)
    cv2.fillPoly(mask, [np.round(corners - origin).astype(np.int32)], 1)
    return mask

"""Cards lying partly under others: a trick played to the middle, a hand laid down in a fan.

Cards overlapping side by side make one region together. Once the cards on top of it are found,
what is left of the region is the strips of the cards under them. A strip wide enough to show
an index (``STRIP_MIN`` of a card's width) is the visible edge of a card of the same size as the
ones on top (one deck, one camera), so a whole card is laid over it: the strip inside it and
the card inside the region, the rest of it under the cards on top. The reader then reads it
from the index corner the strip shows, with what lies under the cards on top painted out
(``hide``), so that the top card's own index cannot be read as the covered card's.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.quads import CardQuad, boxes, inside_fractions, iou, portrait_corners

STRIP_MIN = 0.22  # a strip narrower than this share of a card's width cannot show a whole index
STRIP_AREA = 0.1  # nor one smaller than this share of a card
HOLDS = 0.85  # a card laid over a strip holds this much of the strip...
WITHIN = 0.93  # ... and lies this much inside the region (its hidden part under the cards on top)
SAME_STRIP = 0.6  # covered cards whose boxes overlap this much (over their union) are one (seen at two levels)
EDGE_FIT_PX = 4  # a point of the strip's own edge within this many pixels of a card's outline runs along it
SAME_SIZE = 0.6  # outlines on top smaller than this share of the largest are not cards (pips, pictures)
HIDE_MARGIN = 0.02  # of a warped card's width: the painted-out part reaches this far past the top card's outline


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
    if not tops:
        return []
    found: list[CoveredCard] = []
    tops_corners = np.stack([t.corners for t in tops]).astype(np.float32)
    centres, areas = tops_corners.mean(axis=1), np.array([t.area for t in tops])
    for contour in regions:
        x0, y0, bw, bh = cv2.boundingRect(contour)
        # Cheap first: a region with no card on top in its box, or no room beside it, has no strip.
        near = (centres >= (x0, y0)).all(axis=1) & (centres <= (x0 + bw, y0 + bh)).all(axis=1)
        if not near.any() or cv2.contourArea(contour) < (1 + STRIP_AREA) * areas[near].max():
            continue
        origin = np.array([x0 - 1, y0 - 1], np.float32)
        region = np.zeros((bh + 2, bw + 2), np.uint8)
        cv2.drawContours(region, [contour - origin.astype(np.int32)], -1, 1, thickness=cv2.FILLED)
        inside = inside_fractions(region, tops_corners - origin)
        on_top = [i for i, f in enumerate(inside) if f > HOLDS]
        if not on_top:
            continue
        # One deck's cards are one size: a much smaller outline is a pip or a picture on a card.
        largest = max((tops[i] for i in on_top), key=lambda t: t.area)
        on_top = [i for i in on_top if tops[i].area >= SAME_SIZE * largest.area]
        rest = region.copy()
        for i in on_top:
            pts = np.round(tops[i].corners - origin).astype(np.int32)
            cv2.fillPoly(rest, [pts], 0)
            cv2.polylines(rest, [pts], True, 0, 3)  # the top card's outline may sit a pixel inside its edge
        rest = cv2.morphologyEx(rest, cv2.MORPH_OPEN, np.ones((5, 5), np.uint8))
        strips, _ = cv2.findContours(rest, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
        short, long = largest.short_side, float(np.linalg.norm(largest.corners[2] - largest.corners[1]))
        for strip in strips:
            if cv2.contourArea(strip) < STRIP_AREA * short * long or min(cv2.minAreaRect(strip)[1]) < STRIP_MIN * short:
                continue
            corners = lay_card(strip, region, short, long)
            if corners is None:
                continue
            shows = min(1.0, cv2.contourArea(strip) / (short * long))  # its fill: the share of it that shows
            quad = CardQuad(portrait_corners(corners + origin), shows)
            box = boxes([quad])[0]
            if found and (iou(box, boxes([c.quad for c in found])) > SAME_STRIP).any():
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
        if in_region[i] < WITHIN:
            continue
        laid = np.zeros_like(region)
        cv2.fillPoly(laid, [np.round(corners).astype(np.int32)], 1)
        holds[i] = int((laid & shown).sum()) / total
    points = strip.reshape(-1, 2)
    edge = points[cv2.erode(region, np.ones((5, 5), np.uint8))[points[:, 1], points[:, 0]] == 0].astype(np.float32)
    fits = np.zeros(len(cards))
    for i in np.flatnonzero(holds >= HOLDS):
        distances = [abs(cv2.pointPolygonTest(cards[i], (float(x), float(y)), True)) for x, y in edge[::2]]
        fits[i] = float(np.mean(np.array(distances) <= EDGE_FIT_PX)) if distances else 0.0
    score = np.where((holds >= HOLDS) & (in_region >= WITHIN), holds + in_region + fits, 0.0)
    best = int(np.argmax(score))
    return cards[best] if score[best] > 0 else None


def hide(card: np.ndarray, quad: CardQuad, over: tuple[CardQuad, ...]) -> np.ndarray | None:
    """A warped covered card with what lies under ``over`` painted the colour of its paper, or
    None when hardly any of it shows."""
    h, w = card.shape[:2]
    dst = np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], np.float32)
    m = cv2.getPerspectiveTransform(quad.corners.astype(np.float32), dst)
    hidden = np.zeros((h, w), np.uint8)
    margin = max(2, round(HIDE_MARGIN * w))
    for top in over:
        pts = cv2.perspectiveTransform(top.corners.reshape(-1, 1, 2).astype(np.float32), m)
        pts = np.round(pts).astype(np.int32)
        cv2.fillPoly(hidden, [pts], 255)
        cv2.polylines(hidden, [pts], True, 255, 2 * margin)
    shows = hidden == 0
    if shows.mean() < STRIP_AREA:
        return None
    out = card.copy()
    out[~shows] = np.percentile(card[shows], 90, axis=0).astype(np.uint8)
    return out

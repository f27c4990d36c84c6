"""Frames to cards: find every card, warp it upright, read it. What ``cardtable vision identify``
prints and what the tracker consumes."""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property

import cv2
import numpy as np

from vision.covered import hide
from vision.deck import Deck, builtin_deck
from vision.detect import (
    CARD_H,
    CARD_W,
    FACE_SUPPORT,
    CardQuad,
    FoundCard,
    box_overlap,
    face_beliefs,
    find_card_outlines,
    map_cell,
    overlaps,
    ragged,
    refine_quads,
    warp_card,
    warp_source,
    working_image,
)
from vision.fans import fan_tops, line_map
from vision.indices import FIT_SCALES, Sighting, find_indices, fit_box, fitted, outlines_in
from vision.middle import BLOCKED
from vision.quads import boxes, edge_supports, iou
from vision.reader import BACK, DISAGREE, FACE_SCALE, UNSURE, Reading, Warped, corner_box, corners_reading, read_cards

MIN_SHORT_SIDE = 40  # pixels: a card narrower than this has an index too small to read (and is rarely a card)
ROW_LEAST = 1.3  # a row of cards is this much bigger than the frame's cards read for sure, at least
SAME_PLACE = 0.65  # a rival overlapping an outline this much (their boxes, over the union) is of the same card
WHOLE = 0.6  # an outline this much an edge in the picture on every side is a card lying whole
REFINE_REACH = 0.12  # of its short side: an outline inferred from an index is moved this far at most to the edges
SAME_CARD = 0.5  # two index sightings whose outlines' boxes overlap this much (over their union) are one card
NAMED_OVERLAP = 0.8  # an index whose implied outline's box overlaps an unsure outline's this much may name it
# A card known by one index alone is taken (covered) when that index reads this surely.
# Measured: photographs 389 -> 441 of 527 right (with the rest of ``_by_index``), none wrong;
# rendered piles, fans and tables: covered cards read 95 -> 365, no card read that is not in the
# scene added (0.7 read more, and 6 cards not in the scene). With the court-trained corner
# networks, 0.9 -> 0.85: photographs 467 -> 470, covered cards read on the rendered sets +41 and
# +29 (the benchmark's seeds and +100), cards not in the scene 13 both (0.8: 15).
LONE_SURE = 0.85
# ... or this surely, where its outline reaches under a card read already (a fan's lower card,
# whose middle the card over it hides). A jack's J read as a 3, from both its corners alike at
# 0.73-0.79, is the commonest such misreading on the rendered decks: on a card lying clear of
# the others it stays a misreading, beside a card read it is rarer. Measured from 0.85: the
# photographs 489 -> 493 of 527 right (three jacks and the queen a jack lay over), none wrong;
# rendered covered cards read right +34 and +34 (the benchmark's seeds and +100), wrong +4 and
# +5, cards not in the scene +3 (all covered: the tracker never takes a covered card); every
# card on top reads the same (0.7 anywhere: 13 more cards not in the scene). So is a card
# whose outline reaches out of the frame (photographs +1, the rendered sets the same).
LONE_BESIDE = 0.7
CORNER_SURE = 0.9  # an unsure outline's corner read this surely (rank and suit) shows the index of a card on top
# An unsure outline with lines across its middle needs a corner read this surely (``_grain``).
# Measured: outlines read unsure on no labelled card of the photographs 34 -> 17 (carpet, wood,
# a certificate, a whole frame), every photograph's verdict the same; rendered limed tables'
# 19 -> 17 on no card (seeds +11); two outlines drawn round two cards in hard shadow, or round a
# fan, that the benchmark counted for a card under them (unsure) are gone (not found).
GRAIN_CORNER = 0.5
FACING_ALIGNED = 0.996  # cosine: a facing pair's index corners lie along the diagonal each implies (5 degrees),
# ... and within 10 degrees, a card known by both its indices spans them (``_spanned``): one
# index's direction a few degrees off, the outline drawn from it alone misses the other index
# (IMG_2668's jack, 5.9 degrees), and the card under him is not known to lie under him.
# Measured: the photographs +1 (that ten), the enrolled deck +1, every rendered set the same,
# on seeds the benchmark does not use too. Taking the card's size from such a pair as well
# (FACING_ALIGNED at 7 degrees) made IMG_2601's fan 9% too big again.
SPAN_ALIGNED = 0.985
FACING_SIZES = (0.6, 1.6)  # ... as far apart as this share of it (an index's height implies a card 0.66-1.28 its size)
ON_CARD = 1.1  # a sighting's outline grown this much about its middle holds the card's other index
SHARED_MARK = 0.3  # of an index's rank-to-pip spacing: two sightings with marks this close share one
PART_SHOWN = 0.9  # an unsure outline smaller than this share of a card known by its index may be its part showing
CROSSING_VOTES, CROSSING_GAP = 0.24, 0.02  # of a face's width: a line across it (``_crossed``), and its gaps
LINE_TILE, LINE_MARGIN = 64, 16  # pixels: the line map is drawn a tile at a time, from a patch this much bigger
MOSTLY_OFF = 0.5  # of an index's implied outline: at most this much on a whole card, it is another card's
AGAINST = 0.01  # of a whole card's outline: another outline overlapping this much may be a card over it
NUDGE = 0.04  # an unsure card is read again through outlines grown, shrunk or moved this much of its sides

_WARPED = np.float32([[0, 0], [CARD_W - 1, 0], [CARD_W - 1, CARD_H - 1], [0, CARD_H - 1]])  # ``warp_card``'s corners

__all__ = ["Deck", "SeenCard", "builtin_deck", "colourless", "draw", "identify", "lies_over"]


@dataclass(frozen=True)
class SeenCard:
    code: str | None  # a card code, "back", or None when unsure
    confidence: float
    corners: np.ndarray  # 4 x 2 image pixels, clockwise, first side short
    covered: bool = False  # partly under other cards: never a pile's top card (its hidden part inferred)
    indices: tuple[tuple[float, float], ...] = ()  # a covered card known by its index: where they show (``lies_over``)

    @property
    def center(self) -> tuple[float, float]:
        c = self.corners.mean(axis=0)
        return float(c[0]), float(c[1])

    def to_json(self) -> dict[str, object]:
        return {
            "code": self.code,
            "confidence": round(self.confidence, 3),
            "corners": [[round(float(x), 1), round(float(y), 1)] for x, y in self.corners],
            "covered": self.covered,
        }


def border_contrast(image: np.ndarray, quad: CardQuad) -> float:
    """How different a band just inside the outline is from a band just outside (Lab distance):
    high for a real card lying on a table, low for a patch of table that only looked card-shaped."""
    center = quad.corners.mean(axis=0)
    inner = (center + (quad.corners - center) * 0.9).astype(np.int32)
    outer = (center + (quad.corners - center) * 1.12).astype(np.int32)
    h, w = image.shape[:2]
    band_in = np.zeros((h, w), np.uint8)
    cv2.fillPoly(band_in, [quad.corners.astype(np.int32)], 255)
    cv2.fillPoly(band_in, [inner], 0)
    band_out = np.zeros((h, w), np.uint8)
    cv2.fillPoly(band_out, [outer], 255)
    cv2.fillPoly(band_out, [quad.corners.astype(np.int32)], 0)
    if not band_in.any() or not band_out.any():
        return 0.0
    lab = cv2.cvtColor(image, cv2.COLOR_BGR2LAB).astype(np.float32)
    a = lab[band_in > 0].mean(axis=0)
    b = lab[band_out > 0].mean(axis=0)
    return float(np.linalg.norm(a - b))


def whole(quad: CardQuad) -> bool:
    """Whether the picture shows every side of an outline as an edge: a card lying whole, not an
    outline reaching under another card. The reader then trusts one index corner with a picture
    in the middle (the other under glare, a thumb, a blur)."""
    return quad.edges >= WHOLE


def identify(image: np.ndarray, deck: Deck | None = None, threshold: float = UNSURE) -> list[SeenCard]:
    """Every card in a BGR frame: read, unsure (code None), or face down ("back"); then the
    cards showing beside others that lie over them (``covered``), read from their one index.
    An empty frame (a camera that returned no pixels) shows no card. In a frame with no colour
    (``colourless``) every face-up card is unsure: red suits cannot be told from black."""
    if image.size == 0:
        return []
    cards = _identify(image, deck, threshold)
    if colourless(image):
        return [replace(c, code=None, confidence=0.0) if c.code not in (None, BACK) else c for c in cards]
    return cards


def colourless(image: np.ndarray) -> bool:
    """Whether a frame has no colour: grey, or its three channels equal (a monochrome or infrared
    camera, a picture saved grey), judged on every eighth pixel each way. The corner networks
    tell red suits from black by colour first: in grey they read hearts as clubs, surely."""
    if image.ndim == 2 or image.shape[2] == 1:
        return True
    sample = image[::8, ::8]
    return bool(np.array_equal(sample[..., 0], sample[..., 1]) and np.array_equal(sample[..., 1], sample[..., 2]))


def _identify(image: np.ndarray, deck: Deck | None, threshold: float) -> list[SeenCard]:
    """``identify``, suits read from colour as the frame shows it."""
    outlines = [f for f in find_card_outlines(image) if f.quad.short_side >= MIN_SHORT_SIDE]
    found = [f for f in outlines if not f.over]
    quads = [f.quad for f in found]
    reader = _Reader(warp_source(image), deck, threshold)
    cards, readings = reader.read(quads)
    first = [r.code for r in readings]
    _second_looks(reader, found, quads, cards, readings)
    for n, (quad, card, reading) in enumerate(zip(quads, cards, readings, strict=True)):
        if reading.code not in (None, BACK) and not whole(quad) and _crossed(card):
            readings[n] = _doubted(reading)
    # A card read for sure and then doubted (it may be a lower card of a pile, read through an
    # outline reaching under the top one) stays unsure: nothing reads it again.
    doubted = {
        n
        for n, (code, r) in enumerate(zip(first, readings, strict=True))
        if code not in (None, BACK) and r.code is None
    }
    _nudged_looks(reader, quads, cards, readings, doubted)
    _rows(image, reader, quads, cards, readings)
    # One deck's cards are one size (an overhead camera changes that little): an outline far
    # smaller than a card read for sure is a pip, a box or a scrap of paper, whatever it reads as.
    sure = [q for q, r in zip(quads, readings, strict=True) if r.code not in (None, BACK)]
    smallest = 0.3 * max((q.area for q in sure), default=0.0)
    edges = _Edges(image)
    read_boxes = boxes(sure)
    out, shown, held = [], [], []
    shows: dict[int, set[str]] = {}  # what each unsure outline's corners read surely (by id of its card)
    loose: dict[int, bool] = {}  # cards read for sure on one corner (by id): whether their outline lies whole
    lying_whole: dict[int, str | None] = {}  # the unsure outlines lying whole: their middle's count (by id)
    for n, (quad, reading) in enumerate(zip(quads, readings, strict=True)):
        unreadable = reading.corners == (None, None)  # no index in either corner: a back, or no card
        if unreadable and (reading.code != BACK or ragged(quad) or border_contrast(image, quad) < 30):
            continue
        if reading.code is None and _grain(cards[n], reading):
            continue
        if quad.area < smallest:
            continue
        top = _top_by_corner(image, edges, reader, quad, reading) if reading.code is None and n not in doubted else None
        if top is not None and not np.any(iou(_spans([top])[0], read_boxes) >= SAME_CARD):  # not one read already
            out.append(top)
            shown.append(CardQuad(top.corners, quad.fill))
            read_boxes = np.vstack([read_boxes, _spans([top])])
            continue
        out.append(SeenCard(reading.code, reading.confidence, quad.corners))
        if reading.code is not None:
            shown.append(quad)
            if reading.code != BACK and len(corners_reading(reading.code, reading.corners)) < 2:
                lies_whole = whole(quad)
                if not lies_whole or _lies_against(quad, [f.quad for f in outlines if f.quad is not quad]):
                    loose[id(out[-1])] = lies_whole
        else:
            shows[id(out[-1])] = {code for _, code in _sure_corners(reading)}
            if whole(quad) and n not in doubted:
                lying_whole[id(out[-1])] = cards[n].middle[0]
        if n in doubted:
            held.append(out[-1])
    # A card is seen under others only when those were read: an outline that was no card, or
    # one cut wrongly across two cards (so unsure), may leave a strip showing the top card's index.
    covered = [f for f in outlines if f.over and all(any(o is q for q in shown) for o in f.over)]
    seen = out + reader.read_covered(covered)
    return _by_index(image, edges, reader, seen, held, shows, lying_whole, loose)


class _Edges:
    """A frame's grey picture and its line map (``fans.line_map``), each made when first asked
    (most frames never ask): where cards found by an index are fitted to the picture's edges.

    The line map is drawn only where asked (``lines_over``), a ``LINE_TILE`` square at a time,
    each from a patch ``LINE_MARGIN`` bigger all round: the map's filters reach two pixels. Canny's
    hysteresis follows a faint line from a strong one, which the patch may not hold: such a line
    is missed (0.3% of a rendered table's pixels; every photograph and rendered scene reads the
    same). On a sandy carpet the whole 1280 x 720 frame's map took 8 ms (its Canny, 7), and a card
    found by its index asks for a fifth of it."""

    def __init__(self, image: np.ndarray) -> None:
        self._image = image
        self._lines: np.ndarray | None = None
        self._drawn = np.zeros((0, 0), bool)  # which tiles of the line map are drawn

    @cached_property
    def gray(self) -> np.ndarray:
        return cv2.cvtColor(self._image, cv2.COLOR_BGR2GRAY) if self._image.ndim == 3 else self._image

    def lines_over(self, boxes: list[np.ndarray]) -> np.ndarray:
        """The line map (the frame's size), drawn at least over the boxes (x0, y0, x1, y1, image
        pixels); elsewhere it may be empty."""
        gray, tile = self.gray, LINE_TILE
        h, w = gray.shape
        if self._lines is None:
            self._lines = np.zeros_like(gray)
            self._drawn = np.zeros((-(-h // tile), -(-w // tile)), bool)
        rows, cols = self._drawn.shape
        for box in boxes:
            x0, y0 = (max(0, int(v) // tile) for v in box[:2])
            x1, y1 = min(cols - 1, int(box[2]) // tile), min(rows - 1, int(box[3]) // tile)
            if x1 < x0 or y1 < y0 or self._drawn[y0 : y1 + 1, x0 : x1 + 1].all():
                continue
            top, left, bottom, right = y0 * tile, x0 * tile, min(h, (y1 + 1) * tile), min(w, (x1 + 1) * tile)
            py, px = max(0, top - LINE_MARGIN), max(0, left - LINE_MARGIN)
            patch = line_map(gray[py : min(h, bottom + LINE_MARGIN), px : min(w, right + LINE_MARGIN)])
            fresh = np.repeat(np.repeat(~self._drawn[y0 : y1 + 1, x0 : x1 + 1], tile, 0), tile, 1)
            fresh = fresh[: bottom - top, : right - left]
            self._lines[top:bottom, left:right][fresh] = patch[top - py : bottom - py, left - px : right - px][fresh]
            self._drawn[y0 : y1 + 1, x0 : x1 + 1] = True
        return self._lines


@dataclass(frozen=True)
class _Reader:
    """How a frame's outlines are read: warped from the frame's ``detect.warp_source`` copy, and
    read with one deck at one threshold (one network pass a batch)."""

    source: np.ndarray
    deck: Deck | None
    threshold: float

    def read(
        self, quads: list[CardQuad], vouch: bool = True, looks: list[list[np.ndarray]] | None = None
    ) -> tuple[list[Warped], list[Reading]]:
        """The outlines' warps and readings; with ``vouch``, an outline that is ``whole`` vouches
        for its card (see ``reader.read_cards``, which also says what ``looks`` are)."""
        warps = [self.warp(quad) for quad in quads]
        return warps, self.read_warps(warps, quads, vouch, looks)

    def warp(self, quad: CardQuad) -> Warped:
        """An outline's card as the reader asks it: the face warped at ``FACE_SCALE``, the
        index corners at full size (``warp_corners``)."""
        corners = warp_corners(self.source, quad)
        return Warped(warp_card(self.source, quad, scale=FACE_SCALE), (corners[0], corners[1]))

    def read_warps(
        self,
        warps: list[Warped],
        quads: list[CardQuad],
        vouch: bool = True,
        looks: list[list[np.ndarray]] | None = None,
    ) -> list[Reading]:
        """``read``, of the outlines' warps made already."""
        vouched = [whole(q) for q in quads] if vouch else None
        return read_cards(warps, self.deck, self.threshold, vouched, looks=looks)

    def read_covered(self, found: list[FoundCard]) -> list[SeenCard]:
        """Cards partly under others, read with what lies under the cards on top painted out;
        those showing no index are left out."""
        shown = [(f.quad, hide(warp_card(self.source, f.quad), f.quad, f.over)) for f in found]
        shown = [(quad, card) for quad, card in shown if card is not None]
        cards = [Warped.of(card) for _, card in shown]
        readings = read_cards(cards, self.deck, self.threshold, covered=True) if shown else []
        return [
            SeenCard(r.code, r.confidence, quad.corners, covered=True)
            for (quad, _), r in zip(shown, readings, strict=True)
            if r.corners != (None, None)
        ]


def _grain(card: Warped, reading: Reading) -> bool:
    """Whether an unsure outline is a patch of table, not a card: lines run across its middle and
    off it (``middle.BLOCKED``: wood grain, a carpet's stripes, a page's print) and neither corner
    reads an index even ``GRAIN_CORNER`` surely. A card a cable or a shadow lies across still
    shows an index in a corner."""
    weak = all(c is None or min(c.rank_confidence, c.suit_confidence) < GRAIN_CORNER for c in reading.corners)
    return weak and card.middle[0] == BLOCKED


def _sure_corners(reading: Reading) -> list[tuple[int, str]]:
    """The corners (0 top-left, 1 bottom-right) of an outline that read an index at
    ``CORNER_SURE`` or more (rank and suit), with the code each reads."""
    return [
        (which, c.rank + c.suit)
        for which, c in enumerate(reading.corners)
        if c is not None and c.suit and min(c.rank_confidence, c.suit_confidence) >= CORNER_SURE
    ]


def _by_index(
    image: np.ndarray,
    edges: _Edges,
    reader: _Reader,
    seen: list[SeenCard],
    held: list[SeenCard],
    shows: dict[int, set[str]],
    lying_whole: dict[int, str | None],
    loose: dict[int, bool],
) -> list[SeenCard]:
    """``seen`` with the cards no outline read, found by an index read for sure (``vision.indices``)
    outside the cards read already, their outlines sized like the frame's cards (``_sized``).

    A card showing both its indices is one card (its two sightings' outlines overlap): if they
    read differently, neither is taken, unless one reading is confirmed by another index reading
    alike and the other is not (a card lying over another whose index, close by, implies much
    the same outline). One lying clear of every other card read is read like any
    card (both corners and the middle) on the outline it implies, moved to the edges nearby, and
    taken when that reading agrees. One with another card across it has no middle to read: it is
    taken (``covered``) when both its indices show and agree. A card known by one index alone,
    read at ``LONE_SURE`` or more (``LONE_BESIDE`` reaching under a card read; another card lies
    across it, or its own outline reads unsure: it reaches under something), is taken, covered,
    where the card segmenter sees a card's face
    (``detect.face_beliefs``): a printed page can show marks like an index, beside a paper edge;
    or where its other index faces it from the opposite corner, read alike (``Sighting.facing``):
    no page's marks do that (the segmenter misses some court cards' faces on a pale table).
    So is one whose outline reads unsure though both its indices read alike. But a card about
    to be taken so whose outline, scaled to the picture's edges, is an edge all round and reads
    alike lies whole, on top (``_whole_tops``): a pile's top card, the finder's outline drawn
    round the whole pile. Measured on the rendered piles: top cards read 157 -> 182 of 200.

    An unsure outline where a card is so taken was that card, drawn wrong (half of it and the
    table, or reaching under a neighbour): it is left out. So is one lying on such a card one of
    whose corners reads that card surely (``shows``: what each unsure outline's corners read, by
    the id of its card): the part of it showing past a cloth or a book over the rest (see
    ``_part_shown``). The cards ``held`` unsure (in ``seen``: read, then doubted as a lower card
    of a pile) count as read: they are not read again through an index, and give way only to a
    card known by both its indices, read alike: the outline held was that card's, lying under
    something (measured: IMG_2578's queen, under a binder). The ``loose`` cards (by id: read on
    one corner; whether their outline lies whole) are searched too, and doubted where an index
    on them reads otherwise (``_contradicted``)."""
    skip = np.zeros(image.shape[:2], np.uint8)
    for card in seen:
        if card.code is not None and id(card) not in loose:
            cv2.fillPoly(skip, [np.round(card.corners).astype(np.int32)], 1)
    sightings = [s for s in find_indices(image, reader.deck or builtin_deck(), reader.threshold, skip) if s.code]
    if loose:
        seen, sightings = _contradicted(seen, loose, sightings)
    if not sightings:
        return seen
    # Which sightings are one card, and which lie near others, is judged on the outlines their
    # indices imply; the cards taken are given the outlines sized like the frame's cards.
    sized = _sized(sightings, seen)
    seen, named = _named_by_index(seen, sightings, sized, lying_whole)
    if named:
        keep = [n for n in range(len(sightings)) if n not in named]
        if not keep:
            return seen
        sightings, sized = [sightings[n] for n in keep], [sized[n] for n in keep]
    spans = boxes([CardQuad(s.corners, 1.0) for s in sightings])
    others = _spans([c for c in seen if c.code is not None] + held)
    agreed, clear_at, lone_at, confirmed = _sort_sightings(sized, spans, others, image.shape)
    taken: list[tuple[SeenCard, float]] = []  # each card with the area of the outline its index implied
    read: set[int] = set()  # the sightings so taken, read through their outlines
    if clear_at:
        quads = [CardQuad(sized[n].corners, 1.0) for n in clear_at]
        quads = [refine_quads(edges.gray, [q], REFINE_REACH * q.short_side)[0] for q in quads]
        _, readings = reader.read(quads, vouch=False)  # one network pass for them all
        for n, quad, reading in zip(clear_at, quads, readings, strict=True):
            if reading.code == sightings[n].code:
                taken.append((SeenCard(reading.code, reading.confidence, quad.corners), _area(spans[n])))
                read.add(n)
            elif reading.code is None and (
                confirmed[n] or sightings[n].confidence >= _lone_least(spans[n], others, image.shape)
            ):
                # Its outline reads unsure (it reaches under something, its middle is hidden), but
                # its two indices read alike, or its one index surely.
                lone_at.append(n)
    # Any other card seen by an index (about to be taken as lying under others, or left out:
    # read less than surely, or read otherwise by the card's other index) may lie whole, on top
    # of others: a pile's top card, the finder's outline drawn round the whole pile.
    tops, explained = _whole_tops(edges, reader, sightings, [n for n in range(len(sightings)) if n not in read])
    taken += [(card, _area(spans[n])) for n, card in tops]
    # Both indices show and agree: the card is known, though another lies across it; where
    # they face each other, its outline spans them.
    for n in (n for n in agreed if n not in explained):
        facing = [m for m in range(len(sized)) if m != n and _facing(sized[n], sized[m], SPAN_ALIGNED) is not None]
        corners = _spanned(sized[n], sized[facing[0]]) if facing else sized[n].corners
        taken.append((SeenCard(sightings[n].code, sightings[n].confidence, corners, covered=True), _area(spans[n])))
    lone = [(sized[n], _area(spans[n])) for n in lone_at if n not in explained]  # known by their indices alone
    if lone:
        beliefs = face_beliefs(image, [CardQuad(s.corners, 1.0) for s, _ in lone])
        for (sighting, area), belief in zip(lone, beliefs, strict=True):
            if belief >= FACE_SUPPORT or sighting.facing:
                taken.append((SeenCard(sighting.code, sighting.confidence, sighting.corners, covered=True), area))
    out = [_shows_at(card, sightings) if card.covered else card for card in _one_each(taken)]
    if out:
        # Their parts in the frame: a card cut by the frame's edge is found by its outline as the
        # part showing, and by its index as the whole card, reaching out of the picture.
        places = _in_frame(_spans(out), image.shape)
        both = _spans([c for c in out if c.covered and len(c.indices) >= 2])  # known by both indices, alike

        def gives_way(card: SeenCard) -> bool:
            if any(card is h for h in held):  # only to a card known by both its indices
                return bool(np.any(iou(_spans([card])[0], both) >= SAME_CARD))
            return bool(
                np.any(iou(_in_frame(_spans([card]), image.shape)[0], places) >= SAME_CARD)
                or _part_shown(card, out, shows.get(id(card)))
            )

        seen = [c for c in seen if c.code is not None or not gives_way(c)]
    return seen + out


def _contradicted(
    seen: list[SeenCard], loose: dict[int, bool], sightings: list[Sighting]
) -> tuple[list[SeenCard], list[Sighting]]:
    """``seen`` with its ``loose`` cards (by id: read for sure on one corner; whether their
    outline lies whole) that an index read for sure on them contradicts (``_contradicts``) made
    unsure, and the sightings on no card still read (the index search skips the others; loose
    cards are searched).

    An outline drawn round a tight pile, not an edge all round, has a lower card's index beside
    the top card's in its corner, and the corner network may read the two as one glyph: a modern
    five of clubs over an eight read as a 6 at 0.98, its middle counting a lower card's pip too
    (6C at 0.92). The index search reads the five at its own place. A card lying whole, read on
    one corner, with another outline against it (``_lies_against``) may have its other corner
    under a card over it: a jumbo fan's king of hearts, whole but for his top side under a king
    of clubs whose index shows on him, was read as the top card at 0.97. Measured on the
    rendered piles: two wrong top cards of 400 gone (the benchmark's seeds and +100); fans: that
    wrong top card and a lower card read wrong now not found; every other set the same."""
    out = list(seen)
    for k, card in enumerate(seen):
        if id(card) in loose and any(_contradicts(s, card, loose[id(card)]) for s in sightings):
            out[k] = SeenCard(None, min(card.confidence, DISAGREE), card.corners)
    read = [c for c in out if c.code is not None]
    kept = [s for s in sightings if not any(_holds(c, s.rank_at) or _holds(c, s.pip_at) for c in read)]
    return out, kept


def _contradicts(sighting: Sighting, card: SeenCard, lies_whole: bool) -> bool:
    """Whether an index read for sure on a card read on one corner names another card: one whose
    outline, if the card's lies whole, lies mostly off it (``MOSTLY_OFF``: a card over it, not
    its own print read as another index, which implies a card lying on it)."""
    if sighting.code == card.code or not _holds(card, sighting.rank_at):
        return False
    if not lies_whole:
        return True
    implied = sighting.corners.astype(np.float32)
    shared, _ = cv2.intersectConvexConvex(implied, card.corners.astype(np.float32))
    return shared < MOSTLY_OFF * cv2.contourArea(implied)


def _lies_against(quad: CardQuad, others: list[CardQuad]) -> bool:
    """Whether another outline overlaps this one (``AGAINST`` of its area or more): a card lying
    apart has none, and the index search need not look inside it."""
    return any(cv2.intersectConvexConvex(quad.corners, o.corners)[0] >= AGAINST * quad.area for o in others)


def _shows_at(card: SeenCard, sightings: list[Sighting]) -> SeenCard:
    """A card known by its index, taken as lying under others, with where its indices show (its
    code's sightings on it): it lies over any card whose outline holds one (``lies_over``)."""
    at = tuple(s.rank_at for s in sightings if s.code == card.code and _holds(card, s.rank_at))
    return replace(card, indices=at)


def lies_over(card: SeenCard, other: SeenCard) -> bool:
    """Whether ``card`` lies over ``other`` where their outlines overlap: a card on top over every
    covered one but one whose index shows inside its outline, and a covered card over another
    whose outline holds an index it was known by (that index shows) while its own outline holds
    none of the other's. In a fan of cards each known by an index, the part of each that shows is
    its outline less the cards over it. An outline drawn round a whole pile, or round a game's
    box a card lies on, holds the index that card was known by: it hides none of that card."""
    if card.covered != other.covered:
        return not card.covered and not any(_holds(card, at) for at in other.indices)
    return any(_holds(other, at) for at in card.indices) and not any(_holds(card, at) for at in other.indices)


def _holds(card: SeenCard, point: tuple[float, float]) -> bool:
    """Whether a card's outline holds a point (image pixels), on its edge too."""
    return cv2.pointPolygonTest(card.corners.astype(np.float32), point, False) >= 0


def _named_by_index(
    seen: list[SeenCard], sightings: list[Sighting], sized: list[Sighting], lying_whole: dict[int, str | None]
) -> tuple[list[SeenCard], set[int]]:
    """``seen`` with the unsure outlines lying whole (``lying_whole``: by id, each one's middle
    count) that the index sightings name, and the sightings they explain (of that code, on it).
    An outline is named when every sighting whose index lies on it, its implied outline
    (``sized``) the outline's own (``NAMED_OVERLAP``), reads one code, and the middle confirms
    the rank: a picture for a court card, the pip count for a number. The corner networks, asked through the outline's
    fixed corners, can be torn where a court card prints its frame or a second index close
    beside the first (a jack read as a 3); the index search looks at the index itself, at
    several scales, and reads it (on the benchmark's eight-card frames, the jacks and kings
    so torn were left unsure or taken as lying under others, after 6 to 9 more reads)."""
    if not lying_whole:
        return seen, set()
    spans = boxes([CardQuad(s.corners, 1.0) for s in sized])
    out, named = list(seen), set()
    for k, card in enumerate(seen):
        if id(card) not in lying_whole:
            continue
        on = [
            n
            for n in np.nonzero(iou(_spans([card])[0], spans) >= NAMED_OVERLAP)[0]
            if _holds(card, sightings[n].rank_at)
        ]
        codes = {sightings[n].code for n in on}
        if len(codes) != 1:
            continue
        code = codes.pop()
        middle = lying_whole[id(card)]
        if middle != ("court" if code[:-1] in ("J", "Q", "K") else code[:-1]):
            continue
        out[k] = SeenCard(code, max(sightings[n].confidence for n in on), card.corners)
        # Every sighting of that code on it is explained: the small index beside a court picture too.
        named.update(n for n, s in enumerate(sightings) if s.code == code and _holds(card, s.rank_at))
    return out, named


def _part_shown(card: SeenCard, taken: list[SeenCard], reads: set[str] | None) -> bool:
    """Whether an unsure outline is the part showing of a card taken by its index: smaller than
    that card (``PART_SHOWN``), its middle on it, and one of its corners reads that card's code
    surely (``reads``). An outline drawn round a pile is bigger than any of its cards, and reads
    a lower card's index in a corner: it stays, unsure (its top card is shown again)."""
    area = CardQuad(card.corners, 1.0).area
    return bool(reads) and any(
        t.code in reads and area < PART_SHOWN * CardQuad(t.corners, 1.0).area and _holds(t, card.center) for t in taken
    )


def _whole_tops(
    edges: _Edges, reader: _Reader, sightings: list[Sighting], candidates: list[int]
) -> tuple[list[tuple[int, SeenCard]], set[int]]:
    """Of the ``candidates`` (sightings), those whose outline, scaled about the index to the
    picture's edges, is an edge all round and reads as the index does (``_fitted_cards``): they
    lie whole, on top. Returns them (by sighting) and every sighting they explain: those whose
    index lies on such a card (its other index, one read twice, or print of its own read as
    another index: a vintage jack's small index inside his picture's frame read as 3H, which,
    as a lower card, lay wholly under him)."""
    chosen = [sightings[n] for n in candidates]
    cards = _fitted_cards(edges, reader, [s.corners for s in chosen], [s.code for s in chosen])
    tops = [(n, card) for n, card in zip(candidates, cards, strict=True) if card is not None]
    explained = {m for _, card in tops for m, s in enumerate(sightings) if _holds(card, s.rank_at)}
    return tops, explained


def _top_by_corner(
    image: np.ndarray, edges: _Edges, reader: _Reader, quad: CardQuad, reading: Reading
) -> SeenCard | None:
    """The card on top of an unsure outline (drawn round a pile, or across its top card) one of
    whose corners reads an index at ``CORNER_SURE`` or more: found by that index in that corner
    (``indices.outlines_in``, which seeks no sides: on a table as pale as the cards they barely
    show) and taken where its outline, fitted to the edges, reads the same (``_fitted_cards``)."""
    sure = _sure_corners(reading)
    to_frame = cv2.getPerspectiveTransform(_WARPED, quad.corners.astype(np.float32))
    c = quad.corners
    for which, code in sure:
        top, bottom, left, right = corner_box(CARD_H, CARD_W, which)
        box = np.float32([[left, top], [right, top], [right, bottom], [left, bottom]])
        region = cv2.perspectiveTransform(box[None], to_frame)[0]
        down = c[3] - c[0] if which == 0 else c[1] - c[2]  # the card's down at that corner, upright
        outlines = outlines_in(image, region, down / max(float(np.linalg.norm(down)), 1e-6))
        found = [card for card in _fitted_cards(edges, reader, outlines, [code] * len(outlines)) if card is not None]
        if found:
            return found[0]
    return None


def _fitted_cards(
    edges: _Edges, reader: _Reader, outlines: list[np.ndarray], codes: list[str | None]
) -> list[SeenCard | None]:
    """For each outline implied by an index (image pixels, the index corner first), the card
    lying whole there: the outline scaled (and turned a little) to the picture's edges
    (``indices.fitted``, a few tries), moved onto them (``_snapped``) and read like any card
    (both corners and the middle), the first try that is an edge all round and reads as the
    index did (its code); else None. The tries are read in rounds, the first of every outline
    in one network pass, then the next of those not yet found: moving and reading a try costs
    as much as reading a card, and most cards are found at the first (on the benchmark's busy
    and limed tables, 311 tries read -> 201; the same cards found)."""
    lines = edges.lines_over([_fit_region(corners) for corners in outlines])
    fits = [fitted(edges.gray, corners, lines) for corners in outlines]
    out: list[SeenCard | None] = [None] * len(outlines)
    for round_ in range(max(map(len, fits), default=0)):
        tried = [(n, tries[round_]) for n, tries in enumerate(fits) if out[n] is None and round_ < len(tries)]
        if not tried:
            break
        quads = [_snapped(edges.gray, lines, CardQuad(fit, 1.0)) for _, fit in tried]
        _, readings = reader.read(quads, vouch=False)
        for (n, _), quad, r in zip(tried, quads, readings, strict=True):
            if r.code is not None and r.code == codes[n]:
                out[n] = SeenCard(r.code, r.confidence, quad.corners)
    return out


def _fit_region(corners: np.ndarray) -> np.ndarray:
    """The box (x0, y0, x1, y1) where the tries fitted to an index's outline (``fitted``) can lie,
    moved onto the edges (``_snapped``: twice its reach at most, of the biggest try's side)."""
    reach = 2 * REFINE_REACH * float(FIT_SCALES[-1]) * CardQuad(corners, 1.0).short_side + 2
    return fit_box(corners) + np.array([-reach, -reach, reach, reach])


def _snapped(gray: np.ndarray, lines: np.ndarray, quad: CardQuad) -> CardQuad:
    """An outline moved onto the picture's edges nearby (``detect.refine_quads``), unless that
    makes it less an edge all round (the line map, ``lines``, counted): an outline found on the
    edges already can be pulled onto a court card's frame or the card beneath."""
    moved = refine_quads(gray, [quad], REFINE_REACH * quad.short_side)[0]
    pair = np.stack([quad.corners, moved.corners]).astype(np.float32)
    before, after = edge_supports(gray, pair, lines)
    return moved if after >= before else quad


def _sort_sightings(
    sightings: list[Sighting], spans: np.ndarray, cards: np.ndarray, shape: tuple[int, ...]
) -> tuple[list[int], list[int], list[int], np.ndarray]:
    """Which sightings (by their outlines' boxes ``spans``; ``cards``: the boxes of the cards read
    already; ``shape``: the frame's) are cards whose two indices agree with another card across
    them, cards lying clear of everything, and cards known by one index read surely enough
    beside others (``_lone_least``: beside a card read, or known by both its indices). Of one
    card's two indices the first is kept; sightings of
    one card that disagree are left out (``_by_index`` says when one of them wins). Last, which
    sightings are confirmed by another reading alike (the card's other index)."""
    same = (iou(spans, spans) >= SAME_CARD) & _on_each_other(sightings)
    np.fill_diagonal(same, False)
    codes = np.array([s.code for s in sightings])
    alike = same & (codes[:, None] == codes[None, :])
    confirmed = alike.any(axis=1)  # by the card's other index, reading alike
    others = np.concatenate([spans, cards])
    agreed, clear, lone = [], [], []
    for n, sighting in enumerate(sightings):
        twins = np.nonzero(same[n])[0]
        rivals = twins[~alike[n, twins]]
        if alike[n, :n].any():
            continue  # this card's other index, taken already
        if len(rivals) and (not confirmed[n] or confirmed[rivals].any()):
            continue  # two readings of one card that disagree, neither confirmed by the card's other index
        if not any(m != n and m not in twins for m in np.nonzero(iou(spans[n], others) > 0)[0]):
            clear.append(n)
        elif confirmed[n]:
            agreed.append(n)
        elif sighting.confidence >= _lone_least(spans[n], np.concatenate([cards, spans[confirmed & ~same[n]]]), shape):
            lone.append(n)  # beside a card read, or one known by both its indices, read alike
    return agreed, clear, lone, confirmed


def _lone_least(span: np.ndarray, cards: np.ndarray, shape: tuple[int, ...]) -> float:
    """How surely a card known by one index alone must read, its outline's box ``span``:
    ``LONE_BESIDE`` where its middle is hidden (the outline reaches under one of the ``cards``
    read, boxes, or out of a frame of ``shape``), else ``LONE_SURE``."""
    under = len(cards) > 0 and bool(np.any(iou(span, cards) > 0))
    out = bool(span[0] < 0 or span[1] < 0 or span[2] > shape[1] or span[3] > shape[0])
    return LONE_BESIDE if under or out else LONE_SURE


def _on_each_other(sightings: list[Sighting]) -> np.ndarray:
    """Which pairs of sightings could be one card: each one's index on the other's outline
    (grown by ``ON_CARD``), as a card's two indices are, or the two indices one (one index paired
    with two marks: they share its rank or its pip, ``SHARED_MARK``). A card half under another
    whose index shows beside it lies under much of that card's outline, but its index lies off
    it (else it would be hidden). Two cards fanned tight show their indices close together, each
    its own two marks (measured: a casino fan's two of hearts and ace of clubs, their ranks 0.23
    of a card's width apart, were taken for one index read two ways, and neither was taken)."""
    middles = [s.corners.mean(axis=0) for s in sightings]
    grown = [(m + (s.corners - m) * ON_CARD).astype(np.float32) for s, m in zip(sightings, middles, strict=True)]
    holds = np.array([[cv2.pointPolygonTest(g, o.rank_at, False) >= 0 for o in sightings] for g in grown])
    marks = np.array([[s.rank_at, s.pip_at] for s in sightings])  # N x 2 marks x (x, y)
    spacing = np.linalg.norm(marks[:, 0] - marks[:, 1], axis=1)
    apart = np.linalg.norm(marks[:, None, :, None] - marks[None, :, None, :], axis=-1).min(axis=(2, 3))
    shared = apart <= SHARED_MARK * np.minimum(spacing[:, None], spacing[None, :])
    return (holds & holds.T) | shared


def _sized(sightings: list[Sighting], seen: list[SeenCard]) -> list[Sighting]:
    """The sightings' outlines made the size of the cards read on the frame, and of the cards
    known by both their indices (``_facing_sides``), kept at the index corner: one deck's cards
    are one size, and an index's height gives a card's only roughly (decks print indices of many
    sizes; measured on rendered fans, 0.66 to 1.28 of the card)."""
    sides = [CardQuad(c.corners, 1.0).short_side for c in seen if c.code not in (None, BACK) and not c.covered]
    sides += _facing_sides(sightings)
    if not sides:
        return sightings
    side = float(np.median(sides))
    out = []
    for s in sightings:
        scale = side / max(CardQuad(s.corners, 1.0).short_side, 1.0)
        out.append(replace(s, corners=(s.corners[0] + (s.corners - s.corners[0]) * scale).astype(np.float32)))
    return out


def _facing_sides(sightings: list[Sighting]) -> list[float]:
    """The short sides of the cards known by both their indices, read alike (``Sighting.facing``):
    the two index corners are the card's opposite corners, so its diagonal is measured, and
    with it the card's size (the index's height gives it only roughly). Only where the line
    between them runs along the diagonal each index implies (``FACING_ALIGNED``): an index
    whose direction is a few degrees off places its corner off too (measured: IMG_2601's ten)."""
    sides = []
    for n, a in enumerate(sightings):
        for b in sightings[n + 1 :]:
            ratio = _facing(a, b)
            if ratio is not None:
                sides.append(CardQuad(a.corners, 1.0).short_side * ratio)
    return sides


def _facing(a: Sighting, b: Sighting, aligned: float = FACING_ALIGNED) -> float | None:
    """How far apart two sightings of one card's two indices are, over the diagonal ``a``
    implies, where they face each other along it (``aligned``: a cosine); else None."""
    if not (a.facing and b.facing and a.code == b.code):
        return None
    between = b.corners[0] - a.corners[0]
    length = float(np.linalg.norm(between))
    implied = [a.corners[2] - a.corners[0], b.corners[0] - b.corners[2]]
    ratio = length / max(float(np.linalg.norm(implied[0])), 1.0)
    along = all(float(np.dot(d, between)) >= aligned * length * float(np.linalg.norm(d)) for d in implied)
    return ratio if along and FACING_SIZES[0] <= ratio <= FACING_SIZES[1] else None


def _spanned(a: Sighting, b: Sighting) -> np.ndarray:
    """The outline of a card known by its two indices (``_facing``), spanning their corners:
    the card's opposite corners. Its proportions are ``a``'s outline's, and of the two such
    outlines through both corners, the one whose sides run nearer ``a``'s. An index's direction
    can be a few degrees off, and ``a``'s outline alone then misses the other index."""
    start, diagonal = a.corners[0], b.corners[0] - a.corners[0]
    across, down = a.corners[1] - start, a.corners[3] - start
    tall = float(np.linalg.norm(down)) / max(float(np.linalg.norm(across)), 1.0)
    length = float(np.linalg.norm(diagonal))
    width = length / float(np.hypot(1.0, tall))
    turn = float(np.arctan2(1.0, tall))  # the angle between the diagonal and the card's long sides
    unit = diagonal / max(length, 1e-6)
    downs = [np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]]) @ unit for t in (turn, -turn)]
    along = max(downs, key=lambda u: float(np.dot(u, down)))  # the card's long sides' direction
    right = (diagonal - tall * width * along) / max(width, 1e-6)
    return np.float32([start, start + width * right, b.corners[0], start + tall * width * along])


def _one_each(taken: list[tuple[SeenCard, float]]) -> list[SeenCard]:
    """Cards found by their indices, one of each code where outlines of one code overlap: they
    are one card seen twice, by its two indices, or by an index and the small one some court
    cards print beside their picture. The card whose index implied the biggest outline (the
    true corner's: the small index implies a card inside the true one) is kept. ``taken``: each
    card with the area of the outline its index implied."""
    cards = [card for card, _ in taken]
    if len(cards) < 2:
        return cards
    spans = _spans(cards)
    kept: list[int] = []
    for n in np.argsort([-area for _, area in taken], kind="stable"):
        same = [k for k in kept if cards[k].code == cards[n].code]
        if not same or not np.any(iou(spans[n], spans[same]) > 0):
            kept.append(int(n))
    return [cards[n] for n in sorted(kept)]


def _area(box: np.ndarray) -> float:
    """A box's area (x0, y0, x1, y1)."""
    return float((box[2] - box[0]) * (box[3] - box[1]))


def _spans(cards: list[SeenCard]) -> np.ndarray:
    """The cards' boxes (N x 4: x0, y0, x1, y1)."""
    return boxes([CardQuad(c.corners, 1.0) for c in cards])


def _in_frame(spans: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """Boxes (N x 4: x0, y0, x1, y1) cut to a frame of ``shape``."""
    h, w = shape[:2]
    return np.clip(spans, 0, [w, h, w, h]).astype(spans.dtype)


def _small_gray(image: np.ndarray) -> tuple[np.ndarray, float]:
    """The frame in grey at the finder's working size (``detect.working_image``), and its scale."""
    small, scale = working_image(image)
    if small.ndim == 3:
        small = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    return cv2.GaussianBlur(small, (3, 3), 0), scale


def _rows(
    image: np.ndarray, reader: _Reader, quads: list[CardQuad], cards: list[Warped], readings: list[Reading]
) -> None:
    """Outlines read as no card that are rows of cards side by side (``vision.fans``): each takes
    its top card, when one read for sure lies at one of its ends; ``quads``, ``cards`` and
    ``readings`` are updated in place. The cards under it are not sought: where one strip shows
    past the top card, the rendered fans read 10 more of them but 2 wrong (a card laid over the
    strips of two read one's index for the other's), and a guard against that (no straight line
    across the strip) left none, a court card's frame being such a line.

    One deck's cards are one size: where cards of the frame were read for sure, an outline not
    clearly bigger than they are (``ROW_LEAST``) is one card, read unsure, and is not searched
    (on rendered tables of eight cards, most of the search's cost). Unsure outlines are looked
    at through nudged outlines first (``_nudged_looks``): one read so is one card, not a row (a
    lone card on a frame with none read for sure was searched, 20 ms, before being read so)."""
    sure = [q.area for q, r in zip(quads, readings, strict=True) if r.code not in (None, BACK)]
    least = ROW_LEAST * float(np.median(sure)) if sure else 0.0
    unsure = [n for n, r in enumerate(readings) if r.code is None and quads[n].area >= least]
    if not unsure:
        return
    gray, scale = _small_gray(image)
    lines = line_map(gray)
    reach = map_cell(gray.shape) / 2  # half the finder's: a card laid on edges found
    tries = []
    for n in unsure:
        row = CardQuad(quads[n].corners * scale, quads[n].fill)
        tries += [(n, CardQuad(top.corners / scale, top.fill, top.edges)) for top in fan_tops(gray, row, reach, lines)]
    if not tries:
        return
    warps, second = reader.read([top for _, top in tries], vouch=False)
    replaced: set[int] = set()
    for (n, top), warp, reading in zip(tries, warps, second, strict=True):
        if reading.code not in (None, BACK) and n not in replaced:
            replaced.add(n)
            quads[n], cards[n], readings[n] = top, warp, reading


def _nudged_looks(
    reader: _Reader, quads: list[CardQuad], cards: list[Warped], readings: list[Reading], doubted: set[int]
) -> None:
    """An unsure card whose corners show an index is read again, its corners' probabilities
    averaged over its own outline and six a little off it (``nudged``): an outline a few pixels
    off cuts an index's edge or lets the table into the corner, and the corner network reads it
    torn. Only the corners are warped through the nudged outlines (the middle does not move).
    A card ``doubted`` (read, then called into doubt as a lower card of a pile) is not.
    One network pass for the frame; ``cards`` are the outlines' warps; ``readings`` are updated
    in place."""
    todo = [n for n, r in enumerate(readings) if r.code is None and r.corners != (None, None) and n not in doubted]
    if not todo:
        return
    looks = [[c for moved in nudged(quads[n]) for c in warp_corners(reader.source, moved)] for n in todo]
    second = reader.read_warps([cards[n] for n in todo], [quads[n] for n in todo], looks=looks)
    for n, reading in zip(todo, second, strict=True):
        if reading.code not in (None, BACK):  # a face whose index showed is no back
            readings[n] = reading


def warp_corners(source: np.ndarray, quad: CardQuad) -> list[np.ndarray]:
    """``corner_image``'s two corners of the card ``warp_card`` would give, warped alone (a
    fifth of its pixels)."""
    corners = [warp_card(source, quad, corner_box(CARD_H, CARD_W, which)) for which in (0, 1)]
    return [corners[0], cv2.flip(corners[1], -1)]


def nudged(quad: CardQuad, step: float = NUDGE) -> list[CardQuad]:
    """Six outlines a little off a card's: grown and shrunk by ``step`` about its centre, and
    moved by ``step`` of its short side across it and of its long side along it, both ways."""
    corners = quad.corners
    centre = corners.mean(axis=0)
    across, along = corners[1] - corners[0], corners[3] - corners[0]
    moved = [centre + (corners - centre) * (1 + s) for s in (-step, step)]
    moved += [corners + side * s for side in (across, along) for s in (step, -step)]
    return [CardQuad(m.astype(np.float32), quad.fill, quad.edges) for m in moved]


def _crossed(card: Warped) -> bool:
    """Whether long straight edges cross a warped card's face aslant: another card lying on it
    (a card's own print runs along its sides)."""
    edges = cv2.Canny(cv2.cvtColor(card.face, cv2.COLOR_BGR2GRAY), 60, 150)
    w = card.face.shape[1]
    votes, gap = round(CROSSING_VOTES * w), max(1, round(CROSSING_GAP * w))
    lines = cv2.HoughLinesP(edges, 1, np.pi / 180, votes, minLineLength=w // 2, maxLineGap=gap)
    if lines is None:
        return False
    x1, y1, x2, y2 = lines.reshape(-1, 4).T
    slant = np.degrees(np.arctan2(np.abs(y2 - y1), np.abs(x2 - x1)))
    return int(np.sum((slant > 12) & (slant < 78))) >= 3


def _second_looks(
    reader: _Reader, found: list[FoundCard], quads: list[CardQuad], cards: list[Warped], readings: list[Reading]
) -> None:
    """Rival outlines are read (one batch for the frame) for two reasons.

    An unsure card takes the first rival of its place read for sure: even with both corners
    showing an index, an outline a few pixels off can make one misread. (Any rival will do when
    the outline showed no index at all: it was not of a card.) But a card lying whole whose two
    corners read one rank saw its indices clearly; what is left in doubt is the small pip under
    it (a blurred club or spade). A rival changing only that suit is one more look at them, and
    settles it only at ``CORNER_SURE`` (``_suit_only``; measured: a sunlit casino king of clubs,
    KS 0.54 / KC 0.62, took a rival reading KS at 0.80, and a queen of clubs, QC 0.60 / 0.67,
    one reading QS at 0.82; a webcam's jack of clubs, JS 0.90 / JC 0.66, takes one reading JC
    at 0.98). A rival reading another rank (a classic jack's indices read as 3s through his
    own outline) or what both corners read is taken as before.

    An unsure outline drawn round several cards lying together (a fan, a pile) takes the rivals
    lying inside it when they all read the same card: the top card's own outline.

    A card read for sure whose rival lies displaced from it may be one of two cards of a pile:
    the top card, and an outline reaching under it that shows a lower card's index. Should the
    rival read as another card, the card is left unsure: the referee asks to see it again rather
    than risk calling the lower card. An outline that is ``whole`` is no outline reaching under
    another card, so its rivals are not read (on rendered tables of eight cards, most of the
    reads this saves: the piles, fans and photographs read as before).

    ``quads``, ``cards`` (the warps) and ``readings`` are updated in place."""
    tries = [
        (n, rival)
        for n, (f, r) in enumerate(zip(found, readings, strict=True))
        if r.code != BACK
        for rival in f.rivals
        if (r.code is None or (box_overlap(quads[n], rival) < SAME_PLACE and not whole(quads[n])))
        # A rival lying over a neighbour could read that card a second time.
        and rival.short_side >= MIN_SHORT_SIDE
        and not overlaps(rival, quads[:n] + quads[n + 1 :])
    ]
    if not tries:
        return
    warps, second = reader.read([rival for _, rival in tries])
    sure: dict[int, list[tuple[CardQuad, np.ndarray, Reading]]] = {}
    for (n, rival), warp, reading in zip(tries, warps, second, strict=True):
        if reading.code not in (None, BACK):
            sure.setdefault(n, []).append((rival, warp, reading))
    for n, others in sure.items():
        first = readings[n]
        if first.code is not None:
            if any(reading.code != first.code for _, _, reading in others):
                readings[n] = _doubted(first)
            continue
        blind = first.corners == (None, None)
        close = [other for other in others if blind or box_overlap(quads[n], other[0]) >= SAME_PLACE]
        if whole(quads[n]):
            close = [other for other in close if not _suit_only(first, other[2])]
        if not close:
            # An outline drawn round several cards lying together (a fan) is unsure, and the top
            # card's own outline lies inside it: taken when every such outline reads the same.
            inside = [other for other in others if _within(other[0], quads[n])]
            if len({reading.code for _, _, reading in inside}) == 1:
                close = inside
        if close:
            quads[n], cards[n], readings[n] = close[0]


def _suit_only(first: Reading, rival: Reading) -> bool:
    """Whether a rival's reading, under ``CORNER_SURE``, changes only the suit of what a card's
    two corners read (one rank, in one suit or two)."""
    a, b = first.corners
    if a is None or b is None or a.rank != b.rank or rival.code is None or rival.confidence >= CORNER_SURE:
        return False
    return rival.code[:-1] == a.rank and not (a.suit == b.suit == rival.code[-1])


WITHIN_SIZE = 0.85  # an outline this much smaller than another, or less, is not of the same card(s)


def _within(small: CardQuad, big: CardQuad) -> bool:
    """Whether an outline lies inside a bigger one (its box, 90%): one card's inside the outline
    of several lying together. Boxes, not ``detect._part_of``'s corners: the top card's outline
    often reaches a little past a loose outline round the fan (measured: the corner test reads
    fewer fans and one photograph less)."""
    sb, bb = boxes([small])[0], boxes([big])[0]
    iw = max(0.0, min(sb[2], bb[2]) - max(sb[0], bb[0]))
    ih = max(0.0, min(sb[3], bb[3]) - max(sb[1], bb[1]))
    return small.area <= WITHIN_SIZE * big.area and iw * ih >= 0.9 * (sb[2] - sb[0]) * (sb[3] - sb[1])


def _doubted(reading: Reading) -> Reading:
    """A reading called into doubt by other evidence: unsure, whatever its corners said."""
    return Reading(None, min(reading.confidence, UNSURE / 2), reading.corners)


def draw(image: np.ndarray, cards: list[SeenCard]) -> np.ndarray:
    """The frame with each card outlined and labelled: green read, orange unsure, grey back."""
    out = image.copy()
    for card in cards:
        colour = (128, 128, 128) if card.code == BACK else (0, 160, 255) if card.code is None else (0, 200, 0)
        pts = card.corners.astype(np.int32)
        cv2.polylines(out, [pts], True, colour, 2, cv2.LINE_AA)
        label = f"{card.code or '?'} {card.confidence:.2f}"
        x, y = pts[:, 0].min(), pts[:, 1].min()
        cv2.putText(out, label, (int(x), max(12, int(y) - 4)), cv2.FONT_HERSHEY_SIMPLEX, 0.5, colour, 2, cv2.LINE_AA)
    return out

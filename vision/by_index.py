"""Cards found by their index (``vision.indices``), where no outline read them: a card lying
under others, a card whose outline was drawn wrong, a pile's top card inside an outline drawn
round the pile. ``find_by_index`` is the last step of ``identify``, and its docstring says what
decides; each rule's number is a field of ``ByIndexTuning``, with what it was measured to do."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

import cv2
import numpy as np

from vision.candidates import Candidate, answers
from vision.deck import builtin_deck
from vision.detect import CARD_H, CARD_W, CardQuad, face_beliefs, refine_quads
from vision.detect import TUNING as DETECT_TUNING
from vision.indices import TUNING as INDICES_TUNING
from vision.indices import Sighting, find_indices, fit_box, fitted, outlines_in
from vision.outline_reader import Edges, OutlineReader
from vision.quads import boxes, edge_supports, iou
from vision.reader import BACK, Reading, corner_box
from vision.reader import TUNING as READER_TUNING
from vision.seen import SeenCard, holds
from vision.tuning import tuned


@dataclass(frozen=True)
class ByIndexTuning:
    """The tuned numbers of finding cards by their index, each with its unit and why it has its value
    (``vision.tuning``: a test or an experiment reads with others)."""

    # of its short side: an outline inferred from an index is moved this far at most to the edges
    refine_reach: float = 0.12
    # two index sightings whose outlines' boxes overlap this much (over their union) are one card
    same_card: float = 0.5
    # an index whose implied outline's box overlaps an unsure outline's this much may name it
    named_overlap: float = 0.8
    # A card known by one index alone is taken (covered) when that index reads this surely: a lower
    # card of a pile or a fan shows one index, and at 0.8 a patch of print beside a card reads as
    # one now and then.
    lone_sure: float = 0.85
    # ... or this surely, where its outline reaches under a card read already (a fan's lower card,
    # whose middle the card over it hides). A jack's J read as a 3 from both corners at 0.73-0.79 is
    # the commonest misreading of a card lying clear of the others; beside a card read it is rare.
    # So is a card whose outline reaches out of the frame.
    lone_beside: float = 0.7
    # A fan's lower card known by one index lies beside others known so: beside one taken (read at
    # lone_sure, or lone_beside beside a card read), lone_beside is its too, where the segmenter
    # believes its face more likely than not (no card read vouches for the place). Lower, a card's
    # print beside a card lying on it (a certificate's red letters) reads as a five of hearts.
    relayed_face: float = 0.5
    # an unsure outline's corner read this surely (rank and suit) shows the index of a card on top
    corner_sure: float = 0.9
    # ... sought there (``top_by_corner``) where read this surely: the card found must read alike
    top_corner: float = 0.8
    # cosine: a facing pair's index corners lie along the diagonal each implies (5 degrees),
    facing_aligned: float = 0.996
    # ... and within 10 degrees, a card known by both its indices spans them (``spanned``): one
    # index's direction a few degrees off (6 degrees, a jack's), the outline drawn from it alone
    # misses the other index, and the card under him is not known to lie under him. The card's size
    # is taken from the pair only within facing_aligned: at 7 degrees a fan's card came out a tenth
    # too big.
    span_aligned: float = 0.985
    # ... as far apart as this share of it (an index's height implies a card 0.66-1.28 its size)
    facing_sizes: tuple[float, float] = (0.6, 1.6)
    on_card: float = 1.1  # a sighting's outline grown this much about its middle holds the card's other index
    shared_mark: float = 0.3  # of an index's rank-to-pip spacing: two sightings with marks this close share one
    # an unsure outline smaller than this share of a card known by its index may be its part showing
    part_shown: float = 0.9
    mostly_off: float = 0.5  # of an index's implied outline: at most this much on a whole card, it is another card's
    # of a covered card's short side: a sighting's corner this near its index corner is its own
    own_corner: float = 0.25
    twin_off: float = 0.1  # of a card's short side: a same-code card's index this far off it is its twin's (two decks)
    against: float = 0.01  # of a whole card's outline: another outline overlapping this much may be a card over it


TUNING = ByIndexTuning()


WARPED = np.float32([[0, 0], [CARD_W - 1, 0], [CARD_W - 1, CARD_H - 1], [0, CARD_H - 1]])  # ``warp_card``'s corners


def sure_corners(reading: Reading, least: float | None = None) -> list[tuple[int, str]]:
    """The corners (0 top-left, 1 bottom-right) of an outline that read an index at ``least``
    or more (rank and suit; by default ``corner_sure``), with the code each reads."""
    least = tuned(TUNING).corner_sure if least is None else least
    return [
        (which, c.rank + c.suit)
        for which, c in enumerate(reading.corners)
        if c is not None and c.suit and min(c.rank_confidence, c.suit_confidence) >= least
    ]


def find_by_index(image: np.ndarray, edges: Edges, reader: OutlineReader, found: list[Candidate]) -> list[Candidate]:
    """The cards ``found`` so far with the cards no outline read, found by an index read for sure
    (``vision.indices``) outside the cards read already, their outlines sized like the frame's
    cards (``sized_alike``).

    A card showing both its indices is one card (its two sightings' outlines overlap): if they
    read differently, neither is taken, unless one reading is confirmed by another index reading
    alike and the other is not (a card lying over another whose index, close by, implies much
    the same outline). One lying clear of every other card read is read like any
    card (both corners and the middle) on the outline it implies, moved to the edges nearby, and
    taken when that reading agrees. One with another card across it has no middle to read: it is
    taken (``covered``) when both its indices show and agree. A card known by one index alone,
    read at ``lone_sure`` or more (``lone_beside`` reaching under a card read; another card lies
    across it, or its own outline reads unsure: it reaches under something), is taken, covered,
    where the card segmenter sees a card's face (at even odds, ``relayed_face``, where the card
    it reaches under was itself taken by one index)
    (``detect.face_beliefs``): a printed page can show marks like an index, beside a paper edge;
    or where its other index faces it from the opposite corner, read alike (``Sighting.facing``):
    no page's marks do that (the segmenter misses some court cards' faces on a pale table).
    So is one whose outline reads unsure though both its indices read alike. But a card about
    to be taken so whose outline, scaled to the picture's edges, is an edge all round and reads
    alike lies whole, on top (``whole_tops``): a pile's top card, the finder's outline drawn
    round the whole pile.

    An unsure outline where a card is so taken was that card, drawn wrong (half of it and the
    table, or reaching under a neighbour): it is left out. So is one lying on such a card one of
    whose corners reads that card surely (``sure_corners``): the part of it showing past a cloth
    or a book over the rest (see ``_part_shown``). The cards ``held`` unsure (read, then doubted
    as a lower card of a pile) count as read: they are not read again through an index, and give
    way only to a card known surely, by both its indices read alike or through an outline of its
    own: the outline held was that card's, lying under something (a queen under a binder). The
    ``loose`` cards (read on one corner) are searched too, and doubted where an index on them
    reads otherwise, unless found again from that corner (``contradicted``)."""
    tune = tuned(TUNING)
    skip = np.zeros(image.shape[:2], np.uint8)
    for c in found:
        if c.card.code is not None and not c.loose and not c.card.covered:
            cv2.fillPoly(skip, [np.round(c.card.corners).astype(np.int32)], 1)
    sightings = [s for s in find_indices(image, reader.deck or builtin_deck(), reader.threshold, skip) if s.code]
    under = [c.card for c in found if c.card.covered and c.card.code is not None]
    sightings = [s for s in sightings if not _own_index(s, under)]
    if any(c.loose for c in found):
        found, sightings = contradicted(found, sightings, lambda c: refitted_card(image, edges, reader, c))
    if not sightings:
        return found
    # Which sightings are one card, and which lie near others, is judged on the outlines their
    # indices imply; the cards taken are given the outlines sized like the frame's cards.
    sized = sized_alike(sightings, answers(found))
    found, named = named_by_index(found, sightings, sized)
    if named:
        keep = [n for n in range(len(sightings)) if n not in named]
        if not keep:
            return found
        sightings, sized = [sightings[n] for n in keep], [sized[n] for n in keep]
    spans = boxes([CardQuad(s.corners, 1.0) for s in sightings])
    others = card_spans([c.card for c in found if c.card.code is not None] + [c.card for c in found if c.held])
    agreed, clear_at, lone_at, confirmed, relayed = sort_sightings(sized, spans, others, image.shape)
    taken: list[tuple[SeenCard, float, int]] = []  # each card, the area of the outline its index implied, the sighting
    read: set[int] = set()  # the sightings so taken, read through their outlines
    if clear_at:
        quads = [CardQuad(sized[n].corners, 1.0) for n in clear_at]
        quads = [refine_quads(edges.gray, [q], tune.refine_reach * q.short_side)[0] for q in quads]
        _, readings = reader.read(quads, vouch=False)  # one network pass for them all
        for n, quad, reading in zip(clear_at, quads, readings, strict=True):
            if reading.code == sightings[n].code:
                taken.append((SeenCard(reading.code, reading.confidence, quad.corners), _area(spans[n]), n))
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
    tops, explained = whole_tops(edges, reader, sightings, [n for n in range(len(sightings)) if n not in read])
    taken += [(card, _area(spans[n]), n) for n, card in tops]
    # Both indices show and agree: the card is known, though another lies across it; where
    # they face each other, its outline spans them.
    for n in (n for n, twins in agreed if not explained.issuperset(twins)):
        facing = [m for m in range(len(sized)) if m != n and _facing(sized[n], sized[m], tune.span_aligned) is not None]
        corners = spanned(sized[n], sized[facing[0]]) if facing else sized[n].corners
        taken.append((SeenCard(sightings[n].code, sightings[n].confidence, corners, covered=True), _area(spans[n]), n))
    lone = [n for n in lone_at if n not in explained]  # by one index
    if lone:
        beliefs = face_beliefs(image, [CardQuad(sized[n].corners, 1.0) for n in lone])
        for n, belief in zip(lone, beliefs, strict=True):
            if belief >= (tune.relayed_face if n in relayed else tuned(DETECT_TUNING).face_support) or sized[n].facing:
                card = SeenCard(sized[n].code, sized[n].confidence, sized[n].corners, covered=True)
                taken.append((card, _area(spans[n]), n))
    out = [_shows_at(card, sightings) if card.covered else card for card in one_each(taken, sightings)]
    if out:
        # Their parts in the frame: a card cut by the frame's edge is found by its outline as the
        # part showing, and by its index as the whole card, reaching out of the picture.
        places = in_frame(card_spans(out), image.shape)
        # Known surely: by both indices alike, or read through an outline of its own (fitted to the edges)
        sure = card_spans([c for c in out if not c.covered or len(c.indices) >= 2])

        def gives_way(c: Candidate) -> bool:
            tune = tuned(TUNING)
            if c.held:  # only to a card known surely
                return bool(np.any(iou(card_spans([c.card])[0], sure) >= tune.same_card))
            return bool(
                np.any(iou(in_frame(card_spans([c.card]), image.shape)[0], places) >= tune.same_card)
                or _part_shown(c, out)
            )

        found = [c for c in found if c.card.code is not None or not gives_way(c)]
    return found + [Candidate(card) for card in out]


def _own_index(sighting: Sighting, covered: list[SeenCard]) -> bool:
    """Whether a sighting is the index of a card found lying under others (``covered``): its
    index corner at one of that card's index corners (``own_corner``). Such a card's outline may
    be drawn round the cards over it too (a fan's lower cards found as one): an index elsewhere
    on it is sought, as a card lying over it."""
    tune = tuned(TUNING)
    for card in covered:
        reach = tune.own_corner * CardQuad(card.corners, 1.0).short_side
        if min(float(np.linalg.norm(sighting.corners[0] - card.corners[k])) for k in (0, 2)) <= reach:
            return True
    return False


def contradicted(
    found: list[Candidate], sightings: list[Sighting], refit: Callable[[Candidate], SeenCard | None]
) -> tuple[list[Candidate], list[Sighting]]:
    """The cards ``found`` with their ``loose`` ones (read for sure on one corner) that an index
    read for sure on them contradicts (``_contradicts``) found again from the corner that read
    them (``refit``: on top, whole), else made unsure; and the sightings on no card still read
    (the index search skips the others; loose cards are searched).

    An outline drawn round a tight pile, not an edge all round, has a lower card's index beside
    the top card's in its corner, and the corner network may read the two as one glyph (a five
    over an eight read surely as a 6, its middle counting a lower card's pip too). The index
    search reads the five at its own place. A card lying whole, read on one corner, with
    another outline against it (``lies_against``) may have its other corner under a card over
    it, whose index shows on it: it is no top card then. An outline drawn a
    little off a pile's top card holds a lower card's index in its far corner: the top card's
    own outline, fitted from its index to the edges, does not."""
    out = list(found)
    for k, c in enumerate(found):
        if c.loose and any(_contradicts(s, c.card, c.lies_whole) for s in sightings):
            top = refit(c)
            out[k] = Candidate(
                top or SeenCard(None, min(c.card.confidence, tuned(READER_TUNING).disagree), c.card.corners)
            )
    read = [c.card for c in out if c.card.code is not None]
    kept = [s for s in sightings if not any(holds(c, s.rank_at) or holds(c, s.pip_at) for c in read)]
    return out, kept


def refitted_card(image: np.ndarray, edges: Edges, reader: OutlineReader, candidate: Candidate) -> SeenCard | None:
    """A card read through an outline, found again from the corner that read it
    (``top_by_corner``): lying whole, on top, and reading alike; else None."""
    if candidate.outline is None or candidate.reading is None:
        return None
    top = top_by_corner(image, edges, reader, candidate.outline, candidate.reading)
    return top if top is not None and top.code == candidate.card.code else None


def _contradicts(sighting: Sighting, card: SeenCard, lies_whole: bool) -> bool:
    """Whether an index read for sure on a card read on one corner names another card: one whose
    outline, if the card's lies whole, lies mostly off it (``mostly_off``: a card over it, not
    its own print read as another index, which implies a card lying on it)."""
    tune = tuned(TUNING)
    if sighting.code == card.code or not holds(card, sighting.rank_at):
        return False
    if not lies_whole:
        return True
    implied = sighting.corners.astype(np.float32)
    shared, _ = cv2.intersectConvexConvex(implied, card.corners.astype(np.float32))
    return shared < tune.mostly_off * cv2.contourArea(implied)


def lies_against(quad: CardQuad, others: list[CardQuad]) -> bool:
    """Whether another outline overlaps this one (``against`` of its area or more): a card lying
    apart has none, and the index search need not look inside it."""
    tune = tuned(TUNING)
    return any(cv2.intersectConvexConvex(quad.corners, o.corners)[0] >= tune.against * quad.area for o in others)


def _shows_at(card: SeenCard, sightings: list[Sighting]) -> SeenCard:
    """A card known by its index, taken as lying under others, with where its indices show (its
    code's sightings on it): it lies over any card whose outline holds one (``lies_over``)."""
    at = tuple(s.rank_at for s in sightings if s.code == card.code and holds(card, s.rank_at))
    return replace(card, indices=at)


def named_by_index(
    found: list[Candidate], sightings: list[Sighting], sized: list[Sighting]
) -> tuple[list[Candidate], set[int]]:
    """The cards ``found`` with the unsure outlines lying whole that the index sightings name,
    and the sightings they explain (of that code, on it). An outline is named when every
    sighting whose index lies on it, its implied outline (``sized``) the outline's own
    (``named_overlap``), reads one code, and the middle confirms the rank: a picture for a court
    card, the pip count for a number. The corner networks, asked through the outline's fixed
    corners, can be torn where a court card prints its frame or a second index close beside the
    first (a jack read as a 3); the index search looks at the index itself, at several scales,
    and reads it (on the benchmark's eight-card frames, the jacks and kings so torn were left
    unsure or taken as lying under others, after 6 to 9 more reads)."""
    tune = tuned(TUNING)
    spans = boxes([CardQuad(s.corners, 1.0) for s in sized])
    out, named = list(found), set()
    for k, c in enumerate(found):
        if not (c.open and c.lies_whole) or c.face is None:
            continue
        card = c.card
        on = [
            n
            for n in np.nonzero(iou(card_spans([card])[0], spans) >= tune.named_overlap)[0]
            if holds(card, sightings[n].rank_at)
        ]
        codes = {sightings[n].code for n in on}
        if len(codes) != 1:
            continue
        code = codes.pop()
        if c.face.middle[0] != ("court" if code[:-1] in ("J", "Q", "K") else code[:-1]):
            continue
        out[k] = Candidate(SeenCard(code, max(sightings[n].confidence for n in on), card.corners))
        # Every sighting of that code on it is explained: the small index beside a court picture too.
        named.update(n for n, s in enumerate(sightings) if s.code == code and holds(card, s.rank_at))
    return out, named


def _part_shown(candidate: Candidate, taken: list[SeenCard]) -> bool:
    """Whether an unsure outline is the part showing of a card taken by its index: smaller than
    that card (``part_shown``), its middle on it, and one of its corners reads that card's code
    surely (``sure_corners``). An outline drawn round a pile is bigger than any of its cards, and
    reads a lower card's index in a corner: it stays, unsure (its top card is shown again)."""
    tune = tuned(TUNING)
    if candidate.reading is None:
        return False
    reads = {code for _, code in sure_corners(candidate.reading)}
    card = candidate.card
    area = CardQuad(card.corners, 1.0).area
    return bool(reads) and any(
        t.code in reads and area < tune.part_shown * CardQuad(t.corners, 1.0).area and holds(t, card.center)
        for t in taken
    )


def whole_tops(
    edges: Edges, reader: OutlineReader, sightings: list[Sighting], candidates: list[int]
) -> tuple[list[tuple[int, SeenCard]], set[int]]:
    """Of the ``candidates`` (sightings), those whose outline, scaled about the index to the
    picture's edges, is an edge all round and reads as the index does (``fitted_cards``): they
    lie whole, on top. Returns them (by sighting) and every sighting they explain: those whose
    index lies on such a card (its other index, one read twice, or print of its own read as
    another index: a vintage jack's small index inside his picture's frame read as 3H, which,
    as a lower card, lay wholly under him)."""
    chosen = [sightings[n] for n in candidates]
    cards = fitted_cards(edges, reader, [s.corners for s in chosen], [s.code for s in chosen])
    tops = [(n, card) for n, card in zip(candidates, cards, strict=True) if card is not None]
    explained = {m for _, card in tops for m, s in enumerate(sightings) if holds(card, s.rank_at)}
    return tops, explained


def top_by_corner(
    image: np.ndarray, edges: Edges, reader: OutlineReader, quad: CardQuad, reading: Reading
) -> SeenCard | None:
    """The card on top of an unsure outline (drawn round a pile, or across its top card) one of
    whose corners reads an index at ``top_corner`` or more: found by that index in that corner
    (``indices.outlines_in``, which seeks no sides: on a table as pale as the cards they barely
    show) and taken where its outline, fitted to the edges, reads the same (``fitted_cards``);
    else where it reads another card surely: the outline was a lower card's, and the index in
    its corner the top card's, lying over it."""
    tune = tuned(TUNING)
    sure = sure_corners(reading, tune.top_corner)
    to_frame = cv2.getPerspectiveTransform(WARPED, quad.corners.astype(np.float32))
    c = quad.corners
    for which, code in sure:
        top, bottom, left, right = corner_box(CARD_H, CARD_W, which)
        box = np.float32([[left, top], [right, top], [right, bottom], [left, bottom]])
        region = cv2.perspectiveTransform(box[None], to_frame)[0]
        down = c[3] - c[0] if which == 0 else c[1] - c[2]  # the card's down at that corner, upright
        outlines = outlines_in(image, region, down / max(float(np.linalg.norm(down)), 1e-6))
        alike, other = fitted_reads(edges, reader, outlines, [code] * len(outlines))
        found = [card for card in alike if card is not None] or [card for card in other if card is not None]
        if found:
            return found[0]
    return None


def fitted_cards(
    edges: Edges, reader: OutlineReader, outlines: list[np.ndarray], codes: list[str | None]
) -> list[SeenCard | None]:
    """For each outline implied by an index (image pixels, the index corner first), the card
    lying whole there: the outline scaled (and turned a little) to the picture's edges
    (``indices.fitted``, a few tries), moved onto them (``snapped``) and read like any card
    (both corners and the middle), the first try that is an edge all round and reads as the
    index did (its code); else None."""
    return fitted_reads(edges, reader, outlines, codes)[0]


def fitted_reads(
    edges: Edges, reader: OutlineReader, outlines: list[np.ndarray], codes: list[str | None]
) -> tuple[list[SeenCard | None], list[SeenCard | None]]:
    """``fitted_cards``, and for each outline the first try read surely as any card's face
    (one whose corner showed another card's index may lie under it). The tries are read in
    rounds, the first of every outline in one network pass, then the next of those not yet
    found: moving and reading a try costs as much as reading a card, and most cards are found
    at the first."""
    lines = edges.lines_over([_fit_region(corners) for corners in outlines])
    fits = [fitted(edges.gray, corners, lines) for corners in outlines]
    out: list[SeenCard | None] = [None] * len(outlines)
    first: list[SeenCard | None] = [None] * len(outlines)
    for round_ in range(max(map(len, fits), default=0)):
        tried = [(n, tries[round_]) for n, tries in enumerate(fits) if out[n] is None and round_ < len(tries)]
        if not tried:
            break
        quads = [snapped(edges.gray, lines, CardQuad(fit, 1.0)) for _, fit in tried]
        _, readings = reader.read(quads, vouch=False)
        for (n, _), quad, r in zip(tried, quads, readings, strict=True):
            if r.code in (None, BACK):
                continue
            card = SeenCard(r.code, r.confidence, quad.corners)
            first[n] = first[n] or card
            if r.code == codes[n]:
                out[n] = card
    return out, first


def _fit_region(corners: np.ndarray) -> np.ndarray:
    """The box (x0, y0, x1, y1) where the tries fitted to an index's outline (``fitted``) can lie,
    moved onto the edges (``snapped``: twice its reach at most, of the biggest try's side)."""
    tune = tuned(TUNING)
    reach = 2 * tune.refine_reach * float(tuned(INDICES_TUNING).fit_scales[-1]) * CardQuad(corners, 1.0).short_side + 2
    return fit_box(corners) + np.array([-reach, -reach, reach, reach])


def snapped(gray: np.ndarray, lines: np.ndarray, quad: CardQuad) -> CardQuad:
    """An outline moved onto the picture's edges nearby (``detect.refine_quads``), unless that
    makes it less an edge all round (the line map, ``lines``, counted): an outline found on the
    edges already can be pulled onto a court card's frame or the card beneath."""
    tune = tuned(TUNING)
    moved = refine_quads(gray, [quad], tune.refine_reach * quad.short_side)[0]
    pair = np.stack([quad.corners, moved.corners]).astype(np.float32)
    before, after = edge_supports(gray, pair, lines)
    return moved if after >= before else quad


def sort_sightings(
    sightings: list[Sighting], spans: np.ndarray, cards: np.ndarray, shape: tuple[int, ...]
) -> tuple[list[tuple[int, list[int]]], list[int], list[int], np.ndarray, set[int]]:
    """Which sightings (by their outlines' boxes ``spans``; ``cards``: the boxes of the cards read
    already; ``shape``: the frame's) are cards whose two indices agree with another card across
    them, cards lying clear of everything, and cards known by one index read surely enough
    beside others (``_lone_least``: beside a card read, or known by both its indices, or, ``relayed``,
    beside one taken by its one index read surely: a fan's lower cards beside each other). Of one
    card's two indices the first is kept, with every sighting of that card reading alike (a
    card on top that explains one of them may cover that index alone); sightings of
    one card that disagree are left out (``find_by_index`` says when one of them wins). Last, which
    sightings are confirmed by another reading alike (the card's other index), and which lone
    ones are relayed."""
    tune = tuned(TUNING)
    same = (iou(spans, spans) >= tune.same_card) & on_each_other(sightings)
    np.fill_diagonal(same, False)
    codes = np.array([s.code for s in sightings])
    alike = same & (codes[:, None] == codes[None, :])
    confirmed = alike.any(axis=1)  # by the card's other index, reading alike
    others = np.concatenate([spans, cards])
    agreed: list[tuple[int, list[int]]] = []  # each with every sighting of its card reading alike
    clear, alone = [], []
    for n in range(len(sightings)):
        twins = np.nonzero(same[n])[0]
        rivals = twins[~alike[n, twins]]
        if alike[n, :n].any():
            continue  # this card's other index, taken already
        if len(rivals) and (not confirmed[n] or confirmed[rivals].any()):
            continue  # two readings of one card that disagree, neither confirmed by the card's other index
        if not any(m != n and m not in twins for m in np.nonzero(iou(spans[n], others) > 0)[0]):
            clear.append(n)
        elif confirmed[n]:
            agreed.append((n, [n, *np.nonzero(alike[n])[0].tolist()]))
        else:
            alone.append(n)

    def taken(among: list[int], beside: np.ndarray) -> list[int]:  # read surely enough, the ``beside`` boxes read too
        by = [np.concatenate([cards, spans[confirmed & ~same[n]], beside]) for n in among]
        least = [_lone_least(spans[n], near, shape) for n, near in zip(among, by, strict=True)]
        return [n for n, at in zip(among, least, strict=True) if sightings[n].confidence >= at]

    lone = taken(alone, spans[:0])
    relayed = taken([n for n in alone if n not in lone], spans[lone])
    return agreed, clear, sorted(lone + relayed), confirmed, set(relayed)


def _lone_least(span: np.ndarray, cards: np.ndarray, shape: tuple[int, ...]) -> float:
    """How surely a card known by one index alone must read, its outline's box ``span``:
    ``lone_beside`` where its middle is hidden (the outline reaches under one of the ``cards``
    read, boxes, or out of a frame of ``shape``), else ``lone_sure``."""
    tune = tuned(TUNING)
    under = len(cards) > 0 and bool(np.any(iou(span, cards) > 0))
    out = bool(span[0] < 0 or span[1] < 0 or span[2] > shape[1] or span[3] > shape[0])
    return tune.lone_beside if under or out else tune.lone_sure


def on_each_other(sightings: list[Sighting]) -> np.ndarray:
    """Which pairs of sightings could be one card: each one's index on the other's outline
    (grown by ``on_card``), as a card's two indices are, or the two indices one (one index paired
    with two marks: they share its rank or its pip, ``shared_mark``). A card half under another
    whose index shows beside it lies under much of that card's outline, but its index lies off
    it (else it would be hidden). Two cards fanned tight show their indices close together, each
    its own two marks (ranks a quarter of a card's width apart): sharing no mark, they are two
    cards, not one index read two ways."""
    tune = tuned(TUNING)
    middles = [s.corners.mean(axis=0) for s in sightings]
    grown = [(m + (s.corners - m) * tune.on_card).astype(np.float32) for s, m in zip(sightings, middles, strict=True)]
    holds = np.array([[cv2.pointPolygonTest(g, o.rank_at, False) >= 0 for o in sightings] for g in grown])
    marks = np.array([[s.rank_at, s.pip_at] for s in sightings])  # N x 2 marks x (x, y)
    spacing = np.linalg.norm(marks[:, 0] - marks[:, 1], axis=1)
    apart = np.linalg.norm(marks[:, None, :, None] - marks[None, :, None, :], axis=-1).min(axis=(2, 3))
    shared = apart <= tune.shared_mark * np.minimum(spacing[:, None], spacing[None, :])
    return (holds & holds.T) | shared


def sized_alike(sightings: list[Sighting], seen: list[SeenCard]) -> list[Sighting]:
    """The sightings' outlines made the size of the cards read on the frame, and of the cards
    known by both their indices (``facing_sides``), kept at the index corner: one deck's cards
    are one size, and an index's height gives a card's only roughly (decks print indices of many
    sizes; measured on rendered fans, 0.66 to 1.28 of the card)."""
    sides = [CardQuad(c.corners, 1.0).short_side for c in seen if c.code not in (None, BACK) and not c.covered]
    sides += facing_sides(sightings)
    if not sides:
        return sightings
    side = float(np.median(sides))
    out = []
    for s in sightings:
        scale = side / max(CardQuad(s.corners, 1.0).short_side, 1.0)
        out.append(replace(s, corners=(s.corners[0] + (s.corners - s.corners[0]) * scale).astype(np.float32)))
    return out


def facing_sides(sightings: list[Sighting]) -> list[float]:
    """The short sides of the cards known by both their indices, read alike (``Sighting.facing``):
    the two index corners are the card's opposite corners, so its diagonal is measured, and
    with it the card's size (the index's height gives it only roughly). Only where the line
    between them runs along the diagonal each index implies (``facing_aligned``): an index
    whose direction is a few degrees off places its corner off too."""
    sides = []
    for n, a in enumerate(sightings):
        for b in sightings[n + 1 :]:
            ratio = _facing(a, b)
            if ratio is not None:
                sides.append(CardQuad(a.corners, 1.0).short_side * ratio)
    return sides


def _facing(a: Sighting, b: Sighting, aligned: float | None = None) -> float | None:
    """How far apart two sightings of one card's two indices are, over the diagonal ``a``
    implies, where they face each other along it (``aligned``: a cosine, by default
    ``facing_aligned``); else None."""
    tune = tuned(TUNING)
    aligned = tune.facing_aligned if aligned is None else aligned
    if not (a.facing and b.facing and a.code == b.code):
        return None
    between = b.corners[0] - a.corners[0]
    length = float(np.linalg.norm(between))
    implied = [a.corners[2] - a.corners[0], b.corners[0] - b.corners[2]]
    ratio = length / max(float(np.linalg.norm(implied[0])), 1.0)
    along = all(float(np.dot(d, between)) >= aligned * length * float(np.linalg.norm(d)) for d in implied)
    return ratio if along and tune.facing_sizes[0] <= ratio <= tune.facing_sizes[1] else None


def spanned(a: Sighting, b: Sighting) -> np.ndarray:
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


def one_each(taken: list[tuple[SeenCard, float, int]], sightings: list[Sighting]) -> list[SeenCard]:
    """Cards found by their indices, one of each code where outlines of one code overlap: they
    are one card seen twice, by its two indices, or by an index and the small one some court
    cards print beside their picture. The card whose index implied the biggest outline (the
    true corner's: the small index implies a card inside the true one) is kept. ``taken``: each
    card with the area of the outline its index implied, and its sighting.

    But a card whose index lies off a card kept lying whole on top (``twin_off`` past its
    outline) is another card: the identical card of a second deck, lying under its twin with its
    index showing (a game of two decks, where a card is laid on its twin). Two covered ones stay
    one: an outline inferred from one index is drawn too loosely to tell (one-deck piles and fans
    read a covered card twice in 5 frames of 200 more, and 2, when they were told apart)."""
    cards = [card for card, _, _ in taken]
    if len(cards) < 2:
        return cards
    spans = card_spans(cards)
    kept: list[int] = []
    for n in np.argsort([-area for _, area, _ in taken], kind="stable"):
        index = sightings[taken[n][2]].rank_at
        same = [k for k in kept if cards[k].code == cards[n].code and (cards[k].covered or not _off(index, cards[k]))]
        if not same or not np.any(iou(spans[n], spans[same]) > 0):
            kept.append(int(n))
    return [cards[n] for n in sorted(kept)]


def _off(point: tuple[float, float], card: SeenCard) -> bool:
    """Whether a point lies off a card, further than ``twin_off`` of its short side past its outline."""
    tune = tuned(TUNING)
    outside = -cv2.pointPolygonTest(card.corners.astype(np.float32), point, True)
    return outside > tune.twin_off * CardQuad(card.corners, 1.0).short_side


def _area(box: np.ndarray) -> float:
    """A box's area (x0, y0, x1, y1)."""
    return float((box[2] - box[0]) * (box[3] - box[1]))


def card_spans(cards: list[SeenCard]) -> np.ndarray:
    """The cards' boxes (N x 4: x0, y0, x1, y1)."""
    return boxes([CardQuad(c.corners, 1.0) for c in cards])


def in_frame(spans: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """Boxes (N x 4: x0, y0, x1, y1) cut to a frame of ``shape``."""
    h, w = shape[:2]
    return np.clip(spans, 0, [w, h, w, h]).astype(spans.dtype)

"""Frames to cards: find every card, warp it upright, read it. What ``cardtable vision identify``
prints and what the tracker consumes."""

from __future__ import annotations

from dataclasses import dataclass, replace

import cv2
import numpy as np

from vision.by_index import TUNING as BY_INDEX_TUNING
from vision.by_index import (
    card_spans,
    find_by_index,
    lies_against,
    top_by_corner,
)
from vision.candidates import Candidate, answers
from vision.deck import Deck, builtin_deck
from vision.detect import (
    CardQuad,
    FoundCard,
    box_overlap,
    find_card_outlines,
    map_cell,
    overlaps,
    ragged,
    warp_source,
    working_image,
)
from vision.fans import fan_tops, line_map
from vision.frame_check import TUNING as FRAME_CHECK_TUNING
from vision.frame_check import colourless
from vision.frames import as_bgr
from vision.middle import BLOCKED
from vision.on_top import index_points, one_on_top
from vision.outline_reader import Edges, OutlineReader, warp_corners
from vision.quads import boxes, card_sides, iou, side_vectors, whole
from vision.reader import (
    BACK,
    COUNTED_RANKS,
    UNSURE,
    Reading,
    Warped,
    corners_reading,
)
from vision.seen import SeenCard, holds, lies_over
from vision.stage_times import stage
from vision.tuning import tuned


@dataclass(frozen=True)
class IdentifyTuning:
    """The tuned numbers of reading a frame's cards, each with its unit and why it has its value
    (``vision.tuning``: a test or an experiment reads with others)."""

    min_short_side: int = 40  # pixels: a card narrower than this has an index too small to read (and is rarely a card)
    row_least: float = 1.3  # a row of cards is this much bigger than the frame's cards read for sure, at least
    # a rival overlapping an outline this much (their boxes, over the union) is of the same card
    same_place: float = 0.65
    # An unsure outline with lines across its middle needs a corner read this surely (``_grain``):
    # patches of carpet, wood grain or a page found as card-shaped outlines read no index surely.
    grain_corner: float = 0.5
    crossing_votes: float = 0.24
    crossing_gap: float = 0.02  # of a face's width: a line across it (``crossed``), and its gaps
    # a lower card's outline is at least this share of the card over it, and at most its inverse
    lower_size: float = 0.8
    nudge: float = 0.04  # an unsure card is read again through outlines grown, shrunk or moved this much of its sides
    sized: float = 0.04  # an outline with sides this share off the deck's card size is read again set to it...
    size_reach: float = 0.2  # ... unless a side is off by more than this: no one card's outline
    within_size: float = 0.85  # an outline this much smaller than another, or less, is not of the same card(s)


TUNING = IdentifyTuning()


__all__ = ["Deck", "SeenCard", "builtin_deck", "colourless", "draw", "identify", "lies_over"]


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


def identify(
    image: np.ndarray, deck: Deck | None = None, threshold: float = UNSURE, card_size: np.ndarray | None = None
) -> list[SeenCard]:
    """Every card in a BGR frame: read, unsure (code None), or face down ("back"); then the
    cards showing beside others that lie over them (``covered``), read from their one index.
    A grey, BGRA or 16-bit frame is read as ``frames.as_bgr`` makes it; another kind is a
    ``ValueError`` that names it. A frame under ``MIN_FRAME`` pixels a side (a camera that
    returned no picture, or a sliver of one) shows no card. In a frame with no colour
    (``colourless``) every face-up card is unsure: red suits cannot be told from black. A back
    is read 0.9 surely (its pattern is a yes or a no): under a threshold above that, it is unsure.
    ``card_size``: the deck's cards' short and long sides in this camera's pixels, where known
    from the frames before (``vision.card_size.CardSizes``): outlines drawn off it are read again
    set to it (``sized_looks``)."""
    if not isinstance(image, np.ndarray):
        raise ValueError(f"identify: a frame is a numpy image, not {type(image).__name__}")
    if image.ndim in (2, 3) and min(image.shape[:2]) < tuned(FRAME_CHECK_TUNING).min_frame:
        return []
    try:
        image = as_bgr(image)
    except ValueError as exc:
        raise ValueError(f"identify: a frame of {image.dtype} {image.shape} cannot be read ({exc})") from None
    cards = [
        replace(c, code=None) if c.code == BACK and c.confidence < threshold else c
        for c in _identify(image, deck, threshold, card_size)
    ]
    if colourless(image):
        return [replace(c, code=None, confidence=0.0) if c.code not in (None, BACK) else c for c in cards]
    return cards


def _identify(image: np.ndarray, deck: Deck | None, threshold: float, card_size: np.ndarray | None) -> list[SeenCard]:
    """``identify``, suits read from colour as the frame shows it."""
    tune = tuned(TUNING)
    with stage("find outlines"):
        outlines = [f for f in find_card_outlines(image) if f.quad.short_side >= tune.min_short_side]
    found = [f for f in outlines if not f.over]
    quads = [f.quad for f in found]
    with stage("read cards"):
        reader = OutlineReader(warp_source(image), deck, threshold)
        cards, readings = reader.read(quads)
    first = [r.code for r in readings]
    with stage("second looks"):
        _second_looks(reader, found, quads, cards, readings)
    for n, (quad, card, reading) in enumerate(zip(quads, cards, readings, strict=True)):
        if reading.code not in (None, BACK) and not whole(quad) and crossed(card):
            readings[n] = _doubted(reading)
    # A card read for sure and then doubted (it may be a lower card of a pile, read through an
    # outline reaching under the top one) stays unsure: nothing reads it again.
    doubted = {
        n
        for n, (code, r) in enumerate(zip(first, readings, strict=True))
        if code not in (None, BACK) and r.code is None
    }
    with stage("second looks"):
        guessed = nudged_looks(reader, quads, cards, readings, doubted)
        guessed |= sized_looks(reader, quads, cards, readings, doubted, card_size)
    with stage("rows and fans"):
        guessed |= card_rows(image, reader, quads, cards, readings)
    # One deck's cards are one size (an overhead camera changes that little): an outline far
    # smaller than a card read for sure is a pip, a box or a scrap of paper, whatever it reads as.
    sure = [q for q, r in zip(quads, readings, strict=True) if r.code not in (None, BACK)]
    smallest = 0.3 * max((q.area for q in sure), default=0.0)
    edges = Edges(image)
    read_boxes = boxes(sure)
    out: list[Candidate] = []
    shown = []
    for n, (quad, reading) in enumerate(zip(quads, readings, strict=True)):
        unreadable = reading.corners == (None, None)  # no index in either corner: a back, or no card
        if unreadable and (reading.code != BACK or ragged(quad) or border_contrast(image, quad) < 30):
            continue
        if reading.code is None and _grain(cards[n], reading):
            continue
        if quad.area < smallest:
            continue
        top = top_by_corner(image, edges, reader, quad, reading) if reading.code is None and n not in doubted else None
        if top is not None and not np.any(
            iou(card_spans([top])[0], read_boxes) >= tuned(BY_INDEX_TUNING).same_card
        ):  # not one read already
            out.append(Candidate(top))
            shown.append(CardQuad(top.corners, quad.fill))
            read_boxes = np.vstack([read_boxes, card_spans([top])])
            continue
        # Read on one corner only, not lying whole and apart, or read through outlines the finder
        # did not draw round it (``guessed``): the index search checks it.
        loose = False
        if reading.code is not None:
            shown.append(quad)
            if reading.code != BACK and n in guessed:
                loose = True
            elif reading.code != BACK and len(corners_reading(reading.code, reading.corners)) < 2:
                others = [f.quad for f in outlines if f.quad is not quad]
                loose = not whole(quad) or lies_against(quad, others)
        card = SeenCard(reading.code, reading.confidence, quad.corners)
        out.append(Candidate(card, quad, reading, cards[n], held=n in doubted, loose=loose, guessed=n in guessed))
    # A card is seen under others only when those were read: an outline that was no card, or
    # one cut wrongly across two cards (so unsure), may leave a strip showing the top card's index.
    covered = [f for f in outlines if f.over and all(any(o is q for q in shown) for o in f.over)]
    with stage("cards under others"):
        found_so_far = out + [Candidate(card) for card in reader.read_covered(covered)]
    with stage("cards by their index"):
        found_so_far = find_by_index(image, edges, reader, found_so_far)
    with stage("cards under others"):
        return one_on_top(edges.gray, edges.lines_over, lower_cards(reader, found_so_far))


def lower_cards(reader: OutlineReader, found: list[Candidate]) -> list[SeenCard]:
    """The cards found, with the unsure outlines that are a lower card's read again as lying
    partly under others: one corner reads an index where no card read lies, and the other,
    reading none, lies under a card read, of much its size (``lower_size``: one deck's cards are
    one size; a sliver between a pile's cards read a joker's corner). Its middle is that card's,
    or a picture of it, and the one index alone was left unsure; with the card on top painted
    out, the one corner is read alone (``read_covered``). Taken where it reads as that corner did."""
    tune = tuned(TUNING)
    seen = answers(found)
    read = [CardQuad(c.corners, 1.0) for c in seen if c.code not in (None, BACK)]
    tries: list[tuple[int, FoundCard, str]] = []
    for at, candidate in enumerate(found):
        if not candidate.open:
            continue
        quad, reading = candidate.outline, candidate.reading
        assert quad is not None and reading is not None  # an open candidate was read through an outline
        showing = [n for n, c in enumerate(reading.corners) if c is not None]
        if len(showing) != 1:
            continue
        points = index_points(quad.corners)
        own, far = points[showing[0]], points[1 - showing[0]]
        over = tuple(top for top in read if holds(top, far))
        size = quad.area / np.mean([top.area for top in over]) if over else 0.0
        if 1 / tune.lower_size >= size >= tune.lower_size and not any(holds(top, own) for top in read):
            corner = reading.corners[showing[0]]
            tries.append((at, FoundCard(quad, over=over), corner.rank + corner.suit))
    if not tries:
        return seen
    seen = list(seen)
    for (at, _, code), card in zip(tries, reader.read_under([found for _, found, _ in tries]), strict=True):
        if card is not None and card.code == code:
            seen[at] = card
    return seen


def _grain(card: Warped, reading: Reading) -> bool:
    """Whether an unsure outline is a patch of table, not a card: lines run across its middle and
    off it (``middle.BLOCKED``: wood grain, a carpet's stripes, a page's print) and neither corner
    reads an index even ``grain_corner`` surely. A card a cable or a shadow lies across still
    shows an index in a corner."""
    tune = tuned(TUNING)
    weak = all(c is None or min(c.rank_confidence, c.suit_confidence) < tune.grain_corner for c in reading.corners)
    return weak and card.middle[0] == BLOCKED


def small_gray(image: np.ndarray) -> tuple[np.ndarray, float]:
    """The frame in grey at the finder's working size (``detect.working_image``), and its scale."""
    small, scale = working_image(image)
    if small.ndim == 3:
        small = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    return cv2.GaussianBlur(small, (3, 3), 0), scale


def card_rows(
    image: np.ndarray, reader: OutlineReader, quads: list[CardQuad], cards: list[Warped], readings: list[Reading]
) -> set[int]:
    """Outlines read as no card that are rows of cards side by side (``vision.fans``): each takes
    its top card, when one read for sure lies at one of its ends; ``quads``, ``cards`` and
    ``readings`` are updated in place, and the outlines so replaced returned. A top card so found
    is checked by the index search (``Candidate.guessed``): the split is a guess, and its corner
    can hold the index of the card under it, read with the top card's pip (a two of spades' 2 and
    a four of hearts' heart, read 2H with the count of the two hearts the outline holds). The
    cards under it are not sought: where one strip shows past the top card, the rendered fans
    read 10 more of them but 2 wrong (a card laid over the strips of two read one's index for the
    other's), and a guard against that (no straight line across the strip) left none, a court
    card's frame being such a line.

    One deck's cards are one size: where cards of the frame were read for sure, an outline not
    clearly bigger than they are (``row_least``) is one card, read unsure, and is not searched
    (on rendered tables of eight cards, most of the search's cost). Unsure outlines are looked
    at through nudged outlines first (``nudged_looks``): one read so is one card, not a row (a
    lone card on a frame with none read for sure would be searched, at many times a card's cost)."""
    tune = tuned(TUNING)
    sure = [q.area for q, r in zip(quads, readings, strict=True) if r.code not in (None, BACK)]
    least = tune.row_least * float(np.median(sure)) if sure else 0.0
    unsure = [n for n, r in enumerate(readings) if r.code is None and quads[n].area >= least]
    if not unsure:
        return set()
    gray, scale = small_gray(image)
    lines = line_map(gray)
    reach = map_cell(gray.shape) / 2  # half the finder's: a card laid on edges found
    tries = []
    for n in unsure:
        row = CardQuad(quads[n].corners * scale, quads[n].fill)
        tops = (CardQuad(top.corners / scale, top.fill, top.edges) for top in fan_tops(gray, row, reach, lines))
        tries += [(n, top) for top in tops if top.short_side >= tune.min_short_side]  # an index too small to read
    if not tries:
        return set()
    warps, second = reader.read([top for _, top in tries], vouch=False)
    counted_tops_nudged(reader, [top for _, top in tries], warps, second)
    replaced: set[int] = set()
    for (n, top), warp, reading in zip(tries, warps, second, strict=True):
        if reading.code not in (None, BACK) and n not in replaced:
            replaced.add(n)
            quads[n], cards[n], readings[n] = top, warp, reading
    return replaced


def nudged_looks(
    reader: OutlineReader, quads: list[CardQuad], cards: list[Warped], readings: list[Reading], doubted: set[int]
) -> set[int]:
    """An unsure card whose corners show an index is read again, its corners' probabilities
    averaged over its own outline and six a little off it (``nudged``): an outline a few pixels
    off cuts an index's edge or lets the table into the corner, and the corner network reads it
    torn. Only the corners are warped through the nudged outlines (the middle does not move).
    A card ``doubted`` (read, then called into doubt as a lower card of a pile) is not.
    One network pass for the frame; ``cards`` are the outlines' warps; ``readings`` are updated
    in place, and the outlines so named returned. A card so named is checked by the index search
    (``Candidate.guessed``): averaged over the outline of a pile's lower card, its corners can
    mix that card's index with the top card's picture (a queen of diamonds over a ten of hearts
    read QH)."""
    todo = _unsure_indexed(readings, doubted)
    if not todo:
        return set()
    looks = [[c for moved in nudged(quads[n]) for c in warp_corners(reader.source, moved)] for n in todo]
    second = reader.read_warps([cards[n] for n in todo], [quads[n] for n in todo], looks=looks)
    named: set[int] = set()
    for n, reading in zip(todo, second, strict=True):
        if reading.code not in (None, BACK):  # a face whose index showed is no back
            readings[n] = reading
            named.add(n)
    return named


def sized_looks(
    reader: OutlineReader,
    quads: list[CardQuad],
    cards: list[Warped],
    readings: list[Reading],
    doubted: set[int],
    card_size: np.ndarray | None = None,
) -> set[int]:
    """A card whose outline's sides are off the deck's card size was drawn off its card along a
    weak edge (its white paper on the white card under it): it is read again through its outline
    set to that size, each way the sides may lie (``_grown``), and through those nudged
    (``nudged_looks``: a side so moved lies a few pixels off). The size is ``card_size`` where
    the frames before tell it, else that of the frame's cards read surely (backs too: one deck's
    cards are one size).

    An unsure card whose corners show an index is named by a card read surely through one of
    those outlines, or the same card through several (readings that disagree name nothing). Most
    cards are read from one corner their middle confirms; this names a joker (its middle confirms
    no lone corner) whose outline a weak edge cut. A card read surely from one corner alone
    through an outline drawn too big may have read the index of the card beside it in that
    corner (a king's club beside a two's diamond, read KD): it takes another card read surely
    by both its corners through an outline so set. Where the size is known from the frames
    before, such a card that nothing names so is left unsure: an outline that far off is no one
    card's, and its picture may be the card's on top (a king's outline round the queen thrown
    on him, his one index beside her picture); the index search looks for the card on top.
    ``quads``, ``cards`` and ``readings`` are
    updated in place; the outlines so named are returned, checked by the index search as
    guessed."""
    sure = [quads[n] for n, r in enumerate(readings) if r.code is not None]
    size = (
        card_size
        if card_size is not None
        else np.median([card_sides(q.corners) for q in sure], axis=0)
        if sure
        else None
    )
    if size is None:
        return set()
    lone = [
        n for n, r in enumerate(readings) if r.code not in (None, BACK) and len(corners_reading(r.code, r.corners)) < 2
    ]
    todo = [n for n in _unsure_indexed(readings, doubted) + lone if _off_size(card_sides(quads[n].corners) / size)]
    tries = [(n, grown) for n in todo for grown in _grown(quads[n], size)]
    if not tries:
        return set()
    warps, second = reader.read([grown for _, grown in tries], vouch=False)
    nudged_looks(reader, [grown for _, grown in tries], warps, second, set())
    named_by: dict[int, list[tuple[Reading, CardQuad, Warped]]] = {}
    for (n, grown), warp, reading in zip(tries, warps, second, strict=True):
        if reading.code not in (None, BACK):
            named_by.setdefault(n, []).append((reading, grown, warp))
    named: set[int] = set()
    for n, reads in named_by.items():
        if len({reading.code for reading, _, _ in reads}) != 1:  # readings that disagree name nothing
            continue
        reading, grown, warp = max(reads, key=lambda t: t[0].confidence)
        first = readings[n].code
        if first is None or (reading.code != first and len(corners_reading(reading.code, reading.corners)) == 2):
            quads[n], cards[n], readings[n] = grown, warp, reading
            named.add(n)
    for n in todo:
        if n in lone and n not in named and card_size is not None:
            readings[n] = _doubted(readings[n])
    return named


def _unsure_indexed(readings: list[Reading], doubted: set[int]) -> list[int]:
    """The outlines read unsure whose corners show an index, but those ``doubted``: the ones a
    second look may name."""
    return [n for n, r in enumerate(readings) if r.code is None and r.corners != (None, None) and n not in doubted]


def _off_size(ratios: np.ndarray) -> bool:
    """Whether an outline's sides, as shares of the frame's cards' (``_sides``), are drawn off a
    card's: one off by more than ``sized``, none so far off that it is no one card's outline."""
    tune = tuned(TUNING)
    return bool(np.all(np.abs(ratios - 1) <= tune.size_reach) and np.any(np.abs(ratios - 1) > tune.sized))


def _grown(quad: CardQuad, size: np.ndarray) -> list[CardQuad]:
    """An outline set to a card's ``size`` (short, long): each pair of sides drawn off it
    (``sized``) is moved on one side or the other (both ways for both: up to four outlines)."""
    tune = tuned(TUNING)
    c = quad.corners.astype(np.float64)
    d = side_vectors(c)[0]
    across, along = d[0] / max(np.linalg.norm(d[0]), 1e-6), -d[3] / max(np.linalg.norm(d[3]), 1e-6)
    sides = card_sides(quad.corners)
    short, long = size - sides
    off = np.abs(size / sides - 1) > tune.sized
    widths = [((1, 2), across * short), ((0, 3), -across * short)] if off[0] else [((), 0.0)]
    heights = [((2, 3), along * long), ((0, 1), -along * long)] if off[1] else [((), 0.0)]
    grown = []
    for (wide, w), (high, h) in ((a, b) for a in widths for b in heights):
        moved = c.copy()
        moved[list(wide)] += w
        moved[list(high)] += h
        grown.append(CardQuad(moved.astype(np.float32), quad.fill, quad.edges))
    return grown


def counted_tops_nudged(
    reader: OutlineReader, tops: list[CardQuad], warps: list[Warped], readings: list[Reading]
) -> None:
    """A row's top card read unsure whose middle counts pips (2 to 10) is looked at through
    nudged outlines (``nudged_looks``), and taken so when it then reads as the rank counted: a
    ten lying whole at the end of a fan of courts, its corners read as a queen and a nine through
    the outline the fan gave it. Only counted tops: every unsure top nudged read parts of court
    cards for sure (half a jack, over the whole one found by his index) and cards of fans that
    were not there. ``readings`` are updated in place."""
    looked = list(readings)
    uncounted = {n for n, warp in enumerate(warps) if warp.middle[0] not in COUNTED_RANKS}
    nudged_looks(reader, tops, warps, looked, uncounted)
    for n, reading in enumerate(looked):
        if reading.code not in (None, BACK) and reading.code[:-1] == warps[n].middle[0]:
            readings[n] = reading


def nudged(quad: CardQuad, step: float | None = None) -> list[CardQuad]:
    """Six outlines a little off a card's: grown and shrunk by ``step`` (by default ``nudge``)
    about its centre, and moved by ``step`` of its short side across it and of its long side
    along it, both ways."""
    step = tuned(TUNING).nudge if step is None else step
    corners = quad.corners
    centre = corners.mean(axis=0)
    across, along = corners[1] - corners[0], corners[3] - corners[0]
    moved = [centre + (corners - centre) * (1 + s) for s in (-step, step)]
    moved += [corners + side * s for side in (across, along) for s in (step, -step)]
    return [CardQuad(m.astype(np.float32), quad.fill, quad.edges) for m in moved]


def crossed(card: Warped) -> bool:
    """Whether long straight edges cross a warped card's face aslant: another card lying on it
    (a card's own print runs along its sides)."""
    tune = tuned(TUNING)
    edges = cv2.Canny(cv2.cvtColor(card.face, cv2.COLOR_BGR2GRAY), 60, 150)
    w = card.face.shape[1]
    votes, gap = round(tune.crossing_votes * w), max(1, round(tune.crossing_gap * w))
    lines = cv2.HoughLinesP(edges, 1, np.pi / 180, votes, minLineLength=w // 2, maxLineGap=gap)
    if lines is None:
        return False
    x1, y1, x2, y2 = lines.reshape(-1, 4).T
    slant = np.degrees(np.arctan2(np.abs(y2 - y1), np.abs(x2 - x1)))
    return int(np.sum((slant > 12) & (slant < 78))) >= 3


def _second_looks(
    reader: OutlineReader, found: list[FoundCard], quads: list[CardQuad], cards: list[Warped], readings: list[Reading]
) -> None:
    """Rival outlines are read (one batch for the frame) for two reasons.

    An unsure card takes the first rival of its place read for sure: even with both corners
    showing an index, an outline a few pixels off can make one misread. (Any rival will do when
    the outline showed no index at all: it was not of a card.) But a card lying whole whose two
    corners read one rank saw its indices clearly; what is left in doubt is the small pip under
    it (a blurred club or spade). A rival changing only that suit is one more look at them, and
    settles it only at ``by_index``'s corner_sure (``suit_only``): a rival a few pixels off reads a
    shaded club as a spade about as surely as the card's own outline reads it a club. A rival
    reading another rank (a jack's indices read as 3s through his own outline) or what both
    corners read is taken as any rival is.

    An unsure outline drawn round several cards lying together (a fan, a pile) takes the rivals
    lying inside it when they all read the same card: the top card's own outline.

    A card read for sure whose rival lies displaced from it may be one of two cards of a pile:
    the top card, and an outline reaching under it that shows a lower card's index. Should the
    rival read as another card, the card is left unsure: the referee asks to see it again rather
    than risk calling the lower card. An outline that is ``whole`` is no outline reaching under
    another card, so its rivals are not read (on a table of eight cards, most of the reads).

    ``quads``, ``cards`` (the warps) and ``readings`` are updated in place."""
    tune = tuned(TUNING)
    tries = [
        (n, rival)
        for n, (f, r) in enumerate(zip(found, readings, strict=True))
        if r.code != BACK
        for rival in f.rivals
        if (r.code is None or (box_overlap(quads[n], rival) < tune.same_place and not whole(quads[n])))
        # A rival lying over a neighbour could read that card a second time.
        and rival.short_side >= tune.min_short_side
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
        close = [other for other in others if blind or box_overlap(quads[n], other[0]) >= tune.same_place]
        if whole(quads[n]):
            close = [other for other in close if not suit_only(first, other[2])]
        if not close:
            # An outline drawn round several cards lying together (a fan) is unsure, and the top
            # card's own outline lies inside it: taken when every such outline reads the same.
            inside = [other for other in others if _within(other[0], quads[n])]
            if len({reading.code for _, _, reading in inside}) == 1:
                close = inside
        if close:
            quads[n], cards[n], readings[n] = close[0]


def suit_only(first: Reading, rival: Reading) -> bool:
    """Whether a rival's reading, under ``by_index``'s corner_sure, changes only the suit of what a card's
    two corners read (one rank, in one suit or two)."""
    a, b = first.corners
    if (
        a is None
        or b is None
        or a.rank != b.rank
        or rival.code is None
        or rival.confidence >= tuned(BY_INDEX_TUNING).corner_sure
    ):
        return False
    return rival.code[:-1] == a.rank and not (a.suit == b.suit == rival.code[-1])


def _within(small: CardQuad, big: CardQuad) -> bool:
    """Whether an outline lies inside a bigger one (its box, 90%): one card's inside the outline
    of several lying together. Boxes, not ``detect._part_of``'s corners: the top card's outline
    often reaches a little past a loose outline round the fan (measured: the corner test reads
    fewer fans and one photograph less)."""
    tune = tuned(TUNING)
    sb, bb = boxes([small])[0], boxes([big])[0]
    iw = max(0.0, min(sb[2], bb[2]) - max(sb[0], bb[0]))
    ih = max(0.0, min(sb[3], bb[3]) - max(sb[1], bb[1]))
    return small.area <= tune.within_size * big.area and iw * ih >= 0.9 * (sb[2] - sb[0]) * (sb[3] - sb[1])


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

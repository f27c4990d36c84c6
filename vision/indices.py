"""Cards found by their index alone, where no outline was: a card on a busy table whose sides
merge with it, a card lying half under others in a fan, a card cut by the frame's edge.

An index is a rank above a pip, one column of ink in a card's corner, the card's two sides
close by. So the ink of the frame is cut into marks (``ink_marks``) and each mark with another
under it, a little smaller and about as wide, is a possible index, its direction (rank to pip)
the card's "down" (``index_pairs``); a rank the threshold broke in two is sought again whole
(``broken_ranks``). That pair gives the corner's frame: where the card's
top-left corner lies and how big the card is, from the rank's height (a warped card's units,
``detect.CARD_W`` x ``CARD_H``). Most such pairs are not indices (pips in a card's middle, a
court picture, wood grain), and the corner network is costly, so a pair is asked first whether
the two sides of a card run where its frame puts them (``sides_strength``): a straight edge
along the column's left and one across its top. The pairs that pass are read by the corner
network through three scales, averaged; a card is reported only when its index reads for sure.
On a table as pale as the card its sides barely show: a pair without them is read too when
the card's other index faces it from the opposite corner (``mirrored``), and is reported only
when that index reads alike, for sure.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.corner_net import RANK_CLASSES, SUIT_CLASSES
from vision.deck import JOKER, NO_INDEX, Deck
from vision.detect import CARD_H, CARD_W, refine_quads
from vision.ink import darkest, inks, labelled
from vision.middle import TUNING as MIDDLE_TUNING
from vision.quads import CardQuad, edge_supports, side_supports
from vision.reader import COURT_CLASSES, PIP_CLASSES, corner_box
from vision.tuning import tuned


@dataclass(frozen=True)
class IndexTuning:
    """The tuned numbers of finding indices by their ink, each with its unit and why it has its value
    (``vision.tuning``: a test or an experiment reads with others)."""

    ink_window: int = 40  # the adaptive threshold's window is the frame's long side over this (a few index heights)
    ink_contrast: int = 18  # grey levels darker than the window's mean: ink
    # a rank's or pip's extent in pixels, least and most (smaller indices cannot be read)
    mark_px: tuple[int, int] = (6, 80)
    # A rank's centre and its pip's lie at most this many of their mean extent along the line joining
    # them apart: a blurred ten's wide "10" beside its pip lies 1.74 apart.
    pip_gap_most: float = 1.8
    merged_most: int = 4  # of mark_px's most: a mark at most this big may be an index merged with a tinted line
    tinted: int = 45  # grey levels between a pixel's brightest and darkest channels: tinted (black ink: 0-30) ...
    tinted_red: int = 40  # ... unless its red stands this far above the other two (red ink)
    rank_h: float = 36.0  # a rank's height in a warped card's pixels (measured on the photographs: cards 250 x 343)
    column_x: float = 20.0  # the index column's middle, from the card's left side (warped pixels)
    rank_top: float = 12.0  # the rank's top, from the card's top side
    # where the card's corner lies from that frame's origin (measured likewise)
    card_origin: tuple[float, float] = (-4.0, -10.0)
    side_edge: float = 30.0  # grey levels: the mean step across a side (one frame pixel either way) of a card's side
    left_side: tuple[int, int] = (-15, 6)  # where the left side may run (warped pixels from the frame's origin)
    top_side: tuple[int, int] = (-22, 1)  # where the top side may run
    # the corner's paper at least this bright (the darkest channel): not a picture or wood (shaded: 75-110)
    paper: int = 75
    paper_share: float = 0.45  # ... and this much of the index's column paper
    # ... or this much, where both the card's sides show beside it (``sides_strength``, side_edge).
    # A book's shadow over a card greys its paper unevenly, and a court card's big pip and frame
    # crowd the column (a king in a book's shadow: 0.33). Any index at 0.3, sides or not, takes wood
    # grain beside a card, 0.42 of it paper and its sides faint, for an index.
    shaded_share: float = 0.3
    # A ten's digits, two marks side by side (``side_by_side``): their heights within this factor,
    # their long axes within 25 degrees of each other, the line joining them within 30 degrees of
    # square to each (a cosine), their centres at most this share of the taller apart.
    digits_alike: float = 1.35
    digits_parallel: float = 0.9
    digits_across: float = 0.5
    digits_gap: float = 0.9
    digits_square: float = 0.35  # a cosine: the pip lies within 20 degrees of square to the line joining the digits
    # pixels round the cards found (``find_indices``' skip) where their own paper shows past their outlines
    skip_band: int = 4
    # pixels: paper elsewhere is a square this big at least (a wood's grain shows thinner bright streaks)
    paper_span: int = 5
    paper_width: float = 40.0  # the corner's width where its paper is sought: the index's column (twice column_x)
    # the rank's height read as this much of rank_h: the three looks averaged
    scales: tuple[float, float, float] = (0.9, 1.0, 1.1)
    # An index on a table as pale as its card (its sides unseen) is vouched for by its other index,
    # facing it, read alike: at the threshold, or at facing_least in one look when it reads
    # glimpse_vouches or more itself (the other may lie at the edge of a card over it). Without
    # glimpse_vouches, a printed page's marks vouch for each other.
    facing_least: float = 0.25
    glimpse_vouches: float = 0.85
    # An index whose card's sides show weakly is taken when it reads weak_sides_sure or more in
    # black or red ink (``ink_tint`` at most tinted_ink), or as a pale one is (its other index facing
    # it): one side showing, the other lying over a card as white as itself (a fan's middle card),
    # or both showing faintly (faint_side or more: a card on a table nearly as pale as itself).
    # Page print beside a card's or a page's edge reads 0.86-0.91 so; green dashes on a pink page
    # read as an ace of clubs at 0.95 (tint 0.99; indices' ink: 0-0.45). Sides over 0 instead of
    # faint_side read fans' cards that are not there. One side shows at shown_side, not side_edge:
    # a card lying over a card as white as itself shows its one side there as the thin shadow it
    # casts (a step of 30, its other side's 1).
    weak_sides_sure: float = 0.95
    shown_side: float = 20.0  # grey levels: the step one side shows to count, the other unseen
    faint_side: float = 8.0  # grey levels: the least step a side shows to count, faintly
    tinted_ink: float = 0.6  # the most of an index's ink neither grey nor red (``ink_tint``)
    same_index: float = 0.6  # of a rank's height: two sightings this close are one index seen twice
    # A court card's picture begins just right of its index column: an index read as a court rank
    # with a picture there (``middle`` picture_inks coloured inks or more in the strip picture_strip
    # warped pixels wide, down to the card's middle) is no pip rank's. A fan's lower card shows its
    # index and that strip, and no other witness. Strips 25 and 60 wide do alike; down to the
    # index's foot only, pictures drawn lower go unseen.
    picture_strip: int = 40
    # A camera's blur greys a rank's thin strokes beside its solid pip: an index read unsurely (at
    # pale_read or more, under pale_sure) whose rank's ink reaches under pale_rank of its pip's
    # (``levelled``) is read again with its rank's ink deepened to the pip's (pale_gain times at
    # most), and takes that reading's confidence where it reads the same card more surely (a ten
    # whose "0" is grey). At 0.7, a jack's J at 0.67 of his pip's ink reads as a 3. Only second
    # readings are levelled: every look levelled trades as many cards lost as won.
    pale_read: float = 0.25
    pale_sure: float = 0.85
    pale_rank: float = 0.6
    pale_gain: float = 3.0
    pale_pip: int = 40  # grey levels over the paper: a pip's ink at least (else nothing to level to)
    no_rank_ink: int = 5  # ... and a rank's more than this (else no rank shows to deepen)
    # A camera's blur can grey a rank's thin stroke under the ink threshold and break it in two (a
    # pale ace: its apex and its legs, neither a rank). Two marks this close (of their extents'
    # mean), each at most broken_round times as long as wide (wood grain's streaks are longer),
    # which merged would pair with a pip on a card's paper, are sought again as one mark in a window
    # broken_window times as wide (``broken_ranks``): a wider window's mean lies nearer the paper,
    # and the grey stroke counts as ink. Thresholding the whole frame again so costs 3-4 ms a frame,
    # and its wide marks offered everywhere read wood grain and a painted jar as cards.
    broken_touch: float = 1.2
    broken_round: float = 3.0
    broken_window: float = 1.67
    # An index's rank gives a card's size only roughly (rendered designs: 0.66-1.28 of the outline
    # it implies): ``fitted`` tries the implied outline scaled about its index corner by each of these.
    fit_scales: np.ndarray = field(default_factory=lambda: np.linspace(0.6, 1.5, 37, dtype=np.float32))
    fit_turns: np.ndarray = field(
        default_factory=lambda: np.float32([0, -2, 2, -4, 4, -6, 6])
    )  # degrees: ... each turned about that corner by these
    fit_whole: float = 0.6  # ... and takes a scale where every side is this much an edge (``WHOLE`` in identify)
    fit_tries: int = 3  # ... of that many turns at most, the best
    # ... then, of sizes at least this factor apart from those, the best (a court card's frame, or
    # an outline reaching over the cards under it, can fit best, the card's own next)
    fit_apart: float = 1.15
    fit_more: int = 2
    # Where no size fits, the index corner is moved (up to this share of the short side, in steps of
    # fit_step) to put the two sides meeting there on edges: a big index implies its corner a few
    # pixels off the card's
    fit_shift: float = 0.12
    fit_step: float = 0.02
    # Where still none fits, the best tries (this many) are each moved onto the edges nearby, this
    # far at most (of the try's short side): a thrown card's index, turned more than fit_turns off
    # its card, implies sides a few degrees off the card's
    fit_refined: int = 6
    fit_reach: float = 0.2
    # ... and kept where every side is then this much an edge: so moved, a lower card's outline can
    # take the top card's sides for some of its own (0.67-0.75 a side), a card's own fits (0.83-1)
    fit_refined_whole: float = 0.8
    down_agrees: float = 0.8  # cosine: an index's rank-to-pip direction within 37 degrees of a card's "down"
    mirror_reach: float = 0.35  # of a card's short side: two indices whose implied outlines' far corners lie this close
    mirror_size: float = 1.35  # ... and whose ranks' heights differ by less than this factor are one card's two indices
    # Index candidates read in a frame at most. The photographs' busiest frames hold under 700; a
    # frame of sensor noise holds ten times that, seconds of reading.
    candidates_most: int = 2000
    remap_width: int = 1024  # the points sampled through every frame are looked up as rows this wide


TUNING = IndexTuning()

_RANK_BAND = (9, 54)  # warped-card rows the rank lies in at every look's scale (rank_top, 1.1 rank_h), and a margin
_PIP_BAND = (58, 100)  # ... and the pip under it
_INDEX_COLUMN = (6, 34)  # ... their columns (column_x, a ten's two digits either side)
_RANKS = [n for n in range(len(RANK_CLASSES)) if n not in (JOKER, NO_INDEX)]  # what an index's rank can be


@dataclass(frozen=True)
class Sighting:
    """A card seen by one index: its outline inferred (4 x 2, clockwise, first side short, the
    index corner first), its reading, where its rank and its pip lie (the two marks it was paired
    from), and whether the card's other index, facing it from the opposite corner, reads alike
    (``mirrored``)."""

    corners: np.ndarray
    code: str | None
    confidence: float
    rank_at: tuple[float, float]
    pip_at: tuple[float, float]
    facing: bool = False


def ink_marks(
    image: np.ndarray, skip: np.ndarray | None = None, colour: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The frame's marks of ink (connected dark or coloured pixels) of an index's size: their
    centres (M x 2) and second moments (M x 3: xx, xy, yy); those whose centre ``skip`` (a mask
    of the frame) marks are left out. Two marks side by side as a ten's digits are one more mark
    too (``side_by_side``); the third array holds, for each mark, the unit vector from one of
    its digits to the other (zero for a mark of one piece). Given the frame in ``colour`` (BGR),
    marks too big for an index are cut again without their tinted pixels (``_untinted_marks``).
    A rank broken in two by the threshold is one more mark, whole (``broken_ranks``)."""
    tune = tuned(TUNING)
    low = darkest(image)
    window = max(15, round(max(image.shape[:2]) / tune.ink_window) | 1)
    ink = index_ink(low, window)
    labels, stats, centroids, origin = labelled_marks(ink)
    keep = _marks(stats, centroids, skip)
    centres, areas = centroids[keep], stats[keep, 4].astype(np.float64)
    moments = ink_moments(labels, stats, keep, origin)
    tens, ten_moments, joins = side_by_side(centres, moments, areas)
    broken, broken_moments = broken_ranks(low, centres, moments, areas, skip, round(window * tune.broken_window) | 1)
    if colour is not None:
        longest, shortest = np.maximum(stats[:, 2], stats[:, 3]), np.minimum(stats[:, 2], stats[:, 3])
        size = (
            (longest > tune.mark_px[1])
            & (longest <= tune.merged_most * tune.mark_px[1])
            & (shortest >= tune.mark_px[0])
        )  # no line
        merged = np.nonzero(size)[0]
        merged = merged[(merged > 0) & _unskipped(centroids[merged], skip)]  # most lie on the cards found
        more = [_untinted_marks(colour, labels, origin, stats[i], i, skip) for i in merged]
        centres = np.concatenate([centres, *(c for c, _ in more)])
        moments = np.concatenate([moments, *(m for _, m in more)])
    joins = np.concatenate([np.zeros((len(centres), 2)), joins, np.zeros((len(broken), 2))])
    return np.concatenate([centres, tens, broken]), np.concatenate([moments, ten_moments, broken_moments]), joins


def side_by_side(
    centres: np.ndarray, moments: np.ndarray, areas: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Two marks standing side by side as a ten's "1" and "0" do, as one more mark (centres and
    moments, as ``ink_marks``, and the unit vector from one digit to the other): about as tall
    (``digits_alike``), each taller than wide, their long sides facing each other
    (``digits_across``), close (``digits_gap``). Paired with its pip, either digit alone frames
    the index off its column and tilted (the pip lies under both): read so, tens were the rank
    most often not found."""
    tune = tuned(TUNING)
    if len(centres) < 2:
        return np.zeros((0, 2)), np.zeros((0, 3)), np.zeros((0, 2))
    var = _largest_variance(moments)
    longest = np.sqrt(12 * np.maximum(var, 0))
    a, b, gap = _close_marks(centres, longest)
    a, b, gap = a[a < b], b[a < b], gap[a < b]
    xx, xy, yy = moments[:, 0], moments[:, 1], moments[:, 2]
    axis = np.stack([xy, var - xx], axis=-1)  # each mark's long axis (an eigenvector of its moments)
    flat = np.hypot(axis[:, 0], axis[:, 1]) < 1e-9
    axis[flat] = np.stack([var - yy, xy], axis=-1)[flat]
    axis /= np.maximum(np.hypot(axis[:, 0], axis[:, 1]), 1e-9)[:, None]
    tall = var > 1.5 * (xx + yy - var)  # longer than wide
    u = (centres[b] - centres[a]) / gap[:, None]
    along = np.abs(np.sum(u * axis[a], axis=1)), np.abs(np.sum(u * axis[b], axis=1))
    ok = tall[a] & tall[b] & (np.abs(np.sum(axis[a] * axis[b], axis=1)) >= tune.digits_parallel)
    taller, shorter = np.maximum(longest[a], longest[b]), np.minimum(longest[a], longest[b])
    ok &= (taller <= tune.digits_alike * shorter) & (gap <= tune.digits_gap * taller)
    ok &= (along[0] <= tune.digits_across) & (along[1] <= tune.digits_across)
    a, b, u = a[ok], b[ok], u[ok]
    return *_joined(centres, moments, areas, a, b), u


def _joined(
    centres: np.ndarray, moments: np.ndarray, areas: np.ndarray, a: np.ndarray, b: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The marks ``a`` and ``b`` (index arrays) each taken with the other as one mark: its
    centre and second moments, as ``ink_marks`` gives them, from theirs and their ``areas``."""
    wa, wb = areas[a] / (areas[a] + areas[b]), areas[b] / (areas[a] + areas[b])
    centre = wa[:, None] * centres[a] + wb[:, None] * centres[b]

    def spread(d: np.ndarray) -> np.ndarray:  # a mark's moments about the pair's centre add its offset's
        return np.stack([d[:, 0] * d[:, 0], d[:, 0] * d[:, 1], d[:, 1] * d[:, 1]], axis=-1)

    da, db = centres[a] - centre, centres[b] - centre
    return centre, wa[:, None] * (moments[a] + spread(da)) + wb[:, None] * (moments[b] + spread(db))


def broken_ranks(
    low: np.ndarray,
    centres: np.ndarray,
    moments: np.ndarray,
    areas: np.ndarray,
    skip: np.ndarray | None,
    window: int,
) -> tuple[np.ndarray, np.ndarray]:
    """Ranks the ink threshold broke in two, whole (centres, moments, as ``ink_marks``): where
    two round marks (``broken_round``) nearly touch (``broken_touch``), and taken as one they
    would pair as a rank with a pip under it (``index_pairs``) in a corner of paper
    (``paper_shares``, ``shaded_share``), the darkest channel ``low`` is thresholded again
    there with the wider ``window``; a mark of it on neither, joining both, is the rank.
    Only there: the whole frame so took 3-4 ms, and few places pass (a one-card frame on wood: none)."""
    tune = tuned(TUNING)
    var = _largest_variance(moments)
    longest = np.sqrt(12 * np.maximum(var, 0))
    rounded = np.nonzero(var <= tune.broken_round**2 * np.maximum(moments[:, 0] + moments[:, 2] - var, 1e-9))[0]
    none = np.zeros((0, 2)), np.zeros((0, 3))
    if len(rounded) < 2:
        return none
    a, b, gap = _close_marks(centres[rounded], longest[rounded])
    a, b = rounded[a], rounded[b]
    touching = (a < b) & (gap <= tune.broken_touch * (longest[a] + longest[b]) / 2)
    a, b = a[touching], b[touching]
    if not len(a):
        return none
    whole, whole_moments = _joined(centres, moments, areas, a, b)
    ranks = _paired_on_paper(low, centres, moments, whole, whole_moments)
    found: list[tuple[np.ndarray, np.ndarray]] = []
    for n in ranks:
        for centre, mark in wider_marks(low, skip, window, centres, (a[n], b[n]), longest):
            if all(np.hypot(*(centre - c)) > 1.0 for c, _ in found):  # two pairs of one rank's pieces
                found.append((centre, mark))
    if not found:
        return none
    return np.array([c for c, _ in found]), np.array([m for _, m in found])


def thresholded_region(low: np.ndarray, window: int, box: tuple[int, int, int, int]) -> np.ndarray:
    """The ink of ``low`` in ``box`` (x0, y0, x1, y1) by the adaptive threshold of that
    ``window``: taken over a margin of half a window round it, it is the whole frame's, bit for bit."""
    h, w = low.shape
    x0, y0, x1, y1 = box
    m = window // 2
    px0, py0, px1, py1 = max(x0 - m, 0), max(y0 - m, 0), min(x1 + m, w), min(y1 + m, h)
    ink = index_ink(low[py0:py1, px0:px1], window)
    return np.ascontiguousarray(ink[y0 - py0 : y1 - py0, x0 - px0 : x1 - px0])


def index_ink(low: np.ndarray, window: int) -> np.ndarray:
    """The ink of a darkest channel: ``ink_contrast`` darker than the mean of the square
    ``window`` round each pixel (a 0/255 mask). The bytes of ``cv2.adaptiveThreshold`` (mean,
    inverted), whose last step looks each pixel up one at a time: the mean's excess over the
    pixel, saturated at 0, thresholded in one vectorised pass is 0.6 ms a 1280 x 720 frame, not 1.05."""
    tune = tuned(TUNING)
    mean = cv2.blur(low, (window, window), borderType=cv2.BORDER_REPLICATE | cv2.BORDER_ISOLATED)
    return cv2.threshold(cv2.subtract(mean, low), tune.ink_contrast - 1, 255, cv2.THRESH_BINARY)[1]


def _paired_on_paper(
    low: np.ndarray, centres: np.ndarray, moments: np.ndarray, whole: np.ndarray, whole_moments: np.ndarray
) -> np.ndarray:
    """Which of the marks ``whole`` (centres, and moments) pair as a rank with a pip among the
    marks (``index_pairs``) in a corner whose paper shows (``shaded_share``): their indices."""
    # A pip lies at most pip_gap_most of the mean of its extent and the rank's away, and is at
    # most 1.25 times the rank (``index_pairs``): no mark farther off can pair.
    tune = tuned(TUNING)
    reach = tune.pip_gap_most * (1 + 1.25) / 2 * np.sqrt(12 * np.maximum(_largest_variance(whole_moments), 0)) + 1
    near = np.nonzero((np.hypot(*(centres[:, None] - whole[None]).transpose(2, 0, 1)) <= reach).any(axis=1))[0]
    k = len(near)
    pa, pb, down, height = index_pairs(
        np.concatenate([centres[near], whole]), np.concatenate([moments[near], whole_moments])
    )
    ok = (pa >= k) & (pb < k)
    if not ok.any():
        return np.zeros(0, int)
    pa, pb, down, height = pa[ok], pb[ok], down[ok], height[ok]
    pairs = zip(whole[pa - k], centres[near[pb]], down, height, strict=True)
    frames = np.array([index_frame(rank, pip, d, float(h)) for rank, pip, d, h in pairs])
    return np.unique(pa[paper_shares(low, frames) >= tune.shaded_share] - k)


def wider_marks(
    low: np.ndarray,
    skip: np.ndarray | None,
    window: int,
    centres: np.ndarray,
    pieces: tuple[int, int],
    longest: np.ndarray,
) -> list[tuple[np.ndarray, np.ndarray]]:
    """The marks (centre, moments) of ``low`` thresholded with the wider ``window`` round two
    marks (``pieces``, indices of ``centres``) that join both and lie on neither: their centres
    within half its extent, its own over a pixel from every mark's."""
    h, w = low.shape
    one, other = centres[pieces[0]], centres[pieces[1]]
    middle, reach = (one + other) / 2, np.hypot(*(one - other)) / 2 + max(longest[list(pieces)]) / 2 + 3
    x0, y0 = np.maximum(np.floor(middle - reach).astype(int), 0)
    x1, y1 = np.minimum(np.ceil(middle + reach).astype(int) + 1, (w, h))
    ink = thresholded_region(low, window, (int(x0), int(y0), int(x1), int(y1)))
    _, labels, stats, at = labelled(ink)
    at = at + np.array([x0, y0])
    out = []
    for i in _marks(stats, at, skip):
        sx, sy, sw, sh = stats[i, :4]
        if (sx == 0 < x0) or (sy == 0 < y0) or (sx + sw == x1 - x0 < w - x0) or (sy + sh == y1 - y0 < h - y0):
            continue  # cut by the region's edge, not the frame's: not all of it is seen
        mark = ink_moments(labels, stats, np.array([i]))
        half = np.sqrt(3 * max(float(_largest_variance(mark)[0]), 0.0))  # half its extent
        on_one = np.hypot(*(centres - at[i]).T).min() <= 1.0
        if not on_one and np.hypot(*(one - at[i])) < half and np.hypot(*(other - at[i])) < half:
            out.append((at[i], mark[0]))
    return out


def _marks(stats: np.ndarray, centres: np.ndarray, skip: np.ndarray | None) -> np.ndarray:
    """Which components (``connectedComponentsWithStats``' stats and centres, the first the
    background) are an index mark's size, their centres outside the ``skip`` mask: their labels."""
    tune = tuned(TUNING)
    w, h, area = stats[1:, 2], stats[1:, 3], stats[1:, 4]
    longest, (least, most) = np.maximum(w, h), tune.mark_px
    sized = 1 + np.nonzero((longest >= least) & (longest <= most) & (area >= 10) & (area <= 0.9 * w * h))[0]
    return sized[_unskipped(centres[sized], skip)]


def _unskipped(centres: np.ndarray, skip: np.ndarray | None) -> np.ndarray:
    """Which of the centres (N x 2) lie outside the ``skip`` mask (all, without one)."""
    if skip is None:
        return np.ones(len(centres), bool)
    cx = np.clip(np.round(centres[:, 0]).astype(int), 0, skip.shape[1] - 1)
    cy = np.clip(np.round(centres[:, 1]).astype(int), 0, skip.shape[0] - 1)
    return skip[cy, cx] == 0


def labelled_marks(ink: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, tuple[int, int]]:
    """A mask's components (labels, stats and centres, as ``connectedComponentsWithStats``;
    stats and centres in the mask's pixels), labelled only over the box round its ink, and the
    box's corner: where the labels' first pixel lies. That corner on the 2 x 2 blocks of Grana's
    algorithm (``ink.labelled``), the components are numbered as over the whole mask. A pale
    table's frame holds a card's ink and little more, a ninth of the time over the whole mask."""
    x, y, w, h = cv2.boundingRect(ink)
    x0, y0 = x - x % 2, y - y % 2
    box = ink[y0 : y + max(h, 1), x0 : x + max(w, 1)]  # a pixel, where there is no ink
    _, labels, stats, centres = labelled(box)
    stats[:, :2] += (x0, y0)
    return labels, stats, centres + np.array([x0, y0]), (x0, y0)


def ink_moments(
    labels: np.ndarray, stats: np.ndarray, which: np.ndarray, origin: tuple[int, int] = (0, 0)
) -> np.ndarray:
    """The second moments (xx, xy, yy) of the components ``which`` of ``labels`` (whose first
    pixel lies at ``origin`` in the stats' pixels), each from its own box only: len(which) x 3.
    Every box's pixels are gathered together and summed by component: a carpet's 578 marks in
    0.7 ms against 3.6 one box at a time (``cv2.moments``; the same values to 1e-13)."""
    n = len(which)
    if not n:
        return np.zeros((0, 3))
    x, y, w, h = (stats[which, k].astype(np.intp) for k in range(4))
    x, y = x - origin[0], y - origin[1]  # in the labels' pixels
    sizes = w * h
    owner = np.repeat(np.arange(n), sizes)  # each box pixel's component, in the order of ``which``
    dy, dx = np.divmod(np.arange(int(sizes.sum())) - (np.cumsum(sizes) - sizes)[owner], w[owner])
    on = labels[dy + y[owner], dx + x[owner]] == which[owner]  # a neighbour's pixels in the box are not its
    owner, dx, dy = owner[on], dx[on].astype(np.float64), dy[on].astype(np.float64)
    area = np.bincount(owner, minlength=n).astype(np.float64)
    cx, cy = np.bincount(owner, dx, n) / area, np.bincount(owner, dy, n) / area
    xx = np.bincount(owner, dx * dx, n) / area - cx * cx
    xy = np.bincount(owner, dx * dy, n) / area - cx * cy
    yy = np.bincount(owner, dy * dy, n) / area - cy * cy
    return np.stack([xx + 1 / 12, xy, yy + 1 / 12], axis=-1)  # a pixel's own spread (1/12) added


def _untinted_marks(
    colour: np.ndarray,
    labels: np.ndarray,
    origin: tuple[int, int],
    stat: np.ndarray,
    label: int,
    skip: np.ndarray | None,
) -> tuple[np.ndarray, np.ndarray]:
    """The marks (centres, moments, as ``ink_marks``) of one component too big for a mark once
    its tinted pixels are left out: neither grey nor red, where an index's ink is black or red.
    A court card's index may touch the line round its picture (a king whose rank joins the blue
    frame line), and the two make one mark no index is. ``labels``' first
    pixel lies at ``origin`` in the frame (``labelled_marks``)."""
    x, y, w, h = stat[:4]
    lx, ly = x - origin[0], y - origin[1]
    ours = cv2.compare(labels[ly : ly + h, lx : lx + w], float(label), cv2.CMP_EQ)
    inked = cv2.bitwise_and(ours, _index_ink(colour[y : y + h, x : x + w]))
    _, sub, stats, centroids = labelled(inked)
    centroids = centroids + np.array([x, y])
    keep = _marks(stats, centroids, skip)
    return centroids[keep], ink_moments(sub, stats, keep)


def index_extent(moments: np.ndarray, u: np.ndarray) -> np.ndarray:
    """A mark's full extent along unit vectors ``u`` (a uniform mark spans sqrt(12) deviations)."""
    var = (
        moments[..., 0] * u[..., 0] ** 2
        + 2 * moments[..., 1] * u[..., 0] * u[..., 1]
        + moments[..., 2] * u[..., 1] ** 2
    )
    return np.sqrt(12 * np.maximum(var, 0))


def index_pairs(
    centres: np.ndarray, moments: np.ndarray, joins: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Marks that could be a rank (``a``) with its pip (``b``) under it: the pip about as wide,
    smaller, just past the rank's end along the line joining them. A mark of two digits
    (``joins``, as ``ink_marks`` gives them) is a rank only, its pip under both digits
    (``digits_square``): printed text holds many letters side by side, and each such mark paired
    every way tripled a page's pairs. Returns a, b, the unit direction rank to pip (P x 2; for
    two digits, square to their line) and the rank's extent along it (its height).

    Only pairs closer than their marks' longest extents allow are measured: a frame of textured
    table holds hundreds of marks, and measuring every pair cost more than the rest of the search."""
    tune = tuned(TUNING)
    longest = np.sqrt(12 * np.maximum(_largest_variance(moments), 0))
    a, b, gap = _close_marks(centres, longest)
    u = (centres[b] - centres[a]) / gap[:, None]
    ok = np.ones(len(a), bool)
    if joins is not None and len(joins):
        joined, join = np.any(joins != 0, axis=1), joins[a]
        ok &= ~joined[b] & (~joined[a] | (np.abs(np.sum(u * join, axis=1)) <= tune.digits_square))
        # A ten's down is square to its digits' line, which a long baseline gives surely: a
        # deck may print the pip under the "0" more than under both (8 degrees off).
        square = np.stack([-join[:, 1], join[:, 0]], axis=-1)
        square *= np.where(np.sum(square * u, axis=1) < 0, -1.0, 1.0)[:, None]
        u = np.where(joined[a][:, None], square, u)
    across = np.stack([u[:, 1], -u[:, 0]], axis=-1)
    rank_m, pip_m = moments[a], moments[b]
    rank_h, pip_h = index_extent(rank_m, u), index_extent(pip_m, u)
    rank_w, pip_w = index_extent(rank_m, across), index_extent(pip_m, across)
    half = (rank_h + pip_h) / 2
    ok &= (gap > 0.9 * half) & (gap < tune.pip_gap_most * half) & (pip_h < 1.25 * rank_h) & (pip_h > 0.35 * rank_h)
    ok &= (pip_w < 2.5 * rank_w + 2) & (pip_w > 0.3 * rank_w) & (rank_h >= tune.mark_px[0])
    return a[ok], b[ok], u[ok], rank_h[ok]


def _close_marks(centres: np.ndarray, longest: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The ordered pairs (a, b), in the order numpy's ``nonzero`` lists them, of distinct marks
    closer than half ``pip_gap_most`` of their longest extents together, plus a pixel (no pair
    farther apart can be an index), and their distances (as
    numpy's norm takes them, the same sums bit for bit, without its temporaries). Only marks
    within that reach of each other across (x) are measured: a speckled pale table shows
    hundreds of marks, and measuring every pair costs several times more."""
    tune = tuned(TUNING)
    share = tune.pip_gap_most / 2
    reach = share * (longest + longest.max()) + 1  # each mark's farthest partner, at most
    a, b = _within_across(centres[:, 0], centres[:, 0], reach)
    dx, dy = centres[b, 0] - centres[a, 0], centres[b, 1] - centres[a, 1]
    dist = np.sqrt(dx * dx + dy * dy)
    near = (dist < share * (longest[a] + longest[b]) + 1) & (dist > 0)
    a, b, dist = a[near], b[near], dist[near]
    rowwise = np.lexsort((b, a))
    return a[rowwise], b[rowwise], dist[rowwise]


def _within_across(xs: np.ndarray, targets: np.ndarray, reach: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Every pair (i, j) of a point ``xs[i]`` and a target ``targets[j]`` at most ``reach[i]``
    apart across (x): what the exact tests of nearness are then asked of, instead of every pair
    (a frame of noise holds thousands of marks: their every pair took gigabytes)."""
    order = np.argsort(targets, kind="stable")
    sorted_x = targets[order]
    first = np.searchsorted(sorted_x, xs - reach, side="left")
    counts = np.searchsorted(sorted_x, xs + reach, side="right") - first
    rows = np.repeat(np.arange(len(xs)), counts)
    cols = np.arange(counts.sum()) - np.repeat(np.cumsum(counts) - counts, counts) + np.repeat(first, counts)
    return rows, order[cols]


def _largest_variance(moments: np.ndarray) -> np.ndarray:
    """The largest eigenvalue of each mark's second moments (xx, xy, yy): its variance along
    its longest direction."""
    xx, xy, yy = moments[:, 0], moments[:, 1], moments[:, 2]
    return (xx + yy) / 2 + np.sqrt(((xx - yy) / 2) ** 2 + xy**2)


def index_frame(rank: np.ndarray, pip: np.ndarray, down: np.ndarray, height: float, scale: float = 1.0) -> np.ndarray:
    """The 2 x 3 affine map from a warped card's pixels to the frame's, for an index whose rank
    (``height`` tall, read as ``scale`` of ``rank_h``) and pip have those centres."""
    tune = tuned(TUNING)
    right = np.array([down[1], -down[0]])
    k = height / (tune.rank_h * scale)
    top = rank - down * height / 2
    column = (rank + pip) / 2
    anchor = top + right * float(np.dot(column - top, right))
    origin = anchor - tune.column_x * k * right - tune.rank_top * k * down
    return np.array([[k * right[0], k * down[0], origin[0]], [k * right[1], k * down[1], origin[1]]], np.float32)


def index_patch(image: np.ndarray, frame: np.ndarray, x0: int, y0: int, w: int, h: int) -> np.ndarray:
    """The frame's pixels at warped-card pixels [x0, x0 + w) x [y0, y0 + h)."""
    m = frame.copy()
    m[:, 2] += m[:, 0] * x0 + m[:, 1] * y0
    flags = cv2.WARP_INVERSE_MAP | cv2.INTER_LINEAR
    return cv2.warpAffine(image, m, (w, h), flags=flags, borderMode=cv2.BORDER_REPLICATE)


def index_sample(grey: np.ndarray, frames: np.ndarray, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
    """``grey`` at warped-card points (``xs``, ``ys``: broadcastable grids) through each of the
    frames (F x 2 x 3): F x grid, bilinear, one remap for all."""
    tune = tuned(TUNING)
    xs, ys = np.broadcast_arrays(np.asarray(xs, np.float32), np.asarray(ys, np.float32))
    f = frames[:, :, :, None, None].astype(np.float32)
    mx = f[:, 0, 0] * xs + f[:, 0, 1] * ys + f[:, 0, 2]
    my = f[:, 1, 0] * xs + f[:, 1, 1] * ys + f[:, 1, 2]
    shape, size = mx.shape, mx.size
    width = tune.remap_width
    pad = -size % width  # remap takes maps of fewer than 32767 rows: one wide map, padded
    maps = [np.pad(m.ravel(), (0, pad)).reshape(-1, width) for m in (mx, my)]
    out = cv2.remap(grey, *maps, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return out.ravel()[:size].reshape(shape).astype(np.float32)


def _index_ink(colour: np.ndarray) -> np.ndarray:
    """Which pixels of a BGR picture (uint8) could be an index's ink: grey (``tinted``) or red
    (``tinted_red``), as a 0/255 mask. An index is printed black or red."""
    tune = tuned(TUNING)
    b, g, r = cv2.split(colour)
    bluegreen = cv2.max(b, g)
    grey = cv2.compare(cv2.subtract(cv2.max(bluegreen, r), cv2.min(cv2.min(b, g), r)), float(tune.tinted), cv2.CMP_LT)
    red = cv2.compare(cv2.subtract(r, bluegreen), float(tune.tinted_red), cv2.CMP_GE)
    return cv2.bitwise_or(grey, red)


def ink_tint(corner: np.ndarray) -> float:
    """How much of a corner's ink (BGR; pixels 60 grey levels darker, in the darkest channel,
    than its paper) is tinted: neither grey nor red (``_index_ink``). A page's coloured print
    is so; an index is not."""
    low = corner.min(axis=2)
    ink = low < np.percentile(low, 90) - 60
    if ink.sum() < 10:
        return 0.0
    return float((_index_ink(corner)[ink] == 0).mean())


def levelled(look: np.ndarray) -> np.ndarray | None:
    """An index look (BGR, warped-card pixels from the corner) with its rank's ink deepened to
    its pip's: each pixel's difference from the paper, in every channel, times the pip's ink over
    the rank's (pale_gain at most), so a red rank stays red. None where the rank is not pale
    (pale_rank or more of the pip's ink) or no pip shows; inks are each band's 95th percentile of
    darkness (the darkest channel, from 255) over the look's median."""
    tune = tuned(TUNING)
    dark = 255.0 - look.min(axis=2).astype(np.float32)
    paper = float(np.median(dark))
    (r0, r1), (p0, p1), (c0, c1) = _RANK_BAND, _PIP_BAND, _INDEX_COLUMN
    rank = float(np.percentile(dark[r0:r1, c0:c1], 95)) - paper
    pip = float(np.percentile(dark[p0:p1, c0:c1], 95)) - paper
    if pip < tune.pale_pip or rank <= tune.no_rank_ink or rank >= tune.pale_rank * pip:
        return None
    out = look.astype(np.float32)
    paper_bgr = np.median(out.reshape(-1, 3), axis=0)
    band = out[r0:r1, c0:c1]
    out[r0:r1, c0:c1] = paper_bgr - (paper_bgr - band) * min(pip / rank, tune.pale_gain)
    return np.clip(out, 0, 255).astype(np.uint8)


def _read_deepened(
    deck: Deck, image: np.ndarray, looks: list[np.ndarray], frames: list[np.ndarray]
) -> list[tuple[int, int, float]]:
    """Each index's reading (rank, suit, and the confidence of one witness) from its ``scales``
    looks (in order, an index after another) with their pale ranks ``levelled``, as
    ``find_indices`` reads them: averaged, the pip ranks ruled out beside a picture."""
    tune = tuned(TUNING)
    deepened = [look if (deeper := levelled(look)) is None else deeper for look in looks]
    rank_p, suit_p = (
        p.reshape(len(frames), len(tune.scales), -1).mean(axis=1) for p in deck.posteriors(deck.net.read(deepened))
    )
    rank_p = beside_pictures(image, frames, rank_p)
    out = []
    for rank_row, suit_row in zip(rank_p, suit_p, strict=True):
        rank, suit = int(rank_row.argmax()), int(suit_row[:-1].argmax())
        out.append((rank, suit, float(min(rank_row[rank], suit_row[suit])) ** 2))
    return out


def paper_beyond(low: np.ndarray, skip: np.ndarray) -> bool:
    """Whether paper shows outside the ``skip`` mask (grown by ``skip_band``) in a frame's
    darkest channel ``low``: a ``paper_span`` square of pixels bright enough (``paper``).
    An index is only taken on paper (``paper_shares``), so where the cards found are all the
    paper in view, no card is left to find by its index: on a dark table (felt, wood) that is
    most frames, and the search's ink marks, pairs and readings (1-2 ms of a 800 x 600 frame)
    are left out. Judged on every other pixel each way (0.1 ms)."""
    tune = tuned(TUNING)
    half = ((low.shape[1] + 1) // 2, (low.shape[0] + 1) // 2)  # OpenCV's nearest pixels: 4x numpy's speed
    low = cv2.resize(low, half, interpolation=cv2.INTER_NEAREST)
    skip = cv2.resize(skip, half, interpolation=cv2.INTER_NEAREST)
    band, span = (
        2 * (tune.skip_band // 2) + 1,
        (tune.paper_span + 1) // 2,
    )  # in half pixels: skip_band each way; 5-6 pixels
    beyond = cv2.compare(cv2.dilate(skip, np.ones((band, band), np.uint8)), 0, cv2.CMP_EQ)
    paper = cv2.bitwise_and(cv2.compare(low, tune.paper, cv2.CMP_GE), beyond)
    return cv2.countNonZero(cv2.erode(paper, np.ones((span, span), np.uint8))) > 0


def paper_shares(low: np.ndarray, frames: np.ndarray) -> np.ndarray:
    """How much of each index frame's (F x 2 x 3) corner is paper, bright in the darkest channel
    ``low`` (0 where even its brightest is too dark: a picture, wood): ``paper_share`` or more is
    a corner of paper, ``shaded_share`` one in shade. Asked first, as most ink marks on a table
    fail it.
    The paper is sought in the index's column (``paper_width``), not the reader's whole corner:
    a court card's big pip and picture frame reach into that (in the darkest channel a red pip
    is as dark as ink): a jack under a CD case fails so."""
    tune = tuned(TUNING)
    _, ch, _, _ = corner_box(CARD_H, CARD_W, 0)
    corner = index_sample(low, frames, np.arange(2.0, tune.paper_width, 5.0)[None, :], np.arange(2.0, ch, 5.0)[:, None])
    corner = corner.reshape(len(frames), -1)
    paper = np.percentile(corner, 75, axis=1)
    return np.where(paper >= tune.paper, (corner > paper[:, None] - 25).mean(axis=1), 0.0)


def sides_strength(grey: np.ndarray, frames: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For each index frame (F x 2 x 3): how strongly a card's left side and top side show where
    the frame puts them (the grey step across the strongest line in each side's range, over one
    pixel of the frame either way, averaged along the side)."""
    tune = tuned(TUNING)
    pixel = 1.0 / np.linalg.norm(frames[:, :, 0], axis=1)[:, None, None]  # warped pixels a frame pixel
    rows = np.arange(tune.rank_top, tune.rank_top + 1.9 * tune.rank_h, 3.0)[:, None]
    at = np.arange(tune.left_side[0], tune.left_side[1] + 1, dtype=np.float32)[None, :]
    step = [index_sample(grey, frames, at + sign * pixel, rows) for sign in (1, -1)]
    left = np.abs((step[0] - step[1]).mean(axis=1)).max(axis=1)
    cols = np.arange(0.0, 40.0, 3.0)[None, :]
    at = np.arange(tune.top_side[0], tune.top_side[1] + 1, dtype=np.float32)[:, None]
    step = [index_sample(grey, frames, cols, at + sign * pixel) for sign in (1, -1)]
    top = np.abs((step[0] - step[1]).mean(axis=2)).max(axis=1)
    return left, top


def mirrored(frames: np.ndarray, downs: np.ndarray, heights: np.ndarray, among: np.ndarray) -> list[np.ndarray]:
    """For each index frame, the others (of those ``among`` marks, a mask) that could be the
    same card's other index: facing the other way, about as big, each at the corner of the card
    the other implies opposite its own. A card on a table as pale as itself shows no sides, but
    its two indices so placed are no accident of a printed page (whose marks all face one way)."""
    tune = tuned(TUNING)
    out: list[np.ndarray] = [np.zeros(0, np.intp)] * len(frames)
    at = np.nonzero(among)[0]
    if len(at) < 2:
        return out
    outlines = card_outlines(frames[at])
    short = np.linalg.norm(outlines[:, 1] - outlines[:, 0], axis=1)
    reach = tune.mirror_reach * short
    k, m = _within_across(outlines[:, 0, 0], outlines[:, 2, 0], reach)  # k's index corner near m's far corner?

    def near(i: np.ndarray, j: np.ndarray) -> np.ndarray:
        return np.linalg.norm(outlines[i, 0] - outlines[j, 2], axis=1) < reach[i]

    ratio = heights[at][k] / heights[at][m]
    facing = (np.einsum("ij,ij->i", downs[at][k], downs[at][m]) < -tune.down_agrees) & (ratio < tune.mirror_size)
    keep = near(k, m) & near(m, k) & facing & (ratio > 1 / tune.mirror_size)
    k, m = k[keep], m[keep]
    for n in np.unique(k):
        out[at[n]] = at[np.sort(m[k == n])]
    return out


def card_outline(frame: np.ndarray) -> np.ndarray:
    """The whole card an index frame implies (4 x 2 image pixels, the index corner first)."""
    return card_outlines(frame[None])[0]


def card_outlines(frames: np.ndarray) -> np.ndarray:
    """``card_outline`` of many frames (F x 2 x 3) at once: F x 4 x 2."""
    tune = tuned(TUNING)
    x0, y0 = tune.card_origin
    local = np.array([[x0, y0, 1], [x0 + CARD_W, y0, 1], [x0 + CARD_W, y0 + CARD_H, 1], [x0, y0 + CARD_H, 1]])
    return np.einsum("pk,fjk->fpj", local, frames).astype(np.float32)


def fitted(gray: np.ndarray, corners: np.ndarray, lines: np.ndarray) -> list[np.ndarray]:
    """Outlines of the card an index implies (``Sighting.corners``), scaled about its index
    corner to the size at which all four sides are edges in the picture (``gray``; a point on
    ``lines``, the picture's ``fans.line_map``, counts too: a card's side over another is a thin
    shadow), and turned a little (``fit_turns``: an index's direction is a few degrees off, and
    scaled along a wrong one the far sides miss the card's). The index fixes the card's corner.
    Each turn's best size where every side is ``fit_whole`` an edge, the best turns first, at
    most ``fit_tries``; then the best sizes ``fit_apart`` from those (``fit_more``): a court
    card's frame can be such an outline too, or one reaching over the cards under it, so the
    caller reads each and takes the first that reads as the index does. A card found so lies
    whole: on top. Where no size fits even with the corner moved, the best tries are moved onto
    the edges nearby (``refined_fits``)."""
    tries = _fits(gray, corners, lines)
    if tries:
        return tries
    moved = _corner_on_edges(gray, corners, lines)
    tries = _fits(gray, moved, lines) if moved is not None else []
    return tries or refined_fits(gray, corners, lines)


def refined_fits(gray: np.ndarray, corners: np.ndarray, lines: np.ndarray) -> list[np.ndarray]:
    """``fitted``'s last resort: its best tries (``fit_refined``) each moved onto the edges
    nearby (``detect.refine_quads``), those then every side ``fit_refined_whole`` an edge, the
    most first."""
    tune = tuned(TUNING)
    quads = _fit_tries(corners).reshape(-1, 4, 2)
    support = np.where(_in_frame(quads, gray.shape), edge_supports(gray, quads, lines), -1.0)
    best = [n for n in np.argsort(-support, kind="stable")[: tune.fit_refined] if support[n] > 0]
    if not best:
        return []
    starts = [CardQuad(quads[n], 1.0) for n in best]
    moved = [refine_quads(gray, [q], tune.fit_reach * q.short_side)[0].corners.astype(np.float32) for q in starts]
    after = edge_supports(gray, np.stack(moved), lines)
    return [moved[n] for n in np.argsort(-after, kind="stable") if after[n] >= tune.fit_refined_whole]


def _fits(gray: np.ndarray, corners: np.ndarray, lines: np.ndarray) -> list[np.ndarray]:
    """``fitted``, about the index corner where the outline puts it."""
    tune = tuned(TUNING)
    quads = _fit_tries(corners)
    inside = _in_frame(quads, gray.shape)
    if not inside.any():
        return []  # a side past the frame's edge is no evidence either way
    support = np.where(inside, edge_supports(gray, quads.reshape(-1, 4, 2), lines).reshape(inside.shape), -1.0)
    best = support.argmax(axis=1)
    score = support[np.arange(len(tune.fit_turns)), best]
    ranked = [t for t in np.argsort(-score, kind="stable")[: tune.fit_tries] if score[t] >= tune.fit_whole]
    tries = [(int(t), int(best[t])) for t in ranked]
    for _ in range(tune.fit_more if tries else 0):
        sizes = tune.fit_scales[[s for _, s in tries]]
        ratio = tune.fit_scales[None, :] / sizes[:, None]
        apart = np.all((ratio >= tune.fit_apart) | (ratio <= 1 / tune.fit_apart), axis=0)  # scales apart from every try
        others = np.where(apart[None, :] & (support >= tune.fit_whole), support, -1.0)
        t, s = np.unravel_index(int(others.argmax()), others.shape)  # the first best: the best turn, smallest size
        if others[t, s] < tune.fit_whole:
            break
        tries.append((int(t), int(s)))
    return [quads[t, s] for t, s in tries]


def _in_frame(quads: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """Which outlines (..., 4, 2) lie wholly in a frame of that shape: a side past its edge is no
    evidence either way."""
    h, w = shape[:2]
    return (quads.min(axis=(-2, -1)) >= 0) & (quads[..., 0].max(axis=-1) < w) & (quads[..., 1].max(axis=-1) < h)


def _corner_on_edges(gray: np.ndarray, corners: np.ndarray, lines: np.ndarray) -> np.ndarray | None:
    """An index's outline moved so that its two sides meeting at the index corner lie on edges,
    each moved across itself (``fit_shift``), judged on the part near the corner (the outline at
    its smallest fitted size); None where no move puts both on edges (``fit_whole``) or none is
    needed."""
    tune = tuned(TUNING)
    corner = corners[0]
    small = corner + (corners - corner) * tune.fit_scales[0]
    across = corners[3] - corners[0], corners[1] - corners[0]  # moving the top side, then the left one
    short = float(np.linalg.norm(across[1]))
    steps = np.arange(-tune.fit_shift, tune.fit_shift + 1e-6, tune.fit_step, dtype=np.float32) * short
    moves = []
    for side, way in ((0, across[0]), (3, across[1])):
        unit = way / max(float(np.linalg.norm(way)), 1e-6)
        shifted = small[None] + steps[:, None, None] * unit[None, None]
        share = side_supports(gray, shifted.astype(np.float32), lines)[:, side]
        if share.max() < tune.fit_whole:
            return None
        best = np.flatnonzero(share == share.max())
        moves.append(steps[best[np.argmin(np.abs(steps[best]))]] * unit)  # the least move among the best
    if not np.any(moves[0]) and not np.any(moves[1]):
        return None
    return (corners + moves[0] + moves[1]).astype(np.float32)


def _fit_tries(corners: np.ndarray) -> np.ndarray:
    """Every outline ``fitted`` tries for an index's outline: T x S x 4 x 2 (turns, scales)."""
    tune = tuned(TUNING)
    corner = corners[0]
    turns = np.radians(tune.fit_turns)
    cos, sin = np.cos(turns), np.sin(turns)
    rotations = np.stack([np.stack([cos, -sin], -1), np.stack([sin, cos], -1)], -2)  # T x 2 x 2
    turned = ((corners - corner)[None] @ rotations.transpose(0, 2, 1)).astype(np.float32)  # T x 4 x 2
    return corner + turned[:, None] * tune.fit_scales[None, :, None, None]


def fit_box(corners: np.ndarray) -> np.ndarray:
    """The box (x0, y0, x1, y1, image pixels) that every outline ``fitted`` tries for an index's
    outline lies in."""
    points = _fit_tries(corners).reshape(-1, 2)
    return np.concatenate([points.min(axis=0), points.max(axis=0)])


def outlines_in(image: np.ndarray, region: np.ndarray, down: np.ndarray, most: int = 3) -> list[np.ndarray]:
    """The outlines implied (``card_outline``) by indices found in a region of a BGR frame (4 x 2
    image pixels: a corner of an outline whose reading showed an index there), whose rank-to-pip
    direction is the card's ``down`` there (a unit vector, within ``down_agrees``): at most
    ``most``, the biggest rank first. No side is sought: the corner's reading says an index is
    there, and the caller fits each outline to the picture's edges (``fitted``)."""
    tune = tuned(TUNING)
    h, w = image.shape[:2]
    x0, y0 = np.maximum(np.floor(region.min(axis=0)).astype(int) - 4, 0)
    x1, y1 = np.minimum(np.ceil(region.max(axis=0)).astype(int) + 4, (w, h))
    if x1 - x0 < tune.mark_px[0] or y1 - y0 < tune.mark_px[0]:
        return []
    centres, moments, joins = ink_marks(darkest(image[y0:y1, x0:x1]), colour=image[y0:y1, x0:x1])
    if len(centres) < 2:
        return []
    a, b, downs, heights = index_pairs(centres, moments, joins)
    centres = centres + np.array([x0, y0], np.float64)
    out = []
    for i in np.argsort(-heights, kind="stable"):
        if float(np.dot(downs[i], down)) >= tune.down_agrees and len(out) < most:
            out.append(card_outline(index_frame(centres[a[i]], centres[b[i]], downs[i], float(heights[i]))))
    return out


def may_be_sure(rank_p: np.ndarray, suit_p: np.ndarray, threshold: float) -> np.ndarray:
    """Whether each index, of one look's posteriors (rows), can still be read surely once its
    ``scales`` looks are averaged: that needs its rank and suit at sqrt(``threshold``) on
    average (a lone index's confidence is squared), so at ``len(scales)`` sqrt(threshold) less
    the other looks' most (1 each) in every look."""
    tune = tuned(TUNING)
    least = len(tune.scales) * np.sqrt(max(threshold, 0.0)) - (len(tune.scales) - 1)
    return (rank_p[:, _RANKS].max(axis=1) >= least) & (suit_p[:, :-1].max(axis=1) >= least)


def _glimpsed(at: list[int], rank_p: np.ndarray, suit_p: np.ndarray) -> dict[int, str]:
    """Candidates' codes from one look, where it reads rank and suit ``facing_least`` surely (one
    witness's squared): what a sure index's other index, facing it, must read to vouch for it."""
    tune = tuned(TUNING)
    ranks, suits = rank_p[:, _RANKS].argmax(axis=1), suit_p[:, :-1].argmax(axis=1)
    every = np.arange(len(at))
    sure = np.minimum(rank_p[:, _RANKS][every, ranks], suit_p[every, suits]) ** 2 >= tune.facing_least
    codes = zip(at, ranks, suits, sure, strict=True)
    return {i: RANK_CLASSES[_RANKS[r]] + SUIT_CLASSES[s] for i, r, s, ok in codes if ok}


def beside_pictures(image: np.ndarray, frames: list[np.ndarray], rank_p: np.ndarray) -> np.ndarray:
    """The indices' rank posteriors (rows; through their ``frames``), the pip ranks ruled out of
    each read as a court rank with a picture beside it (``picture_strip``)."""
    tune = tuned(TUNING)
    out = rank_p.copy()
    cw = corner_box(CARD_H, CARD_W, 0)[3]  # the index column's width
    for row, frame in zip(out, frames, strict=True):
        if int(np.argmax(row)) not in COURT_CLASSES:
            continue
        if (
            inks(index_patch(image, frame, cw, 10, tune.picture_strip, CARD_H // 2 - 10))
            >= tuned(MIDDLE_TUNING).picture_inks
        ):
            row[PIP_CLASSES] = 0.0
            row /= row.sum()
    return out


def find_indices(image: np.ndarray, deck: Deck, threshold: float, skip: np.ndarray | None = None) -> list[Sighting]:
    """Every card index in a BGR frame outside ``skip`` (a mask: the cards found already) whose
    card's sides show beside it (or show weakly, and it reads ``weak_sides_sure`` in an index's
    ink; or its other index faces it), read; the confidence of a lone index is its reading's squared
    (one witness, as ``reader`` weighs a lone corner), below ``threshold`` its code is None (and
    one whose first look rules out reaching ``threshold`` is left out).
    A grey frame is read as grey in all three channels (the corner network takes colour)."""
    tune = tuned(TUNING)
    if image.ndim == 2:
        image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    low = darkest(image)  # the search's, and the paper's beyond the cards: taken once
    if skip is not None and not paper_beyond(low, skip):
        return []
    centres, moments, joins = ink_marks(low, skip, image)  # the darkest channel is grey: taken once
    if len(centres) < 2:
        return []
    a, b, down, height = index_pairs(centres, moments, joins)
    pairs = zip(centres[a], centres[b], down, height, strict=True)
    frames = np.array([index_frame(rank, pip, d, float(h)) for rank, pip, d, h in pairs])
    if not len(frames):
        return []
    shares = paper_shares(low, frames)
    shaded, papery = shares >= tune.shaded_share, shares >= tune.paper_share
    sided, weak = np.zeros(len(frames), bool), np.zeros(len(frames), bool)
    if shaded.any():  # the sides of those only: most marks on a table are no index on paper
        left, top = sides_strength(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), frames[shaded])
        sided[shaded] = np.minimum(left, top) >= tune.side_edge
        shows = (np.maximum(left, top) >= tune.shown_side) | (np.minimum(left, top) >= tune.faint_side)
        weak[shaded] = shows & ~sided[shaded] & papery[shaded]  # in a shaded column: both sides, or none
    partners = mirrored(frames, down, height, papery)
    pale = papery & ~sided & ~weak & np.array([p.size > 0 for p in partners])  # sides unseen, the other index there
    candidates = [(i, frames[i]) for i in np.nonzero(sided | weak | pale)[0]]
    if not candidates:
        return []
    if len(candidates) > tune.candidates_most:  # a frame of noise or fine texture: the most papery are read
        most = sorted(range(len(candidates)), key=lambda n: -shares[candidates[n][0]])[: tune.candidates_most]
        candidates = [candidates[n] for n in sorted(most)]
    _, ch, _, cw = corner_box(CARD_H, CARD_W, 0)

    def looks(at: list[tuple[int, np.ndarray]], scales: tuple[float, ...]) -> list[np.ndarray]:
        """The candidates' looks, one a candidate and scale, scales inner."""
        return [
            index_patch(image, index_frame(centres[a[i]], centres[b[i]], down[i], float(height[i]), s), 0, 0, cw, ch)
            for i, _ in at
            for s in scales
        ]

    def posteriors(at: list[tuple[int, np.ndarray]], scales: tuple[float, ...]) -> tuple[np.ndarray, np.ndarray]:
        """The candidates' posteriors (rank, suit), one row a candidate and scale, scales inner."""
        return deck.posteriors(deck.net.read(looks(at, scales)))

    # Each candidate's middle look is read first: on a busy desk most of a page's print reads
    # no rank there that could be sure, and its other looks are left unread.
    middle = tune.scales.index(1.0)
    firsts = {i: index_patch(image, frame, 0, 0, cw, ch) for i, frame in candidates}  # each frame is its 1.0 look's
    rank_1, suit_1 = deck.posteriors(deck.net.read(list(firsts.values())))
    glimpsed = _glimpsed([i for i, _ in candidates], rank_1, suit_1)
    promising = may_be_sure(rank_1, suit_1, threshold)
    # One whose sides show weakly and whose other index is nowhere is taken only at weak_sides_sure:
    # on a busy desk most print beside a page's edge is such, and its other looks are left unread.
    alone = np.array([weak[i] and not partners[i].size for i, _ in candidates])
    promising &= ~alone | may_be_sure(rank_1, suit_1, tune.weak_sides_sure)
    candidates = [c for c, keep in zip(candidates, promising, strict=True) if keep]
    if not candidates:
        return []
    rest = tuple(s for s in tune.scales if s != 1.0)
    rank_r, suit_r = posteriors(candidates, rest)
    rank_p, suit_p = (  # every look of each candidate, in ``scales`` order, averaged
        np.insert(others.reshape(len(candidates), len(rest), -1), middle, first[promising], axis=1).mean(axis=1)
        for others, first in ((rank_r, rank_1), (suit_r, suit_1))
    )
    rank_p = beside_pictures(image, [frame for _, frame in candidates], rank_p)
    every = np.arange(len(candidates))
    ranks, suits = rank_p.argmax(axis=1), suit_p[:, :-1].argmax(axis=1)  # an index always has a suit
    confidences = np.minimum(rank_p[every, ranks], suit_p[every, suits]).astype(np.float64) ** 2  # one witness
    # Those read unsurely whose rank is pale beside the pip are read again, the rank levelled.
    greyed = [
        n
        for n in every
        if tune.pale_read <= confidences[n] < tune.pale_sure and levelled(firsts[candidates[n][0]]) is not None
    ]
    if greyed:
        again = _read_deepened(
            deck, image, looks([candidates[n] for n in greyed], tune.scales), [candidates[n][1] for n in greyed]
        )
        for n, (rank, suit, surer) in zip(greyed, again, strict=True):
            if (rank, suit) == (ranks[n], suits[n]) and surer > confidences[n]:  # the same card, more surely
                confidences[n] = surer
    # Each candidate's code, where read surely: a pale one's partner must read alike.
    codes = {
        i: RANK_CLASSES[ranks[n]] + SUIT_CLASSES[suits[n]]
        for n, (i, _) in enumerate(candidates)
        if confidences[n] >= threshold
    }
    read: list[tuple[float, Sighting, float]] = []
    for n, (i, frame) in enumerate(candidates):
        if RANK_CLASSES[ranks[n]] in ("none", "joker"):
            continue  # a joker's index is letters, not a rank over a pip: its outline finds it
        code, confidence = RANK_CLASSES[ranks[n]] + SUIT_CLASSES[suits[n]], float(confidences[n])
        facing = i in codes and any(codes.get(j) == code for j in partners[i])
        glimpse = confidence >= tune.glimpse_vouches and any(glimpsed.get(j) == code for j in partners[i])
        if pale[i] and not (facing or glimpse):
            continue  # on a table as pale as the card only the card's other index, read alike, vouches
        sure = confidences[n] >= tune.weak_sides_sure
        if weak[i] and not (facing or glimpse or (sure and ink_tint(firsts[i]) <= tune.tinted_ink)):
            continue  # sides showing weakly: its other index vouches, or a sure reading in an index's ink
        at, pip = ((float(centres[m][0]), float(centres[m][1])) for m in (a[i], b[i]))
        sighting = Sighting(card_outline(frame), code if confidence >= threshold else None, confidence, at, pip, facing)
        read.append((confidence, sighting, float(height[i])))
    found: list[Sighting] = []
    for _, sighting, size in sorted(read, key=lambda r: -r[0]):
        x, y = sighting.rank_at
        if all(np.hypot(x - s.rank_at[0], y - s.rank_at[1]) >= tune.same_index * size for s in found):
            found.append(sighting)  # else the same rank, paired with another mark: read less surely
    return found

"""Reading a card's rank and suit from its corner indices, with a confidence, or saying "unsure".

A warped card (``detect.warp_card``) has its index in the top-left corner and, turned round, in
the bottom-right one. The corner network (``vision.corner_net``) reads each corner on its own:
a rank (or a joker, or "no index here") and a suit, each with a probability. The corners are
then weighed together (``weigh_witnesses``), so a thumb or an overlapping card on one corner does not
blind the reader, with the middle of the card as a font-free witness (``vision.middle``): the
number of pips and the big pips' suit, or a picture. Below the threshold the answer is ``None``:
the referee asks for the card again rather than hear a guess.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from functools import cached_property

import cv2
import numpy as np

from vision.corner_net import RANK_CLASSES, SUIT_CLASSES, CornerNet, CornerOutput, byte_percentiles
from vision.deck import JOKER, NO_INDEX, Deck, builtin_deck
from vision.ink import TUNING as INK_TUNING
from vision.ink import IndexInks, Planes, mark_red_share
from vision.middle import (
    BLOCKED,
    CORNER_H,
    CORNER_W,
    PIP_RANKS,
    centre_red_share,
    centre_witnesses,
    court_ends,
    foreign_middle,
    is_back,
    least_pips,
)
from vision.middle import TUNING as MIDDLE_TUNING
from vision.pictures import Pictures
from vision.tuning import tuned

UNSURE = 0.7  # default confidence threshold: below it, "unsure" (measured in the benchmark)
BACK = "back"
FACE_SCALE = 0.5  # the face is read at this size of a warped card's (``Warped``)


@dataclass(frozen=True)
class ReaderTuning:
    """The tuned numbers of reading an outline's card, each with its unit and why it has its value
    (``vision.tuning``: a test or an experiment reads with others)."""

    paper_percentile: int = 90  # a card's paper: its face's brightest tenth, in each colour (``Warped.balanced``)
    # A good camera shows red pips at a red share (``ink.red_share``) of 0.28-0.98, most over 0.5; a
    # cheap webcam's dull reds 0.14-0.3 (rendered camera looks' tuning scenes).
    vivid_red: float = 0.5
    max_vivid: float = 3.0  # ... an unsure card's dull reds are made that vivid, by at most this gain
    balance_from: float = 0.04  # paper whose colours differ less than this share of its brightest is left alone
    max_balance: float = 1.6  # no colour scaled by more than this (or less than its inverse)
    pictured: float = 0.8  # how sure a court is read from its picture alone (``vision.pictures``)
    suit_says: float = 0.5  # a corner's suit read this surely leaves the picture to tell only which of its courts
    middle_doubt: float = 0.05  # how likely the middle shows what it shows when the card is another rank or suit
    near_count: float = 0.1  # ... a pip count one short of or over the rank's (a pip lost to glare, a speck counted)
    disagree: float = 0.6  # the most a card whose corners disagree can score, unless the middle settles it
    # a court card whose corners' ranks its picture overrules: its suit read this surely, at least
    overruled_suit: float = 0.9


TUNING = ReaderTuning()


@dataclass(frozen=True)
class CornerReading:
    rank: str
    suit: str
    rank_confidence: float
    suit_confidence: float


@dataclass(frozen=True)
class Reading:
    """What a card is: a code (``QH``, ``RJ``, ``back``) or None when unsure, and how sure."""

    code: str | None
    confidence: float
    corners: tuple[CornerReading | None, CornerReading | None] = (None, None)


def corner_box(h: int, w: int, which: int) -> tuple[int, int, int, int]:
    """Rows and columns (top, bottom, left, right) of a card's top-left index region (which=0)
    or of its bottom-right one (which=1)."""
    ch, cw = round(h * CORNER_H), round(w * CORNER_W)
    return (0, ch, 0, cw) if which == 0 else (h - ch, h, w - cw, w)


def corner_image(card: np.ndarray, which: int) -> np.ndarray:
    """The top-left index region (which=0) or the bottom-right one turned upright (which=1)."""
    top, bottom, left, right = corner_box(*card.shape[:2], which)
    corner = card[top:bottom, left:right]
    return corner if which == 0 else cv2.flip(corner, -1)


def corner_planes(card: Planes, which: int) -> Planes:
    """``corner_image``'s region of a card's planes."""
    corner = card.cut(*corner_box(*card.shape, which))
    return corner if which == 0 else corner.turned()


@dataclass(frozen=True)
class Warped:
    """A card seen straight on, as the reader asks it: its two index corners at full size
    (``corner_image``'s, upright: what the corner networks learnt from) and its face at
    ``FACE_SCALE``. The middle's witnesses count pips and weigh inks, which a half-size face
    shows as well, in a third of the time (its planes, its blobs and the warp itself)."""

    face: np.ndarray
    corners: tuple[np.ndarray, np.ndarray]
    # The corner networks' answers for its two corners, by the networks asked (``_networks_read``).
    read_by: dict[CornerNet, CornerOutput] = field(default_factory=dict, compare=False, repr=False)

    def balanced(self) -> Warped:
        """The card with its paper made neutral grey: each colour scaled so that the paper's
        (the face's brightest part) is as bright in all three. A warm lamp, a green tube or a
        camera's wrong white balance tints the whole card alike; judged against its own paper,
        a red index is red again. A picture without colour is left as it is."""
        tune = tuned(TUNING)
        face = self.face
        if face.ndim != 3 or face.shape[2] != 3:
            return self
        pixels = np.ascontiguousarray(face[::3, ::3].reshape(-1, 3).T)  # a ninth of them tell the paper as well
        paper = np.concatenate(byte_percentiles(pixels, (tune.paper_percentile,)))
        if paper.min() < 1 or float(paper.max() - paper.min()) < tune.balance_from * float(paper.max()):
            return self  # neutral already: nothing to mend
        gains = np.clip(paper.mean() / paper, 1 / tune.max_balance, tune.max_balance)
        table = np.clip(np.arange(256, dtype=np.float32)[:, None] * gains + 0.5, 0, 255).astype(np.uint8)
        lut = np.ascontiguousarray(table.reshape(256, 1, 3))
        return Warped(cv2.LUT(face, lut), (cv2.LUT(self.corners[0], lut), cv2.LUT(self.corners[1], lut)))

    @cached_property
    def dull_red(self) -> float | None:
        """The red share of the middle's pips (``middle.centre_red_share``) where they are red
        (``middle`` red_pip) but duller than a good camera shows them (``vivid_red``); else None.
        Pictures are not asked: their inks are many."""
        tune = tuned(TUNING)
        if self.middle[0] == "court":
            return None
        share = centre_red_share(self._planes)
        return share if share is not None and tuned(MIDDLE_TUNING).red_pip < share < tune.vivid_red else None

    def vivid(self, gain: float) -> Warped:
        """The card with its colours' distance from grey multiplied by ``gain`` (at most
        ``max_vivid``): a cheap webcam's dull, brownish reds, which the corner networks read as
        black suits, made as red as a good camera's; black ink, grey already, stays black."""
        tune = tuned(TUNING)
        gain = min(gain, tune.max_vivid)

        def more(picture: np.ndarray) -> np.ndarray:
            f = picture.astype(np.float32)
            grey = f.mean(axis=2, keepdims=True)
            return np.clip(grey + gain * (f - grey) + 0.5, 0, 255).astype(np.uint8)

        return Warped(more(self.face), (more(self.corners[0]), more(self.corners[1])))

    @classmethod
    def of(cls, card: np.ndarray) -> Warped:
        """A warped card at full size (``detect.warp_card``; grey or BGR) as the reader asks it."""
        card = cv2.cvtColor(card, cv2.COLOR_GRAY2BGR) if card.ndim == 2 else card
        if min(card.shape[:2]) < 8:
            raise ValueError("a warped card must be a picture of at least 8 x 8 pixels")
        h, w = card.shape[:2]
        size = (max(1, round(w * FACE_SCALE)), max(1, round(h * FACE_SCALE)))
        face = cv2.resize(card, size, interpolation=cv2.INTER_AREA)
        return cls(face, (corner_image(card, 0), corner_image(card, 1)))

    def face_planes(self) -> Planes:
        """The face's planes, what every witness of the middle cuts its part from (its cells of
        paper as big on the card as a full-size face's); computed once a card."""
        return self._planes

    @cached_property
    def _planes(self) -> Planes:
        return Planes.of(self.face, round(tuned(INK_TUNING).paper_cell * FACE_SCALE))

    def index_planes(self) -> list[Planes]:
        """The face's planes of its two index corners (``corner_image``'s regions, upright): what
        the indices' ink is asked of."""
        return [corner_planes(self._planes, which) for which in (0, 1)]

    @cached_property
    def court_ends(self) -> tuple[str | None, str | None]:
        """``court_ends`` of the face: the suits of a court card's big pips, asked of pictures only."""
        return court_ends(self._planes)

    @cached_property
    def middle(self) -> tuple[str | None, str | None]:
        """``centre_witnesses`` of the face, asked once a card: an unsure card is read again
        through outlines a little off its own (``identify.nudged_looks``), its face the same."""
        return centre_witnesses(self._planes)


def _networks_read(deck: Deck, cards: list[Warped], more: list[np.ndarray]) -> CornerOutput:
    """The networks' answers for the cards' corners (two a card, in order), then for ``more``
    corners: one pass for those not read by this deck's networks before. A card read again
    (``identify.nudged_looks``: its corners' answers averaged with nudged outlines') is not
    passed through them twice (0.4 ms a card)."""
    net = deck.net
    fresh = [card for card in cards if net not in card.read_by]
    asked = [corner for card in fresh for corner in card.corners] + more
    out = net.read(asked)
    for n, card in enumerate(fresh):
        card.read_by[net] = _rows(out, slice(2 * n, 2 * n + 2))
    if len(fresh) == len(cards):
        return out
    parts = [card.read_by[net] for card in cards] + ([_rows(out, slice(2 * len(fresh), None))] if more else [])
    return CornerOutput(*(np.concatenate([getattr(p, k) for p in parts]) for k in ("rank", "suit", "embedding")))


def _rows(out: CornerOutput, rows: slice) -> CornerOutput:
    return CornerOutput(out.rank[rows], out.suit[rows], out.embedding[rows])


def _corner_reading(rank_p: np.ndarray, suit_p: np.ndarray, red: bool) -> CornerReading | None:
    """One corner's answer from the network's probabilities; None when it shows no index.
    ``red`` is the card's ink (both corners' say), which tells a red joker from a black one."""
    rank = int(np.argmax(rank_p))
    if rank == NO_INDEX:
        return None
    if rank == JOKER:
        joker = "RJ" if red else "BJ"
        return CornerReading(joker, "", float(rank_p[rank]), float(rank_p[rank]))
    suit = int(np.argmax(suit_p[:-1]))  # an index always has a suit; "none" only lowers its probability
    return CornerReading(RANK_CLASSES[rank], SUIT_CLASSES[suit], float(rank_p[rank]), float(suit_p[suit]))


def read_cards(
    cards: Sequence[Warped | np.ndarray],
    deck: Deck | None = None,
    threshold: float = UNSURE,
    whole: list[bool] | None = None,
    covered: bool = False,
    looks: list[list[np.ndarray]] | None = None,
) -> list[Reading]:
    """Read warped cards (``Warped``, or full-size pictures) from both index corners (one
    network pass for all) and their middle; below ``threshold``
    a card's code is None. ``whole`` says of each card whether its outline is a card lying whole
    (see ``weigh_witnesses``); unknown, none is. ``covered`` cards lie partly under others, painted out
    (``vision.covered``): their middle is not asked, and the one corner that shows is read.
    ``looks``: for each card, more pictures of its two corners (``corner_image``'s, in pairs),
    through outlines a little off its own; each corner's probabilities are the average.
    An unsure card whose pips are a dull red is read once more with its colours as vivid as a
    good camera's (``Warped.vivid``)."""
    tune = tuned(TUNING)
    deck = deck or builtin_deck()
    cards = [c if isinstance(c, Warped) else Warped.of(c) for c in cards]
    if looks is not None and (len(looks) != len(cards) or any(len(pairs) % 2 for pairs in looks)):
        given = [len(pairs) for pairs in looks]
        raise ValueError(f"looks must give each of the {len(cards)} cards its corners in pairs, got {given}")
    readings = _read_cards(cards, deck, threshold, whole, covered, looks)
    dull = [] if covered else [n for n, r in enumerate(readings) if r.code is None and cards[n].dull_red is not None]
    if dull:
        vivid = [cards[n].vivid(tune.vivid_red / cards[n].dull_red) for n in dull]
        again = _read_cards(vivid, deck, threshold, None if whole is None else [whole[n] for n in dull], False, None)
        for n, reading in zip(dull, again, strict=True):
            if reading.code is not None:
                readings[n] = reading
    return readings


def _read_cards(
    cards: list[Warped],
    deck: Deck,
    threshold: float,
    whole: list[bool] | None,
    covered: bool,
    looks: list[list[np.ndarray]] | None,
) -> list[Reading]:
    """``read_cards``, each card as it is."""
    tune = tuned(TUNING)
    more = [c for pairs in looks or [] for c in pairs]
    rank_p, suit_p = (_averaged(p, 2 * len(cards), looks) for p in deck.posteriors(_networks_read(deck, cards, more)))
    readings = []
    for n, card in enumerate(cards):
        ranks, suits = rank_p[2 * n : 2 * n + 2], suit_p[2 * n : 2 * n + 2]
        face = None if covered else card.face_planes()
        # The indices' ink is asked of the face's corners (a witness asks it of most cards).
        index = list(card.corners) if face is None else card.index_planes()
        middle, suit = (None, None) if face is None else card.middle
        colour = _joker_colour(ranks, index, deck.inks)
        red = colour is True
        found = (_corner_reading(ranks[0], suits[0], red), _corner_reading(ranks[1], suits[1], red))
        if found == (None, None):
            # A back's pattern may look a picture.
            back = face is not None and middle in (None, "court", BLOCKED) and is_back(face)
            readings.append(Reading(BACK, 0.9, found) if back else Reading(None, 0.0, found))
            continue
        shows = [i for i in (0, 1) if found[i] is not None]
        vouched = "covered" if covered else "whole" if whole and whole[n] else None
        ink = None if deck.inks is None else deck.inks.colour(_red_share([index[i] for i in shows]))
        code, confidence = weigh_witnesses(ranks[shows], suits[shows], middle, suit, red, vouched, ink)
        if middle == "court" and (confidence < threshold or len(corners_reading(code, found)) < 2):
            # A picture's big pips, asked where its two indices alone do not settle the card.
            ends = card.court_ends
            if ends[0] is not None and ends[0] == ends[1]:  # both agree: one alone may be another card's
                code, confidence = weigh_witnesses(ranks[shows], suits[shows], middle, ends[0], red, vouched, ink)
            if pip_beside_says_otherwise(code, found, ends):
                confidence = min(confidence, tune.disagree)
        if (
            confidence < threshold
            and face is not None
            and deck.pictures is not None
            and middle in (None, "court", BLOCKED)
        ):
            code, confidence = pictured_reading(deck.pictures, card.face, found, middle, code, confidence)
        if code == "BJ" and colour is None:  # read as a joker: its colour, if no joker's corner told it
            colour = _joker_colour(ranks, index, deck.inks, joker_read=True)
            code = "RJ" if colour else code
            if colour is None:
                confidence = min(confidence, tune.disagree)  # a joker of no colour seen: red or black?
        pictured = middle == "court" or code[:-1] in COURT_RANKS or code in ("RJ", "BJ")
        # A shadow across the middle is no other card's ink, where the pips it leaves show the
        # card's own suit. A pip count's own suit is not taken so: a pile's lower card of the
        # top card's suit would be read for the top.
        own = middle == BLOCKED and suit == code[-1]
        if face is not None and not pictured and not own and foreign_middle(face, [index[i] for i in shows]):
            confidence = min(confidence, tune.disagree)
        readings.append(Reading(code if confidence >= threshold else None, confidence, found))
    return readings


def pictured_reading(
    pictures: Pictures,
    face: np.ndarray,
    found: tuple[CornerReading | None, CornerReading | None],
    middle: str | None,
    code: str,
    p: float,
) -> tuple[str, float]:
    """The court an unsure card's picture shows (``Pictures.court_of``), read ``pictured`` surely
    when something else says so too; else the card as it was read. A suit its corners read
    ``suit_says`` surely (a pip is read more surely than a washed-out rank) leaves the picture
    to tell which of that suit's courts it is; with none so read, the picture is compared with
    every court, and a corner reading its rank or suit, or a middle that is a picture, must
    back it. Where the middle is a picture, a corner reading a pip card's rank is no witness
    (a wire mesh across a queen of diamonds read as a 4C)."""
    tune = tuned(TUNING)
    credible = [c for c in found if c is not None and (middle != "court" or c.rank in COURT_RANKS)]
    said = {c.suit for c in credible if c.suit_confidence >= tune.suit_says}
    if len(said) > 1:
        return code, p
    court = pictures.court_of(face, next(iter(said), None))
    if court is None:
        return code, p
    backed = bool(said) or middle == "court" or any(c.suit == court[-1] or c.rank == court[:-1] for c in credible)
    return (court, tune.pictured) if backed else (code, p)


def pip_beside_says_otherwise(
    code: str, found: tuple[CornerReading | None, CornerReading | None], ends: tuple[str | None, str | None]
) -> bool:
    """Whether a court card read from one corner alone has the big pip beside that index
    (``middle.court_ends``, same end) of another suit: the index's own pip is a fraction of its
    size, and a blurred club there reads as a spade where the big one beside it does not.
    Two corners reading alike outweigh it; a pip at the other end may be another card's."""
    reads = corners_reading(code, found)
    return code not in ("RJ", "BJ") and len(reads) == 1 and ends[reads[0]] not in (None, code[-1])


def corners_reading(code: str, found: tuple[CornerReading | None, CornerReading | None]) -> list[int]:
    """Which corners (0 top-left, 1 bottom-right) read ``code`` (a joker's corner reads its code)."""
    return [n for n, c in enumerate(found) if c is not None and c.rank + c.suit == code]


def _averaged(p: np.ndarray, own: int, looks: list[list[np.ndarray]] | None) -> np.ndarray:
    """The first ``own`` rows of probabilities (two corners a card), each card's two averaged
    with its ``looks``' rows, which follow them in the same order."""
    out, at = p[:own].copy(), own
    for n, pairs in enumerate(looks or []):
        if pairs:
            rows = np.concatenate([out[2 * n : 2 * n + 2], p[at : at + len(pairs)]])
            out[2 * n : 2 * n + 2] = rows.reshape(-1, 2, p.shape[-1]).mean(axis=0)
            at += len(pairs)
    return out


def read_card(card: Warped | np.ndarray, deck: Deck | None = None, threshold: float = UNSURE) -> Reading:
    """Read one warped card; see ``read_cards``."""
    return read_cards([card], deck, threshold)[0]


def _joker_colour(
    rank_p: np.ndarray, corners: list[np.ndarray] | list[Planes], inks: IndexInks | None, joker_read: bool = False
) -> bool | None:
    """A joker's colour (True red, False black), asked once of the card: the share of red in the
    ink of the corners that read as a joker (``mark_red_share``), averaged, so glare or a thumb
    on one corner cannot make one card red and black at once; None where no such corner shows
    its marks (a pale red joker's letters on paper lit unevenly were taken for black, and the
    card is unsure). A card may be read as a joker though neither corner reads one best (a
    picture rules out the pip rank a corner reads, and the joker is the best of the rest): then
    the corners showing an index are asked (a red joker whose corners read 3 first, joker
    next, is no black one). Only a card so read asks them: asking every card's cost an
    eight-card frame 1 ms. An enrolled deck's
    ``inks`` judge the share, as its camera shows its reds and blacks."""
    jokers = [c for p, c in zip(rank_p, corners, strict=True) if int(np.argmax(p)) == JOKER]
    if not jokers and joker_read:
        jokers = [c for p, c in zip(rank_p, corners, strict=True) if int(np.argmax(p)) != NO_INDEX]
    share = _red_share(jokers)
    if inks is not None:
        return inks.colour(share)
    return None if share is None else share > tuned(INK_TUNING).red_share


def _red_share(corners: list[np.ndarray] | list[Planes]) -> float | None:
    """The indices' ``mark_red_share``, averaged over the corners that show a mark; None if none does."""
    shares = [share for share in (mark_red_share(c) for c in corners) if share is not None]
    return float(np.mean(shares)) if shares else None


PIP_CLASSES = [RANK_CLASSES.index(r) for r in PIP_RANKS.values()]  # the ranks a count of pips names
COURT_RANKS = ("J", "Q", "K")
COURT_CLASSES = [RANK_CLASSES.index(r) for r in COURT_RANKS]  # the ranks a picture shows
# The ranks told by a count of two pips or more (an ace's single pip is no count).
COUNTED_RANKS = frozenset(str(n) for n in range(2, 11))


def weigh_witnesses(
    rank_p: np.ndarray,
    suit_p: np.ndarray,
    middle: str | None,
    middle_suit: str | None,
    red: bool,
    outline: str | None = None,
    ink: bool | None = None,
) -> tuple[str, float]:
    """The card's code and confidence from its witnesses: the corners that show an index (the
    network's probabilities) and the middle of the card (the pip count or a picture, and the big
    pips' suit), which does not depend on the deck's font.

    The corners share a font, so they are not independent: their probabilities are combined by a
    geometric mean. The middle weighs each class it contradicts by ``middle_doubt``, so a corner
    torn between 3 and 5 is settled by three pips, and a confident index against the count leaves
    the card unsure; a count one pip off a rank (glare washing a pip out) weighs it by
    ``near_count``, which does not contradict it, nor name it. Corners whose best answers differ
    (an outline spanning two cards, a misread index) score at most ``disagree`` unless the middle
    names the winner itself. So does one
    corner alone that the middle does not confirm: the lower card of a pile shows one index, and
    an outline drawn round it reaches under the top card. A corner the middle rules out (a blurred
    court index read as a number, beside a picture) leaves the other alone. An outline that is
    ``whole`` (every side an edge in the picture) vouches for one corner with a picture in the
    middle, and for one corner's suit; so does a pip count that names the rank, for the suit.
    A picture vouches for one corner's court rank on any outline: were the outline to reach
    under a court card, the index it shows would be that card's or a number the picture rules
    out (a queen whose second index a shadow blurs into a 6). The suit still needs both corners,
    or the whole outline; a lone joker's corner beside a picture is not vouched for (a patch of
    table beside a court card can look one).
    The ``outline`` of a card lying partly under others ("covered", see ``vision.covered``; its
    middle hidden) vouches for its one corner: it is known to be a lower card, and what lies
    under the cards on top was painted out. Vouched, the lone corner counts once (its own
    confidence, squared). ``ink``: the index's colour as an enrolled deck's inks judge it (red
    True, black False), a witness against the suits of the other colour, as the big pips are."""
    tune = tuned(TUNING)
    whole, covered = outline == "whole", outline == "covered"
    every = range(len(RANK_CLASSES))
    vouched = every if covered or (whole and middle == "court") else COURT_CLASSES if middle == "court" else ()
    rank, rank_sure = _witnesses(rank_p, _rank_likelihood(middle), vouched, overrule=whole and middle == "court")
    if rank == JOKER:
        return ("RJ" if red else "BJ"), rank_sure
    vouch_suit = whole or covered or middle == RANK_CLASSES[rank]
    suit_vouched = range(len(SUIT_CLASSES)) if vouch_suit else ()
    suit, suit_sure = _witnesses(suit_p, suit_likelihood(middle_suit, ink), suit_vouched)
    overruled = middle == "court" and all(int(np.argmax(row[:-1])) in PIP_CLASSES for row in rank_p)
    if overruled and suit_sure < tune.overruled_suit:
        suit_sure = min(suit_sure, tune.disagree)  # an index read so poorly tells its suit clearly, or not at all
    return RANK_CLASSES[rank] + SUIT_CLASSES[suit], min(rank_sure, suit_sure)


def _rank_likelihood(middle: str | None) -> np.ndarray:
    """How likely the middle looks as it does for each rank class (A-K, joker; "no index" is
    left alone: the middle says nothing about a corner). Something lying across the middle
    (``BLOCKED``) hides pips, but a joker's picture lies within it: a patch of wood grain, read
    as a joker's corner, shows grain running off the middle."""
    tune = tuned(TUNING)
    like = np.ones(len(RANK_CLASSES))
    least = least_pips(middle)
    if least is not None:
        fewer = [c for c in PIP_CLASSES if c + 1 < least]  # A-10 in order: a class's pips are its index + 1
        like[fewer + COURT_CLASSES] = tune.middle_doubt
    elif middle == BLOCKED:
        like[JOKER] = tune.middle_doubt
    elif middle == "court":
        like[PIP_CLASSES] = tune.middle_doubt
    elif middle is not None:
        like[:-1] = tune.middle_doubt
        counted = RANK_CLASSES.index(middle)
        if middle != "A":  # a lone pip is an ace's own sign, no count a pip off another
            near = [c for c in (counted - 1, counted + 1) if RANK_CLASSES[c] in COUNTED_RANKS]
            like[near] = tune.near_count
        like[counted] = 1.0
    return like


def suit_likelihood(middle_suit: str | None, ink: bool | None = None) -> np.ndarray:
    """How likely the big pips, and the index's ink (red True, black False), look as they do for
    each suit class ("no suit" is left alone: neither says whether an index shows its suit)."""
    tune = tuned(TUNING)
    like = np.ones(len(SUIT_CLASSES))
    if middle_suit is not None:
        like[:-1] = tune.middle_doubt
        like[SUIT_CLASSES.index(middle_suit)] = 1.0
    if ink is not None:
        like[[SUIT_CLASSES.index(s) for s in (("C", "S") if ink else ("D", "H"))]] *= tune.middle_doubt
    return like


def _witnesses(
    probabilities: np.ndarray, likelihood: np.ndarray, vouched: Collection[int] = (), overrule: bool = False
) -> tuple[int, float]:
    """The best index class and its probability: the corners' probabilities (one row each; the
    last class is "no index", which keeps its share) combined by a geometric mean, times the
    middle's likelihood, normalised.

    Capped at ``disagree`` when the middle contradicts the answer; when the corners disagree, or
    the answer is none of theirs (a picture pushing a torn corner to a court rank), and the
    middle does not name the answer itself (a pip count names a rank, but not against a
    corner's answer one pip off it; a picture only rules the pip ranks out); and when one
    corner stands alone (or beside one the middle contradicts) and the middle does not name its
    answer (its own confidence squared instead when the caller
    ``vouched`` for the outline, for that answer's class). With ``overrule`` (a picture in
    an outline lying whole), the middle may overrule both corners: where each one's answer is
    what it rules out and each one's best of the rest is one class, that class is the answer at
    its fused probability (a jack whose J the networks read as a 3 beside a picture); so, too,
    where one corner reads the answer itself and the other what the middle rules out, its best
    of the rest the answer (a queen whose one index is read as an A, Q next: a lone corner,
    squared, would leave her unsure)."""
    tune = tuned(TUNING)
    fused = np.exp(np.log(np.maximum(probabilities, 1e-9)).mean(axis=0)) * likelihood
    fused /= fused.sum()
    index, like = fused[:-1], likelihood[:-1]
    best = int(np.argmax(index))
    sure = float(index[best])
    named = like[best] == like.max() and np.count_nonzero(like == like.max()) == 1
    kept = [i for i, k in enumerate(np.argmax(probabilities[:, :-1], axis=1)) if like[k] > tune.middle_doubt]
    answers = [int(np.argmax(probabilities[i, :-1])) for i in kept]
    said = set(answers)  # each corner's own answer, unless the middle rules it out (a misread corner)
    if best not in said and any(like[k] == tune.near_count for k in said):
        # A count one pip off what a corner says names nothing against it: the pip of the card
        # under a pile's top card, counted with its own, reads a five as a six.
        named = False
    allowed = np.flatnonzero(like > tune.middle_doubt)
    if like[best] <= tune.middle_doubt < like.max():
        sure = min(sure, tune.disagree)  # the middle contradicts the answer
    elif (
        overrule
        and len(probabilities) > 1
        and all(int(allowed[np.argmax(row[allowed])]) == best for row in probabilities[:, :-1])
    ):
        pass  # each corner reads the answer, or what the middle rules out and, of the rest, the answer best
    elif (len(said) > 1 or best not in said) and not named:
        sure = min(sure, tune.disagree)  # the corners disagree, or the middle picked what no corner said
    elif (len(answers) == 1 and not named) or (len(probabilities) == 1 and best not in said):
        # One corner alone (or beside one the middle rules out), unconfirmed: an outline reaching
        # under another card, unless the outline was vouched for otherwise.
        alone = float(probabilities[kept, best].max()) if kept else 0.0  # that corner's own belief
        sure = min(sure, alone) ** 2 if best in vouched and best in said else min(sure, tune.disagree)
    return best, sure

"""From readings frame by frame to the card events the referee consumes.

Each zone of the table (the centre pile, each seat, the stock, the trump place) shows at most one
card on top. A card counts as placed once the same reading has held for ``confirm`` frames in a
row, the card at rest over them (``STILL``: a card in a player's hand, shown round or carried
across a zone, moves from frame to frame); its ``CardSeen`` carries the timestamp of the *first*
frame it was read in, the moment it appeared (sliding to rest, thrown onto the pile), not the
moment it was confirmed. A zone that has shown nothing readable for ``vanish``
frames lost its card (``CardGone``). Unsure frames neither confirm nor break a streak, so a hand
passing over the table, a blurred frame or a thumb on a corner produce no event at all: a phantom
would have to be read as the same card, confidently, frame after frame.

A card is confirmed within ``date_within_ns`` of its first frame or it is dated later, from the
frame its confirming streak began: the sequencer holds a moment only so long for the camera's
word, and a card read jumping or unsurely for seconds (the top of an untidy pile until it is
straightened) would otherwise be reported too late to be played. It is a time, not a count of
frames: a card read once and then hidden by a slapping hand for a few frames, read at rest where
it lay once the hand is gone, landed when it was first read, at 15 frames a second as at 60.

A card lands blurred: the unreadable frames in its zone just before its first reading (at most
``settle`` of them, unbroken) are when it appeared, and its ``CardSeen`` carries the first. A
zone's card that comes back after the zone emptied, before any other card was placed there, was
hidden, not taken: a hand resting on the pile hides it whole (the camera sees no card at all),
a player lifts a card to look at it and puts it down. It is shown again, and no ``CardSeen``
says it was played a second time, where it lies where it lay (``SAME_PLACE``). With two decks
the identical card may be the next one played there (an Oh Hell trick led with the other
deck's queen after the last trick was taken): thrown onto the table, it lands elsewhere, at
another angle, and is played. A zone that has lain bare for ``forget_after_ns`` (3 s, at any
frame rate) since its card was taken forgets it: the trump card of the next deal, which may be
the same card put in the same place, is a new card.

The identical card laid on its twin while the twin stays (a switch in the shedding game, a pair
laid card by card) is a new card when the twin still shows round it where it lay: its index
read (covered) at one of the old card's index corners, or, nothing of it readable, its sides
and face as the frame's picture still shows them (``StillLies``: the frame reader asks the
picture). A card only straightened or pushed aside leaves neither behind.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from table.cards import parse_card
from table.events import CardGone, CardSeen, Event
from vision.calibration import Calibration
from vision.reader import BACK
from vision.seen import SeenCard, bottom_up, holds
from vision.zones import Zone as TableZone
from vision.zones import zone_at

BENEATH = 8  # covered cards a zone remembers: one uncovered where it lay was not played again
INDEX_CORNER = 0.3  # of a card's short side: an index this near an index corner is its own (its middle: ~0.15 in)
SAME_PLACE = 0.25  # a card back where it lay: each corner within this much of its short side of where it was
READING_NS = 100_000_000  # the longest a frame takes from its exposure to its report on the table
STILL = 0.1  # a card at rest: its centre moves less than this much of its short side a frame (a card carried: more)

Zone = tuple[str, int | None]  # zone name and seat (None for shared zones)
ZoneOf = Callable[[tuple[float, float]], Zone | None]
# Whether the frame shows the first card still lying where it lay, under the second laid partly
# over it (``frame_reports``: its sides and its look, on the picture); the tracker sees readings only.
# ``past``: the picture must also have changed where the second card reaches past the first (a
# card laid on it; not asked where the second lies where its twin lay below the first).
StillLies = Callable[[SeenCard, SeenCard, bool], bool]


def table_zones(calibration: Calibration, zones: Sequence[TableZone]) -> ZoneOf:
    """The tracker's ``zone_of`` for a calibrated table: a card's centre (camera pixels) taken to
    table millimetres, and the zone it lies in (``zones.zone_at``) named as the referees know
    zones, by kind ("pile", "seat", "stock", "trump", "cut") and seat; None off every zone."""

    def zone_of(point: tuple[float, float]) -> Zone | None:
        zone = zone_at(zones, calibration.to_table(np.array(point, np.float64)))
        return None if zone is None else (zone.kind, zone.seat)

    return zone_of


@dataclass(frozen=True)
class TrackerConfig:
    confirm: int = 2  # frames a reading must hold to place a card (one unsure frame between: still within three)
    vanish: int = 5  # frames without any card before a zone counts as emptied
    min_confidence: float = 0.5
    settle: int = 1  # unreadable frames just before a card's first reading that date it (it lands blurred)
    ask_after: int = 8  # frames something lies unreadable on a zone before its card is asked for again
    date_within_ns: int = 350_000_000  # a card confirmed later than this after its first frame is dated later
    forget_after_ns: int = 3_000_000_000  # a zone bare this long since its card went has forgotten it

    @classmethod
    def for_camera(cls, confirm: int, lateness_ns: int) -> TrackerConfig:
        """A tracker for a camera whose reports the sequencer waits ``lateness_ns`` for: a card is
        dated from its first frame if confirmed within that less ``READING_NS`` (a third of it at
        most), left for reading the frame that confirms it."""
        return cls(confirm=confirm, date_within_ns=max(1, lateness_ns - min(READING_NS, lateness_ns // 3)))

    @property
    def report_frames(self) -> int:
        """The most frames from a card landing or taken to its event: a card's confirming frames
        and the blurred one before them, or a zone's empty frames (the camera's lateness must cover it)."""
        return max(self.confirm + self.settle, self.vanish)

    def __post_init__(self) -> None:
        for name in ("confirm", "vanish", "ask_after"):
            if getattr(self, name) < 1:
                raise ValueError(f"tracker {name} must be at least 1 frame, got {getattr(self, name)}")
        if self.date_within_ns < 1:
            raise ValueError(f"tracker date_within_ns must be a positive time, got {self.date_within_ns}")
        if self.forget_after_ns < 1:
            raise ValueError(f"tracker forget_after_ns must be a positive time, got {self.forget_after_ns}")
        if self.settle < 0:
            raise ValueError(f"tracker settle must be 0 frames or more, got {self.settle}")


@dataclass
class _ZoneState:
    shown: SeenCard | None = None  # the confirmed card (or a back), as the last frame that read it has it
    candidate: SeenCard | None = None  # the card being confirmed, as its latest reading has it
    candidate_t: int = 0
    candidate_frames: int = 0
    empty_since: int | None = None
    empty_frames: int = 0
    hidden: SeenCard | None = None  # what the zone showed when it emptied: there again next where it lay, hidden
    beneath: deque[SeenCard] = field(default_factory=lambda: deque(maxlen=BENEATH))  # cards covered, latest last
    moved: SeenCard | None = None  # the zone's card read elsewhere, not yet taken to lie there
    moved_frames: int = 0  # frames in a row it has been read there, still
    bare_since: int | None = None  # when the zone's card was taken, while it has shown nothing at all since
    unreadable: deque[int] = field(default_factory=deque)  # the latest unbroken unreadable frames' times (settle)
    unreadable_run: int = 0  # frames in a row something has lain on the zone, unreadable

    def pending(self) -> int | None:
        """The earliest time an event this zone has not reported yet may carry: a card being
        confirmed (dated by its first frame, or the unreadable one it landed in), or a zone
        emptying; None when nothing is under way."""
        times = [self.candidate_t] if self.candidate is not None else []
        times += [self.unreadable[0]] if self.unreadable else []
        times += [self.empty_since] if self.empty_since is not None else []
        return min(times, default=None)


@dataclass
class CardTracker:
    """Feed it every frame's readings; it answers the events those frames prove."""

    zone_of: ZoneOf = field(default=lambda _point: ("pile", None))
    config: TrackerConfig = field(default_factory=TrackerConfig)
    source: str = "camera"
    zones: dict[Zone, _ZoneState] = field(default_factory=dict)
    last_t: int | None = None  # the latest frame's time
    stale: int = 0  # frames given older than one tracked already (left out: a card cannot leave before it came)
    # The latest frame's zones with a card on top: the codes read there, lowest first, the top
    # card last (None: a covered card that could not be read). A restarted table compares them
    # with what its journal left there (``table.laid_while_down``).
    views: dict[Zone, tuple[str | None, ...]] = field(default_factory=dict)

    def update(self, t_ns: int, cards: list[SeenCard], still_lies: StillLies | None = None) -> list[Event]:
        """One frame (exposed at ``t_ns``, integer nanoseconds) and what was read in it. A time
        that is no integer is a ``ValueError`` before anything changes; a frame older than the
        latest one is left out (counted in ``stale``). ``still_lies`` asks the frame's picture
        whether a zone's card still lies where it lay, under the card on top (``_lies_under``)."""
        if type(t_ns) is not int:
            raise ValueError(f"tracker: a frame's time must be integer nanoseconds, not {t_ns!r}")
        if self.last_t is not None and t_ns < self.last_t:
            self.stale += 1
            return []
        self.last_t = t_ns
        top: dict[Zone, SeenCard] = {}
        under: dict[Zone, list[SeenCard]] = {}
        present: set[Zone] = set()
        for card in cards:
            zone = self.zone_of(card.center)
            if zone is None:
                continue
            present.add(zone)
            if card.covered:  # a card under others (a trick, a fan) is never what a zone shows on top
                under.setdefault(zone, []).append(card)
                continue
            readable = card.code is not None and (card.code == BACK or card.confidence >= self.config.min_confidence)
            if readable and (zone not in top or card.confidence > top[zone].confidence):
                top[zone] = card
        sure = self.config.min_confidence
        self.views = {
            zone: (*(c.code if c.confidence >= sure else None for c in bottom_up(under.get(zone, []))), card.code)
            for zone, card in top.items()
        }
        events: list[Event] = []
        for zone in set(self.zones) | present:
            state = self.zones.setdefault(zone, _ZoneState(unreadable=deque(maxlen=self.config.settle)))
            if zone in top:
                events += self._reading(zone, state, t_ns, top[zone], under.get(zone, []), still_lies)
                state.unreadable.clear()
                state.unreadable_run, state.bare_since = 0, None
            elif zone in present:
                state.empty_since, state.empty_frames = None, 0  # something is there, unreadable: wait
                state.bare_since = None
                state.unreadable.append(t_ns)
                state.unreadable_run += 1
            else:
                state.unreadable.clear()
                state.unreadable_run = 0
                events += self._nothing(zone, state, t_ns)
        return sorted(events, key=lambda e: e.sort_key())

    def shown_cards(self) -> list[SeenCard]:
        """Each zone's card as the tracker holds it (the latest reading of it)."""
        return [state.shown for state in self.zones.values() if state.shown is not None]

    @property
    def vouched_to(self) -> int | None:
        """The time up to which every event of the frames given so far has been reported (the
        sequencer's ``progress`` for the camera): the latest frame's, or just before the earliest
        event still being confirmed. None before the first frame."""
        if self.last_t is None:
            return None
        pending = [t for state in self.zones.values() if (t := state.pending()) is not None]
        return min(pending) - 1 if pending else self.last_t

    def unsure(self) -> list[Zone]:
        """The zones where something has lain unreadable for ``ask_after`` frames in a row: a card
        the camera cannot read, to be shown again (or a hand resting there)."""
        return sorted(
            (zone for zone, state in self.zones.items() if state.unreadable_run >= self.config.ask_after),
            key=lambda z: (z[0], -1 if z[1] is None else z[1]),
        )

    def _reading(
        self,
        zone: Zone,
        state: _ZoneState,
        t: int,
        card: SeenCard,
        covered: Sequence[SeenCard] = (),
        still_lies: StillLies | None = None,
    ) -> list[Event]:
        code = card.code
        assert code is not None  # only readable cards are a zone's top card
        state.empty_since, state.empty_frames = None, 0
        lying = state.shown
        if lying is not None and code == lying.code and _same_place(card, lying):
            state.shown, state.candidate, state.candidate_frames, state.moved = card, None, 0, None
            return []
        if lying is not None and code == lying.code and not _lies_under(card, lying, covered, still_lies):
            # Elsewhere and not (yet) its twin: moved, or a twin whose old card a hand still
            # hides. It is taken to lie there once it has held still for ``confirm`` frames;
            # until then each frame may still show the old card under it.
            still = state.moved is not None and _at_rest(card, state.moved)
            state.moved, state.moved_frames = card, state.moved_frames + 1 if still else 1
            if state.moved_frames >= self.config.confirm:
                state.shown, state.candidate, state.candidate_frames, state.moved = card, None, 0, None
            return []
        if state.candidate is None or code != state.candidate.code:
            state.candidate_t, state.candidate_frames = state.unreadable[0] if state.unreadable else t, 0
        else:
            if not _at_rest(card, state.candidate):
                state.candidate_frames = 0  # moving: in a hand, or sliding to rest (dated from its first frame)
            if t - state.candidate_t > self.config.date_within_ns:  # long unsettled: it came to rest lately
                state.candidate_t = t
        state.candidate = card
        state.candidate_frames += 1
        if state.candidate_frames < self.config.confirm:
            return []
        events: list[Event] = []
        name, seat = zone
        shown = None if state.shown is None else state.shown.code
        if shown is None and state.hidden is not None and code == state.hidden.code and _same_place(card, state.hidden):
            pass  # the card the zone showed before it emptied, where it lay: it was hidden, not played again
        elif shown is not None and shown != BACK and code == BACK:
            events.append(CardGone(state.candidate_t, self.source, name, parse_card(shown), seat))  # turned face down
        elif code != BACK and not _uncovered(state.beneath, card, state.shown, covered, still_lies):
            events.append(CardSeen(state.candidate_t, self.source, parse_card(code), name, seat))
            # covered where it was last read (moved, not yet taken to lie there: either place)
            state.beneath.extend(c for c in (state.shown, state.moved) if c is not None)
        state.shown, state.candidate, state.candidate_frames, state.hidden, state.moved = card, None, 0, None, None
        return events

    def _nothing(self, zone: Zone, state: _ZoneState, t: int) -> list[Event]:
        state.candidate, state.candidate_frames = None, 0
        if state.shown is None:
            if state.bare_since is None:  # bare again after something unreadable lay there (a hand)
                state.bare_since = t
            if t - state.bare_since >= self.config.forget_after_ns:
                state.hidden = None  # bare for seconds: the card was taken, and the same card there next is new
            return []
        if state.empty_since is None:
            state.empty_since = t
        state.empty_frames += 1
        if state.empty_frames < self.config.vanish:
            return []
        name, seat = zone
        gone = state.empty_since
        latest = state.moved or state.shown  # a card moved just before: where it was last read
        state.hidden, state.shown, state.empty_since, state.empty_frames = latest, None, None, 0
        state.moved, state.moved_frames = None, 0
        state.bare_since = t
        state.beneath.clear()
        return [CardGone(gone, self.source, name, seat=seat)]  # a seat's safe card taken up, face down too


def _at_index_corner(point: tuple[float, float], card: SeenCard) -> bool:
    """Whether an index seen at ``point`` is ``card``'s own: on it, within ``INDEX_CORNER`` of its
    short side of one of its index corners (the first and third: a card reads the same turned)."""
    reach = INDEX_CORNER * max(card.short_side, 1.0)
    return holds(card, point) and min(math.dist(point, card.corners[k]) for k in (0, 2)) <= reach


def _uncovered(
    beneath: deque[SeenCard],
    card: SeenCard,
    shown: SeenCard | None = None,
    covered: Sequence[SeenCard] = (),
    still_lies: StillLies | None = None,
) -> bool:
    """Whether ``card`` is one the zone showed before a card was laid on it, where it lay: the
    card on it was taken back (a misplay), so it shows again and was not played again. It and
    the cards laid on it are forgotten as covered. Not while the card that lay on it (``shown``)
    still lies there under ``card``, seen covered where it lay or as the picture has it, nor while
    any card laid on it since is seen covered where it lay: then ``card`` is the other deck's
    identical card, laid on top where its twin lay below (a pile's cards land near each other)."""
    for i in range(len(beneath) - 1, -1, -1):
        if beneath[i].code == card.code and _same_place(card, beneath[i]):
            if shown is not None and shown.code != BACK and _lies_under(card, shown, covered, still_lies, past=False):
                return False
            if any(_seen_covered(laid, covered) for laid in list(beneath)[i + 1 :] if laid.code != BACK):
                return False  # a card laid on it since still shows under ``card``: nothing was taken back
            for _ in range(len(beneath) - i):
                beneath.pop()
            return True
    return False


def _lies_under(
    card: SeenCard, shown: SeenCard, covered: Sequence[SeenCard], still_lies: StillLies | None, past: bool = True
) -> bool:
    """Whether the zone's card ``shown`` still lies where it lay, under ``card`` read since: seen
    covered there (``_seen_covered``), or, nothing of it readable, as the picture has it
    (``still_lies``). A card only moved, or taken back off the one under it, leaves nothing
    behind. So ``card`` of ``shown``'s code read elsewhere is its twin from another deck laid on
    it; and ``card`` back where it lay under ``shown`` is the other deck's identical card laid on
    top, not uncovered."""
    if _seen_covered(shown, covered):
        return True
    return still_lies is not None and not _same_place(card, shown) and still_lies(shown, card, past)


def _seen_covered(before: SeenCard, covered: Sequence[SeenCard]) -> bool:
    """Whether a card the zone showed is seen covered where it lay: its outline there, or an
    index it was known by at one of its index corners (an outline inferred from one index is
    drawn less surely than the index is placed)."""
    under = [c for c in covered if c.code == before.code]
    return any(_same_place(c, before) or any(_at_index_corner(at, before) for at in c.indices) for c in under)


def _same_place(card: SeenCard, before: SeenCard) -> bool:
    """Whether a card's outline lies where another lay: each corner within ``SAME_PLACE`` of the
    card's short side of the other's (either way round: a card reads the same turned half round)."""
    turned = (np.roll(before.corners, turn, axis=0) for turn in (0, 2))
    off = min(float(np.linalg.norm(card.corners - other, axis=1).max()) for other in turned)
    return off <= SAME_PLACE * max(card.short_side, 1.0)


def _at_rest(card: SeenCard, before: SeenCard) -> bool:
    """Whether a card read in two frames in a row lay still between them: its centre moved less
    than ``STILL`` of its short side. Centres, not corners: a pile's top card's outline, drawn
    round part of the card under it in one frame and not the next, moves its corners far more."""
    return math.dist(card.center, before.center) <= STILL * max(card.short_side, 1.0)

"""From camera frames to the core's ``FrameReport``: the gate, the card reader and the tracker.

The live table's camera thread and the simulator's rendered camera both make their reports here,
so a simulated game is read exactly as a real one is.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence

import cv2
import numpy as np

from table.controller import FrameReport
from vision.calibration import Calibration
from vision.card_size import CardSizes
from vision.covered import Look, card_look, looks_the_same, outline_shows
from vision.deck import Deck
from vision.gate import FrameGate
from vision.identify import UNSURE, builtin_deck, identify
from vision.seen import SeenCard
from vision.tracker import CardTracker, StillLies, TrackerConfig, table_zones
from vision.zones import Zone

log = logging.getLogger(__name__)


class FrameReader:
    """Feed it every frame in time order; each gives one report. Frames like the last one read
    (``vision.gate``) are given its readings."""

    def __init__(self, read: Callable[[np.ndarray], list[SeenCard]], tracker: CardTracker) -> None:
        self.read, self.tracker = read, tracker
        self.gate = FrameGate()
        self.cards: list[SeenCard] = []
        # How each card read lately, and each zone's card, looked (by id of its reading, kept
        # with it): a card laid on its twin is told from the twin moved by what the old one shows.
        self._looks: dict[int, tuple[SeenCard, Look]] = {}

    @property
    def read_frames(self) -> int:
        return self.gate.read_frames

    def report(self, image: np.ndarray, t_ns: int, reported_ns: int | None = None) -> FrameReport:
        """The frame exposed at ``t_ns``: what the tracker makes of it, what it vouches for, and the
        zones whose card it cannot read."""
        if self.gate.read(image):
            self.cards = self.read(image)
            shown = (c for c in self.cards if c.code and not c.covered)
            self._looks.update((id(c), (c, card_look(image, c.corners))) for c in shown)

        def still_lies(where: SeenCard, top: SeenCard, past: bool) -> bool:
            """The zone's card still lies where it lay under ``top``: what shows of it looks as it
            did, and its sides still show (a twin laid on it; a card moved leaves neither)."""
            kept = self._looks.get(id(where))
            try:
                if kept is None or kept[0] is not where:
                    return False
                if not looks_the_same(kept[1], image, where.corners, top.corners, past):
                    return False
                gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
                return outline_shows(gray, where.corners, top.corners)
            except (cv2.error, ValueError, MemoryError) as exc:  # an outline the picture cannot hold: no twin
                log.warning("the twin check failed on an odd outline: %s", exc)
                return False

        report = tracker_report(self.tracker, t_ns, self.cards, still_lies, reported_ns)
        keep = {id(c) for c in self.cards} | {id(s) for s in self.tracker.shown_cards()}
        self._looks = {k: v for k, v in self._looks.items() if k in keep}
        return report


def tracker_report(
    tracker: CardTracker,
    t_ns: int,
    cards: list[SeenCard],
    still_lies: StillLies | None = None,
    reported_ns: int | None = None,
) -> FrameReport:
    """The core's report on one frame from what was read in it: the tracker's events, the time it
    vouches for, the zones it cannot read."""
    events = tracker.update(t_ns, cards, still_lies)
    views = tuple((zone, seat, codes) for (zone, seat), codes in tracker.views.items())
    return FrameReport(t_ns, tuple(events), tracker.vouched_to, tuple(tracker.unsure()), reported_ns, views)


def frame_reader(
    calibration: Calibration,
    zones: Sequence[Zone],
    deck: Deck | None = None,
    threshold: float = UNSURE,
    confirm: int = 2,
    lateness_ns: int = 450_000_000,
) -> FrameReader:
    """A reader for a calibrated table's zones, with an enrolled deck's profile or the built-in
    reader; ``lateness_ns`` is how long the table waits for the camera's word on a moment. The
    deck's card size is learnt from the frames read (``vision.card_size``)."""
    chosen = builtin_deck() if deck is None else deck
    config = TrackerConfig.for_camera(confirm, lateness_ns)
    tracker = CardTracker(zone_of=table_zones(calibration, zones), config=config)
    sizes = CardSizes()

    def read(image: np.ndarray) -> list[SeenCard]:
        cards = identify(image, deck=chosen, threshold=threshold, card_size=sizes.typical())
        sizes.add(cards)
        return cards

    return FrameReader(read, tracker)

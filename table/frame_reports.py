"""From camera frames to the core's ``FrameReport``: the gate, the card reader and the tracker.

The live table's camera thread and the simulator's rendered camera both make their reports here,
so a simulated game is read exactly as a real one is.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from table.controller import FrameReport
from vision.calibration import Calibration
from vision.deck import Deck
from vision.gate import FrameGate
from vision.identify import UNSURE, builtin_deck, identify
from vision.seen import SeenCard
from vision.tracker import CardTracker, TrackerConfig, table_zones
from vision.zones import Zone


class FrameReader:
    """Feed it every frame in time order; each gives one report. Frames like the last one read
    (``vision.gate``) are given its readings."""

    def __init__(self, read: Callable[[np.ndarray], list[SeenCard]], tracker: CardTracker) -> None:
        self.read, self.tracker = read, tracker
        self.gate = FrameGate()
        self.cards: list[SeenCard] = []

    @property
    def read_frames(self) -> int:
        return self.gate.read_frames

    def report(self, image: np.ndarray, t_ns: int, reported_ns: int | None = None) -> FrameReport:
        """The frame exposed at ``t_ns``: what the tracker makes of it, what it vouches for, and the
        zones whose card it cannot read."""
        if self.gate.read(image):
            self.cards = self.read(image)
        events = self.tracker.update(t_ns, self.cards)
        return FrameReport(t_ns, tuple(events), self.tracker.vouched_to, tuple(self.tracker.unsure()), reported_ns)


def frame_reader(
    calibration: Calibration,
    zones: Sequence[Zone],
    deck: Deck | None = None,
    threshold: float = UNSURE,
    confirm: int = 2,
) -> FrameReader:
    """A reader for a calibrated table's zones, with an enrolled deck's profile or the built-in reader."""
    chosen = builtin_deck() if deck is None else deck
    tracker = CardTracker(zone_of=table_zones(calibration, zones), config=TrackerConfig(confirm=confirm))
    return FrameReader(lambda image: identify(image, deck=chosen, threshold=threshold), tracker)

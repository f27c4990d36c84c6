"""From readings frame by frame to the card events the referee consumes.

Each zone of the table (the centre pile, each seat, the stock, the trump place) shows at most one
card on top. A card counts as placed once the same reading has held for ``confirm`` frames in a
row; its ``CardSeen`` carries the timestamp of the *first* of those frames, the moment it
appeared, not the moment it was confirmed. A zone that has shown nothing readable for ``vanish``
frames lost its card (``CardGone``). Unsure frames neither confirm nor break a streak, so a hand
passing over the table, a blurred frame or a thumb on a corner produce no event at all: a phantom
would have to be read as the same card, confidently, frame after frame.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from table.cards import parse_card
from table.events import CardGone, CardSeen, Event
from vision.reader import BACK
from vision.seen import SeenCard

Zone = tuple[str, int | None]  # zone name and seat (None for shared zones)
ZoneOf = Callable[[tuple[float, float]], Zone | None]


@dataclass(frozen=True)
class TrackerConfig:
    confirm: int = 2  # frames a reading must hold to place a card (one unsure frame between: still within three)
    vanish: int = 5  # frames without any card before a zone counts as emptied
    min_confidence: float = 0.5


@dataclass
class _ZoneState:
    shown: str | None = None  # the confirmed card code (or "back")
    candidate: str | None = None
    candidate_t: int = 0
    candidate_frames: int = 0
    empty_since: int | None = None
    empty_frames: int = 0


@dataclass
class CardTracker:
    """Feed it every frame's readings; it answers the events those frames prove."""

    zone_of: ZoneOf = field(default=lambda _point: ("pile", None))
    config: TrackerConfig = field(default_factory=TrackerConfig)
    source: str = "camera"
    zones: dict[Zone, _ZoneState] = field(default_factory=dict)

    def update(self, t_ns: int, cards: list[SeenCard]) -> list[Event]:
        """One frame (exposed at ``t_ns``) and what was read in it."""
        top: dict[Zone, SeenCard] = {}
        present: set[Zone] = set()
        for card in cards:
            zone = self.zone_of(card.center)
            if zone is None:
                continue
            present.add(zone)
            if card.covered:
                continue  # a card under others (a trick, a fan) is never what a zone shows on top
            readable = card.code is not None and (card.code == BACK or card.confidence >= self.config.min_confidence)
            if readable and (zone not in top or card.confidence > top[zone].confidence):
                top[zone] = card
        events: list[Event] = []
        for zone in set(self.zones) | present:
            state = self.zones.setdefault(zone, _ZoneState())
            if zone in top:
                events += self._reading(zone, state, t_ns, top[zone].code)  # type: ignore[arg-type]
            elif zone in present:
                state.empty_since, state.empty_frames = None, 0  # something is there, unreadable: wait
            else:
                events += self._nothing(zone, state, t_ns)
        return sorted(events, key=lambda e: e.sort_key())

    def _reading(self, zone: Zone, state: _ZoneState, t: int, code: str) -> list[Event]:
        state.empty_since, state.empty_frames = None, 0
        if code == state.shown:
            state.candidate, state.candidate_frames = None, 0
            return []
        if code != state.candidate:
            state.candidate, state.candidate_t, state.candidate_frames = code, t, 0
        state.candidate_frames += 1
        if state.candidate_frames < self.config.confirm:
            return []
        events: list[Event] = []
        name, seat = zone
        if state.shown is not None and state.shown != BACK and code == BACK:
            events.append(CardGone(state.candidate_t, self.source, name, parse_card(state.shown)))  # turned face down
        elif code != BACK:
            events.append(CardSeen(state.candidate_t, self.source, parse_card(code), name, seat))
        state.shown, state.candidate, state.candidate_frames = code, None, 0
        return events

    def _nothing(self, zone: Zone, state: _ZoneState, t: int) -> list[Event]:
        state.candidate, state.candidate_frames = None, 0
        if state.shown is None:
            return []
        if state.empty_since is None:
            state.empty_since = t
        state.empty_frames += 1
        if state.empty_frames < self.config.vanish:
            return []
        name, _ = zone
        gone = state.empty_since
        state.shown, state.empty_since, state.empty_frames = None, None, 0
        return [CardGone(gone, self.source, name)]

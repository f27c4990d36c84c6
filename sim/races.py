"""Slap races: seats slap a pile that the card the camera reports last made slappable.

The hard case for a referee that works on arrival order: a double lands, two to four players slap
it within microseconds to milliseconds of each other, and their presses reach the table within a
few milliseconds, in any order, while the camera reports the card itself only after confirming it
over two frames, a good hundred milliseconds later. Judged by arrival, every slap would come
before the double and be a bad one; judged by timestamps through the sequencer, the first
presser takes the pile.

Each race is built from a seeded generator (the ground truth: which card landed when, who pressed
when) and run through the real sequencer and the real Egyptian Rat Screw referee, delivering
every input when the hardware would: presses after a random delay up to the buttons' bound, the
card after the camera's frames, confirmation and processing, with the camera vouching for the
frames it has looked at (``Sequencer.progress``).
"""

from __future__ import annotations

import heapq
import math
import random
from dataclasses import dataclass

from table.cards import Card, make_deck
from table.decisions import Decision, GoodSlap
from table.events import ButtonPressed, CardSeen, Event
from table.games import setup_game
from table.referee import Referee
from table.sequencer import Sequencer

MS = 1_000_000
SECOND = 1_000 * MS


@dataclass(frozen=True)
class RaceTiming:
    """The hardware's timing, in nanoseconds."""

    camera_bound_ns: int = 450 * MS  # the sequencer's lateness for the camera
    buttons_bound_ns: int = 20 * MS  # ... and for the buttons: a press arrives within this
    frame_ns: int = SECOND // 15  # the camera's frame interval
    confirm_frames: int = 2  # frames a card is read in before it is reported (the tracker's)
    transfer_ns: tuple[int, int] = (10 * MS, 50 * MS)  # a frame's exposure to the host having it
    processing_ns: tuple[int, int] = (20 * MS, 60 * MS)  # its reading, one frame after another
    reaction_ns: tuple[int, int] = (120 * MS, 500 * MS)  # the double landing to the first slap
    gap_ns: tuple[int, int] = (1_000, 50 * MS)  # between one slap and the next

    def sequencer(self) -> Sequencer:
        return Sequencer({"camera": self.camera_bound_ns, "gpio": self.buttons_bound_ns})


@dataclass(frozen=True)
class Race:
    presses: tuple[tuple[int, int], ...]  # (t_ns, seat), in the order they really happened
    arrivals: tuple[str, ...]  # what reached the sequencer, in the order it did
    decisions: tuple[Decision, ...]
    too_late: tuple[Event, ...] = ()  # inputs that reached the sequencer after their time was released
    decided_ns: int | None = None  # when the pile was given, on the host's clock (None: at the end)

    @property
    def first(self) -> int:
        return self.presses[0][1]

    @property
    def wait_ns(self) -> int | None:
        """From the first press to the pile given: the time the sequencer held the slap."""
        return None if self.decided_ns is None else self.decided_ns - self.presses[0][0]

    @property
    def winners(self) -> list[int]:
        """The seats the referee gave the pile to (one, when it judged right)."""
        return [d.seat for d in self.decisions if isinstance(d, GoodSlap)]


def _between(rng: random.Random, span: tuple[int, int]) -> int:
    """A whole number in the span, spread evenly on a log scale (microseconds and tens of ms alike)."""
    low, high = span
    return round(math.exp(rng.uniform(math.log(low), math.log(high))))


def run_race(rng: random.Random, timing: RaceTiming | None = None, vouches: bool = True) -> Race:
    """One race: two cards of a rank played in turn (a double), then two to four seats slap.
    ``vouches=False``: the camera says nothing of the frames it has looked at, so every input
    waits out the camera's whole bound."""
    timing = timing or RaceTiming()
    referee = setup_game("ers", "standard", players=4, seed=rng.randrange(2**32)).referee()
    decisions = referee.start(0)
    sequencer = timing.sequencer()
    # What reaches the sequencer: (arrival, tie-break, events, the camera's progress or None).
    deliveries: list[tuple[int, int, tuple[Event, ...], int | None]] = []
    rank = rng.randint(2, 10)  # no face card: its challenge would only wait for the next card
    cards = [c for c in make_deck(1) if c.rank == rank]
    landed = SECOND + rng.randrange(SECOND)
    double = landed + rng.randrange(300 * MS, SECOND)
    seats = rng.sample(range(4), rng.randint(2, 4))
    t = double + rng.randrange(*timing.reaction_ns)
    presses = []
    for seat in seats:
        presses.append((t, seat))
        arrival = t + rng.randrange(timing.buttons_bound_ns + 1)
        deliveries.append((arrival, rng.randrange(2**32), (ButtonPressed(t, "gpio", seat),), None))
        t += _between(rng, timing.gap_ns)
    landings = list(zip((landed, double), rng.sample(cards, 2), strict=True))
    for arrival, seen, vouched in _camera(rng, timing, landings, until=t + SECOND):
        deliveries.append((arrival, rng.randrange(2**32), seen, vouched))
    heapq.heapify(deliveries)
    arrivals, too_late, decided = [], [], None
    while deliveries:
        now, _, events, vouched = heapq.heappop(deliveries)
        for event in events:
            arrivals.append(f"{event.TYPE} {event.t_ns}")
            if sequencer.push(event) is not None:
                too_late.append(event)  # dropped, as the table drops it (``InputTooLate``)
        if vouched is not None and vouches:
            sequencer.progress("camera", vouched)
        decisions += _released(referee, sequencer, sequencer.release(now))
        if decided is None and any(isinstance(d, GoodSlap) for d in decisions):
            decided = now
    decisions += _released(referee, sequencer, sequencer.drain())
    return Race(tuple(presses), tuple(arrivals), tuple(decisions), tuple(too_late), decided)


def _released(referee: Referee, sequencer: Sequencer, events: list[Event]) -> list[Decision]:
    out = [d for event in events for d in referee.handle(event)]
    if sequencer.released_to is not None:
        out += referee.advance(sequencer.released_to)
    return out


def _camera(
    rng: random.Random, timing: RaceTiming, landings: list[tuple[int, Card]], until: int
) -> list[tuple[int, tuple[CardSeen, ...], int]]:
    """What the camera delivers, frame by frame: (when a frame's reading is done, the cards it
    reports, the time it vouches for). A card is first seen in the frame after it lands, and
    reported, stamped with that frame, once read in ``confirm_frames``; after each frame the
    camera vouches for everything up to it, but a card it is still confirming."""
    out = []
    done = 0
    for k in range(until // timing.frame_ns + 1):
        frame = k * timing.frame_ns
        arrived = frame + rng.randrange(*timing.transfer_ns)
        done = max(done, arrived) + rng.randrange(*timing.processing_ns)  # read one after another
        firsts = [(-(-t // timing.frame_ns) * timing.frame_ns, card) for t, card in landings]
        confirming = [
            first for first, _ in firsts if first <= frame < first + (timing.confirm_frames - 1) * timing.frame_ns
        ]
        reported = tuple(
            CardSeen(first, "camera", card, "pile")
            for first, card in firsts
            if frame == first + (timing.confirm_frames - 1) * timing.frame_ns
        )
        out.append((done, reported, min(confirming, default=frame + 1) - 1))
    return out

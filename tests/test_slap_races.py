"""Slap races judged by timestamps (``sim.races``): the first presser wins, whatever arrives first."""

from __future__ import annotations

import dataclasses
import random
from itertools import pairwise

from sim.races import MS, RaceTiming, run_race
from table.decisions import BadSlap


def test_the_first_presser_wins_a_thousand_races_whatever_order_the_inputs_arrive_in() -> None:
    # Presses 1 microsecond to 50 ms apart, each arriving up to the buttons' bound late; the
    # double that made the pile slappable reported by the camera after two frames' reading.
    races = [run_race(random.Random(seed)) for seed in range(1000)]
    lost = [(seed, r.presses, r.winners) for seed, r in enumerate(races) if r.winners != [r.first] or r.too_late]
    assert not lost, lost[:3]
    assert not any(isinstance(d, BadSlap) for r in races for d in r.decisions)
    # The races hold the hard cases: presses arriving in another order than they happened, and
    # the double reported after a slap on it had arrived.
    presses = [[int(a.split()[1]) for a in r.arrivals if a.startswith("press")] for r in races]
    assert sum(times != sorted(times) for times in presses) > 400
    assert sum(_card_after_a_press(r.arrivals) for r in races) > 60
    assert min(t2 - t1 for r in races for (t1, _), (t2, _) in pairwise(r.presses)) < 5_000


def _card_after_a_press(arrivals: tuple[str, ...]) -> bool:
    first_press = next(n for n, a in enumerate(arrivals) if a.startswith("press"))
    return max(n for n, a in enumerate(arrivals) if a.startswith("card-seen")) > first_press


def test_without_the_cameras_word_the_races_are_won_alike_only_later() -> None:
    vouched = [run_race(random.Random(seed)) for seed in range(200)]
    waited = [run_race(random.Random(seed), vouches=False) for seed in range(200)]
    assert [r.winners for r in waited] == [r.winners for r in vouched] == [[r.first] for r in vouched]
    wait = [w.wait_ns - v.wait_ns for v, w in zip(vouched, waited, strict=True)]
    assert min(wait) >= 0 and sorted(wait)[100] > 100 * MS  # the camera's word saves a good 100 ms


def test_a_camera_bound_shorter_than_the_camera_takes_drops_the_double_and_judges_wrong() -> None:
    # The check bites: with the camera's lateness set under its real delay, the double comes too
    # late to be ordered, the slaps are judged on a pile that was not slappable, and races are lost.
    timing = dataclasses.replace(RaceTiming(), camera_bound_ns=60 * MS)
    races = [run_race(random.Random(seed), timing, vouches=False) for seed in range(100)]
    assert sum(bool(r.too_late) for r in races) > 10
    assert sum(r.winners != [r.first] for r in races) > 10

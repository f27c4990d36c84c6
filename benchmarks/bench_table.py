"""The live table (issue 6): slap races judged by timestamps, and how long the sequencer holds them.

Target: in 1,000 simulated slap races with presses 1 microsecond to 50 ms apart, delivered in
random order with random delays up to the lateness bound, the first presser wins every time.
The wait is on the simulation's clock, not this machine's: the time from the first press to the
pile given, with the camera vouching for the frames it has read and, as a baseline in the same
run, without (every slap then waits out the camera's whole bound).
"""

from __future__ import annotations

import random
from itertools import pairwise

import numpy as np

from sim.races import MS, RaceTiming, run_race


def bench_races(count: int = 1000) -> None:
    timing = RaceTiming()
    races = [run_race(random.Random(seed), timing) for seed in range(count)]
    won = sum(r.winners == [r.first] and not r.too_late for r in races)
    gaps = [t2 - t1 for r in races for (t1, _), (t2, _) in pairwise(r.presses)]
    reordered = sum(_reordered(r.arrivals) for r in races)
    print(
        f"slap races: the first presser won {won} of {count} "
        f"({sum(len(r.presses) for r in races)} presses, {min(gaps) / 1e3:.0f} us to {max(gaps) / MS:.0f} ms apart; "
        f"{reordered} races with presses arriving out of order)"
    )
    print(
        f"  lateness bounds: camera {timing.camera_bound_ns // MS} ms, buttons {timing.buttons_bound_ns // MS} ms; "
        f"camera at {round(1e9 / timing.frame_ns)} frames a second, a card reported after {timing.confirm_frames}"
    )
    for vouches, title in ((True, "the camera vouching for the frames it has read"), (False, "baseline, without")):
        waits = np.array([r.wait_ns for r in (races if vouches else _without(count, timing))]) / MS
        print(
            f"  the slap held in the sequencer, {title}: median {np.median(waits):.0f} ms, "
            f"99th percentile {np.percentile(waits, 99):.0f} ms"
        )


def _without(count: int, timing: RaceTiming) -> list:
    return [run_race(random.Random(seed), timing, vouches=False) for seed in range(count)]


def _reordered(arrivals: tuple[str, ...]) -> bool:
    times = [int(a.split()[1]) for a in arrivals if a.startswith("press")]
    return times != sorted(times)


def main() -> None:
    bench_races()


if __name__ == "__main__":
    main()

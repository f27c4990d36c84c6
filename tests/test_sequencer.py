"""The sequencer releases events in timestamp order, whatever order they arrive in."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from table.events import ButtonPressed
from table.sequencer import Sequencer

MS = 1_000_000


def test_holds_events_until_the_lateness_has_passed() -> None:
    seq = Sequencer(lateness_ns=100 * MS)
    seq.push(ButtonPressed(50 * MS, "gpio", 1))
    assert seq.release(120 * MS) == []
    assert [e.seat for e in seq.release(150 * MS)] == [1]


def test_reorders_late_arrivals_within_the_bound() -> None:
    seq = Sequencer(lateness_ns=100 * MS)
    seq.push(ButtonPressed(30 * MS, "gpio", 2))
    seq.push(ButtonPressed(10 * MS, "gpio", 1))  # arrived second, happened first
    assert [e.seat for e in seq.release(200 * MS)] == [1, 2]


def test_an_event_older_than_what_was_released_is_reported_too_late() -> None:
    seq = Sequencer(lateness_ns=100 * MS)
    seq.push(ButtonPressed(10 * MS, "gpio", 1))
    seq.release(150 * MS)  # released everything up to 50 ms
    assert seq.push(ButtonPressed(40 * MS, "gpio", 2)) == 10 * MS + 1
    assert seq.push(ButtonPressed(60 * MS, "gpio", 3)) is None
    assert [e.seat for e in seq.drain()] == [3]


@given(
    st.lists(st.integers(0, 10**9), min_size=1, max_size=60, unique=True),
    st.randoms(use_true_random=False),
)
def test_order_by_timestamp_whatever_the_arrival_order(times: list[int], rng: random.Random) -> None:
    """Presses at least 1 ns apart come out in timestamp order if they arrive within the bound."""
    lateness = 50 * MS
    arrivals = sorted((t + rng.randrange(lateness), t) for t in times)
    seq = Sequencer(lateness)
    out = []
    for arrival, t in arrivals:
        out += seq.release(arrival)
        assert seq.push(ButtonPressed(t, "gpio", 0)) is None
    out += seq.drain()
    assert [e.t_ns for e in out] == sorted(times)

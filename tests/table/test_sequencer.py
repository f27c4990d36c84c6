"""The sequencer releases events in timestamp order, whatever order they arrive in."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from table.cards import parse_card
from table.events import ButtonPressed, CardSeen, Event
from table.sequencer import Sequencer
from table.units import MS


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


def test_each_source_has_its_own_bound_and_the_least_watermark_holds() -> None:
    seq = Sequencer({"camera": 250 * MS, "gpio": 20 * MS})
    assert seq.lateness_ns == 250 * MS and seq.sources == ("camera", "gpio")
    seq.push(ButtonPressed(100 * MS, "gpio", 1))
    # The press is past its own source's bound at 120 ms, but a card the camera saw before it
    # may still come until 350 ms.
    assert seq.watermark(300 * MS) == 50 * MS
    assert seq.release(300 * MS) == []
    assert [e.seat for e in seq.release(350 * MS)] == [1]


def test_a_source_vouching_for_its_frames_releases_sooner_but_never_past_now() -> None:
    seq = Sequencer({"camera": 250 * MS, "gpio": 20 * MS})
    seq.push(ButtonPressed(100 * MS, "gpio", 1))
    seq.progress("camera", 99 * MS)
    assert seq.release(130 * MS) == []  # the camera has not looked past the press yet
    seq.progress("camera", 110 * MS)
    assert seq.watermark(130 * MS) == 110 * MS
    assert [e.seat for e in seq.release(130 * MS)] == [1]
    seq.progress("camera", 60 * MS)  # a source's word is never taken back
    assert seq.watermark(130 * MS) == 110 * MS
    seq.progress("camera", 10_000 * MS)
    assert seq.watermark(500 * MS) == 480 * MS  # the buttons' bound still holds
    seq.progress("gpio", 10_000 * MS)
    assert seq.watermark(500 * MS) == 500 * MS  # nothing is released that has not happened


def test_sources_without_a_bound_are_named() -> None:
    seq = Sequencer({"camera": 250 * MS, "gpio": 20 * MS})
    with pytest.raises(ValueError, match="no lateness is set for source 'bridge' \\(sources: camera, gpio\\)"):
        seq.push(ButtonPressed(1, "bridge", 0))
    with pytest.raises(ValueError, match="'bridge'"):
        seq.progress("bridge", 1)
    with pytest.raises(ValueError, match="progress needs a lateness for each source"):
        Sequencer(100).progress("camera", 1)
    with pytest.raises(ValueError, match="lateness of 'gpio' must be whole nanoseconds from 0, not -1"):
        Sequencer({"camera": 1, "gpio": -1})
    with pytest.raises(ValueError, match="at least one source"):
        Sequencer({})


@given(
    st.lists(st.tuples(st.integers(0, 10**9), st.sampled_from(["camera", "gpio", "bridge"])), min_size=1, max_size=60),
    st.randoms(use_true_random=False),
)
def test_sources_with_their_own_bounds_and_word_are_ordered_whatever_the_arrival(
    inputs: list[tuple[int, str]], rng: random.Random
) -> None:
    """Each source's events arrive within its own bound, and a source vouches now and then for
    what it has delivered: all come out in timestamp order, none too late."""
    bounds = {"camera": 250 * MS, "gpio": 20 * MS, "bridge": 40 * MS}
    seq = Sequencer(bounds)
    times = sorted({t for t, _ in inputs})
    arrivals = sorted((t + rng.randrange(bounds[s]), t, s) for t, s in dict((t, s) for t, s in inputs).items())
    out = []
    for n, (arrival, t, source) in enumerate(arrivals):
        out += seq.release(arrival)
        assert seq.push(ButtonPressed(t, source, 0)) is None
        if rng.random() < 0.3:  # what the source has delivered: all up to its next event's time, less 1
            later = [u for _, u, s in arrivals[n + 1 :] if s == source]
            seq.progress(source, min(later, default=arrival) - 1)
    out += seq.drain()
    assert [e.t_ns for e in out] == times


@given(
    st.lists(st.tuples(st.integers(0, 3), st.booleans(), st.integers(0, 3)), min_size=1, max_size=40),
    st.randoms(use_true_random=False),
)
def test_events_of_one_moment_come_out_cards_first_then_presses_by_seat_whatever_the_arrival(
    inputs: list[tuple[int, bool, int]], rng: random.Random
) -> None:
    """Cards and presses crowded into a few nanoseconds: at one moment a card comes before a
    press, and presses by seat, in whatever order they arrived (``Event.sort_key``)."""
    lateness = 10
    events: list[Event] = [
        CardSeen(t, "camera", parse_card("QH")) if card else ButtonPressed(t, "camera", seat)
        for t, card, seat in inputs
    ]
    arrivals = sorted((e.t_ns + rng.randrange(lateness), rng.random(), n) for n, e in enumerate(events))
    seq = Sequencer(lateness)
    out: list[Event] = []
    for arrival, _, n in arrivals:
        event = events[n]
        out += seq.release(arrival)
        assert seq.push(event) is None
    out += seq.drain()
    assert [e.sort_key() for e in out] == sorted(e.sort_key() for e in events)
    firsts = {e.t_ns: e for e in reversed(out)}  # each moment's first event out
    assert all(isinstance(firsts[e.t_ns], CardSeen) for e in out if isinstance(e, CardSeen))


def test_the_next_release_is_the_earliest_event_past_every_bound_not_yet_vouched_for() -> None:
    seq = Sequencer({"camera": 250 * MS, "gpio": 20 * MS})
    assert seq.next_release() is None
    seq.push(ButtonPressed(100 * MS, "gpio", 1))
    seq.push(ButtonPressed(50 * MS, "gpio", 2))
    assert seq.next_release() == 300 * MS  # the earliest press, once the camera's bound has run
    seq.progress("camera", 60 * MS)
    assert seq.next_release() == 70 * MS  # the camera vouched past it: the buttons' own bound
    assert [e.seat for e in seq.release(70 * MS)] == [2]

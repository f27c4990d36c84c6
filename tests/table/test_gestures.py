"""Debouncing on the leading edge, taps, double taps, long presses, counts, stuck and chattering buttons."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from table.gestures import MS, Gesture, GestureKind, GestureReader, GestureTiming
from table.units import US


def run(reader: GestureReader, edges: list[tuple[int, bool, int]], until: int) -> list[Gesture]:
    out: list[Gesture] = []
    for seat, pressed, t in edges:
        out += reader.edge(seat, pressed, t)
    return out + reader.poll(until)


def kinds(gestures: list[Gesture], *keep: str) -> list[tuple[str, int, int]]:
    return [(g.kind, g.t_ns, g.count) for g in gestures if not keep or g.kind in keep]


def test_a_bouncing_press_is_one_press_at_its_first_edge() -> None:
    r = GestureReader(2)
    t0 = 1_000 * MS
    bounce = [
        (0, True, t0),
        (0, False, t0 + 300 * US),
        (0, True, t0 + 700 * US),
        (0, False, t0 + MS),
        (0, True, t0 + 2 * MS),
    ]
    release = [(0, False, t0 + 100 * MS), (0, True, t0 + 100 * MS + 400 * US), (0, False, t0 + 100 * MS + 900 * US)]
    out = run(r, [*bounce, *release], t0 + 400 * MS)
    assert kinds(out, "press", "release") == [("press", t0, 0), ("release", t0 + 100 * MS, 0)]


def test_a_spike_shorter_than_the_bounce_window_is_not_a_press() -> None:
    r = GestureReader(1)
    out = run(r, [(0, True, 10 * MS), (0, False, 10 * MS + 200 * US)], 100 * MS)
    assert kinds(out) == [] and r.glitches == 1


def test_the_press_is_reported_only_after_the_bounce_window_but_stamped_at_the_edge() -> None:
    r = GestureReader(1)
    assert r.edge(0, True, 50 * MS) == []
    assert r.poll(54 * MS) == []
    assert kinds(r.poll(55 * MS)) == [("press", 50 * MS, 0)]


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.integers(min_value=40, max_value=400), min_size=1, max_size=8),
    st.lists(st.lists(st.integers(min_value=50, max_value=4_000), max_size=5), min_size=16, max_size=16),
)
def test_bounces_never_add_or_move_presses(gaps_ms: list[int], bounces_us: list[list[int]]) -> None:
    """Real presses and releases at least 40 ms apart, each followed by bounce edges inside 4 ms."""
    timing = GestureTiming(double_ns=30 * MS, pause_ns=35 * MS, long_ns=10_000 * MS, chatter_edges=1_000)
    r = GestureReader(1, timing)
    t, state, edges, truth = 1_000 * MS, False, [], []
    for i, gap in enumerate(gaps_ms * 2):
        t += gap * MS
        state = not state
        truth.append(("press" if state else "release", t))
        edges.append((0, state, t))
        level = state
        for off in sorted(set(bounces_us[i % 16])):
            level = not level
            edges.append((0, level, t + off * US))
        if level != state:
            edges.append((0, state, t + 4_500 * US))  # the contact settles
    out = run(r, edges, t + 1_000 * MS)
    assert [(k, at) for k, at, _ in kinds(out, "press", "release")] == truth


def test_taps_double_taps_and_long_presses() -> None:
    r = GestureReader(1)
    t = 1_000 * MS
    tap = [(0, True, t), (0, False, t + 80 * MS)]
    double = [
        (0, True, t + 2_000 * MS),
        (0, False, t + 2_060 * MS),
        (0, True, t + 2_200 * MS),
        (0, False, t + 2_260 * MS),
    ]
    hold = [(0, True, t + 4_000 * MS), (0, False, t + 5_000 * MS)]
    out = run(r, tap + double + hold, t + 8_000 * MS)
    got = kinds(out, "tap", "double-tap", "long-press")
    assert got == [("tap", t + 380 * MS, 0), ("double-tap", t + 2_200 * MS, 0), ("long-press", t + 4_700 * MS, 0)]
    # Counts: the lone tap is one when its pause ends; a double tap counts none of its taps; a
    # long press ends a count of none.
    assert [(g.t_ns, g.count) for g in out if g.kind == "count"] == [(t + 1_280 * MS, 1), (t + 4_700 * MS, 0)]


def test_a_bid_is_a_count_of_taps_ended_by_a_pause_or_by_holding() -> None:
    r = GestureReader(2, double_taps=False)
    t = 1_000 * MS
    three = [(0, on, t + k * 150 * MS + (60 * MS if not on else 0)) for k in range(3) for on in (True, False)]
    two_then_hold = [(1, True, t), (1, False, t + 50 * MS), (1, True, t + 200 * MS), (1, False, t + 250 * MS)]
    two_then_hold += [(1, True, t + 400 * MS), (1, False, t + 1_500 * MS)]
    out = run(r, sorted(three + two_then_hold, key=lambda e: e[2]), t + 5_000 * MS)
    counts = [(g.seat, g.count, g.t_ns) for g in out if g.kind == "count"]
    assert (1, 2, t + 1_100 * MS) in counts  # ended by holding: 400 ms + 700 ms
    assert (0, 3, t + 360 * MS + 1_200 * MS) in counts  # ended by the pause after the last release
    assert len(counts) == 2
    zero = GestureReader(1, double_taps=False)
    assert [
        g.count for g in run(zero, [(0, True, t), (0, False, t + 900 * MS)], t + 3_000 * MS) if g.kind == "count"
    ] == [0]


def test_a_stuck_button_is_reported_once_and_recovers_on_release() -> None:
    r = GestureReader(1)
    out = run(r, [(0, True, MS)], 60_000 * MS)
    assert kinds(out, "stuck") == [("stuck", MS + 20_000 * MS, 0)]
    out = run(r, [(0, False, 61_000 * MS)], 62_000 * MS)
    assert "recovered" in [g.kind for g in out]
    assert "tap" not in [g.kind for g in out] and "count" not in [g.kind for g in out]


def test_a_chattering_contact_is_reported_and_ignored_until_quiet() -> None:
    r = GestureReader(1)
    edges = [(0, k % 2 == 0, 1_000 * MS + k * 10 * MS) for k in range(60)]  # 100 edges a second
    out = run(r, edges, 1_700 * MS)
    assert [g.kind for g in out].count("chattering") == 1
    assert [g for g in out if g.kind == "press" and g.t_ns > 1_450 * MS] == []
    later = run(r, [], 5_000 * MS)
    assert [g.kind for g in later] == ["recovered"]
    assert kinds(run(r, [(0, True, 6_000 * MS)], 6_100 * MS), "press") == [("press", 6_000 * MS, 0)]


def test_bad_seats_and_timings_are_refused_by_name() -> None:
    with pytest.raises(ValueError, match="seat 5 does not exist"):
        GestureReader(4).edge(5, True, 0)
    with pytest.raises(ValueError, match="bounce_ns"):
        GestureTiming(bounce_ns=0)
    with pytest.raises(ValueError, match="out of order"):
        GestureTiming(double_ns=2_000 * MS)


def test_default_meanings_per_game() -> None:
    from table.games import GAMES
    from table.gestures import meaning

    assert meaning(GAMES["oh-hell"].gestures, Gesture(1, "count", 5, 3)) == ("bid", 3)
    assert meaning(GAMES["cuckoo"].gestures, Gesture(1, "long-press", 5)) == ("trade", None)
    assert meaning(GAMES["cuckoo"].gestures, Gesture(1, "tap", 5)) == ("keep", None)
    assert meaning(GAMES["ers"].gestures, Gesture(1, "tap", 5)) is None


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 1), st.integers(1, 900)), min_size=1, max_size=14),
    st.lists(st.integers(0, 20_000), max_size=30),
    st.booleans(),
)
def test_gestures_do_not_depend_on_how_often_time_is_told(steps, polls_ms, double_taps) -> None:
    """The same edges give the same gestures, whether or not poll() is called in between."""
    edges, t, level = [], 1_000 * MS, {0: False, 1: False}
    for seat, gap in steps:
        t += gap * MS // 3
        level[seat] = not level[seat]
        edges.append((seat, level[seat], t))
    end = t + 30_000 * MS

    def gestures(extra: list[int]) -> list[tuple]:
        r = GestureReader(2, double_taps=double_taps)
        out: list[Gesture] = []
        times = sorted([(e[2], 1, e) for e in edges] + [(1_000 * MS + p * MS, 0, None) for p in extra])
        for when, kind, e in times:
            out += r.edge(*e) if kind else r.poll(when)
        out += r.poll(end)
        return sorted((g.seat, g.kind, g.t_ns, g.count) for g in out)

    assert gestures(polls_ms) == gestures([])


def test_a_release_inside_its_bounce_window_is_not_overtaken_by_a_deadline() -> None:
    r = GestureReader(1)
    out = r.edge(0, True, 0) + r.poll(10 * MS) + r.edge(0, False, 698 * MS) + r.poll(700 * MS) + r.poll(800 * MS)
    assert "long-press" not in [g.kind for g in out]  # released at 698 ms, before the 700 ms long press


def test_a_button_jammed_after_a_double_tap_is_still_reported_stuck() -> None:
    r = GestureReader(1)
    edges = [(0, True, MS), (0, False, 60 * MS), (0, True, 200 * MS)]  # the second press jams
    assert "stuck" in [g.kind for g in run(r, edges, 30_000 * MS)]


def test_a_chattering_contact_that_settles_down_reports_the_press() -> None:
    r = GestureReader(1)
    edges = [(0, k % 2 == 0, 1_000 * MS + k * 10 * MS) for k in range(61)]  # ends pressed
    out = run(r, edges, 5_000 * MS)
    assert [g.kind for g in out if g.kind in ("recovered", "press")][-2:] == ["recovered", "press"]


@settings(max_examples=100, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 3), st.integers(1, 2_000)), max_size=12),
    st.booleans(),
    st.booleans(),
    st.booleans(),
)
def test_nothing_completes_before_the_next_deadline_and_polling_there_is_enough(
    presses: list[tuple[int, int]], double_taps: bool, chatter: bool, jam: bool
) -> None:
    """A loop that sleeps until ``next_deadline`` misses nothing, and learns nothing later:
    polling every 10 ms between gives the same gestures, none of them sooner, as polling only at
    the deadlines. Taps, counts, long presses, a loose contact and a button jammed down."""
    edges, t = [], 0
    for seat, gap_ms in presses:
        t += gap_ms * MS
        edges += [(t, seat % 2, True), (t + (gap_ms % 900) * MS + MS, seat % 2, False)]
    if chatter:  # seat 1's contact comes loose: 30 changes in 300 ms, ending released
        t += 2_000 * MS
        edges += [(t + k * 10 * MS, 1, k % 2 == 0) for k in range(30)]
        t += 300 * MS
    if jam:  # seat 0's button jams down until the end
        t += 2_000 * MS
        edges.append((t, 0, True))
    edges.sort()
    fine, sparse = GestureReader(2, double_taps=double_taps), GestureReader(2, double_taps=double_taps)
    by_ms, by_deadline = [], []
    now = 0
    for at, seat, pressed in [*edges, (t + 30_000 * MS, 0, False)]:
        while now + 10 * MS < at:
            now += 10 * MS
            by_ms += fine.poll(now)
        polled = -1
        while (deadline := sparse.next_deadline()) is not None and deadline < at:
            assert deadline > polled, "polling at a deadline must move it on (a loop would spin)"
            by_deadline += sparse.poll(deadline)
            polled = deadline
        assert not Counter(by_ms) - Counter(by_deadline), "a gesture the deadlines left for an edge to find"
        by_ms += fine.edge(seat, pressed, at)
        by_deadline += sparse.edge(seat, pressed, at)
        now = at
    # The same gestures; the order they are reported in may differ (a release is confirmed after its
    # bounce window, so a tap completed meanwhile on another seat can come first): the sequencer
    # orders them by time.
    order = lambda g: (g.t_ns, g.seat, g.kind)  # noqa: E731
    assert sorted(by_deadline, key=order) == sorted(by_ms, key=order)


def test_an_edge_from_one_seat_does_not_decide_another_seats_gesture() -> None:
    """A tap whose release reaches the table 11 ms late, while another seat's edge arrives in
    between: each seat keeps its own clock, so the tap stays a tap, not a long press."""
    r = GestureReader(2)
    t0 = 1_000 * MS
    out = r.edge(0, True, t0)
    out += r.edge(1, True, t0 + 705 * MS)  # seat 1's edge arrives while seat 0's release is on its way
    out += r.edge(0, False, t0 + 694 * MS)  # held 694 ms: a tap, arriving 11 ms after it happened
    out += r.poll(t0 + 2_000 * MS)
    assert kinds([g for g in out if g.seat == 0], "tap", "long-press") == [("tap", t0 + 994 * MS, 0)]
    assert r.late_edges == 0
    r.poll(t0 + 3_000 * MS)  # seat 1's time decided to 3 s: an edge of seat 1 from before comes late
    r.edge(1, False, t0 + 1_500 * MS)
    assert r.late_edges == 1


def test_gestures_are_decided_to_just_before_an_edge_still_in_its_bounce_window() -> None:
    r = GestureReader(2)
    assert r.decided_to() is None
    r.poll(100 * MS)
    assert r.decided_to() == 100 * MS
    r.edge(1, True, 150 * MS)
    r.poll(152 * MS)
    assert r.decided_to() == 150 * MS - 1  # the press at 150 ms is not out yet
    assert [g.kind for g in r.poll(155 * MS)] == ["press"]
    assert r.decided_to() == 155 * MS


def test_a_button_held_as_the_reader_starts_is_stuck_until_let_go_and_its_release_is_no_tap() -> None:
    r = GestureReader(2)
    assert kinds(r.held_at_start(1, 0)) == [("stuck", 0, 0)]
    out = run(r, [(1, False, 3_000 * MS)], 5_000 * MS)
    assert kinds(out) == [("release", 3_000 * MS, 0), ("recovered", 3_000 * MS, 0)]
    out = run(r, [(1, True, 6_000 * MS), (1, False, 6_100 * MS)], 7_000 * MS)
    assert "tap" in [g.kind for g in out]  # a working button again


def test_a_button_down_from_before_the_reader_began_gives_no_gesture_and_may_jam() -> None:
    """The hold that dealt the game: its release is no tap, no long press and no count; held on
    for the stuck time it is reported stuck."""
    r = GestureReader(2)
    r.pressed_before(0, 1_000 * MS)
    out = r.poll(1_600 * MS) + r.edge(0, False, 1_650 * MS) + r.poll(5_000 * MS)
    assert kinds(out, "tap", "long-press", "count", "stuck") == []
    assert [g.kind for g in out] == ["release"]
    r.pressed_before(1, 1_000 * MS)
    assert r.next_deadline() == 21_000 * MS
    assert [(g.kind, g.t_ns, g.seat) for g in r.poll(21_000 * MS)] == [("stuck", 21_000 * MS, 1)]


def test_a_button_let_go_whose_release_was_lost_is_up_and_decides_nothing() -> None:
    """Its release never came: let go, nothing is made of it, a stuck button is recovered, and
    the next press is a press like any other."""
    r = GestureReader(1)
    assert r.edge(0, True, 1_000 * MS) + r.poll(1_100 * MS) == [Gesture(0, GestureKind.PRESS, 1_000 * MS)]
    assert r.let_go(0) == []
    assert r.poll(30_000 * MS) == []  # no long press, no release, no stuck
    r.edge(0, True, 31_000 * MS)
    assert "stuck" in [g.kind for g in r.poll(52_000 * MS)]
    assert [g.kind for g in r.let_go(0)] == ["recovered"]
    tap = r.edge(0, True, 53_000 * MS) + r.edge(0, False, 53_100 * MS) + r.poll(54_000 * MS)
    assert kinds(tap, "press", "tap") == [("press", 53_000 * MS, 0), ("tap", 53_400 * MS, 0)]

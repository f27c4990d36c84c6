"""Tracking readings into events: confirmed over frames, stamped with the first frame, no phantoms."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from table.cards import parse_card
from table.events import CardGone, CardSeen
from table.units import MS
from vision.calibration import calibrate_from_points
from vision.identify import SeenCard
from vision.tracker import CardTracker, StillLies, TrackerConfig, table_zones
from vision.zones import default_zones

PILE = np.array([[100, 100], [150, 100], [150, 170], [100, 170]], np.float32)
SEAT = PILE + 300


def seen(code: str | None, confidence: float = 0.9, where: np.ndarray = PILE) -> SeenCard:
    return SeenCard(code, confidence, where)


def run(
    tracker: CardTracker,
    frames: list[list[SeenCard]],
    start: int = 0,
    still_lies: StillLies | None = None,
) -> list:
    events = []
    for i, cards in enumerate(frames):
        events += tracker.update((start + i) * 100 * MS, cards, still_lies)
    return events


def test_a_card_is_placed_after_steady_frames_stamped_with_the_first() -> None:
    tracker = CardTracker(config=TrackerConfig(confirm=3))
    assert run(tracker, [[seen("QH")], [seen("QH")]]) == []
    events = tracker.update(200 * MS, [seen("QH")])
    assert events == [CardSeen(0, "camera", parse_card("QH"), "pile")]
    assert run(tracker, [[seen("QH")]] * 5, start=3) == []  # reported once


def test_by_default_two_readings_place_a_card_even_with_an_unsure_frame_between() -> None:
    tracker = CardTracker()
    assert run(tracker, [[seen("QH")], [seen(None)]]) == []
    assert tracker.update(200 * MS, [seen("QH")]) == [CardSeen(0, "camera", parse_card("QH"), "pile")]


def test_the_next_card_on_the_pile_is_a_new_event() -> None:
    tracker = CardTracker()
    events = run(tracker, [[seen("QH")]] * 3 + [[seen("7C")]] * 3)
    assert [(e.card.code, e.t_ns) for e in events] == [("QH", 0), ("7C", 300 * MS)]


def test_unsure_frames_and_a_hand_over_the_pile_make_no_event() -> None:
    tracker = CardTracker()
    run(tracker, [[seen("QH")]] * 3)
    hand = [[seen(None, 0.1)], [seen("5S", 0.2)], [seen(None, 0.0)]] * 4  # unreadable things on the pile
    assert run(tracker, hand, start=3) == []
    assert run(tracker, [[seen("QH")]] * 3, start=20) == []


def test_a_flickering_phantom_never_becomes_a_card() -> None:
    tracker = CardTracker()
    codes = ["AS", "4D", "AS", "9H", "4D", "KC", "AS", "2H"]
    assert run(tracker, [[seen(c, 0.6)] for c in codes]) == []


def test_a_pile_taken_away_is_gone_from_the_first_empty_frame() -> None:
    tracker = CardTracker(config=TrackerConfig(confirm=2, vanish=4))
    run(tracker, [[seen("10D")]] * 2)
    events = run(tracker, [[]] * 4, start=2)
    assert events == [CardGone(200 * MS, "camera", "pile")]
    assert run(tracker, [[]] * 5, start=6) == []


def test_a_short_gap_is_not_a_pile_taken() -> None:
    tracker = CardTracker()
    run(tracker, [[seen("10D")]] * 3)
    assert run(tracker, [[]] * 3 + [[seen("10D")]] * 3, start=3) == []


def test_a_card_turned_face_down_is_gone_and_turned_up_is_seen() -> None:
    tracker = CardTracker(config=TrackerConfig(confirm=2))
    events = run(tracker, [[seen("back")]] * 2 + [[seen("KS")]] * 2 + [[seen("back")]] * 2)
    assert events == [
        CardSeen(200 * MS, "camera", parse_card("KS"), "pile"),
        CardGone(400 * MS, "camera", "pile", parse_card("KS")),
    ]


def test_zones_and_seats_come_from_the_zone_function() -> None:
    def zone_of(point: tuple[float, float]):
        return ("pile", None) if point[0] < 250 else ("seat", 2)

    tracker = CardTracker(zone_of=zone_of, config=TrackerConfig(confirm=1))
    events = tracker.update(5, [seen("QH"), seen("KS", where=SEAT)])
    assert sorted((e.zone, e.seat, e.card.code) for e in events) == [("pile", None, "QH"), ("seat", 2, "KS")]


def test_cards_outside_every_zone_are_ignored() -> None:
    tracker = CardTracker(zone_of=lambda _p: None, config=TrackerConfig(confirm=1))
    assert tracker.update(5, [seen("QH")]) == []


def test_the_most_confident_reading_of_a_zone_is_its_top_card() -> None:
    tracker = CardTracker(config=TrackerConfig(confirm=1))
    events = tracker.update(5, [seen("9C", 0.55), seen("QH", 0.95)])
    assert [e.card.code for e in events] == ["QH"]


def test_a_card_hidden_whole_by_a_hand_and_seen_again_is_not_played_again() -> None:
    """A hand resting on the pile hides it whole: the camera sees no card, and after ``vanish``
    frames the pile counts as taken. The same card seen there again next was hidden, not played:
    no second ``CardSeen``. The next card placed there is a new one."""
    tracker = CardTracker(config=TrackerConfig(confirm=2, vanish=4))
    run(tracker, [[seen("QH")]] * 2)
    assert run(tracker, [[]] * 6, start=2) == [CardGone(200 * MS, "camera", "pile")]
    assert run(tracker, [[seen("QH")]] * 3, start=8) == []
    assert run(tracker, [[seen("7C")]] * 2, start=11) == [CardSeen(1100 * MS, "camera", parse_card("7C"), "pile")]


def test_the_same_card_put_back_where_it_lay_after_the_zone_lay_bare_for_seconds_is_a_new_card() -> None:
    """The trump card of a deal taken up with the cards; seconds later the next deal's trump, which
    happens to be the same card, is put where the last one lay: a new card, once the zone has lain
    bare ``forget_after_ns`` since it was taken (frames 100 ms apart). Bare for less, it was hidden."""
    for bare, new in ((19, False), (20, True)):
        tracker = CardTracker(config=TrackerConfig(confirm=2, vanish=4, forget_after_ns=2_000 * MS))
        run(tracker, [[seen("JH")]] * 2)
        assert run(tracker, [[]] * (4 + bare), start=2) == [CardGone(200 * MS, "camera", "pile")]
        at = 6 + bare
        again = run(tracker, [[seen("JH")]] * 2, start=at)
        assert again == ([CardSeen(at * 100 * MS, "camera", parse_card("JH"), "pile")] if new else []), bare


def test_a_hand_passing_over_the_bare_zone_does_not_stop_it_forgetting_the_card_taken() -> None:
    """The bare time starts again when a hand over the zone leaves, and still runs out: the card
    put back 1.8 s after the hand left (2.6 s after it was taken) was hidden; after 2 s it is new."""
    for bare, new in ((18, False), (21, True)):
        tracker = CardTracker(config=TrackerConfig(confirm=2, vanish=4, forget_after_ns=2_000 * MS))
        run(tracker, [[seen("JH")]] * 2)
        assert run(tracker, [[]] * 4, start=2) == [CardGone(200 * MS, "camera", "pile")]
        run(tracker, [[seen(None, 0.1)]] * 3, start=6)  # a hand over the pile, nothing readable
        run(tracker, [[]] * bare, start=9)  # then bare (frames 100 ms apart)
        at = 9 + bare
        again = run(tracker, [[seen("JH")]] * 2, start=at)
        assert again == ([CardSeen(at * 100 * MS, "camera", parse_card("JH"), "pile")] if new else []), bare


def test_the_identical_card_of_a_second_deck_played_next_elsewhere_is_a_new_card() -> None:
    """Two decks: a trick taken away, the next one led with the other deck's queen. Thrown onto
    the pile it lies elsewhere, at another angle: played, not the taken queen shown again. Back
    where the taken one lay, nudged a little or turned half round, it was hidden."""
    turned = np.float32([[160, 95], [160, 145], [90, 145], [90, 95]])  # the pile at a right angle
    for where, played in ((turned, True), (PILE + 30, True), (PILE + 4, False), (np.roll(PILE, 2, axis=0), False)):
        tracker = CardTracker(config=TrackerConfig(confirm=2, vanish=4))
        run(tracker, [[seen("QH")]] * 2)
        assert run(tracker, [[]] * 6, start=2) == [CardGone(200 * MS, "camera", "pile")]
        again = run(tracker, [[seen("QH", where=where)]] * 2, start=8)
        assert again == ([CardSeen(800 * MS, "camera", parse_card("QH"), "pile")] if played else []), where


def test_a_card_carried_across_the_pile_is_not_placed_and_one_sliding_to_rest_is_dated_by_its_first_frame() -> None:
    """A player carries a card over the pile, read surely in every frame but moving (a fifth of
    its width a frame): it never rests there, and is not placed. A card thrown onto the pile
    slides two frames, then rests: placed, dated by the first frame it was read in."""
    carried = [[seen("KS", where=PILE + np.float32([12 * n, 4 * n]))] for n in range(6)]
    tracker = CardTracker(config=TrackerConfig(confirm=2))
    assert run(tracker, [*carried, [], []]) == []
    thrown = [[seen("9D", where=PILE + np.float32(off))] for off in ((30, 20), (14, 9), (0, 0))]
    assert run(tracker, [*thrown, [seen("9D")]], start=8) == [CardSeen(800 * MS, "camera", parse_card("9D"), "pile")]


def test_a_card_read_unsettled_for_long_is_dated_from_when_it_settled_not_from_its_first_frame() -> None:
    """The top of an untidy pile, its outline jumping from frame to frame (read surely, never at
    rest) and now and then unreadable, until its player straightens it: dated from the frames that
    confirmed it, so that its report comes within the camera's bound."""
    shifts = iter([0, 30] * 10)  # each reading 30 px from the last
    jumping = [
        [seen("9D", where=PILE + np.float32([next(shifts), 0]))] if n % 3 else [seen(None, 0.2)] for n in range(12)
    ]
    tracker = CardTracker(config=TrackerConfig(confirm=2, date_within_ns=400 * MS))
    events = run(tracker, [*jumping, [seen("9D")], [seen("9D")]])
    assert len(events) == 1 and events[0].card.code == "9D"
    assert 13 * 100 * MS - events[0].t_ns <= 5 * 100 * MS  # confirmed at frame 13, dated within five frames of it


def test_a_card_lifted_from_a_seat_and_put_back_is_shown_not_played() -> None:
    tracker = CardTracker(zone_of=lambda _p: ("seat", 1), config=TrackerConfig(confirm=2, vanish=3))
    assert [e.card.code for e in run(tracker, [[seen("KS", where=SEAT)]] * 2)] == ["KS"]
    lifted = run(tracker, [[]] * 5 + [[seen("KS", where=SEAT)]] * 2, start=2)
    assert [type(e) for e in lifted] == [CardGone]


def test_a_card_landing_blurred_is_dated_by_its_unreadable_frame() -> None:
    """The frame a card lands in is often blurred (unsure); the first frame it appeared in is
    that one, not the first that reads it (``TrackerConfig.settle``: one such frame by default)."""
    landing = [[], [seen(None, 0.2)], [seen("QH")], [seen("QH")]]
    assert run(CardTracker(), landing) == [CardSeen(100 * MS, "camera", parse_card("QH"), "pile")]
    hovering = [[], [seen(None, 0.2)], [seen("5S", 0.3)], [seen("QH")], [seen("QH")]]
    assert run(CardTracker(), hovering) == [CardSeen(200 * MS, "camera", parse_card("QH"), "pile")]
    strict = CardTracker(config=TrackerConfig(settle=0))
    assert run(strict, landing) == [CardSeen(200 * MS, "camera", parse_card("QH"), "pile")]


def test_a_tracker_configured_to_confirm_over_no_frames_is_refused_by_name() -> None:
    for bad in ({"confirm": 0}, {"vanish": 0}, {"settle": -1}, {"forget_after_ns": 0}, {"date_within_ns": 0}):
        with pytest.raises(ValueError, match=next(iter(bad))):
            TrackerConfig(**bad)


def test_a_calibrated_table_files_each_card_in_the_zone_it_lies_in() -> None:
    """Camera pixels through the calibration to table millimetres, then the table's zones: a card
    in seat 2's area is seat 2's, one in the middle lies on the pile, one off the table nowhere."""
    width, height = 800.0, 600.0
    corners_px = [[40, 30], [760, 50], [770, 580], [30, 560]]  # a camera a little askew
    calibration = calibrate_from_points(corners_px, [[0, 0], [width, 0], [width, height], [0, height]])
    zones = default_zones(4, width, height)
    seat2 = next(z for z in zones if z.kind == "seat" and z.seat == 2)
    tracker = CardTracker(zone_of=table_zones(calibration, zones), config=TrackerConfig(confirm=1))

    def card_at(code: str, point_mm: tuple[float, float]) -> SeenCard:
        centre = calibration.to_image(np.array(point_mm, np.float64))
        return seen(code, where=(PILE - PILE.mean(axis=0)) * 0.3 + centre.astype(np.float32))

    events = tracker.update(5, [card_at("QH", seat2.centre), card_at("7C", (width / 2, height / 2))])
    events += tracker.update(6, [card_at("KS", (-200.0, -200.0))])
    assert sorted((e.zone, e.seat, e.card.code) for e in events) == [("pile", None, "7C"), ("seat", 2, "QH")]


def test_a_frame_time_that_is_no_integer_is_refused_and_an_older_frame_is_left_out() -> None:
    """A time of another type is refused before anything changes (it had left the zone stuck,
    each later frame refused too); a frame older than the latest cannot undo what came after."""
    tracker = CardTracker()
    with pytest.raises(ValueError, match="integer nanoseconds"):
        tracker.update(np.int64(100), [seen("KH")])
    run(tracker, [[seen("KH")]] * 2, start=1)
    assert tracker.update(50, []) == [] and tracker.stale == 1
    assert [e.card.code for e in run(tracker, [[seen("7C")]] * 2, start=3)] == ["7C"]


def test_the_tracker_vouches_for_every_frame_but_the_events_it_is_still_confirming() -> None:
    tracker = CardTracker(config=TrackerConfig(confirm=3, vanish=2))
    assert tracker.vouched_to is None
    tracker.update(0, [])
    assert tracker.vouched_to == 0
    tracker.update(100 * MS, [seen(None, 0.1)])  # a card landing blurred: it may be dated here
    assert tracker.vouched_to == 100 * MS - 1
    tracker.update(200 * MS, [seen("QH")])
    tracker.update(300 * MS, [seen("QH")])
    assert tracker.vouched_to == 100 * MS - 1
    assert tracker.update(400 * MS, [seen("QH")]) == [CardSeen(100 * MS, "camera", parse_card("QH"), "pile")]
    assert tracker.vouched_to == 400 * MS
    tracker.update(500 * MS, [])  # the pile may be being taken away: gone from here
    assert tracker.vouched_to == 500 * MS - 1
    assert tracker.update(600 * MS, []) == [CardGone(500 * MS, "camera", "pile")]
    assert tracker.vouched_to == 600 * MS


@settings(max_examples=600, deadline=None)
@given(
    st.lists(
        st.lists(
            st.tuples(
                st.sampled_from([None, "QH", "7C", "back"]),
                st.sampled_from([0.1, 0.6, 0.95]),
                st.booleans(),
                st.booleans(),  # read as covered (under another card)
                st.sampled_from([0, 20]),  # where on its zone: moved, or a twin laid beside
            ),
            max_size=3,
        ),
        max_size=30,
    )
)
def test_no_event_is_ever_dated_before_what_the_tracker_vouched_for(frames: list) -> None:
    """What the sequencer relies on: an event reported later never carries a time the tracker
    had already vouched for, whatever the frames read."""
    tracker = CardTracker(zone_of=lambda c: ("pile", None) if c[0] < 250 else ("seat", 1))
    vouched = None
    for n, cards in enumerate(frames):
        readings = [
            SeenCard(code, conf, (PILE if on_pile else SEAT) + off, covered=covered)
            for code, conf, on_pile, covered, off in cards
        ]
        for event in tracker.update(n * 66 * MS, readings):
            assert vouched is None or event.t_ns > vouched, (event, vouched)
        now = tracker.vouched_to  # the sequencer keeps the furthest word given: a word taken back is no use
        vouched = now if vouched is None or now is None else max(vouched, now)


def test_something_unreadable_on_a_zone_for_long_enough_asks_for_the_card_again() -> None:
    tracker = CardTracker(config=TrackerConfig(ask_after=3))
    run(tracker, [[seen("QH")]] * 3)
    run(tracker, [[seen(None, 0.2)]] * 2, start=3)
    assert tracker.unsure() == []
    run(tracker, [[seen(None, 0.2)]], start=5)
    assert tracker.unsure() == [("pile", None)]
    run(tracker, [[seen("7C")]], start=6)
    assert tracker.unsure() == []


def test_a_card_taken_back_off_the_pile_uncovers_the_one_under_it_which_is_not_played_again() -> None:
    """A misplay taken back (the shedding game): the card under it shows again where it lay, and
    is no new card; the identical card of the other deck thrown on the pile next is one."""
    tracker = CardTracker()
    laid = run(tracker, [[seen("9C")]] * 3 + [[seen("5H", where=PILE + 12)]] * 3)
    assert [e.card.code for e in laid] == ["9C", "5H"]
    assert run(tracker, [[seen("9C")]] * 3, start=6) == []  # 5H taken back: 9C, where it lay
    assert run(tracker, [[seen("9C", where=PILE + 2)]] * 3, start=9) == []  # straightened


def test_the_twin_of_the_top_card_laid_on_it_is_a_new_card_and_the_top_card_moved_is_not() -> None:
    """Two decks: the identical card laid on its twin (a switch, a pair) is played; the top card
    straightened or pushed aside, leaving nothing where it lay, is not."""
    tracker = CardTracker()
    run(tracker, [[seen("9C")]] * 3)
    twin = [seen("9C", where=PILE + 20), SeenCard("9C", 0.8, PILE, covered=True)]
    thrown = run(tracker, [twin] * 3, start=3)
    assert [(e.card.code, e.t_ns) for e in thrown] == [("9C", 300 * MS)]
    assert run(tracker, [[seen("9C", where=PILE + 40)]] * 3, start=6) == []  # pushed aside: nothing under it


def test_a_twin_is_known_by_the_covered_cards_index_where_the_top_card_had_its_own() -> None:
    """An outline inferred from one index may lie well off the card; the index itself is placed
    surely: the covered twin's index at the old top card's index corner says it still lies there."""
    tracker = CardTracker()
    run(tracker, [[seen("9C")]] * 3)
    inferred = SeenCard("9C", 0.9, PILE + 30, covered=True, indices=((106.0, 108.0),))  # at PILE's first corner
    thrown = run(tracker, [[seen("9C", where=PILE + 20), inferred]] * 3, start=3)
    assert [e.card.code for e in thrown] == ["9C"]
    elsewhere = SeenCard("9C", 0.9, PILE + 30, covered=True, indices=((125.0, 135.0),))  # mid-card: not its index
    tracker = CardTracker()
    run(tracker, [[seen("9C")]] * 3)
    assert run(tracker, [[seen("9C", where=PILE + 20), elsewhere]] * 3, start=3) == []


def test_a_twin_whose_index_is_hidden_is_known_by_the_picture_of_the_old_card_still_lying_there() -> None:
    """The covered twin's index hidden too, the frame's picture is asked whether the old card
    still lies where it lay (``frame_reports``: its sides and its look); the tracker sees
    readings only. Its answer decides; the card at rest is not asked again."""
    asked: list[tuple[tuple[float, float], tuple[float, float]]] = []

    def still_lies(where: SeenCard, top: SeenCard, past: bool) -> bool:
        asked.append((where.center, top.center))
        return True

    tracker = CardTracker()
    run(tracker, [[seen("9C")]] * 3)
    thrown = run(tracker, [[seen("9C", where=PILE + 20)]] * 3, 3, still_lies)
    assert [e.card.code for e in thrown] == ["9C"] and asked[0] == ((125.0, 135.0), (145.0, 155.0))
    assert tracker.update(700 * MS, [seen("9C", where=PILE + 20)], still_lies) == []  # at rest: not asked again
    assert len(asked) == 2

    tracker = CardTracker()
    run(tracker, [[seen("9C")]] * 3)
    assert run(tracker, [[seen("9C", where=PILE + 20)]] * 3, 3, lambda where, top, past: False) == []


def test_a_twin_the_picture_cannot_show_at_first_is_still_counted_once_it_can() -> None:
    """A hand still over the old card when the twin is first read: the old card is asked after
    again on the next frames, until the card read elsewhere has held still for ``confirm``."""
    answers = iter([False, True, True, True])
    tracker = CardTracker()
    run(tracker, [[seen("9C")]] * 3)
    thrown = run(tracker, [[seen("9C", where=PILE + 20)]] * 3, 3, lambda where, top, past: next(answers))
    assert [e.card.code for e in thrown] == ["9C"]
    tracker = CardTracker()
    run(tracker, [[seen("9C")]] * 3)
    assert run(tracker, [[seen("9C", where=PILE + 20)]] * 4, 3, lambda where, top, past: False) == []  # moved
    assert tracker.shown_cards()[0].center == (145.0, 155.0)  # and taken to lie there


def test_the_twin_of_a_card_two_deep_laid_where_that_card_lies_is_played_not_uncovered() -> None:
    """7H, then 5H on it; the other deck's 7H laid where the first lies: the 5H is still there
    under it (seen covered, or as the picture has it), so nothing was taken back."""
    for covered, still_lies in (([SeenCard("5H", 0.9, PILE + 20, covered=True)], None), ([], lambda w, t, past: True)):
        tracker = CardTracker()
        run(tracker, [[seen("7H")]] * 3 + [[seen("5H", where=PILE + 20)]] * 3)
        laid = run(tracker, [[seen("7H"), *covered]] * 3, 6, still_lies)
        assert [e.card.code for e in laid] == ["7H"]
    tracker = CardTracker()
    run(tracker, [[seen("7H")]] * 3 + [[seen("5H", where=PILE + 20)]] * 3)
    assert run(tracker, [[seen("7H")]] * 3, 6, lambda w, t, past: False) == []  # the 5H taken back


def test_the_twin_of_a_card_deep_in_the_pile_is_played_while_cards_laid_on_that_card_still_show() -> None:
    """7C, then three cards on it, the last hidden whole by the other deck's 7C landing where the
    first lay: the cards between still show under it, so nothing was taken back. With none of
    them showing, the 7C is the first one uncovered."""
    between = [("4S", 10), ("AS", 20), ("QC", 30)]
    for shows in (True, False):
        tracker = CardTracker()
        run(tracker, [[seen("7C")]] * 3)
        for n, (code, off) in enumerate(between):
            run(tracker, [[seen(code, where=PILE + off)]] * 3, 3 * (n + 1))
        covered = [SeenCard(code, 0.9, PILE + off, covered=True) for code, off in between[:2]] if shows else []
        laid = run(tracker, [[seen("7C", where=PILE + 4), *covered]] * 3, 12, lambda w, t, past: False)
        assert [e.card.code for e in laid] == (["7C"] if shows else [])


def test_a_card_just_moved_and_then_hidden_or_covered_is_where_it_was_last_read() -> None:
    """Moved, read at its new place for fewer than ``confirm`` frames: a hand over the zone, or a
    card laid on it and taken back, finds it there again, and it was not played again."""
    tracker = CardTracker()
    run(tracker, [[seen("9C")]] * 3 + [[seen("9C", where=PILE + 20)]])
    assert [type(e) for e in run(tracker, [[]] * 6, 4)] == [CardGone]  # a palm over the zone
    assert run(tracker, [[seen("9C", where=PILE + 20)]] * 3, 10) == []
    tracker = CardTracker()
    run(tracker, [[seen("9C")]] * 3 + [[seen("9C", where=PILE + 20)]])
    assert [e.card.code for e in run(tracker, [[seen("KH", where=PILE + 40)]] * 3, 4)] == ["KH"]
    assert run(tracker, [[seen("9C", where=PILE + 20)]] * 3, 7) == []  # the KH taken back


def test_a_card_being_confirmed_ages_while_the_zones_card_is_read_elsewhere() -> None:
    """A twin known in one frame only (its old card's index read there), then read at rest while
    nothing shows the old card: it is dated no earlier than ``date_within_ns`` before it was
    confirmed, as any card that came to rest late."""
    config = TrackerConfig(confirm=2)
    tracker = CardTracker(config=config)
    run(tracker, [[seen("9C")]] * 3)
    index = SeenCard("9C", 0.9, PILE + 40, covered=True, indices=((106.0, 108.0),))
    frames = [[seen("9C", where=PILE + 20), index]] + [[seen("9C", where=PILE + 20 + 9 * (i % 2))] for i in range(10)]
    frames += [[seen("9C", where=PILE + 20), index]] * 2
    (event,) = run(tracker, frames, 3)
    confirmed = 3 + len(frames) - 1
    assert event.t_ns >= confirmed * 100 * MS - config.date_within_ns - 100 * MS


def test_a_face_down_card_taken_up_from_a_seat_is_gone_from_that_seat() -> None:
    """The shedding game's safe card lies face down before its player: the camera reads a back,
    which is no card played; taken up, it is gone from that seat's zone, and the event says
    which seat (the referee counts it into that player's hand)."""
    tracker = CardTracker(zone_of=lambda point: ("seat", 2))
    assert run(tracker, [[seen("back")]] * 3) == []
    assert run(tracker, [[]] * 6, start=3) == [CardGone(300 * MS, "camera", "seat", seat=2)]

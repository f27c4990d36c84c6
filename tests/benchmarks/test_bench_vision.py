"""The vision benchmark's own scoring: a card read that is no card of the scene is counted apart."""

from __future__ import annotations

import subprocess
import sys
from collections import Counter
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from benchmarks.bench_vision import NOT_THERE, covered_verdicts, not_there, report_tally, shown_box
from vision.identify import SeenCard

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]


def _seen(code: str | None, covered: bool = False) -> SeenCard:
    return SeenCard(code, 0.9, np.zeros((4, 2), np.float32), covered)


def test_cards_read_that_are_not_in_the_scene_are_counted_whether_on_top_or_covered() -> None:
    truth = [SimpleNamespace(code="QS"), SimpleNamespace(code="7H")]
    found = [_seen("QS"), _seen(None), _seen("back"), _seen("BJ"), _seen("KS", covered=True), _seen("7H")]
    assert not_there(found, truth) == 2


def test_the_report_counts_verdicts_and_names_the_phantoms_apart(capsys) -> None:
    report_tally("scenes", Counter({"right": 3, "unsure": 1, NOT_THERE: 2}), [0.01])
    line = capsys.readouterr().out
    assert "4 cards" in line and "right  75.0%" in line and "read but not there: 2" in line


def test_a_photo_card_whose_suit_was_checked_by_eye_is_wrong_with_another_suit() -> None:
    from benchmarks.bench_vision import box_verdict

    king = SeenCard("KS", 0.81, np.float32([[10, 10], [60, 10], [60, 80], [10, 80]]))
    box = [10, 10, 60, 80]
    assert box_verdict([king], box, "K", (100, 100)) == "right"  # the labels give ranks only
    assert box_verdict([king], box, "K", (100, 100), suit="C") == "wrong"
    assert box_verdict([king], box, "K", (100, 100), suit="S") == "right"


def _card(code: str | None, x0: int, covered: bool = True, indices: tuple = ()) -> SeenCard:
    corners = np.float32([[x0, 10], [x0 + 50, 10], [x0 + 50, 80], [x0, 80]])
    return SeenCard(code, 0.95, corners, covered, indices)


def test_a_fan_s_lower_card_is_judged_on_the_part_the_cards_over_it_leave_showing() -> None:
    """Two covered cards of a fan, each known by an index: the ten's index lies on the queen's
    outline, so the ten lies over her and her labelled strip is what it leaves showing."""
    from benchmarks.bench_vision import box_verdict
    from vision.identify import lies_over

    queen = _card("QC", 10, indices=((15.0, 15.0),))
    ten = _card("10D", 30, indices=((35.0, 15.0), (75.0, 75.0)))
    assert lies_over(ten, queen) and not lies_over(queen, ten)
    assert box_verdict([queen, ten], [10, 10, 30, 80], "Q", (100, 100)) == "right"
    assert box_verdict([queen, ten], [30, 10, 80, 80], "10", (100, 100)) == "right"
    # Known by no index (read through the part showing), a covered card lies over no other:
    # the queen is judged on her whole outline.
    plain = _card("10D", 30)
    over = [c for c in (queen, plain) if lies_over(c, queen)]
    assert not over and shown_box(queen, over, (100, 100)) == (10, 10, 60, 80)
    # A card on top lies over every covered one, and over no other card on top.
    top = _card("AH", 30, covered=False)
    assert lies_over(top, queen) and not lies_over(queen, top) and not lies_over(top, _card("KS", 0, covered=False))


def test_an_outline_holding_a_covered_card_s_showing_index_hides_none_of_that_card() -> None:
    """An unsure outline drawn round a whole pile holds the index a covered card was known by:
    that index shows, so the outline lies over none of it and the card is judged on its outline."""
    from benchmarks.bench_vision import box_verdict
    from vision.identify import lies_over

    queen = _card("QC", 10, indices=((15.0, 15.0),))
    pile = SeenCard(None, 0.2, np.float32([[5, 5], [95, 5], [95, 85], [5, 85]]))
    assert not lies_over(pile, queen)
    assert box_verdict([pile, queen], [10, 10, 60, 80], "Q", (100, 100)) == "right"
    # An outline that does not hold it still covers it.
    beside = SeenCard(None, 0.2, np.float32([[20, 5], [95, 5], [95, 85], [20, 85]]))
    assert lies_over(beside, queen)
    assert box_verdict([beside, queen], [10, 10, 60, 80], "Q", (100, 100)) == "not found"


def test_a_covered_card_read_right_answers_for_its_own_card_not_for_the_nearest() -> None:
    """A fan's cards lie close: the eight read right lies nearer the jack's centre than the
    jack's own reading does. Each found card answers for one card, its own code first."""
    jack, eight = _card("JS", 0).corners, _card("8D", 16).corners
    found = [_card("8D", 8), _card("JS", 10), _card("AH", 30, covered=False)]
    assert covered_verdicts(found, [(jack, "JS"), (eight, "8D")]) == ["right", "right"]
    # Read as another card: wrong; unsure; nothing left within reach: not found.
    assert covered_verdicts([_card("3S", 5)], [(jack, "JS")]) == ["wrong"]
    assert covered_verdicts([_card(None, 5)], [(jack, "JS")]) == ["unsure"]
    assert covered_verdicts([_card("JS", 5)], [(jack, "JS"), (_card("QS", 8).corners, "QS")]) == ["right", "not found"]
    assert covered_verdicts([_card("JS", 5, covered=False)], [(jack, "JS")]) == ["not found"]


def test_outlines_on_no_labelled_card_are_counted_by_what_they_read() -> None:
    """A photograph's outlines lying on no labelled card: a patch of table read unsure, one taken
    for a back, one read as a card. An outline round a labelled card, or round a pile of them,
    lies on one."""
    from benchmarks.bench_vision import off_labels

    labelled = [[10, 10, 40, 50]]
    pile = SeenCard(None, 0.2, np.float32([[0, 0], [90, 0], [90, 90], [0, 90]]))
    found = [_card("QS", 10), _card(None, 60), _card("back", 60), _card("7H", 60), pile]
    assert off_labels(found, labelled) == Counter({"unsure": 1, "back": 1, "read": 1})
    assert off_labels([], labelled) == Counter()


def test_a_card_under_a_book_matches_the_label_of_the_part_showing() -> None:
    """A card found by its index under a book has its whole outline inferred; its label boxes
    only the strip showing (IoU under 0.5). Covered, holding the box, it matches; a card read
    whole does not, and neither does an outline far bigger than the box (another card's)."""
    from benchmarks.bench_vision import box_verdict

    strip = [10, 10, 30, 80]  # a fifth of a 50 x 70 card
    under_book = _card("9C", 10)
    assert box_verdict([under_book], strip, "9", (100, 100)) == "right"
    assert box_verdict([under_book], strip, "K", (100, 100)) == "wrong"
    assert box_verdict([_card("9C", 10, covered=False)], strip, "9", (100, 100)) == "not found"
    assert box_verdict([under_book], [10, 10, 20, 40], "9", (100, 100)) == "not found"


def test_the_benchmarks_command_names_a_benchmark_it_does_not_have() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "benchmarks", "visoin"], cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2
    assert "no benchmark visoin: choose from engine, vision, bridge, races, table" in done.stderr
    assert "Traceback" not in done.stderr and not done.stdout


def test_each_camera_row_is_read_by_the_built_in_reader_and_by_a_deck_enrolled_under_that_camera(
    monkeypatch, capsys
) -> None:
    """One look and one design, one scene: a row each for the built-in reader, the deck enrolled
    from photos taken with that look (``sim.camera_looks``) and the deck enrolled from sharp
    photos, every card of the scene counted in each."""
    import benchmarks.bench_vision as bench_module

    enrolled_under = []
    enrolled = bench_module.enrolled_deck

    def spy(style, folder, camera=None):
        enrolled_under.append(camera)
        return enrolled(style, folder, camera)

    monkeypatch.setattr(bench_module, "enrolled_deck", spy)
    bench_module.bench_cameras(count=1, looks=["cheap webcam"], styles=["classic"])
    rows = [line for line in capsys.readouterr().out.splitlines() if "cheap webcam" in line]
    assert enrolled_under == [None, "cheap webcam"]  # from sharp photos, then under the camera
    assert [row.split(":")[0].split("webcam")[1].strip() for row in rows] == ["built-in", "enrolled", "enrolled sharp"]
    assert all(" 3 cards " in row for row in rows)


def test_each_card_thrown_on_the_table_camera_s_pile_is_judged_once(monkeypatch) -> None:
    """The table-scale pile benchmark judges every card laid, by what the table's frame reader
    reports: a card reported as itself is right, and one never reported is missed."""
    from benchmarks import table_piles

    tally = table_piles.pile_verdicts("classic", 1, 1)
    assert 3 <= sum(tally.values()) <= 6 and set(tally) <= {"right", "wrong", "missed"}
    assert tally["right"] >= 1
    monkeypatch.setattr(table_piles, "CardSeen", type("NeverReported", (), {}))
    assert table_piles.pile_verdicts("classic", 1, 1) == Counter(missed=sum(tally.values()))

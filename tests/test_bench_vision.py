"""The vision benchmark's own scoring: a card read that is no card of the scene is counted apart."""

from __future__ import annotations

from collections import Counter
from types import SimpleNamespace

import numpy as np

from benchmarks.bench_vision import NOT_THERE, _not_there, _report
from vision.identify import SeenCard


def _seen(code: str | None, covered: bool = False) -> SeenCard:
    return SeenCard(code, 0.9, np.zeros((4, 2), np.float32), covered)


def test_cards_read_that_are_not_in_the_scene_are_counted_whether_on_top_or_covered() -> None:
    truth = [SimpleNamespace(code="QS"), SimpleNamespace(code="7H")]
    found = [_seen("QS"), _seen(None), _seen("back"), _seen("BJ"), _seen("KS", covered=True), _seen("7H")]
    assert _not_there(found, truth) == 2


def test_the_report_counts_verdicts_and_names_the_phantoms_apart(capsys) -> None:
    _report("scenes", Counter({"right": 3, "unsure": 1, NOT_THERE: 2}), [0.01])
    line = capsys.readouterr().out
    assert "4 cards" in line and "right  75.0%" in line and "read but not there: 2" in line


def test_a_photo_card_whose_suit_was_checked_by_eye_is_wrong_with_another_suit() -> None:
    from benchmarks.bench_vision import _box_verdict

    king = SeenCard("KS", 0.81, np.float32([[10, 10], [60, 10], [60, 80], [10, 80]]))
    box = [10, 10, 60, 80]
    assert _box_verdict([king], box, "K", (100, 100)) == "right"  # the labels give ranks only
    assert _box_verdict([king], box, "K", (100, 100), suit="C") == "wrong"
    assert _box_verdict([king], box, "K", (100, 100), suit="S") == "right"

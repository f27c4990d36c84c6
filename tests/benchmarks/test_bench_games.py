"""The whole-games benchmark's verdict: a game keeps count only when nothing went wrong."""

from __future__ import annotations

import pytest

import sim.truth
from benchmarks.bench_games import play

pytestmark = pytest.mark.slow


def test_a_whole_game_on_the_rendered_camera_that_kept_count_is_counted_so() -> None:
    game, players, seed, kept, said, _ = play("cuckoo", 4, 1)
    assert (game, players, seed, kept) == ("cuckoo", 4, 1, True)
    assert said.endswith(" cards") and int(said.split()[0]) > 0


def test_a_game_the_camera_misread_a_card_of_has_lost_count_and_says_which(monkeypatch) -> None:
    compare = sim.truth.compare

    def misread(sim_):  # the truth as it was, and one card read as another
        report = compare(sim_)
        report.misread.append("7H read 7D")
        return report

    monkeypatch.setattr(sim.truth, "compare", misread)
    *_, kept, said, _ = play("cuckoo", 4, 1)
    assert not kept and said.endswith("first: 7H read 7D")


def test_the_first_error_said_is_the_earliest() -> None:
    from benchmarks.bench_games import error_time

    errors = ["1 hand count(s) put right", "seat 2 won a slap at 900, but the first slap was (800, 3)", "5D at 700 put"]
    assert min(errors, key=error_time) == "5D at 700 put"

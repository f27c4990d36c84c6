"""The damage benchmark's judge, on fewer mutations: journals mutated at random are refused or
salvaged with the line named, or read whole where every line's checksum still matches; never a
traceback, never a damaged byte read as a game."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from benchmarks.bench_damage import FAILURES, judge, simulated_journal


@pytest.mark.parametrize(("game", "seed"), [("ers", 0), ("cuckoo", 1), ("oh-hell", 2), ("eights", 3)])
def test_mutated_journals_are_named_or_replayed_never_a_traceback(tmp_path: Path, game: str, seed: int) -> None:
    lines = simulated_journal(game, seed, tmp_path / "game.jsonl")
    outcomes, failures = judge(lines, 60, random.Random(seed), tmp_path)
    assert failures == [] and not any(outcomes[kind] for kind in FAILURES)
    assert outcomes["refused"] + outcomes["salvaged"] > 20 and sum(outcomes.values()) == 60


def test_the_judge_counts_a_damaged_byte_read_whole_as_a_failure(tmp_path: Path) -> None:
    """A journal without checksums (a hand-written record's format) read whole after a byte's
    change is what the judge is there to catch."""
    header = b'{"journal":"cardtable-journal/1","game":"ers","players":2,"rules":{}}'
    lines = [header, b'{"t":1234567890,"type":"press","seat":1}']
    outcomes, _ = judge(lines, 1000, random.Random(5), tmp_path)
    assert outcomes["read as a game"] > 0


def test_mutated_configurations_are_read_or_refused_in_one_line_never_a_traceback(tmp_path: Path) -> None:
    from benchmarks.bench_damage import judge_configs

    example = (Path(__file__).resolve().parents[2] / "table.example.toml").read_text(encoding="utf-8")
    outcomes, failures = judge_configs(example, 150, random.Random(2), tmp_path)
    assert failures == [] and outcomes["traceback"] == 0
    assert outcomes["refused"] > 50 and outcomes["read"] > 10  # most mutations break it; some are harmless

"""The versions benchmark: stored games replay in a checkout of their own, in a process of its own."""

from __future__ import annotations

import json
from pathlib import Path

from benchmarks.bench_engine import simulated_games
from benchmarks.referee_versions import ROOT, replay_in


def test_stored_games_replay_in_a_checkout(tmp_path: Path) -> None:
    games = simulated_games(2, 4, "oh-hell", "classic")
    setup, events = games[0]
    rules = {**setup.to_json(), "rules": {**setup.rules, "a_key_from_the_future": 1}}  # left out, not refused
    stored = {"oh-hell": [(rules, [e.to_json() for e in events])]}
    path = tmp_path / "games.json"
    path.write_text(json.dumps(stored))
    timed = replay_in(ROOT, path)
    assert list(timed) == ["oh-hell"]
    relative, per_input, ended = timed["oh-hell"]
    assert relative > 0 and 0 < per_input < 0.01 and ended == 1  # the one game played to its end

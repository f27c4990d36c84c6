"""The versions benchmark: stored games replay in a checkout of their own, in a process of its own."""

from __future__ import annotations

import json
from pathlib import Path

from benchmarks import referee_floor
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


def test_the_floor_makes_as_many_decisions_as_the_referee_one_call_an_input() -> None:
    games = simulated_games(2, 4, "ers", "standard")
    for (setup, events), (k, more, rest) in zip(games, referee_floor.planned(games), strict=True):
        referee, stand_in = setup.referee(), referee_floor.NoRules()
        referee.start(0)
        made = sum(len(referee.handle(event)) for event in events)
        assert more + rest == events and len(more) < len(events)
        answers = [stand_in.answering(k + 1)(event) for event in more] + [
            stand_in.answering(k)(event) for event in rest
        ]
        assert sum(map(len, answers)) == made > len(events)  # most inputs make decisions
        assert all(d.t_ns == e.t_ns for answer, e in zip(answers, events, strict=True) for d in answer)
    assert len(referee_floor.NoRules().answering(6)(events[0])) == 6


def test_this_checkout_times_the_floor_beside_its_referee(tmp_path: Path) -> None:
    setup, events = simulated_games(1, 4, "cuckoo", "cuckoo")[0]
    path = tmp_path / "games.json"
    path.write_text(json.dumps({"cuckoo": [(setup.to_json(), [e.to_json() for e in events])]}))
    relative, per_input, ended, floor_relative, floor_per_input = replay_in(ROOT, path, floor=True)["cuckoo"]
    assert ended == 1 and 0 < floor_per_input < per_input and 0 < floor_relative < relative

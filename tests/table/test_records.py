"""The hand-written game records in docs/records replay to the tricks, losers and scores the
docs/journal.md promises: a game played without the controller can be scored afterwards."""

from __future__ import annotations

import json
from pathlib import Path

from table.cli import main

RECORDS = Path(__file__).parents[2] / "docs" / "records"


def replayed(name: str, capsys) -> list[dict]:
    assert main(["replay", str(RECORDS / name)]) == 0
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def test_the_oh_hell_record_gives_every_trick_winner_and_score(capsys) -> None:
    lines = replayed("oh-hell.jsonl", capsys)
    assert not [d for d in lines if d["kind"] == "rejected"]
    tricks = [(d["trick"], d["seat"]) for d in lines if d["kind"] == "trick-won"]
    assert tricks == [(1, 0), (1, 1), (2, 0)]
    scored = [(d["points"], d["totals"]) for d in lines if d["kind"] == "hand-scored"]
    assert scored == [([11, 0, 10], [11, 0, 10]), ([0, 0, 0], [11, 0, 10])]
    assert lines[-2] == {
        "kind": "game-over",
        "pot": 0,
        "reason": "highest total after 2 hands",
        "scores": [11, 0, 10],
        "t": 17,
        "winners": [0],
    }


def test_the_cuckoo_record_gives_each_rounds_loser(capsys) -> None:
    lines = replayed("cuckoo.jsonl", capsys)
    assert not [d for d in lines if d["kind"] == "rejected"]
    assert [d["kind"] for d in lines].count("trade-blocked") == 1
    assert [(d["seats"], d["reason"]) for d in lines if d["kind"] == "round-lost"] == [
        ([1], "lowest card (4)"),
        ([0], "lowest card (2)"),
    ]
    state = lines[-1]["state"]["state"]
    assert state["lives"] == [1, 1, 2] and state["round"] == 3 and state["dealer"] == 2

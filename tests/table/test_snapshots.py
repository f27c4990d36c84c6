"""Snapshots of the state-dataclass referees: JSON in and out, and clear errors for bad ones."""

from __future__ import annotations

import json

import pytest

from table.games import setup_game
from table.games.cuckoo.referee import CuckooReferee
from table.games.oh_hell.referee import OhHellReferee
from table.referee import GameSetupError


@pytest.mark.parametrize(("game", "cls"), [("cuckoo", CuckooReferee), ("oh-hell", OhHellReferee)])
def test_a_fresh_referee_survives_json(game: str, cls) -> None:
    ref = setup_game(game, seed=9).referee()
    ref.start()
    snap = json.loads(json.dumps(ref.snapshot()))
    assert cls.restore(snap).snapshot() == snap


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda s: s.update(game="ers"), "it is for game 'ers'"),
        (lambda s: s["state"].pop("pot"), "pot"),
        (lambda s: s["state"].update(colour="red"), "colour"),
        (lambda s: s.update(rng="broken"), "generator state"),
        (lambda s: s["rules"].update(kings="sometimes"), "rules key 'kings'"),
        (lambda s: s["state"].update(known=[{"card": "ZZ"}] * 4), "not a card"),
        (lambda s: s.pop("players"), "players"),
    ],
)
def test_a_bad_snapshot_is_refused_by_name(change, message: str) -> None:
    ref = setup_game("cuckoo", players=4).referee()
    ref.start()
    snap = json.loads(json.dumps(ref.snapshot()))
    change(snap)
    with pytest.raises(GameSetupError, match=message):
        CuckooReferee.restore(snap)

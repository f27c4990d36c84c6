"""A game played without jokers reads none (vision.deck.Deck.jokers): a joker, or pale wood
grain read as one, is then no card at all, on the command line as in the reader."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

from sim.render import CardPlacement, SceneSpec, render_scene
from table.cli import main
from vision.corner_net import RANK_CLASSES, CornerOutput
from vision.deck import builtin_deck


def test_without_jokers_a_corners_joker_belief_goes_to_no_index() -> None:
    rank = np.zeros((2, len(RANK_CLASSES)), np.float32)
    rank[0, RANK_CLASSES.index("joker")], rank[0, RANK_CLASSES.index("none")] = 0.8, 0.2
    rank[1, RANK_CLASSES.index("7")] = 1.0
    out = CornerOutput(rank, np.full((2, 5), 0.2, np.float32), np.zeros((2, 4), np.float32))
    deck = builtin_deck()
    assert np.array_equal(deck.posteriors(out)[0], rank)
    got, _ = replace(deck, jokers=False).posteriors(out)
    assert got[0, RANK_CLASSES.index("none")] == np.float32(1.0) and got[0, RANK_CLASSES.index("joker")] == 0
    assert np.array_equal(got[1], rank[1])


def test_a_joker_is_no_card_when_the_game_has_none(tmp_path: Path, capsys) -> None:
    """A black joker beside a seven on limed wood (casino deck) reads as a joker; told that the
    game has no jokers, the command reads the seven only: a joker's index, and grain read as
    one, is no index there (the benchmark's limed tables read grain as jokers before the middle
    was asked whether it lies across the card)."""
    cards = (CardPlacement("BJ", 250, 300, 10, 200), CardPlacement("7H", 550, 300, -20, 200))
    image, _ = render_scene(SceneSpec(table="limed", style="casino", cards=cards, seed=4))
    path = tmp_path / "limed.png"
    cv2.imwrite(str(path), image)

    def codes(*flags: str) -> list[str | None]:
        assert main(["vision", "identify", str(path), "--json", *flags]) == 0
        return sorted(c["code"] for c in json.loads(capsys.readouterr().out)[0]["cards"])

    assert codes() == ["7H", "BJ"]
    assert codes("--no-jokers") == ["7H"]

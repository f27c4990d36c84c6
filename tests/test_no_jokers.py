"""A game played without jokers reads none (vision.deck.Deck.jokers): pale wood grain read as a
joker is then no card at all, on the command line as in the reader."""

from __future__ import annotations

import json
import random
import zlib
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

from sim.render import random_scene, render_scene
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


def test_wood_grain_read_as_a_joker_is_no_card_when_the_game_has_none(tmp_path: Path, capsys) -> None:
    """A scene of the benchmark's limed wood (casino deck): a patch of grain reads as a black
    joker, surely. Told that the game has no jokers, the command reads its three cards only."""
    rng = random.Random(zlib.crc32(b"casino") + 4)
    specs = [random_scene(rng, style="casino", cards=3, table="limed") for _ in range(12)]
    image, truth = render_scene(replace(specs[-1], clutter=0.0, shade=0.0))
    path = tmp_path / "limed.png"
    cv2.imwrite(str(path), image)

    def codes(*flags: str) -> list[str | None]:
        assert main(["vision", "identify", str(path), "--json", *flags]) == 0
        return [c["code"] for c in json.loads(capsys.readouterr().out)[0]["cards"]]

    assert "BJ" in codes()
    assert sorted(codes("--no-jokers")) == sorted(t.code for t in truth)

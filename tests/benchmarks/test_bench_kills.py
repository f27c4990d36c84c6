"""The kill benchmark's episode, shorter: a live ``cardtable run`` killed twice while cards are
laid on its pile, cards laid while it was down included, plays every card once, in order, its
journal replays to the same, and each restart goes on from the replay of its journal."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from benchmarks.bench_kills import episode

pytestmark = [pytest.mark.slow, pytest.mark.system]


def test_a_table_killed_twice_while_cards_are_laid_plays_each_once_in_order(tmp_path: Path) -> None:
    # Cards 8 s apart and kills well apart: however slowly a busy machine starts the table again,
    # the camera sees each card (the benchmark lays them faster, killing at random).
    game = episode(tmp_path, cards=4, kills=2, rng=random.Random(3), lay_s=8.0, kill_at=[10.0, 26.0])
    assert game.kills == 2 and game.stuck == 0
    assert game.resumed >= 1  # a restart went on with the game (one killed as it started may not have got so far)
    assert game.journaled == game.laid and game.played == game.laid
    assert game.states >= 1 and game.differed == 0


def test_cards_laid_while_the_table_was_down_are_asked_for_and_played_in_order(tmp_path: Path) -> None:
    # Killed 2 s after a card and blind for 4 s or more: the next card lands on it while the table
    # is down and hides it. The restart asks; the players take the cards off until that card
    # shows and lay them again one by one.
    game = episode(tmp_path, cards=8, kills=2, rng=random.Random(3), lay_s=4.0, kill_at=[6.0, 18.0])
    assert game.kills == 2 and game.stuck == 0 and game.asked >= 1
    assert game.played == game.laid and game.journaled == game.laid
    assert game.differed == 0

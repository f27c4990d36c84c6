"""The bidding game's referee agrees with OpenSpiel's ``oh_hell`` on the same games: a game
OpenSpiel played (its actions recorded here), and, where OpenSpiel is installed, random ones."""

from __future__ import annotations

import pytest

from benchmarks.oh_hell_openspiel import as_table_game, disagreements, random_games

# A 4-player game OpenSpiel played: 3 tricks, dealer 0, twelve cards dealt, the nine of hearts
# turned, bids 3 0 3 2, then the tricks ST SK S8 S9 / DT D2 S5 S3 / HJ HA C6 H3.
DEALT = [16, 7, 33, 51, 30, 34, 46, 26, 14, 6, 39, 1]
PLAYED = [31, 55, 52, 55, 54, 34, 46, 26, 30, 33, 1, 14, 6, 39, 51, 16, 7]


def test_a_game_openspiel_played_ends_with_its_scores() -> None:
    game = as_table_game([3, 0, *DEALT, *PLAYED], 4, (0, 0, 2, 1))
    assert disagreements([game]) == []
    wrong = as_table_game([3, 0, *DEALT, *PLAYED], 4, (0, 0, 1, 2))
    assert disagreements([wrong]) == ["game 0: scores (0, 0, 2, 1) != (0, 0, 1, 2)"]


def test_random_games_end_with_openspiels_scores() -> None:
    pytest.importorskip("pyspiel", reason="OpenSpiel is an optional benchmark dependency (pip install open_spiel)")
    assert disagreements(random_games(100, seed=5)) == []

"""The simulated table: bots, camera and buttons through the real sequencer and referee."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from sim.ers_sim import ErsSimulation, SimOptions
from sim.layout import Place
from table.decisions import CardPlayed, GameWon, GoodSlap, InputTooLate, SlapIgnored
from table.games import GameSetup, setup_game
from table.journal import JournalWriter, read_journal
from table.replay import Replay


@pytest.mark.parametrize(
    ("preset", "players"),
    [("standard", 4), ("screw", 3), ("wikipedia", 5), ("beggar-my-neighbour", 2), ("wikipedia-extras", 4),
     ("rule-sheet-literal", 3)],
)  # fmt: skip
def test_a_simulated_game_ends_with_one_winner_holding_every_card(preset: str, players: int) -> None:
    sim = ErsSimulation(setup_game("ers", preset, players=players, seed=3))
    result = sim.run()
    assert not result.abandoned
    assert [type(d) for d in result.decisions].count(GameWon) == 1
    total = sim.referee.rules.total_cards
    assert [len(h) for h in sim.hands].count(total) == 1
    assert Counter(c.code for h in sim.hands for c in h) == Counter(c.code for h in sim.referee.hands for c in h)


def test_slap_races_happen_and_are_judged_by_timestamp() -> None:
    sim = ErsSimulation(setup_game("ers", "standard", players=6, seed=5))
    result = sim.run()
    races = 0
    winner_t = None
    for d in result.decisions:
        if isinstance(d, CardPlayed):
            winner_t = None
        elif isinstance(d, GoodSlap):
            winner_t = d.t_ns
        elif isinstance(d, SlapIgnored) and d.reason.startswith("late") and winner_t is not None:
            races += 1
            assert d.t_ns >= winner_t  # a press that lost the race was truly later
    assert races > 10


def test_journal_of_a_simulated_game_replays_to_the_same_decisions(tmp_path: Path) -> None:
    path = tmp_path / "sim.jsonl"
    setup = setup_game("ers", "standard", players=4, seed=8)
    sim = ErsSimulation(setup, SimOptions())
    with JournalWriter(path, sim.setup, fsync=False) as journal:
        sim.journal = journal
        live = sim.run().decisions
    replayed = list(Replay(read_journal(path)).decisions())

    def game(ds: list) -> list:
        return [d.to_json() for d in ds if not isinstance(d, InputTooLate)]

    assert game(replayed) == game(live)


def test_max_cards_stops_a_game_without_a_winner() -> None:
    sim = ErsSimulation(setup_game("ers", "standard", players=4, seed=2), SimOptions(max_cards=30))
    result = sim.run()
    assert result.abandoned and result.winner is None and result.cards_played == 30


class WatchedPile(ErsSimulation):
    """An ERS table whose pile's comings and goings are noted: (time, "put" or "take")."""

    def prepare(self, setup: GameSetup) -> GameSetup:
        self.moves: list[tuple[int, str]] = []
        return super().prepare(setup)

    def put(self, t: int, code: str, place: Place, offset: int = 0) -> None:
        if code != "back":
            self.moves.append((t, "put"))
        super().put(t, code, place, offset)

    def take(self, t: int, place: Place | None = None) -> None:
        self.moves.append((t, "take"))
        super().take(t, place)


@pytest.mark.parametrize("seed", [5, 9])
def test_no_card_is_played_before_the_pile_just_won_is_gathered_up(seed: int) -> None:
    """Its winner leads next, and nobody throws a card onto a pile still being swept up: a card
    the camera saw land where the last pile's bottom card lay, a fifth of a second after that
    pile went, was taken for that card shown again."""
    sim = WatchedPile(setup_game("ers", "standard", players=6, seed=seed))
    sim.run()
    moves = sorted(sim.moves)
    taken = [t for t, what in moves if what == "take"]
    assert taken
    for at in taken:
        after = next((t for t, what in moves if what == "put" and t >= at), None)
        assert after is None or after - at >= 400_000_000, (at, after)

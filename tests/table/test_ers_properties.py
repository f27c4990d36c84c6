"""Properties over random games with random slaps: cards conserved, replay reproduces, restore."""

from __future__ import annotations

import copy
import json
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from table.cards import Card
from table.decisions import InputTooLate
from table.games.ers.referee import ErsReferee
from table.journal import JournalWriter, read_journal
from table.replay import Replay
from table.rules import shipped_presets
from tests.random_games import deck_counter, play_random_game

# Every shipped preset (the house rules they gather too), and rules no preset gathers.
VARIANTS = st.sampled_from(
    [(preset, {}) for preset in shipped_presets("ers")]
    + [("standard", {"out_of_turn": "dead"}), ("standard", {"out_of_turn": "dead-and-burn"})]
)
games = given(seed=st.integers(0, 2**31), players=st.integers(2, 6), variant=VARIANTS)
cheap = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def conserved(ref: ErsReferee, deck: list[Card]) -> None:
    cards = [c for h in ref.hands for c in h] + list(ref.played) + list(ref.burned)
    assert deck_counter(cards) == deck_counter([c.face for c in deck])
    assert all(ref.penalty_owed.count(seat) <= len(ref.hands[seat]) for seat in set(ref.penalty_owed))
    if ref.pending_presses:  # what is expected is expected once they are judged
        ref = copy.deepcopy(ref)
        ref.advance(ref.last_t)
    if not ref.finished:
        expected = ref.expects()
        assert expected.seat is not None, expected
        assert ref.hands[expected.seat] or ref.pending_award == expected.seat, expected
    else:
        assert [len(h) > 0 for h in ref.hands].count(True) == 1
        assert not ref.played and not ref.burned and not ref.penalty_owed


@cheap
@games
def test_cards_are_conserved_in_every_reachable_state(seed: int, players: int, variant: tuple[str, dict]) -> None:
    play_random_game(seed, players, variant[0], steps=600, check=conserved, rules=variant[1])


@cheap
@games
@example(seed=8954888, players=6, variant=("standard", {}))  # two presses at one instant, after the game is over
def test_replaying_the_journal_reproduces_the_game(seed: int, players: int, variant: tuple[str, dict]) -> None:
    game = play_random_game(seed, players, variant[0], steps=400, rules=variant[1])
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "game.jsonl"
        with JournalWriter(path, game.setup, fsync=False) as journal:
            for event in game.events:
                journal.record(event)
        replay = Replay(read_journal(path))
        replayed = [d for d in replay.decisions() if not isinstance(d, InputTooLate)]
        assert [d.to_json() for d in replayed] == [d.to_json() for d in game.decisions]
        assert game.referee is not None
        assert replay.referee.snapshot() == game.referee.snapshot()
        first = list(Replay(read_journal(path)).lines())
        second = list(Replay(read_journal(path)).lines())
        assert first == second


@cheap
@games
def test_restore_of_a_snapshot_carries_on_identically(seed: int, players: int, variant: tuple[str, dict]) -> None:
    game = play_random_game(seed, players, variant[0], steps=300, rules=variant[1])
    half = len(game.events) // 2
    replay = Replay(read_journal_free(game))
    ref = replay.referee
    ref.start()
    for event in game.events[:half]:
        ref.handle(event)
    snap = json.loads(json.dumps(ref.snapshot()))
    clone = ErsReferee.restore(snap)
    rest = game.events[half:]
    a = [d for e in rest for d in ref.handle(e)]
    b = [d for e in rest for d in clone.handle(e)]
    assert a == b
    assert ref.snapshot() == clone.snapshot()


def read_journal_free(game):  # a Journal without touching the disk
    from table.journal import Journal

    return Journal(game.setup)

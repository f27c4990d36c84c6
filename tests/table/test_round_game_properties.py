"""Properties of whole games of Cuckoo and Oh Hell played by seeded bots through the simulator.

The simulator keeps the physical truth, so each game can be checked against it: the referee never
contradicts an honest table, cards are conserved, every trick has exactly one winner, bids and
scores add up, every revoke the bots made is flagged and nothing else is; journals replay to the
same decisions and state, and a restored snapshot carries on identically.
"""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from sim.cuckoo_sim import CuckooSimulation
from sim.ohhell_sim import OhHellSimulation
from table.decisions import CardMismatch, CardPlayed, GameOver, InputTooLate, Rejected, RoundStarted
from table.games import setup_game
from table.games.cuckoo import decisions as cd
from table.games.oh_hell import decisions as od
from table.replay import Replay
from table.rules import shipped_presets
from tests.journal_helpers import assert_restored_halfway_carries_on, journal_and_replay

pytestmark = pytest.mark.slow

cheap = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
seeds = st.integers(0, 2**31)


def game_decisions(decisions: list) -> list:
    """The decisions up to the game's end: a tap under way as the last card went down still
    reaches the table and is refused, and nothing else comes after the end."""
    over = next(i for i, d in enumerate(decisions) if isinstance(d, GameOver))
    after = decisions[over + 1 :]
    assert all(isinstance(d, Rejected) and d.reason == "the game is over" for d in after), after
    return decisions[: over + 1]


# --------------------------------------------------------------------- Cuckoo


def cuckoo_game(seed: int, preset: str, players: int) -> CuckooSimulation:
    sim = CuckooSimulation(setup_game("cuckoo", preset, players=players, seed=seed))
    checks: list[str] = []

    def watch(d, ref) -> None:
        # Outside a trade that a king may still block, what the referee knows is the truth.
        if ref.state.pending_trade is None and ref.state.phase != "over":
            for seat in ref.state.seats:
                known = ref.state.known[seat]
                if known is not None and known != sim.cards[seat]:
                    checks.append(f"seat {seat}: referee knows {known}, table has {sim.cards[seat]}")

    sim.on_decision = watch
    sim.run()
    assert not checks, checks[:3]
    return sim


@cheap
@given(seed=seeds, preset=st.sampled_from(shipped_presets("cuckoo")), players=st.integers(3, 9))
@example(seed=5920426, preset="betting", players=4)  # a reveal under way as the game ended, refused after it
def test_cuckoo_games_end_with_consistent_lives_points_and_pot(seed: int, preset: str, players: int) -> None:
    sim = cuckoo_game(seed, preset, players)
    ref, rules, decisions = sim.referee, sim.referee.rules, game_decisions(sim.result.decisions)
    assert ref.finished and isinstance(decisions[-1], GameOver)
    assert not any(isinstance(d, CardMismatch) for d in decisions)  # an honest table is never contradicted
    rounds = sum(isinstance(d, RoundStarted) for d in decisions)
    results = [d for d in decisions if isinstance(d, cd.RoundLost)]
    assert len(results) == rounds
    lost = Counter(d.seat for d in decisions if isinstance(d, cd.LifeLost))
    points = Counter(d.seat for d in decisions if isinstance(d, cd.PointScored))
    over = decisions[-1]
    if rules.scoring == "lives":
        assert all(ref.state.lives[s] == rules.lives - lost[s] >= 0 for s in range(players))
        assert over.winners == () or all(ref.state.lives[s] > 0 for s in over.winners)
        stakes = {"ante": players, "per-life": sum(lost.values()), "none": 0}[rules.pot]
        assert over.pot == rules.stake * stakes
    else:
        assert ref.state.points == [points[s] for s in range(players)]
        assert rounds == rules.rounds
        assert set(over.winners) == {s for s in range(players) if points[s] == min(ref.state.points)}


@cheap
@given(seed=seeds, preset=st.sampled_from(shipped_presets("cuckoo")), players=st.integers(3, 9))
def test_cuckoo_losers_hold_the_lowest_cards(seed: int, preset: str, players: int) -> None:
    sim = cuckoo_game(seed, preset, players)
    rules = sim.referee.rules
    shown: dict[int, int] = {}
    for d in sim.result.decisions:
        if isinstance(d, RoundStarted):
            shown = {}
        elif isinstance(d, cd.CardRevealed | cd.KingShown):
            shown[d.seat] = rules.value(d.card)
        elif isinstance(d, cd.RoundLost) and d.seats and rules.ties != "lowest-unique":
            low = min(shown.values())
            assert all(shown[s] == low for s in d.seats)
            if rules.ties == "all-lowest":
                assert set(d.seats) == {s for s, v in shown.items() if v == low}


# -------------------------------------------------------------------- Oh Hell


def ohhell_game(seed: int, preset: str, players: int | None) -> OhHellSimulation:
    sim = OhHellSimulation(setup_game("oh-hell", preset, players=players, seed=seed))
    sim.run()
    return sim


def hands_of(decisions):
    """Split a game's decisions into hands, each from its RoundStarted to the next."""
    hand: list = []
    for d in decisions:
        if isinstance(d, RoundStarted):
            if hand:
                yield hand
            hand = []
        if hand or isinstance(d, RoundStarted):
            hand.append(d)
    yield hand


oh_presets = st.sampled_from(shipped_presets("oh-hell"))


@cheap
@given(seed=seeds, preset=oh_presets, players=st.sampled_from([None, 3, 4, 6]))
def test_ohhell_every_trick_has_one_winner_and_cards_are_conserved(seed: int, preset: str, players) -> None:
    sim = ohhell_game(seed, preset, players)
    ref = sim.referee
    assert ref.finished
    n = ref.players
    for hand in hands_of(sim.result.decisions):
        size = hand[0].cards
        plays = [d for d in hand if isinstance(d, CardPlayed)]
        assert Counter(d.seat for d in plays) == dict.fromkeys(range(n), size)
        turned = [d.card for d in hand if isinstance(d, od.TrumpTurned) and d.card is not None]
        counts = Counter(d.card for d in plays) + Counter(turned)
        assert all(k <= ref.copies[c] for c, k in counts.items())
        won = [d for d in hand if isinstance(d, od.TrickWon)]
        cancelled = [d for d in hand if isinstance(d, od.TrickCancelled)]
        assert sorted(d.trick for d in won + cancelled) == list(range(1, size + 1))
        scored = next(d for d in hand if isinstance(d, od.HandScored))
        dead = 1 if cancelled and cancelled[-1].trick == size else 0
        assert sum(scored.tricks) == size - dead == sum(d.tricks for d in won)
    assert all(not h for h in sim.hands)


@cheap
@given(seed=seeds, preset=oh_presets, players=st.sampled_from([None, 3, 5]))
def test_ohhell_bids_and_scores_add_up(seed: int, preset: str, players) -> None:
    sim = ohhell_game(seed, preset, players)
    ref = sim.referee
    totals = [0] * ref.players
    for hand in hands_of(sim.result.decisions):
        size, dealer = hand[0].cards, hand[0].dealer
        bids = [d for d in hand if isinstance(d, od.BidMade)]
        assert [d.seat for d in bids] == [(dealer + 1 + i) % ref.players for i in range(ref.players)]
        if ref.rules.dealer_restriction:
            assert bids[-1].total != size
        scored = next(d for d in hand if isinstance(d, od.HandScored))
        penalty = Counter()
        for d in hand:
            if isinstance(d, od.RevokeFound):
                penalty[d.seat] += d.penalty
        for seat in range(ref.players):
            assert scored.points[seat] == ref.score(scored.bids[seat], scored.tricks[seat]) - penalty[seat]
            totals[seat] += scored.points[seat]
        assert list(scored.totals) == totals
    over = game_decisions(sim.result.decisions)[-1]
    assert isinstance(over, GameOver)
    assert set(over.winners) == {s for s in range(ref.players) if totals[s] == max(totals)}


@cheap
@given(seed=seeds, preset=oh_presets)
def test_every_revoke_is_flagged_with_its_trick_and_nothing_else(seed: int, preset: str) -> None:
    sim = ohhell_game(seed, preset, None)
    flagged: list[tuple[int, int, str]] = []
    hand_no = 0
    for d in sim.result.decisions:
        if isinstance(d, RoundStarted):
            hand_no = d.round
        if isinstance(d, od.RevokeFound):
            flagged.append((hand_no, d.seat, d.trick, d.suit))
    # every card of a hand is played, so a revoker always shows the suit later in the same hand
    assert sorted(flagged) == sorted(sim.revokes)


# ------------------------------------------------------------ replay, restore


@settings(max_examples=12, deadline=None)
@given(
    seed=seeds,
    game=st.sampled_from(
        [("cuckoo", CuckooSimulation, p) for p in shipped_presets("cuckoo")]
        + [("oh-hell", OhHellSimulation, p) for p in shipped_presets("oh-hell")]
    ),
)
def test_a_journal_replays_to_the_same_decisions_and_state(seed: int, game) -> None:
    name, sim_cls, preset = game
    sim, journal, lines = journal_and_replay(sim_cls, name, preset, seed)
    replay = Replay(journal)
    replayed = [d.to_json() for d in replay.decisions() if not isinstance(d, InputTooLate)]
    live = [d.to_json() for d in sim.result.decisions if not isinstance(d, InputTooLate)]
    assert replayed == live
    assert replay.referee.snapshot() == sim.referee.snapshot()
    assert lines == list(Replay(journal).lines())


@settings(max_examples=12, deadline=None)
@given(seed=seeds, game=st.sampled_from([("cuckoo", CuckooSimulation), ("oh-hell", OhHellSimulation)]))
def test_restoring_a_snapshot_carries_on_identically(seed: int, game) -> None:
    name, sim_cls = game
    _, journal, _ = journal_and_replay(sim_cls, name, None, seed)
    assert_restored_halfway_carries_on(journal)

"""Whole games of the shedding game played by seeded bots through the simulator.

The bots hold the real cards and carry out the referee's decisions; after every turn the cards
are compared with the referee's counts (``EightsSimulation.mismatches``). So each game checks
that the two decks and four jokers are conserved and every hand's size is exact, and that the
game ends with a winner. Journals replay to the same decisions and state; a restored snapshot
carries on identically; ``cardtable sim --game eights`` plays a game in the terminal.
"""

from __future__ import annotations

import os
import random
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sim.eights_players import EightsCards
from sim.eights_sim import EightsSimulation
from sim.mock_gpio import MOCK_PINS_ENV
from sim.options import SimOptions
from sim.truth import compare
from table.cards import parse_card
from table.decisions import GameOver, InputTooLate
from table.games import setup_game
from table.games.eights.decisions import Misplay, SafeCardTraded
from table.replay import Replay
from table.rules import shipped_presets
from tests.journal_helpers import assert_restored_halfway_carries_on, journal_and_replay

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
VARIANTS = [
    {},
    {"spade_combo": True},
    {"joker_alone": "wild", "two_joker_draw": 6},
    {"rounds": 3, "scoring": "cards-left"},
    {"going_out": "effects", "last_card_counts_safe": False, "rounds": 2},
    {"safe_card": False, "dealer_option": False, "matches": False, "match_window_ms": 0},
]


def play(seed: int, players: int, preset: str | None = None, rules: dict | None = None, **options) -> EightsSimulation:
    setup = setup_game("eights", preset, rules or {}, players, seed % players, seed)
    sim = EightsSimulation(setup, SimOptions(**options))
    sim.run()
    return sim


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), players=st.integers(3, 8), rules=st.sampled_from(VARIANTS))
def test_random_games_end_with_a_winner_and_every_card_accounted_for(seed: int, players: int, rules: dict) -> None:
    sim = play(seed, players, rules=rules)
    assert sim.mismatches == [] and sim.checks > 10
    assert sim.result.stuck is None and not sim.result.abandoned
    over = [d for d in sim.result.decisions if isinstance(d, GameOver)]
    assert len(over) == 1 and over[0].winners and sim.referee.finished
    assert sim.referee.card_count() == 108 and sim.cards.total() == 108


def test_a_hundred_games_use_every_special_rule() -> None:
    """Many seeded games: together they play every rule the hand-built tests check one by one."""
    kinds: Counter[str] = Counter()
    for seed in range(100):
        sim = play(seed, 3 + seed % 6, rules=VARIANTS[seed % len(VARIANTS)])
        assert sim.mismatches == [], (seed, sim.mismatches[:2])
        assert sim.referee.finished, (seed, sim.result.stuck)
        kinds.update(d.KIND for d in sim.result.decisions)
    every = {"match", "misplay", "shield", "hands-swapped", "hands-passed", "safe-traded", "safe-used", "reshuffled"}
    every |= {"hand-renewed", "last-card", "last-card-caught", "direction", "choice", "owes", "turned-taken"}
    assert every <= set(kinds), every - set(kinds)
    assert kinds["game-over"] == 100


def test_games_through_button_presses_on_mock_pins() -> None:
    os.environ.setdefault("GPIOZERO_PIN_FACTORY", "mock")
    for seed in range(6):
        sim = play(seed, 4, seats="gpio")
        assert sim.mismatches == [] and sim.referee.finished, (seed, sim.result.stuck)
        meant = [a for a in sim.truth_actions if a[2] in ("hold", "taps")]
        truth = compare(sim)  # every gesture the bots made on the pins was read as the action they meant
        assert meant and not truth.problems, (seed, truth.problems[:2])


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**31), preset=st.sampled_from(shipped_presets("eights")))
def test_a_journal_replays_to_the_same_decisions_and_state(seed: int, preset: str) -> None:
    sim, journal, lines = journal_and_replay(EightsSimulation, "eights", preset, seed, players=4)
    replay = Replay(journal)
    replayed = [d.to_json() for d in replay.decisions() if not isinstance(d, InputTooLate)]
    live = [d.to_json() for d in sim.result.decisions if not isinstance(d, InputTooLate)]
    assert replayed == live and sim.referee.finished
    assert replay.referee.snapshot() == sim.referee.snapshot()
    assert lines == list(Replay(journal).lines())
    assert_restored_halfway_carries_on(journal)


def test_cardtable_sim_plays_the_shedding_game_in_the_terminal(tmp_path: Path) -> None:
    journal = tmp_path / "eights.jsonl"
    game = [
        "sim",
        "--game",
        "eights",
        "--players",
        "4",
        "--seed",
        "3",
        "--fast",
        "--verbose",
        "--journal",
        str(journal),
    ]
    done = subprocess.run(
        [sys.executable, "-m", "table.cli", *game], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "The shedding game (Crazy Eights), 4 players" in out and "turned up" in out
    assert re.search(r"^\w+ wins the game: .* \(\d+ cards played\)$", out, re.M), out[-300:]
    assert out.splitlines()[-1].startswith("the referee agreed with the table's truth")  # --verbose
    replay = [sys.executable, "-m", "table.cli", "replay", str(journal)]
    replayed = subprocess.run(replay, cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert replayed.returncode == 0 and '"kind":"game-over"' in replayed.stdout.replace(" ", "")


def test_the_scoreboard_shows_each_seats_cards_the_pile_and_the_winner() -> None:
    from table.scoreboard import table_state

    sim = play(3, 4)
    state = table_state(sim.referee, sim.setup, ["Ann", "Bob", "Cyd", "Dee"])
    st = sim.referee.state
    assert state["game"] == "eights" and state["round"] == 1 and state["phase"] == "over"
    assert [s["shown"] for s in state["seats"]] == [
        f"{h}+1" if k else str(h) for h, k in zip(st.hands, st.safe, strict=True)
    ]
    assert state["winners"] == list(st.winners) and state["score"] == "wins"
    assert state["middle"]["cards"] == [c.code for c in st.pile[-4:]] and state["middle"]["title"].startswith("pile of")


def test_cardtable_run_referees_the_shedding_game_from_the_camera(tmp_path: Path) -> None:
    """The live table on recorded frames: the queen of hearts landing on the pile is the turned card."""
    from tests.live_tables import journal_lines, rendered_table

    config = rendered_table(tmp_path)
    env = {**os.environ, **MOCK_PINS_ENV}
    command = [sys.executable, "-m", "table.cli", "run", "--config", str(config), "--game", "eights"]
    done = subprocess.run(
        [*command, "--max-seconds", "5"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    lines = journal_lines(tmp_path)
    assert lines[0]["game"] == "eights" and lines[0]["preset"] == "screw-your-neighbour"
    assert "The shedding game (Crazy Eights), 4 players" in done.stdout and "Q♥ turned up" in done.stdout


def test_the_simulated_players_refuse_to_move_cards_that_are_not_where_the_referee_says() -> None:
    """A camera that misread a card misleads the referee: its "take back your misplay" or "trade
    for that safe card" may name cards that are not there. The simulated players then move
    nothing (the table's check after the turn says how it went wrong) rather than stop the game."""
    cards = EightsCards(hands=[[parse_card("5H")], [parse_card("9C")]], safe=[None, None], pile=[parse_card("KS")])
    assert not cards.carry_out(Misplay(0, 0, parse_card("QD"), "not on top"), random.Random(0))
    assert not cards.carry_out(SafeCardTraded(0, 0, 1), random.Random(0))
    assert cards.pile == [parse_card("KS")] and cards.hands == [[parse_card("5H")], [parse_card("9C")]]
    assert cards.carry_out(Misplay(0, 1, parse_card("KS"), "does not match"), random.Random(0))
    assert cards.pile == [] and cards.hands[1] == [parse_card("9C"), parse_card("KS")]


def test_the_camera_sees_a_safe_card_taken_up_from_its_seat_and_the_referee_counts_it() -> None:
    """Safe cards lie face down before their players: the camera reads backs (no card played),
    and one taken up is gone from that seat's zone, which the referee counts into the hand."""
    from sim.layout import TableLayout
    from sim.rendered_camera import RenderedCamera
    from table.events import CardGone

    camera = RenderedCamera(TableLayout(4, 1280, 720), 5, 15)
    for seat in range(4):
        camera.lay("back", ("seat", seat))
    camera.lay("9C", ("pile", None))
    events = [e for n in range(6) for e in camera.frame(n * camera.interval_ns).events]
    assert [str(e.card) for e in events] == ["9C"]
    camera.take(("seat", 2))
    gone = [e for n in range(6, 14) for e in camera.frame(n * camera.interval_ns).events]
    assert [(e.zone, e.seat) for e in gone if isinstance(e, CardGone)] == [("seat", 2)]
    game = setup_game("eights", None, {}, 4, 0, 1).referee()
    game.start(0)
    out = game.handle(gone[0])
    assert [d.KIND for d in out] == ["safe-used"] and game.state.hands[2] == 8 and not game.state.safe[2]

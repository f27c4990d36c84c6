"""``legal_actions``: what each seat may do now. Through whole games of every registered game, the
seat the referee waits on may do what it waits for; in hand-built states, an input outside the
legal ones is refused and one inside them taken. The names are the game's words for what a seat
does (a card laid is "play", a king turned up "show-king"), not always a seat action's."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from benchmarks.bench_engine import simulated_games
from sim.games import SIMULATIONS
from sim.options import SimOptions
from table.cards import parse_card
from table.decisions import Decision, Rejected
from table.events import CardSeen, SeatAction
from table.games import GAMES, setup_game


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_seat_waited_on_may_do_what_it_waits_for(name: str) -> None:
    checked = 0

    def check(d: Decision, referee: Any) -> None:
        nonlocal checked
        expected, legal = referee.expects(), referee.legal_actions()
        if referee.finished:
            assert legal == {}
        elif expected.seat is not None and expected.action not in ("none", ""):
            wanted = {expected.action, *expected.action.split("-or-")}  # "keep-or-trade": keep, or trade
            assert wanted & legal[expected.seat], (expected, legal)
            checked += 1

    setup = setup_game(name, players=4, seed=3)
    SIMULATIONS[name](setup, SimOptions(camera="reports", seats="actions", max_cards=3000), on_decision=check).run()
    assert checked > 20


def test_egyptian_rat_screw_lets_every_seat_slap_and_the_seat_in_turn_play() -> None:
    referee = setup_game("ers", players=3).referee()
    referee.start(0)
    assert referee.legal_actions() == {0: {"slap"}, 1: {"slap", "play"}, 2: {"slap"}}
    beggar = setup_game("ers", "beggar-my-neighbour", players=3).referee()
    beggar.start(0)
    assert beggar.legal_actions() == {1: {"play"}}  # no slaps in Beggar-my-neighbour


def test_in_the_trading_game_a_seat_beside_a_shown_king_may_only_keep() -> None:
    referee = setup_game("cuckoo", players=4).referee()
    referee.start(0)
    seat = referee.expects().seat
    shows = {s: {"show-king"} for s in range(4)}  # a king dealt is shown by whoever holds it
    assert referee.legal_actions() == {**shows, seat: {"keep", "trade", "show-king"}}
    referee.state.face_up[referee.left_of(seat)] = True  # the neighbour shows a king
    del shows[referee.left_of(seat)]
    assert referee.legal_actions() == {**shows, seat: {"keep", "show-king"}}
    refused = referee.handle(SeatAction(1, "actions", seat, "trade"))
    assert any(isinstance(d, Rejected) for d in refused)
    assert not any(isinstance(d, Rejected) for d in referee.handle(SeatAction(2, "actions", seat, "keep")))


def test_in_the_trading_game_a_king_dealt_may_be_shown_by_a_seat_out_of_turn_where_it_counts() -> None:
    for preset, showable in [("cuckoo", True), ("screw-your-neighbor", True), ("ackerson-traded", False)]:
        referee = setup_game("cuckoo", preset, players=4).referee()
        referee.start(0)
        seat = (referee.expects().seat + 2) % 4
        assert ("show-king" in referee.legal_actions().get(seat, ())) == showable, preset
        out = referee.handle(CardSeen(1, "camera", parse_card("KH"), "seat", seat))
        assert (not any(isinstance(d, Rejected) for d in out)) == showable, preset


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_copy_of_a_referee_goes_on_as_the_referee_does(name: str) -> None:
    """``copy.deepcopy``: a game to try an input on, leaving the game itself as it was."""
    games = simulated_games(1, 4, name, None)
    setup, events = games[0]
    referee = setup.referee()
    referee.start(0)
    half = len(events) // 2
    for event in events[:half]:
        referee.handle(event)
    before = referee.snapshot()
    twin = copy.deepcopy(referee)
    rest = [[d.to_json() for d in twin.handle(e)] for e in events[half:]]
    assert referee.snapshot() == before
    assert rest == [[d.to_json() for d in referee.handle(e)] for e in events[half:]]

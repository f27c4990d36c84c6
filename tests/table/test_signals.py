"""Seat lights follow the game (``table.signals``): standing patterns, messages over them, and pauses."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from sim.games import SIMULATIONS
from table import signals as sg
from table.cards import parse_card
from table.decisions import (
    BadSlap,
    CardPlayed,
    GameOver,
    GameStarted,
    GameWon,
    PileWon,
    PlayerOut,
    Rejected,
    RoundStarted,
)
from table.games import setup_game
from table.games.cuckoo.decisions import LifeLost, TradeBlocked
from table.games.oh_hell.decisions import BidMade
from table.lights import OFF, count_back
from table.referee import Expectation
from table.units import MS


def _referee(game: str = "ers", seat: int | None = 1, action: str = "play") -> SimpleNamespace:
    return SimpleNamespace(GAME=game, expects=lambda: Expectation(action, seat))


def test_the_seat_the_referee_waits_on_is_lit_and_a_message_plays_over_it_then_gives_way() -> None:
    signals = sg.Signals(4)
    signals.decided(GameStarted(0, "ers", 4, 0, (13, 13, 13, 13)), _referee(), now_ns=0)
    assert signals.patterns(0) == [OFF, sg.TURN, OFF, OFF]  # ERS has no dealer's light
    signals.decided(BadSlap(5 * MS, 2), _referee(), now_ns=100 * MS)
    assert signals.patterns(100 * MS)[2] == sg.BAD_SLAP
    # Two flashes of 400 ms from the moment it was decided, not from the slap's own time.
    assert signals.next_change(100 * MS) == 900 * MS
    assert signals.patterns(899 * MS)[2] == sg.BAD_SLAP and signals.patterns(900 * MS)[2] == OFF
    signals.decided(PileWon(1000 * MS, 1, 12, "slap"), _referee(seat=1), now_ns=1000 * MS)
    assert signals.patterns(1000 * MS)[1] == sg.WON and signals.patterns(2200 * MS)[1] == sg.TURN


def test_out_of_the_game_and_the_winner() -> None:
    signals = sg.Signals(3)
    signals.decided(GameStarted(0, "ers", 3, 0, (18, 17, 17)), _referee(), now_ns=0)
    signals.decided(PlayerOut(1, 2), _referee(), now_ns=1)
    assert signals.patterns(1)[2] == sg.KNOCKED_OUT and signals.patterns(10_000 * MS)[2] == sg.OUT
    signals.decided(GameWon(2, 0), _referee(seat=None, action="none"), now_ns=2)
    assert signals.patterns(10_000 * MS) == [sg.WINNER, OFF, OFF]


def test_round_games_light_the_dealer_and_the_seats_not_dealt_in() -> None:
    signals = sg.Signals(4)
    cuckoo = _referee("cuckoo", seat=2, action="keep-or-trade")
    signals.decided(GameStarted(0, "cuckoo", 4, 3, (1, 1, 1, 1)), cuckoo, now_ns=0)
    signals.decided(RoundStarted(0, 2, 3, (0, 2, 3)), cuckoo, now_ns=0)
    assert signals.patterns(0) == [OFF, sg.OUT, sg.TURN, sg.DEALER]
    signals.decided(TradeBlocked(1, 2, 3, parse_card("KS")), cuckoo, now_ns=1)
    assert signals.patterns(1)[2:] == [sg.BLOCKED, sg.BLOCKER]
    signals.decided(LifeLost(2, 0, 0, 3), cuckoo, now_ns=2)
    assert signals.patterns(2)[0] == sg.LOST and signals.patterns(10_000 * MS)[0] == sg.OUT
    signals.decided(GameOver(3, (2,), (0, 0, 2, 1), "last one in"), _referee(seat=None, action="none"), now_ns=3)
    assert signals.patterns(10_000 * MS) == [OFF, OFF, sg.WINNER, OFF]


def test_a_bid_is_counted_back_and_a_refused_one_flashes_magenta() -> None:
    signals = sg.Signals(4)
    bidding = _referee("oh-hell", seat=1, action="bid")
    signals.decided(BidMade(0, 0, 3, 3), bidding, now_ns=0)
    signals.decided(Rejected(1, "the bids may not add up to the tricks", "action", 1), bidding, now_ns=1)
    assert signals.patterns(1)[:2] == [count_back(3), sg.REFUSED]


def test_a_pause_shows_on_every_seat_over_any_message_and_show_again_until_a_card_is_played() -> None:
    signals = sg.Signals(2)
    signals.decided(GameStarted(0, "ers", 2, 0, (26, 26)), _referee(seat=1), now_ns=0)
    signals.decided(BadSlap(0, 0), _referee(seat=1), now_ns=0)
    signals.paused = True
    assert signals.patterns(0) == [sg.PAUSED, sg.PAUSED]
    signals.paused = False
    signals.show_again(1)
    assert signals.patterns(10_000 * MS) == [OFF, sg.SHOW_AGAIN]
    signals.decided(CardPlayed(5, 1, parse_card("7H"), 1), _referee(seat=0), now_ns=10_000 * MS)
    assert signals.patterns(10_000 * MS) == [sg.TURN, OFF]


def test_only_what_changed_is_sent_and_a_message_again_is_sent_again() -> None:
    signals = sg.Signals(2)
    signals.decided(GameStarted(0, "ers", 2, 0, (26, 26)), _referee(seat=1), now_ns=0)
    assert signals.changes(0) == {0: OFF, 1: sg.TURN}
    assert signals.changes(1) == {}
    signals.decided(BadSlap(2, 0), _referee(seat=1), now_ns=2)
    assert signals.changes(2) == {0: sg.BAD_SLAP}
    signals.decided(BadSlap(3, 0), _referee(seat=1), now_ns=3)
    assert signals.changes(3) == {0: sg.BAD_SLAP}  # flashed again from the start
    assert signals.changes(3 + 800 * MS) == {0: OFF}


@pytest.mark.parametrize("game", sorted(SIMULATIONS))
def test_through_whole_simulated_games_the_lights_follow_the_referee(game: str) -> None:
    """Wherever nothing else shows, the seat the referee waits on is lit, and only that seat;
    at the end the winners pulse green."""
    setup = setup_game(game, players=4, seed=3)
    signals = sg.Signals(4)
    checked = 0

    def follow(decision, referee) -> None:
        nonlocal checked
        now = decision.t_ns
        signals.decided(decision, referee, now)
        expected = referee.expects()
        if referee.finished or expected.seat is None:
            return
        for seat, pattern in enumerate(signals.patterns(now + 60_000 * MS)):  # every message has played
            waiting = sg.CHOOSE if expected.action == "choose" else sg.TURN
            assert (pattern == waiting) == (seat == expected.seat), (decision, seat, pattern)
            checked += 1

    sim = SIMULATIONS[game](setup, on_decision=follow)
    result = sim.run()
    assert checked > 100
    winners = set(result.winners or ())
    assert winners and signals.patterns(10**15) == [sg.WINNER if s in winners else OFF for s in range(4)]


def test_the_shedding_games_choices_misplays_draws_and_last_card_on_the_lights() -> None:
    from table.games.eights.decisions import DrawOwed, LastCardCalled, LastCardCaught, Misplay

    signals = sg.Signals(3)
    choosing = SimpleNamespace(expects=lambda: Expectation("choose", 1), GAME="eights")
    signals.decided(GameStarted(0, "eights", 3, 0, (8, 8, 8)), choosing, now_ns=0)
    assert signals.patterns(0)[1] == sg.CHOOSE  # the chooser's light blinks
    playing = SimpleNamespace(expects=lambda: Expectation("play", 2), GAME="eights")
    signals.decided(Misplay(1, 2, parse_card("5H"), "no"), playing, now_ns=1)
    signals.decided(DrawOwed(2, 0, 2, 0, "two"), playing, now_ns=1)
    assert signals.patterns(1)[2] == sg.REFUSED and signals.patterns(1)[0] == sg.HIT
    signals.decided(LastCardCaught(3, 1, 0), playing, now_ns=2)
    assert signals.patterns(2)[:2] == [sg.WON, sg.LOST]
    signals.decided(LastCardCalled(4, 2), playing, now_ns=3)
    assert signals.patterns(3)[2] == sg.CALLED

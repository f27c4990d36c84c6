"""The terminal's lines: a slap's lead (by how much, a close call), the players named, people's words."""

from __future__ import annotations

import io

from rich.console import Console

from table.decisions import SlapLead
from table.games import setup_game
from table.games.ers.lines import lead_text
from table.terminal_view import TerminalView

NAMES = ["Ann", "Bob", "Cyd", "Dee"]


def _said(view: TerminalView, *decisions: SlapLead) -> str:
    referee = setup_game("ers", players=len(NAMES)).referee()
    for d in decisions:
        view.show(d, referee)
    assert isinstance(view.console.file, io.StringIO)
    return view.console.file.getvalue()


def _view(**options) -> TerminalView:
    return TerminalView(NAMES, console=Console(file=io.StringIO(), width=120), **options)


def test_the_lead_is_said_in_words_and_a_close_call_is_marked() -> None:
    out = _said(_view(), SlapLead(5_000_000_000, 1, 0, 23_400_000), SlapLead(6_000_000_000, 2, 3, 310_000))
    assert "Bob took the pile, 23 ms ahead of Ann" in out and "Ann: a close call" not in out
    assert "Cyd took the pile, 0.31 ms ahead of Dee: a close call" in out  # under a millisecond on the pins


def test_on_the_bridge_a_close_call_is_one_within_the_clocks_bound() -> None:
    out = _said(_view(close_call_ns=lambda: 2_500_000), SlapLead(0, 1, 0, 1_800_000))
    assert "Bob took the pile, 1.8 ms ahead of Ann: a close call" in out


def test_leads_read_as_people_say_them() -> None:
    assert [lead_text(n) for n in (3_000, 45_000, 410_000, 2_345_000, 23_400_000)] == [
        "3 µs",
        "45 µs",
        "0.41 ms",
        "2.3 ms",
        "23 ms",
    ]


def test_the_lines_name_the_players_and_speak_as_people_do() -> None:
    from table.cards import parse_card
    from table.decisions import BadSlap, CardMismatch, CardsBurned, GoodSlap, Rejected
    from table.narration import Narrator

    referee = setup_game("ers", players=len(NAMES)).referee()
    narrator = Narrator(NAMES)
    said = lambda d: narrator.describe(d, referee)  # noqa: E731
    assert said(GoodSlap(0, 1, "double")) == (" Bob slaps a double", "bold green")
    assert said(BadSlap(0, 2))[0].strip() == "Cyd's slap was bad"
    assert said(CardsBurned(0, 2, 1))[0].strip() == "Cyd burns 1 card under the pile"
    assert said(CardsBurned(0, 2, 2))[0].strip() == "Cyd burns 2 cards under the pile"
    # A referee's reason naming a seat by number names its player.
    refused = Rejected(0, "not seat 3's turn: seat 0 plays next", "card-seen", 3)
    assert said(refused)[0].strip() == "not taken: Dee: not Dee's turn: Ann plays next"
    # A card the deal guessed otherwise is taken as seen: no error, so not red.
    text, style = said(CardMismatch(0, 0, parse_card("5C"), parse_card("7D")))
    assert "taken as seen" in text and style != "red"
    assert narrator.sentence(GoodSlap(0, 1, "top_bottom"), referee) == "Bob slaps top and bottom"


def test_a_seat_asked_to_show_its_card_again_is_let_off_once_the_card_is_taken() -> None:
    from table import signals as sg
    from table.events import SeatAction

    core_setup = setup_game("cuckoo", players=3, seed=1)
    referee = core_setup.referee()
    signals = sg.Signals(3)
    for d in referee.start(0):
        signals.decided(d, referee, 0)
    seat = referee.expects().seat
    signals.show_again(seat)
    assert signals.patterns(0)[seat] == sg.SHOW_AGAIN
    for d in referee.handle(SeatAction(1, "gpio", seat, "keep")):
        signals.decided(d, referee, 1)
    assert signals.patterns(10**10)[seat] != sg.SHOW_AGAIN


def test_the_shedding_games_lines_say_choices_and_totals_in_words() -> None:
    from table.cards import parse_card
    from table.games.eights import decisions as ed
    from table.narration import Narrator

    referee = setup_game("eights", players=len(NAMES)).referee()
    said = lambda d: Narrator(NAMES).describe(d, referee)[0].strip()  # noqa: E731
    offered = ed.ChoiceOffered(0, 0, "red-ace", ("seat 1", "seat 2", "seat 3"), "none")
    assert said(offered) == "Ann chooses whom to swap hands with: 1 tap: Bob, 2 taps: Cyd, 3 taps: Dee; hold: nobody"
    assert said(ed.ChoiceMade(0, 0, "red-ace", "none")) == "Ann swaps hands with nobody"
    assert said(ed.ChoiceMade(0, 0, "suit", "hearts")) == "Ann names hearts"
    assert (
        said(ed.RoundWon(0, 2, 1, (0, 1, 0, 0), (3, 1, 0, 2)))
        == "Bob is out of cards! Totals: Ann 3, Bob 1, Cyd 0, Dee 2"
    )
    pair = ed.MatchPlayed(0, 2, (parse_card("KS"), parse_card("KS")), True)
    assert said(pair) == "Cyd plays K♠ K♠ as one play, a natural pair"

"""The terminal's lines for a slap's lead: by how much, and whether it was a close call."""

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

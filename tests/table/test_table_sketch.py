"""The table from above in the terminal (``table.table_sketch``), as ``cardtable sim`` shows it
under the decisions' lines when its output is a terminal."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from sim.cli import sketched
from sim.games import SIMULATIONS
from sim.table_sim import SimOptions
from table.games import setup_game
from table.table_sketch import TableSketch
from table.terminal_view import TerminalView

NAMES = ["Ann", "Bob", "Cyd", "Dee", "Eve", "Fay"]


def _sim(game: str, players: int, cards: int = 30):
    sim = SIMULATIONS[game](setup_game(game, None, {}, players, 0, 3), SimOptions(max_cards=cards))
    return sim


@pytest.mark.parametrize(
    ("game", "players", "says"), [("ers", 4, "pile of"), ("cuckoo", 6, "pot"), ("oh-hell", 3, "trick")]
)
def test_every_seat_sits_round_the_middle_with_its_count(game: str, players: int, says: str) -> None:
    sim = _sim(game, players)
    sim.run()
    console = Console(record=True, width=100)
    sketch = TableSketch(NAMES[:players], lambda: sim.referee, lambda: sim.core.signals.patterns(0), lambda: "now")
    console.print(sketch)
    lines = console.export_text().splitlines()
    assert says in "".join(lines) and "now" in lines[-1]
    rows = {name: next(n for n, line in enumerate(lines) if f" {name} " in line) for name in NAMES[:players]}
    assert rows["Ann"] == max(rows.values())  # seat 0 at the bottom, the others above it
    if game == "ers":
        ann = next(line for line in lines if " Ann " in line)
        assert ann.split(" Ann ")[1].split()[0] == str(len(sim.referee.hands[0]))
        assert sim.referee.played[-1].code in "".join(lines)


def test_the_simulator_draws_the_table_under_its_lines_in_a_terminal() -> None:
    out = io.StringIO()
    view = TerminalView(NAMES[:4], console=Console(file=out, force_terminal=True, width=100))
    sim = SIMULATIONS["ers"](setup_game("ers", None, {}, 4, 0, 3), SimOptions(max_cards=20), on_decision=view.show)
    view.lights = lambda: sim.core.signals.patterns(sim.clock.monotonic_ns())
    with sketched(view, sim):
        sim.run()
    shown = out.getvalue()
    assert "pile of" in shown and "20 cards" in shown and "plays" in shown
    piped = io.StringIO()
    view = TerminalView(NAMES[:4], console=Console(file=piped, width=100))
    sim = SIMULATIONS["ers"](setup_game("ers", None, {}, 4, 0, 3), SimOptions(max_cards=20), on_decision=view.show)
    with sketched(view, sim):
        sim.run()
    assert "plays" in piped.getvalue() and "pile of" not in piped.getvalue()  # piped: lines only

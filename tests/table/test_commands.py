"""Commands to a running table (``table.commands``) and the preset menu on the buttons
(``table.preset_menu``): checked before anything changes, and read from timestamped edges."""

from __future__ import annotations

import pytest

from table.commands import CommandError, TableCommand, parse_command
from table.lights import flash
from table.preset_menu import CYAN, IDLE_NS, PresetMenu
from table.units import MS


def test_a_command_is_read_with_its_changes() -> None:
    command = parse_command({"command": "new-game", "game": "cuckoo", "names": "Ann, Bob,Cyd", "seed": 4})
    assert command == TableCommand("new-game", "cuckoo", None, ("Ann", "Bob", "Cyd"), 4)
    assert command.changes and command.to_json() == {
        "command": "new-game",
        "game": "cuckoo",
        "names": ["Ann", "Bob", "Cyd"],
        "seed": 4,
    }
    assert not parse_command({"command": "pause"}, source="seat 2").changes
    out = parse_command({"command": "out-of-cards", "seat": 2})
    assert (out.seat, out.changes, out.to_json()) == (2, False, {"command": "out-of-cards", "seat": 2})
    dead = parse_command({"command": "out-of-turn", "seat": 1, "card": "th"})
    assert dead.to_json() == {"command": "out-of-turn", "seat": 1, "card": "10H"}


@pytest.mark.parametrize(
    ("data", "says"),
    [
        ([], "a command is a JSON object"),
        ({"command": "deal"}, "command 'deal' is not one of new-game, set, pause, resume"),
        ({"command": "set"}, "set: nothing to change"),
        ({"command": "set", "rule": "screw"}, "unknown key 'rule'"),
        ({"command": "pause", "rules": "screw"}, "pause changes nothing"),
        ({"command": "set", "rules": " "}, "rules must be a name"),
        ({"command": "set", "names": [1, 2]}, "names must be a list of names"),
        ({"command": "new-game", "seed": -1}, "seed must be a whole number from 0"),
        ({"command": "new-game", "seed": True}, "seed must be a whole number from 0"),
        ({"command": "out-of-cards"}, "out-of-cards: seat must be a seat's number from 0, not None"),
        ({"command": "out-of-cards", "seat": 1, "names": "A"}, "unknown key 'names' \\(it takes seat\\)"),
        (
            {"command": "out-of-turn", "seat": 1},
            "out-of-turn: card must be the card laid, as 2C, 10H, QS or RJ, not None",
        ),
        ({"command": "out-of-turn", "seat": 1, "card": "ZZ"}, "card must be the card laid"),
        ({"command": "out-of-turn", "seat": 1, "card": "2C", "x": 1}, "unknown key 'x' \\(it takes card and seat\\)"),
    ],
)
def test_a_bad_command_is_refused_with_what_was_wrong(data: object, says: str) -> None:
    with pytest.raises(CommandError, match=says):
        parse_command(data)


def _tap(menu: PresetMenu, seat: int, at: int) -> None:
    menu.edge(seat, True, at)
    menu.edge(seat, False, at + 80 * MS)
    menu.tick(at + 100 * MS)


def test_taps_offer_the_next_preset_round_and_round_and_a_hold_deals_it() -> None:
    menu = PresetMenu(["standard", "beggar-my-neighbour", "screw"], seats=4, now_ns=0)
    menu.edge(2, False, 10 * MS)  # a button still held from the gesture that opened the menu comes up: no tap
    menu.tick(500 * MS)
    assert menu.preset == "standard" and menu.pattern() == flash(1, CYAN, period_ms=400)
    for i, seat in enumerate((0, 3, 1)):
        _tap(menu, seat, (1 + i) * 1_000 * MS)
    assert menu.offered == 0 and not menu.deal  # three taps: round to the first again
    _tap(menu, 2, 5_000 * MS)
    assert menu.preset == "beggar-my-neighbour" and menu.pattern().count == 2
    menu.edge(1, True, 6_000 * MS)
    menu.tick(6_600 * MS)
    assert not menu.deal  # 600 ms down: not yet a hold
    assert menu.next_wakeup() == 6_700 * MS
    menu.tick(6_700 * MS)
    assert menu.deal and menu.preset == "beggar-my-neighbour"
    _tap(menu, 0, 7_000 * MS)
    assert menu.preset == "beggar-my-neighbour"  # decided: later taps change nothing


def test_an_untouched_menu_deals_the_preset_offered_and_the_number_shows_again_and_again() -> None:
    menu = PresetMenu(["classic", "jokers"], seats=3, now_ns=0)
    _tap(menu, 0, 1_000 * MS)
    assert menu.show_due(1_200 * MS) and not menu.show_due(1_300 * MS)
    cycle = (2 * 400 + 1_200) * MS  # two flashes, then dark
    assert not menu.show_due(1_200 * MS + cycle - 1) and menu.show_due(1_200 * MS + cycle)
    menu.tick(1_080 * MS + IDLE_NS - 1)
    assert not menu.deal
    menu.tick(1_080 * MS + IDLE_NS)
    assert menu.deal and menu.preset == "jokers"

"""A restarted table weighs each zone's first report against what its journal left there
(``table.laid_while_down``): cards laid while it was down are played once, lowest first; where
the camera cannot see them all, the game waits for the players to fan them out or say ``resume``."""

from __future__ import annotations

from pathlib import Path

from table import command_answers
from table.cards import parse_card
from table.controller import FrameReport, Outputs, TableCore
from table.decisions import CardPlayed
from table.events import CardGone, CardSeen
from table.games import setup_game
from table.journal import JournalWriter, read_journal
from table.laid_while_down import LAID_PART, LaidWhileDown, laid_since
from table.replay import Replay
from table.units import MS, SECOND

BOUNDS = {"camera": 250 * MS, "gpio": 20 * MS}


def _seen(t: int, code: str, zone: str = "pile", seat: int | None = None) -> CardSeen:
    return CardSeen(t, "camera", parse_card(code), zone, seat)


def _frame(core: TableCore, t: int, views: tuple = (), events: tuple = ()) -> None:
    core.frame(FrameReport(t, events, vouched_to=t, views=views), t + 50 * MS)


def _killed_game(path: Path, codes: tuple[str, ...]) -> TableCore:
    """A two-seat game of Egyptian Rat Screw whose table stopped after ``codes`` were played on
    the pile a second apart, resumed from its journal."""
    setup = setup_game("ers", players=2, seed=1)
    with JournalWriter(path, setup, fsync=False, start_ns=0) as journal:
        core = TableCore(setup, BOUNDS, Outputs(), journal)
        core.start(0)
        for n, code in enumerate(codes, start=1):
            _frame(core, n * SECOND, events=(_seen(n * SECOND, code),))
        core.tick((len(codes) + 1) * SECOND)
    resumed = TableCore.resumed(read_journal(path), None, BOUNDS, 100 * SECOND)
    resumed.journal = JournalWriter.resume(path, fsync=False)
    return resumed


def _played(core: TableCore) -> list[str]:
    return [d.card.code for d in core.decisions if isinstance(d, CardPlayed)]


def test_the_cards_a_view_shows_above_the_last_one_are_those_laid_since() -> None:
    five = parse_card("5C")
    assert laid_since(("4C", "5C", "6C", "7C"), five) == [parse_card("6C"), parse_card("7C")]
    assert laid_since(("5C",), five) == []
    assert laid_since(("7C",), five) is None  # 5C hidden: how many lie between cannot be told
    assert laid_since(("5C", None, "7C"), five) is None  # one between could not be read
    assert laid_since(("back", "8D"), None) == [parse_card("8D")]  # a bare zone: a back is no card played


def test_the_card_left_on_top_is_not_played_again(tmp_path: Path) -> None:
    core = _killed_game(tmp_path / "g.jsonl", ("5C", "6C"))
    _frame(core, 101 * SECOND, (("pile", None, ("6C",)),), (_seen(101 * SECOND, "6C"),))
    core.tick(103 * SECOND)
    assert _played(core) == ["5C", "6C"] and not core.paused


def test_cards_laid_while_down_that_the_camera_sees_are_played_lowest_first(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    core = _killed_game(path, ("5C", "6C"))
    _frame(core, 101 * SECOND, (("pile", None, ("5C", "6C", "7C", "8C")),), (_seen(101 * SECOND, "8C"),))
    core.tick(103 * SECOND)
    assert _played(core) == ["5C", "6C", "7C", "8C"] and not core.paused
    core.journal.close()
    assert [d.to_json() for d in Replay(read_journal(path)).decisions()] == [d.to_json() for d in core.decisions]


def test_a_card_hiding_the_last_one_makes_the_table_ask_until_the_pile_is_fanned(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    core = _killed_game(path, ("5C", "6C"))
    _frame(core, 101 * SECOND, (("pile", None, ("8C",)),), (_seen(101 * SECOND, "8C"),))
    core.tick(102 * SECOND)
    assert core.faults[LAID_PART].startswith("8C lies on the pile where 6C lay when the table stopped")
    assert _played(core) == ["5C", "6C"]
    _frame(core, 103 * SECOND, (("pile", None, ("6C", None, "8C")),))  # fanned, one corner unreadable
    assert LAID_PART in core.faults
    _frame(core, 104 * SECOND, (("pile", None, ("5C", "6C", "7C", "8C")),))
    core.tick(106 * SECOND)
    assert LAID_PART not in core.faults and _played(core) == ["5C", "6C", "7C", "8C"]
    core.journal.close()
    assert [d.to_json() for d in Replay(read_journal(path)).decisions()] == [d.to_json() for d in core.decisions]


def test_resume_says_the_top_card_was_the_only_one_laid(tmp_path: Path) -> None:
    core = _killed_game(tmp_path / "g.jsonl", ("5C", "6C"))
    assert command_answers.resume(core, 101 * SECOND)[0] is False  # nothing asked, nothing paused
    _frame(core, 101 * SECOND, (("pile", None, ("7C",)),), (_seen(101 * SECOND, "7C"),))
    done, said = command_answers.resume(core, 102 * SECOND)
    assert done and "the only one laid while the table was down" in said
    core.tick(104 * SECOND)
    assert _played(core) == ["5C", "6C", "7C"] and not core.paused


def test_cards_taken_back_until_the_last_one_shows_are_laid_again(tmp_path: Path) -> None:
    core = _killed_game(tmp_path / "g.jsonl", ("5C", "6C"))
    _frame(core, 101 * SECOND, (("pile", None, ("8C",)),), (_seen(101 * SECOND, "8C"),))
    assert "take the cards off until 6C shows" in core.faults[LAID_PART]
    _frame(core, 102 * SECOND, (("pile", None, ("6C",)),))  # the tracker confirms it a frame later
    _frame(core, 102 * SECOND + 200 * MS, (("pile", None, ("6C",)),), (_seen(102 * SECOND, "6C"),))
    assert not core.paused
    _frame(core, 104 * SECOND, (("pile", None, ("8C",)),), (_seen(104 * SECOND, "8C"),))
    core.tick(106 * SECOND)
    assert _played(core) == ["5C", "6C", "8C"]


def test_zones_are_told_apart_by_their_seat() -> None:
    restart = LaidWhileDown([_seen(1, "5C", "seat", 0), _seen(2, "9H", "seat", 1), CardGone(3, "camera", "pile")])
    assert restart.take(_seen(10, "9H", "seat", 1)) == []  # seat 1's card, still lying there
    assert restart.take(_seen(11, "9H", "seat", 0)) == []  # on seat 0's, where 5C lay: asked
    assert restart.question() is not None and "seat 0's place" in restart.question()
    assert restart.take(_seen(12, "9H", "seat", 1)) is None  # seen again already: taken as it is

"""The players' standings and records (``table.standings``): kept as games end at the table, and
made again from the journals alike; ``cardtable stats`` prints them."""

from __future__ import annotations

import contextlib
import sqlite3
import threading
from pathlib import Path

import pytest

from sim.games import SIMULATIONS
from sim.mock_gpio import timed_mock_factory
from sim.options import SimOptions
from table.cli import main
from table.commands import CommandRequest, parse_command
from table.config import load_config
from table.games import setup_game
from table.journal import JournalWriter
from table.live import LiveTable
from table.standings import FILE, Standings
from tests.live_tables import rendered_table, wait_until

NAMES = ["Ann", "Bob", "Cyd", "Dee"]


def _played(folder: Path, game: str, seed: int, players: int = 3) -> object:
    """A simulated game, its journal written with the players' names, as a table plays it."""
    setup = setup_game(game, None, {}, players, 0, seed)
    sim = SIMULATIONS[game](setup, SimOptions(camera="reports", seats="actions"))
    with JournalWriter(folder / f"{game}-{seed}.jsonl", sim.setup, fsync=False, names=NAMES[:players]) as journal:
        sim.journal = journal
        sim.run()
    return sim


def test_the_journals_make_the_very_standings_the_games_were_kept_with_as_they_ended(tmp_path: Path) -> None:
    folder = tmp_path / "journal"
    folder.mkdir()
    live = Standings(tmp_path / "live.sqlite")
    for game, seed in (("ers", 1), ("ers", 2), ("oh-hell", 1), ("cuckoo", 3)):
        sim = _played(folder, game, seed)
        assert live.add_played(f"{game}-{seed}.jsonl", sim.setup, NAMES[:3], sim.core.decisions, sim.referee)
    rebuilt = Standings(tmp_path / "rebuilt.sqlite")
    assert rebuilt.rebuild(folder) == (4, [])
    assert rebuilt.dump() == live.dump()
    games = live.dump()["games"]
    assert [g[0] for g in games] == ["cuckoo-3.jsonl", "ers-1.jsonl", "ers-2.jsonl", "oh-hell-1.jsonl"]
    reactions = live.dump()["reactions"]
    assert reactions and all(0 < ns < 5_000_000_000 for *_, ns in reactions)  # a card to a press, in seconds
    assert sum(s.wins for s in live.standings()) >= 4  # a winner a game (ties count for each)
    records = {r.what: r for r in live.records()}
    assert set(records) >= {"fastest slap", "best bidder", "longest game of Egyptian Rat Screw"}
    assert records["longest game of Egyptian Rat Screw"].who == "Ann, Bob and Cyd"  # who played it
    assert "longest game of the bidding game (Oh Hell)" in records  # a title within the line
    assert not [what for what in records if "trading" in what]  # its cards are revealed, not played


def test_a_game_not_over_is_not_kept_and_a_broken_journal_is_named_and_left_out(tmp_path: Path) -> None:
    folder = tmp_path / "journal"
    folder.mkdir()
    setup = setup_game("ers", None, {}, 3, 0, 1)
    sim = SIMULATIONS["ers"](setup, SimOptions(camera="reports", seats="actions", max_cards=10))
    with JournalWriter(folder / "unfinished.jsonl", sim.setup, fsync=False, names=NAMES[:3]) as journal:
        sim.journal = journal
        sim.run()
    (folder / "broken.jsonl").write_text('{"journal": "cardtable-1", "game": \n', encoding="utf-8")
    standings = Standings(tmp_path / "s.sqlite")
    kept, problems = standings.rebuild(folder)
    assert kept == 0 and len(problems) == 1 and "broken.jsonl" in problems[0]
    assert standings.standings() == []


def test_cardtable_stats_prints_the_standings_and_records_and_names_a_missing_folder(tmp_path: Path, capsys) -> None:
    folder = tmp_path / "journal"
    folder.mkdir()
    for seed in (1, 2):
        _played(folder, "ers", seed)
    assert main(["stats", "--journals", str(folder), "--rebuild"]) == 0
    said = capsys.readouterr().out
    assert "rebuilt from the journals: 2 finished game(s)" in said
    assert "Standings" in said and "Records" in said and "fastest slap" in said and "Egyptian Rat Screw" in said
    assert main(["stats", "--journals", str(tmp_path / "nowhere")]) == 2
    assert "no such journal folder" in capsys.readouterr().err
    assert main(["stats", "--journals", str(folder / "ers-1.jsonl")]) == 2  # a journal, not its folder
    assert "a file: --journals names the folder of journals" in capsys.readouterr().err


def test_cardtable_stats_for_a_table_that_never_ran_says_so(tmp_path: Path, capsys) -> None:
    config = tmp_path / "table.toml"
    config.write_text('[journal]\nfolder = "journal"\n', encoding="utf-8")  # made at the table's first game
    assert main(["stats", "--config", str(config)]) == 0
    assert capsys.readouterr().out == "no game played on this table yet\n"
    assert not (tmp_path / "journal").exists()


def test_cardtable_stats_makes_no_database_where_none_was_kept(tmp_path: Path, capsys) -> None:
    assert main(["stats", "--journals", str(tmp_path)]) == 2
    assert "no journal here" in capsys.readouterr().err
    assert main(["stats", "--journals", str(tmp_path), "--rebuild"]) == 2  # a folder named by mistake
    _played(tmp_path, "ers", 1)
    assert main(["stats", "--journals", str(tmp_path)]) == 0
    assert "no standings kept here yet: --rebuild reads the 1 journal" in capsys.readouterr().out
    assert [p.name for p in tmp_path.iterdir()] == ["ers-1.jsonl"]  # nothing made
    assert main(["stats", "--journals", str(tmp_path), "--rebuild"]) == 0
    assert (tmp_path / FILE).is_file()


@pytest.mark.slow
def test_the_live_table_keeps_a_game_as_it_ends_and_the_journal_makes_the_same(tmp_path: Path) -> None:
    """A bidding game at the live table, ended by the players' command: it is in the standings
    beside its journal, and the journal replayed makes the same rows. Names changed during it
    are the next game's: this one is kept under the names it was dealt to."""
    table, runner, answers = _bidding_game_ended(tmp_path, renamed="Wes,Xan,Yul,Zed")
    try:
        wait_until(lambda: len(answers) == 2)
        assert answers[0][0] and answers[1][0], answers
        wait_until(lambda: (tmp_path / "journal" / FILE).exists() and _rows(tmp_path / "journal" / FILE))
    finally:
        table.stop()
        runner.join(timeout=30)
    live = Standings(tmp_path / "journal" / FILE)
    rebuilt = Standings(tmp_path / "rebuilt.sqlite")
    assert rebuilt.rebuild(tmp_path / "journal") == (1, [])
    assert rebuilt.dump() == live.dump()
    assert {(s.games, s.wins) for s in live.standings()} == {(1, 1)}  # ended before a hand: every seat ties
    assert [s.name for s in live.standings()] == NAMES  # ties by name
    live.close()
    rebuilt.close()


def _bidding_game_ended(
    tmp_path: Path, renamed: str | None = None
) -> tuple[LiveTable, threading.Thread, list[tuple[bool, str]]]:
    """A live table dealing a bidding game, ended by the players' command as soon as it is
    dealt (with the seats ``renamed`` for the next games first); the table, its loop's thread
    and the commands' answers."""
    path = rendered_table(tmp_path, frames=30, card_from=99)
    config = load_config(path, {"game": {"name": "oh-hell", "preset": "classic"}})
    table = LiveTable(config, pin_factory=timed_mock_factory())
    runner = threading.Thread(target=table.run, kwargs={"max_seconds": 15})
    runner.start()
    answers: list[tuple[bool, str]] = []
    wait_until(lambda: table.games)
    if renamed is not None:
        rename = parse_command({"command": "set", "names": renamed})
        table.inbox.put(CommandRequest(rename, lambda ok, m: answers.append((ok, m))))
    table.inbox.put(CommandRequest(parse_command({"command": "end-game"}), lambda ok, m: answers.append((ok, m))))
    return table, runner, answers


def _rows(path: Path) -> int:
    """The games kept in the database at ``path`` (none while it is being made)."""
    try:
        with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as db:
            return db.execute("SELECT COUNT(*) FROM games").fetchone()[0]
    except sqlite3.Error:
        return 0


@pytest.mark.slow
def test_a_standings_database_that_cannot_be_written_is_named_and_the_table_goes_on(tmp_path: Path, caplog) -> None:
    (tmp_path / "journal" / FILE).mkdir(parents=True)  # a folder where the database would be
    table, runner, answers = _bidding_game_ended(tmp_path)
    try:
        wait_until(lambda: answers and "the game is not in the standings" in caplog.text)
        assert runner.is_alive()  # the game over, its journal kept; the table plays on
    finally:
        table.stop()
        runner.join(timeout=30)
    assert f"{FILE}: cannot open the standings database" in caplog.text
    assert table.stats.errors == 0
    assert main(["stats", "--journals", str(tmp_path / "journal")]) == 2  # said in one line, no traceback


@pytest.mark.slow
def test_a_damaged_standings_database_is_kept_aside_and_begun_anew_at_the_table(tmp_path: Path, caplog) -> None:
    (tmp_path / "journal").mkdir()
    (tmp_path / "journal" / FILE).write_bytes(b"not a database, a mangled file\n" * 100)
    table, runner, answers = _bidding_game_ended(tmp_path)
    try:
        aside = tmp_path / "journal" / f"{FILE}.damaged"
        wait_until(lambda: answers and aside.is_file() and _rows(tmp_path / "journal" / FILE))
    finally:
        table.stop()
        runner.join(timeout=30)
    assert f"kept aside as {FILE}.damaged, and a new one begun" in caplog.text
    assert aside.read_bytes().startswith(b"not a database")
    assert table.stats.errors == 0


def test_cardtable_stats_rebuild_mends_a_damaged_or_foreign_database(tmp_path: Path, capsys) -> None:
    folder = tmp_path / "journal"
    folder.mkdir()
    _played(folder, "ers", 1)
    (folder / FILE).write_bytes(b"not a database, a mangled file\n" * 100)
    assert main(["stats", "--journals", str(folder)]) == 2  # named in one line
    assert "cannot open the standings database" in capsys.readouterr().err
    assert main(["stats", "--journals", str(folder), "--rebuild"]) == 0
    assert "rebuilt from the journals: 1 finished game(s)" in capsys.readouterr().out
    with contextlib.closing(sqlite3.connect(folder / FILE)) as db:  # another program's database
        db.execute("DROP TABLE reactions")
        db.execute("CREATE TABLE reactions (x)")
        db.commit()
    assert main(["stats", "--journals", str(folder), "--rebuild"]) == 0
    assert _rows(folder / FILE) == 1 and not (folder / f"{FILE}.new").exists()


def test_a_bad_slap_found_out_by_contests_counts_once() -> None:
    from table.tally import GameTally

    tally = GameTally()
    for told in (
        {"kind": "game-started", "players": 3},
        {"kind": "card-played", "t": 1, "seat": 0},
        {"kind": "slap-ignored", "t": 2, "seat": 0, "reason": "no slap here: the others may contest it"},
        {"kind": "contested", "t": 3, "seat": 1, "player": 0, "upheld": True, "cards": 1},
        {"kind": "contested", "t": 4, "seat": 2, "player": 0, "upheld": True, "cards": 1},
        {"kind": "contested", "t": 5, "seat": 2, "player": 1, "upheld": False, "cards": 1},
    ):
        tally.heard(told)
    assert [s.bad_slaps for s in tally.seats] == [1, 0, 0]

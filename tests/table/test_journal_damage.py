"""A damaged journal is found, named and never read as another game: every line the table writes
carries a checksum and every field is checked; the game goes on from what the lines before the
damage prove; the newest game is told by the journals' own numbers; and a journal replays to the
decisions the live table made, inputs from before the deal included."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from table.cards import parse_card
from table.controller import FrameReport, Outputs, TableCore
from table.events import ButtonPressed, CardSeen
from table.games import setup_game
from table.journal import BY_HAND, JournalError, JournalWriter, read_journal
from table.replay import Replay
from table.resume import DAMAGED, newest_journal
from table.units import MS, SECOND

BOUNDS = {"camera": 300 * MS, "gpio": 20 * MS}


def write_game(path: Path, number: int = 1, start_ns: int = 0) -> None:
    setup = setup_game("ers", "standard", players=2, seed=9)
    with JournalWriter(path, setup, fsync=False, start_ns=start_ns, number=number) as journal:
        journal.record(CardSeen(start_ns + 10, "camera", parse_card("5H"), "pile"))
        journal.record(CardSeen(start_ns + 20, "camera", parse_card("5D"), "pile"))
        journal.record(ButtonPressed(start_ns + 30, "gpio", 1))
        journal.record(CardSeen(start_ns + 40, "camera", parse_card("9C"), "pile"))


def one_byte_changes(line: bytes) -> list[bytes]:
    """The line with each byte changed, three ways: a bit flipped, a digit or letter swapped for
    another of its kind, and a byte from anywhere."""
    rng = random.Random(0)
    changed = []
    for at, byte in enumerate(line):
        kind = b"0123456789" if chr(byte).isdigit() else b"abcdefghijklmnopqrstuvwxyz" if chr(byte).isalpha() else None
        others = [byte ^ 1, rng.choice([b for b in kind if b != byte]) if kind else byte ^ 2, rng.randrange(256)]
        changed += [line[:at] + bytes([other]) + line[at + 1 :] for other in others if other != byte]
    return changed


def test_every_one_byte_change_of_a_middle_line_is_named_and_the_lines_before_it_kept(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    write_game(path)
    lines = path.read_bytes().split(b"\n")[:-1]
    named = 0
    for bad in one_byte_changes(lines[3]):
        path.write_bytes(b"\n".join([*lines[:3], bad, *lines[4:]]) + b"\n")
        with pytest.raises(JournalError, match=r"g\.jsonl:4: "):
            read_journal(path)
        salvaged = read_journal(path, salvage=True)
        assert salvaged.damage is not None and "g.jsonl:4: " in salvaged.damage
        assert [e.event.t_ns for e in salvaged.entries] == [10, 20]
        named += 1
    assert named > 3 * len(lines[3]) - 10  # hundreds of changes, none read as another game


def test_a_changed_byte_in_the_set_up_line_is_named(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    write_game(path)
    lines = path.read_bytes().split(b"\n")
    lines[0] = lines[0].replace(b'"seed":9', b'"seed":8')
    path.write_bytes(b"\n".join(lines))
    with pytest.raises(JournalError, match=r"g\.jsonl:1: damaged"):
        read_journal(path, salvage=True)


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ('{"t": 50, "type": []}', "unknown event type"),
        ('{"t": "50", "type": "press", "seat": 1}', "t must be integer nanoseconds"),
        ('{"t": -5, "type": "press", "seat": 1}', "t must be integer nanoseconds"),
        ('{"t": 50, "type": "press", "seat": 7}', "seat 7 at a table of 2 seats"),
        ('{"t": 50, "type": "press", "seat": true}', "seat must be a whole number"),
        ('{"t": 50, "type": "card-seen", "card": "5H", "zone": "5ile"}', "unknown zone '5ile'"),
        ('{"t": 50, "type": "card-seen", "card": 5, "zone": "pile"}', "card must be a card's code"),
        ('{"t": 50, "type": "press", "seat": 1, "source": 3}', "source must be a name"),
        ('{"t": 50, "type": "press", "seat": 1, "late": "x"}', "late must be nanoseconds"),
        ('{"t": 50, "type": "command", "name": 1}', "name must be a name"),
        ("[1, 2]", "must be a JSON object"),
    ],
)
def test_a_hand_written_record_s_wrong_fields_are_named(tmp_path: Path, line: str, message: str) -> None:
    path = tmp_path / "record.jsonl"
    header = {"journal": BY_HAND, "game": "ers", "players": 2, "rules": {}}
    path.write_text(json.dumps(header) + "\n" + line + "\n")
    with pytest.raises(JournalError, match=r"record\.jsonl:2: .*" + message):
        read_journal(path)


@pytest.mark.parametrize(
    ("header", "message"),
    [
        ({"game": [], "players": 2, "rules": {}}, "game must be a game's name"),
        ({"game": "ers", "players": "2", "rules": {}}, "players must be a whole number"),
        ({"game": "ers", "players": 2, "dealer": 5, "rules": {}}, "dealer must be a seat"),
        ({"game": "ers", "players": 2, "rules": []}, "rules must be a table"),
        ({"game": "ers", "players": 2, "rules": {}, "deal": "AS"}, "deal must be a list"),
        ({"game": "ers", "players": 2, "rules": {}, "start": -1}, "start must be nanoseconds"),
    ],
)
def test_a_set_up_line_s_wrong_fields_are_named(tmp_path: Path, header: dict, message: str) -> None:
    path = tmp_path / "record.jsonl"
    path.write_text(json.dumps({"journal": BY_HAND, **header}) + "\n")
    with pytest.raises(JournalError, match=r"record\.jsonl:1: " + message):
        read_journal(path)


def test_replay_of_a_damaged_journal_replays_what_it_proves_and_names_the_damage(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    write_game(path)
    lines = path.read_text().split("\n")
    lines[3] = lines[3].replace('"t":30', '"t":31')
    path.write_text("\n".join(lines))
    run = subprocess.run(
        [sys.executable, "-m", "table.cli", "replay", str(path)], capture_output=True, text=True, check=False
    )
    assert run.returncode == 1 and "Traceback" not in run.stderr
    assert run.stderr.strip().endswith(
        "g.jsonl:4: damaged, or a line before it lost, doubled or moved: its checksum does not match;"
        " replayed the 2 inputs before it"
    )
    assert json.loads(run.stdout.splitlines()[-1])["kind"] == "final-state"
    lines[0] = lines[0][:-3]
    path.write_text("\n".join(lines))
    run = subprocess.run(
        [sys.executable, "-m", "table.cli", "replay", str(path)], capture_output=True, text=True, check=False
    )
    assert run.returncode == 2 and run.stdout == "" and "Traceback" not in run.stderr
    assert run.stderr.count("\n") == 1 and "g.jsonl:1: " in run.stderr


def test_the_table_goes_on_from_a_damaged_journal_and_keeps_it_aside(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    write_game(path)
    damaged = path.read_bytes().replace(b'"t":30', b'"t":3')
    path.write_bytes(damaged)
    found = newest_journal(tmp_path, 2, now=10 * SECOND)
    assert found is not None and [e.event.t_ns for e in found.journal.entries] == [10, 20]
    assert (tmp_path / ("g.jsonl" + DAMAGED)).read_bytes() == damaged  # kept as it was
    again = read_journal(path)  # the journal gone on from: what the damage left, whole
    assert again.damage is None and [e.event.t_ns for e in again.entries] == [10, 20]
    assert newest_journal(tmp_path, 2, now=10 * SECOND) is not None  # and it is the one found next time
    again_damaged = path.read_bytes() + b"garbage\n"
    path.write_bytes(again_damaged)
    assert newest_journal(tmp_path, 2, now=10 * SECOND) is not None  # damaged again: gone on from again
    assert (tmp_path / ("g.jsonl" + DAMAGED)).read_bytes() == damaged  # the first copy kept
    assert (tmp_path / ("g.jsonl" + DAMAGED + "-2")).read_bytes() == again_damaged


def test_a_journal_torn_in_its_set_up_line_is_kept_aside_once(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    write_game(tmp_path / "20261203-101500-ers-7.jsonl", number=7)
    torn = b'{"journal": "cardtable-journal/3", "game": "ers", "ru'  # the table stopped as it wrote it
    (tmp_path / "20261203-101900-ers-8.jsonl").write_bytes(torn)
    found = newest_journal(tmp_path, 2, now=100 * SECOND)
    assert found is not None and found.path.name == "20261203-101500-ers-7.jsonl"
    assert (tmp_path / ("20261203-101900-ers-8.jsonl" + DAMAGED)).read_bytes() == torn
    said = [r.getMessage() for r in caplog.records]
    assert len(said) == 1 and said[0].endswith("kept aside as 20261203-101900-ers-8.jsonl.damaged"), said
    caplog.clear()
    assert newest_journal(tmp_path, 2, now=100 * SECOND) is not None and not caplog.records  # said once
    foreign = tmp_path / "notes.jsonl"  # a journal of another version's game, a stray file: left where it is
    foreign.write_text('{"journal": "cardtable-journal/1", "game": "spoons", "players": 2}\n', encoding="utf-8")
    assert newest_journal(tmp_path, 2, now=100 * SECOND) is not None
    assert foreign.exists() and "unknown game 'spoons'" in caplog.text


def test_the_newest_game_is_told_by_its_number_not_by_its_name(tmp_path: Path) -> None:
    """A Pi without a real-time clock came back with its clock set back: the game it played
    last has the name of an earlier time."""
    write_game(tmp_path / "20261203-101500-ers-7.jsonl", number=7, start_ns=5 * SECOND)
    write_game(tmp_path / "20261203-093000-ers-8.jsonl", number=8, start_ns=SECOND)
    found = newest_journal(tmp_path, 2, now=100 * SECOND)
    assert found is not None and found.path.name == "20261203-093000-ers-8.jsonl"


def test_an_input_from_before_the_deal_is_decided_alike_live_and_on_replay(tmp_path: Path) -> None:
    setup = setup_game("ers", players=2, seed=1)
    dealt = 10 * SECOND
    path = tmp_path / "game.jsonl"
    with JournalWriter(path, setup, fsync=False, start_ns=dealt) as journal:
        core = TableCore(setup, BOUNDS, Outputs(), journal)
        core.start(dealt)
        early = dealt - 5 * MS  # laid as the table dealt: dated just before its moment
        core.frame(FrameReport(early, (CardSeen(early, "camera", parse_card("7H"), "pile"),), vouched_to=early), dealt)
        later = dealt + SECOND
        core.frame(FrameReport(later, (CardSeen(later, "camera", parse_card("9H"), "pile"),), vouched_to=later), later)
        core.tick(later + SECOND)
    live = [d.to_json() for d in core.decisions]
    replayed = [d.to_json() for d in Replay(read_journal(path)).decisions()]
    assert replayed == live

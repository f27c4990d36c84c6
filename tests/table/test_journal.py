"""The journal: appended JSON lines, a torn last line tolerated, every other fault named."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from table.cards import parse_card
from table.events import ButtonPressed, CardSeen
from table.games import setup_game
from table.journal import FORMAT, UNCHAINED, JournalError, JournalWriter, checksummed, read_journal
from table.replay import Replay
from tests.journal_helpers import append_as_written


def write_game(path: Path) -> None:
    setup = setup_game("ers", "standard", players=2, seed=9)
    with JournalWriter(path, setup) as journal:
        journal.record(CardSeen(10, "camera", parse_card("5H"), "pile"))
        journal.record(CardSeen(20, "camera", parse_card("5D"), "pile"))
        journal.record(ButtonPressed(30, "gpio", 1))
        journal.record(ButtonPressed(5, "gpio", 0), late_ns=26)


def test_written_journal_reads_back(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    write_game(path)
    lines = path.read_text().splitlines()
    assert json.loads(lines[0])["journal"] == FORMAT
    journal = read_journal(path)
    assert [e.event.TYPE for e in journal.entries] == ["card-seen", "card-seen", "press", "press"]
    assert journal.entries[-1].late_ns == 26
    assert journal.warnings == []


def test_never_overwrites_a_journal(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    write_game(path)
    before = path.read_bytes()
    with pytest.raises(JournalError, match="already exists"):
        JournalWriter(path, setup_game("ers", players=2))
    assert path.read_bytes() == before


def test_torn_last_line_is_tolerated_and_reported(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    write_game(path)
    with path.open("a") as f:
        f.write('{"t":40,"type":"pre')  # power cut mid-write
    journal = read_journal(path)
    assert len(journal.entries) == 4
    assert "torn last line" in journal.warnings[0]


def test_a_broken_line_in_the_middle_is_named(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    write_game(path)
    lines = path.read_text().splitlines()
    lines[2] = "{not json"
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(JournalError, match=r"g\.jsonl:3: not JSON"):
        read_journal(path)
    lines[2] = "[" * 100_000 + "]" * 100_000  # nested past Python's depth
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(JournalError, match=r"g\.jsonl:3: not JSON: maximum recursion depth"):
        read_journal(path)


@pytest.mark.parametrize(
    ("first_line", "message"),
    [
        ("[]", "not a cardtable journal"),
        ('{"journal": "cardtable-journal/9"}', 'or "cardtable-journal/1" for a record written by hand'),
        ('{"journal": "cardtable-journal/1", "game": "poker", "rules": {}, "players": 2}', "unknown game"),
        ('{"journal": "cardtable-journal/1", "game": "ers", "rules": {"sloppy": 1}, "players": 2}', "sloppy"),
        (
            '{"journal": "cardtable-journal/1", "seed": ' + "9" * 5000 + "}",
            "set-up line is not JSON: Exceeds the limit",
        ),
        ("[" * 100_000 + "]" * 100_000, "set-up line is not JSON: maximum recursion depth"),
        (
            '{"journal": "cardtable-journal/1", "game": "ers", "players": 2, "names": ["Ann", "\\u001b[2J"]}',
            "names must be printable characters",
        ),
        (
            '{"journal": "cardtable-journal/1", "game": "ers", "players": 2, "deal": [["AS"], ["ZZ"]]}',
            ":1: deal: not a card",
        ),
    ],
)
def test_bad_set_up_lines_are_named(tmp_path: Path, first_line: str, message: str) -> None:
    path = tmp_path / "g.jsonl"
    path.write_text(first_line + "\n")
    with pytest.raises(JournalError, match=message):
        read_journal(path)


def test_a_journal_copied_with_windows_line_ends_reads_as_written_and_says_so(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    write_game(path)
    entries = read_journal(path).entries
    path.write_bytes(path.read_bytes().replace(b"\n", b"\r\n"))
    journal = read_journal(path)
    assert journal.entries == entries and "end in CR LF" in journal.warnings[0]


def test_blank_lines_are_passed_over_by_hand_and_named_in_a_tables_journal_as_bytes_not_text_are(
    tmp_path: Path,
) -> None:
    path = tmp_path / "g.jsonl"
    write_game(path)
    entries = read_journal(path).entries
    lines = path.read_bytes().split(b"\n")
    path.write_bytes(b"\n".join([*lines[:-1], b"  "]) + b"\n")  # a line no table wrote
    journal = read_journal(path, salvage=True)
    assert journal.entries == entries and journal.damage == f"{path}:6: a blank line, which the table never writes"
    record = tmp_path / "record.jsonl"  # written by hand, as an editor leaves it: blank lines are no news
    record.write_text(
        '{"journal": "cardtable-journal/1", "game": "ers", "players": 2}\n\n'
        '{"t": 10, "type": "card-seen", "zone": "pile", "card": "5H"}\n\n',
        encoding="utf-8",
    )
    journal = read_journal(record)
    assert len(journal.entries) == 1 and journal.warnings == []
    path.write_bytes(b"\n".join([*lines[:2], b"\xfe\xff\x00k\x01", *lines[2:]]))
    with pytest.raises(JournalError, match=r"g\.jsonl:3: not JSON: bytes that are not text$"):
        read_journal(path)


def test_a_record_written_by_hand_may_leave_out_the_rules_it_does_not_change(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    path.write_text('{"journal": "cardtable-journal/1", "game": "ers", "players": 2}\n', encoding="utf-8")
    assert read_journal(path).setup.rules == {}


def test_an_empty_journal_and_one_whose_set_up_line_has_no_end_are_told_apart(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    path.write_bytes(b"")
    with pytest.raises(JournalError, match="empty journal"):
        read_journal(path)
    path.write_bytes(b'{"journal": "cardtable-journal/3", "game": "ers", "ru')
    with pytest.raises(JournalError, match="no whole set-up line: its only line has no end"):
        read_journal(path)


def test_bad_event_line_is_named(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    write_game(path)
    append_as_written(path, {"t": 50, "type": "card-seen", "card": "1X", "zone": "pile"})
    with pytest.raises(JournalError, match=r":6: card-seen: not a card: '1X'"):
        read_journal(path)


def test_replay_output_is_identical_each_time(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    write_game(path)
    first = list(Replay(read_journal(path)).lines())
    assert first == list(Replay(read_journal(path)).lines())
    kinds = [json.loads(line)["kind"] for line in first]
    assert kinds[-1] == "final-state"
    assert "too-late" in kinds


@pytest.mark.parametrize(
    ("change", "line"),
    [
        (lambda lines: lines[:2] + lines[3:], 3),  # a line lost
        (lambda lines: lines[:3] + lines[2:], 4),  # a line doubled
        (lambda lines: [lines[0], lines[2], lines[1], *lines[3:]], 2),  # two lines swapped
    ],
)
def test_a_line_lost_doubled_or_moved_is_found_and_the_lines_before_it_are_kept(
    tmp_path: Path, change: Any, line: int
) -> None:
    """Each line's checksum is carried on from the line before's: lines whole in themselves but
    out of place are named, as a damaged byte is."""
    path = tmp_path / "g.jsonl"
    write_game(path)
    path.write_bytes(b"".join(change(path.read_bytes().splitlines(keepends=True))))
    with pytest.raises(
        JournalError,
        match=rf":{line}: damaged, or a line before it lost, doubled or moved",
    ):
        read_journal(path)
    assert len(read_journal(path, salvage=True).entries) == line - 2


def test_a_journal_goes_on_from_its_last_line_and_an_older_one_in_its_own_format(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    write_game(path)
    with JournalWriter.resume(path) as journal:  # a table restarted: its lines carry on
        journal.record(ButtonPressed(40, "gpio", 0))
    assert [e.event.t_ns for e in read_journal(path).entries] == [10, 20, 30, 5, 40]
    older = tmp_path / "older.jsonl"  # as an older table wrote it: each line checksummed on its own
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    for data in lines:
        data.pop("crc")
    lines[0]["journal"] = UNCHAINED
    older.write_text("".join(checksummed(data) + "\n" for data in lines[:-1]))
    with JournalWriter.resume(older) as journal:
        journal.record(ButtonPressed(40, "gpio", 0))
    assert read_journal(older).entries == read_journal(path).entries

"""``table.resume``: the game a table was in the middle of, found in its journal folder."""

from __future__ import annotations

from pathlib import Path

from table.cards import parse_card
from table.events import CardSeen
from table.games import setup_game
from table.journal import JournalWriter
from table.resume import newest_journal
from table.units import SECOND


def _journal(folder: Path, name: str, players: int, last_ns: int) -> Path:
    path = folder / name
    writer = JournalWriter(path, setup_game("ers", players=players, seed=1), fsync=False)
    writer.record(CardSeen(last_ns, "camera", parse_card("QH"), "pile"))
    writer.close()
    return path


def test_the_newest_journal_for_the_tables_seats_is_gone_on_from(tmp_path: Path) -> None:
    assert newest_journal(tmp_path, 4, now=10 * SECOND) is None  # no journal yet
    _journal(tmp_path, "20261203-070000-ers-1.jsonl", 4, 2 * SECOND)
    newest = _journal(tmp_path, "20261203-080000-ers-2.jsonl", 4, 3 * SECOND)
    found = newest_journal(tmp_path, 4, now=10 * SECOND)
    assert found is not None and found.path == newest and found.offset_ns == 0
    assert len(found.journal.entries) == 1
    assert newest_journal(tmp_path, 3, now=10 * SECOND) is None  # a game for other seats: a new one is dealt


def test_after_the_host_restarted_the_tables_clock_goes_on_past_the_journals_last_input(tmp_path: Path) -> None:
    _journal(tmp_path, "20261203-080000-ers-1.jsonl", 4, 500 * SECOND)
    found = newest_journal(tmp_path, 4, now=20 * SECOND)  # the host's clock began again at its boot
    assert found is not None and found.offset_ns == 500 * SECOND + SECOND - 20 * SECOND


def test_a_journal_that_cannot_be_read_deals_a_new_game(tmp_path: Path) -> None:
    (tmp_path / "20261203-080000-ers-1.jsonl").write_text("not a journal\n", encoding="utf-8")
    assert newest_journal(tmp_path, 4, now=SECOND) is None

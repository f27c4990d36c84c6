"""Where a table killed or without power in the middle of a game finds it again: the newest
journal of its folder, if its game was not over and is for this table's seats."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path

from table.journal import Journal, JournalError, read_journal
from table.units import SECOND

log = logging.getLogger("cardtable")


@dataclass(frozen=True)
class Unfinished:
    """A journal to go on from: where it is, what it holds, and how far the table's clock must
    be carried past the host's (the host restarted since its last input: its clock began again)."""

    path: Path
    journal: Journal
    offset_ns: int


def newest_journal(folder: Path, players: int, now: int) -> Unfinished | None:
    """The newest journal in ``folder`` if it is a game for ``players`` seats (a changed game waits
    for the next deal); None when there is none, or it cannot be read (said in the log)."""
    journals = sorted(folder.glob("*.jsonl"))
    if not journals:
        return None
    path = journals[-1]
    try:
        journal = read_journal(path)
    except JournalError as exc:
        log.warning("%s; a new game is dealt", exc)
        return None
    for warning in journal.warnings:
        log.warning("%s", warning)
    if journal.setup.players != players:
        log.info("%s is a game for %d seats: a new game is dealt", path, journal.setup.players)
        return None
    last = max((e.event.t_ns for e in journal.entries), default=0)
    offset = 0
    if last >= now:
        offset = last + SECOND - now
        log.warning("%s: the host restarted since its last input; the table's clock goes on from it", path)
    return Unfinished(path, journal, offset)

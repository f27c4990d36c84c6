"""Where a table killed or without power in the middle of a game finds it again: the newest
journal of its folder, if its game was not over and is for this table's seats.

The newest is told by the journals' own numbers (each set-up line carries the game's number in
its folder), not by their names: names come from the wall clock, which a Pi without a real-time
clock may set back at boot. A journal damaged past its set-up line is gone on from as far as its
lines prove: the damaged file is kept beside it (``.damaged``) and a journal of the lines before
the damage takes its place.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path

from table.journal import Journal, JournalError, JournalWriter, read_header, read_journal
from table.units import SECOND

log = logging.getLogger("cardtable")

DAMAGED = ".damaged"  # added to the name of a journal kept aside for its damage


@dataclass(frozen=True)
class Unfinished:
    """A journal to go on from: where it is, what it holds, and how far the table's clock must
    be carried past the host's (the host restarted since its last input: its clock began again)."""

    path: Path
    journal: Journal
    offset_ns: int


def numbered_journals(folder: Path, pattern: str = "*.jsonl", say: bool = True) -> list[tuple[int, Path]]:
    """The journals of ``folder`` that can go on (not abandoned or kept aside; ``pattern``) by
    their games' numbers, the newest last; one whose set-up line cannot be read is left out
    (logged, where ``say``)."""
    found = []
    for path in folder.glob(pattern):
        try:
            found.append((read_header(path).number, path))
        except JournalError as exc:
            if say:
                log.warning("%s", exc)
    return sorted(found, key=lambda item: (item[0], item[1].name))


def last_number(folder: Path) -> int:
    """The highest game number in ``folder``, abandoned and damaged journals too: the next game
    is numbered past it."""
    return max((number for number, _ in numbered_journals(folder, "*.jsonl*", say=False)), default=0)


def newest_journal(folder: Path, players: int, now: int) -> Unfinished | None:
    """The newest journal in ``folder`` if it is a game for ``players`` seats (a changed game waits
    for the next deal); None when there is none, or its set-up cannot be read (said in the log)."""
    journals = numbered_journals(folder)
    if not journals:
        return None
    _, path = journals[-1]
    try:
        journal = read_journal(path, salvage=True)
    except JournalError as exc:
        log.warning("%s; a new game is dealt", exc)
        return None
    for warning in journal.warnings:
        log.warning("%s", warning)
    if journal.damage is not None:
        _set_aside(path, journal)
    if journal.setup.players != players:
        log.info("%s is a game for %d seats: a new game is dealt", path, journal.setup.players)
        return None
    last = max((e.event.t_ns for e in journal.entries), default=journal.start_ns)
    offset = 0
    if last >= now:
        offset = last + SECOND - now
        log.warning("%s: the host restarted since its last input; the table's clock goes on from it", path)
    return Unfinished(path, journal, offset)


def _set_aside(path: Path, journal: Journal) -> None:
    """A damaged journal kept beside its place, and a journal of what its lines before the damage
    prove written in its place, to go on appending to."""
    aside = path.with_name(path.name + DAMAGED)
    tried = 1
    while aside.exists():  # damaged before: that copy holds lines this one lacks, and is kept too
        tried += 1
        aside = path.with_name(f"{path.name}{DAMAGED}-{tried}")
    path.rename(aside)
    with JournalWriter(path, journal.setup, False, journal.start_ns, journal.number, journal.names) as writer:
        for entry in journal.entries:
            writer.record(entry.event, entry.late_ns)
        writer.sync()
    log.error(
        "%s; the game goes on from the %d inputs before it, the damaged journal kept as %s",
        journal.damage,
        len(journal.entries),
        aside.name,
    )

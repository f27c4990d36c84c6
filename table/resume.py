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

from table.journal import Journal, JournalError, JournalWriter, TornSetUp, read_header, read_journal
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


def numbered_journals(
    folder: Path, pattern: str = "*.jsonl", unread: list[tuple[Path, JournalError]] | None = None
) -> list[tuple[int, Path]]:
    """The journals of ``folder`` that can go on (not abandoned or kept aside; ``pattern``) by
    their games' numbers, the newest last; those whose set-up line cannot be read are left out
    (and added to ``unread``)."""
    found = []
    for path in folder.glob(pattern):
        try:
            found.append((read_header(path).number, path))
        except JournalError as exc:
            if unread is not None:
                unread.append((path, exc))
    return sorted(found, key=lambda item: (item[0], item[1].name))


def last_number(folder: Path) -> int:
    """The highest game number in ``folder``, abandoned and damaged journals too: the next game
    is numbered past it."""
    return max((number for number, _ in numbered_journals(folder, "*.jsonl*")), default=0)


def newest_journal(folder: Path, players: int, now: int) -> Unfinished | None:
    """The newest journal in ``folder`` if it is a game for ``players`` seats (a changed game waits
    for the next deal); None when there is none, or its set-up cannot be read (said in the log).
    A journal torn in its set-up line (the table stopped as it wrote it) is kept aside, said
    once; others whose set-up cannot be read are left where they are, said."""
    unread: list[tuple[Path, JournalError]] = []
    journals = numbered_journals(folder, unread=unread)
    for path, exc in unread:
        if not isinstance(exc, TornSetUp):  # not the table's own tear (another version's game, a stray file)
            log.warning("%s", exc)
            continue
        aside = _aside_name(path)
        try:
            path.rename(aside)
        except OSError as why:  # (a folder the table may not change: said at every start, then)
            log.warning("%s; it could not be kept aside: %s", exc, why.strerror or why)
        else:
            log.warning("%s; kept aside as %s", exc, aside.name)
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


def _aside_name(path: Path) -> Path:
    """Where a damaged journal is kept: ``NAME.jsonl.damaged``, or ``.damaged-2`` and on where
    one was damaged before (that copy holds lines this one lacks, and is kept too)."""
    aside = path.with_name(path.name + DAMAGED)
    tried = 1
    while aside.exists():
        tried += 1
        aside = path.with_name(f"{path.name}{DAMAGED}-{tried}")
    return aside


def _set_aside(path: Path, journal: Journal) -> None:
    """A damaged journal kept beside its place, and a journal of what its lines before the damage
    prove written in its place, to go on appending to."""
    aside = _aside_name(path)
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

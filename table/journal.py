"""The journal: every input event of a game, appended as JSON lines and flushed to disk.

Line 1 is the game's set-up (rules, seats, seed, deal); every further line is one input event as
it entered the sequencer, with ``"late": N`` when it came N ns too late to be ordered. A power cut
can leave a torn last line; reading tolerates that one (and says so). Any other bad line is an
error naming the file and line. The format is documented in ``docs/journal.md``.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from table.errors import CardtableError
from table.events import Event, EventError, event_from_json
from table.games import GameSetup
from table.referee import GameSetupError

FORMAT = "cardtable-journal/1"


class JournalError(CardtableError, ValueError):
    """A journal that cannot be written or read; the message names the file and line."""


@dataclass(frozen=True, slots=True)
class Entry:
    event: Event
    late_ns: int | None = None


@dataclass
class Journal:
    setup: GameSetup
    entries: list[Entry] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def _dumps(data: object) -> str:
    return json.dumps(data, separators=(",", ":"), sort_keys=True)


class JournalWriter:
    """Appends events to a new journal file, one flushed (and by default fsynced) line each."""

    def __init__(self, path: str | Path, setup: GameSetup | None, fsync: bool = True) -> None:
        """A new journal for the game ``setup``, or with ``setup`` None an existing one to go on
        appending to (``resume``)."""
        self.path = Path(path)
        self.fsync = fsync
        if setup is None:
            self._file = self._append()
            return
        try:
            self._file: IO[str] = open(self.path, "x", encoding="utf-8")  # noqa: SIM115
        except FileExistsError:
            raise JournalError(f"{self.path}: already exists; a journal is never overwritten") from None
        except OSError as exc:
            raise JournalError(f"{self.path}: cannot create journal: {exc.strerror}") from None
        self._write({"journal": FORMAT, **setup.to_json()})

    @classmethod
    def resume(cls, path: str | Path, fsync: bool = True) -> JournalWriter:
        """Go on appending to an existing journal (a table restarted after it was killed)."""
        return cls(path, None, fsync)

    def _append(self) -> IO[str]:
        """The journal opened to append to, a torn last line cut off first: its input was being
        written when the table died, before the referee was given it, so it was never decided."""
        try:
            with open(self.path, "r+b") as raw:
                data = raw.read()
                end = data.rfind(b"\n") + 1
                if end < len(data):
                    raw.truncate(end)
            return open(self.path, "a", encoding="utf-8")
        except OSError as exc:
            raise JournalError(f"{self.path}: cannot append to the journal: {exc.strerror}") from None

    def record(self, event: Event, late_ns: int | None = None) -> None:
        data = event.to_json()
        if late_ns is not None:
            data["late"] = late_ns
        self._write(data)

    def _write(self, data: object) -> None:
        self._file.write(_dumps(data) + "\n")
        self._file.flush()
        if self.fsync:
            os.fsync(self._file.fileno())

    def close(self) -> None:
        self._file.close()

    def __enter__(self) -> JournalWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def read_journal(path: str | Path) -> Journal:
    """Read a whole journal; a torn last line is dropped with a warning, anything else raises."""
    path = Path(path)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise JournalError(f"{path}: cannot read journal: {exc.strerror}") from None
    lines = raw.split(b"\n")
    warnings = []
    if lines and lines[-1] == b"":
        lines.pop()
    elif lines:
        torn = lines.pop()
        warnings.append(f"{path}:{len(lines) + 1}: torn last line ({len(torn)} bytes) ignored")
    if not lines:
        raise JournalError(f"{path}: empty journal (no set-up line)")
    try:
        header = json.loads(lines[0])
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise JournalError(f"{path}:1: set-up line is not JSON: {exc}") from None
    if not isinstance(header, dict) or header.pop("journal", None) != FORMAT:
        raise JournalError(f'{path}:1: not a cardtable journal (expected "journal": "{FORMAT}")')
    try:
        setup = GameSetup.from_json(header)
    except (GameSetupError, ValueError) as exc:
        raise JournalError(f"{path}:1: {exc}") from None
    journal = Journal(setup, warnings=warnings)
    for number, line in enumerate(lines[1:], start=2):
        try:
            data = json.loads(line)
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise JournalError(f"{path}:{number}: not JSON: {exc}") from None
        late = data.pop("late", None) if isinstance(data, dict) else None
        try:
            journal.entries.append(Entry(event_from_json(data), late))
        except EventError as exc:
            raise JournalError(f"{path}:{number}: {exc}") from None
    return journal

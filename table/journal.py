"""The journal: every input event of a game, appended as JSON lines and flushed to disk.

Line 1 is the game's set-up (rules, seats, seed, deal, the moment it was dealt and its number in
the table's folder); every further line is one input event as it entered the sequencer, with
``"late": N`` when it came N ns too late to be ordered. The table ends every line it writes with
a CRC-32 of the rest (``"crc"``), carried on from the line before's, and every field is checked on
reading, so that a damaged byte, or a line lost, doubled or put out of place, is found, never read
as another game. A power cut can leave a torn last line; reading tolerates that
one (and says so). Any other bad line is named by file and line: ``read_journal`` refuses the
journal, or with ``salvage`` keeps what the lines before it prove. A journal written by hand
(``cardtable-journal/1``) needs no checksums. The format is documented in ``docs/journal.md``.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import stat
import zlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from table.errors import CardtableError
from table.events import Event, EventError, event_from_json
from table.games import GameSetup
from table.referee import GameSetupError

FORMAT = "cardtable-journal/3"  # what the table writes: each line's checksum carried on from the line before's
UNCHAINED = "cardtable-journal/2"  # an older table's: each line checksummed on its own (still read)
BY_HAND = "cardtable-journal/1"  # a record written by hand: no checksums
CHECKSUM = re.compile(rb',"crc":"([0-9a-f]{8})"}$')


class JournalError(CardtableError, ValueError):
    """A journal that cannot be written or read; the message names the file and line."""


class TornSetUp(JournalError):
    """A journal whose set-up line has no end: the table stopped as it began the journal."""


@dataclass(frozen=True, slots=True)
class Entry:
    event: Event
    late_ns: int | None = None


@dataclass
class Journal:
    setup: GameSetup
    entries: list[Entry] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    start_ns: int = 0  # the moment the game was dealt: the referee's start
    number: int = 0  # its number among the games of its folder (0: not numbered)
    damage: str | None = None  # the first damaged line, named, where the entries end (``salvage``)
    names: tuple[str, ...] = ()  # the players' names by seat, where the table wrote them

    def player_names(self) -> tuple[str, ...]:
        """The players' names by seat: as written, or "Seat 1", "Seat 2"... where they were not
        (capitalised: a referee's own "seat 0" is a seat's number, and is named by these)."""
        return self.names or tuple(f"Seat {seat + 1}" for seat in range(self.setup.players))


def _dumps(data: object) -> str:
    return json.dumps(data, separators=(",", ":"), sort_keys=True)


def journal_line(data: object, after: int = 0) -> tuple[str, int]:
    """One journal line: the object's canonical JSON, ``"crc"`` last: the CRC-32 of the text before
    it, carried on from ``after``, the line before's (0: the set-up line, or a line of the older
    format, each on its own); and that checksum, for the next line to carry on from."""
    body = _dumps(data)
    crc = zlib.crc32(body.encode(), after)
    return f'{body[:-1]},"crc":"{crc:08x}"}}', crc


def checksummed(data: object, after: int = 0) -> str:
    """``journal_line`` without its checksum."""
    return journal_line(data, after)[0]


def line_checksum(line: bytes) -> int:
    """The checksum a journal line ends with (a ``ValueError`` where it has none)."""
    found = CHECKSUM.search(line.rstrip(b"\n"))
    if found is None:
        raise ValueError("no checksum")
    return int(found.group(1), 16)


NOT_TEXT = "not JSON: bytes that are not text"


def _checked(line: bytes, after: int = 0) -> tuple[bytes, int]:
    """A checksummed line's text without its checksum, carried on from ``after``, and the checksum;
    a ``ValueError`` saying what is wrong."""
    found = CHECKSUM.search(line)
    if found is None:
        try:
            json.loads(line)
        except UnicodeDecodeError:
            raise ValueError(NOT_TEXT) from None
        except (ValueError, RecursionError) as exc:  # (a number past Python's digits, nesting past its depth)
            raise ValueError(f"not JSON: {exc}") from None
        raise ValueError("no checksum")
    body = line[: found.start()] + b"}"
    crc = zlib.crc32(body, after)
    if f"{crc:08x}".encode() != found.group(1):
        if after:
            raise ValueError("damaged, or a line before it lost, doubled or moved: its checksum does not match")
        raise ValueError("damaged: its checksum does not match")
    return body, crc


class JournalWriter:
    """Appends events to a new journal file, one flushed (and by default fsynced) line each."""

    def __init__(
        self,
        path: str | Path,
        setup: GameSetup | None,
        fsync: bool = True,
        start_ns: int = 0,
        number: int = 0,
        names: Sequence[str] = (),
    ) -> None:
        """A new journal for the game ``setup`` played by ``names``, dealt at ``start_ns``, the
        ``number``-th of its folder; or with ``setup`` None an existing one to go on appending
        to (``resume``)."""
        self.path = Path(path)
        self.fsync = fsync
        self._after: int | None = 0  # the last line's checksum, the next one's start (None: not carried on)
        if setup is None:
            self._file = self._append()
            return
        try:
            self._file: IO[str] = open(self.path, "x", encoding="utf-8")  # noqa: SIM115
        except FileExistsError:
            raise JournalError(f"{self.path}: already exists; a journal is never overwritten") from None
        except OSError as exc:
            raise JournalError(f"{self.path}: cannot create journal: {exc.strerror}") from None
        named = {"names": list(names)} if names else {}
        try:
            self._write({"journal": FORMAT, **setup.to_json(), "start": start_ns, "number": number, **named})
        except JournalError:  # no set-up line (a full disk): no journal left behind to resume
            with contextlib.suppress(OSError):
                self._file.close()
            self.path.unlink(missing_ok=True)
            raise

    @classmethod
    def resume(cls, path: str | Path, fsync: bool = True) -> JournalWriter:
        """Go on appending to an existing journal (a table restarted after it was killed)."""
        return cls(path, None, fsync)

    def _append(self) -> IO[str]:
        """The journal opened to append to, a torn last line cut off first: its input was being
        written when the table died, before the referee was given it, so it was never decided.
        Its lines go on as its format has them: carried on from its last line's checksum."""
        try:
            with open(self.path, "r+b") as raw:
                data = raw.read()
                end = data.rfind(b"\n") + 1
                if end < len(data):
                    raw.truncate(end)
            whole = data[:end].splitlines()
            chained = bool(whole) and _header(self.path, whole[0])[1] == FORMAT
            self._after = line_checksum(whole[-1]) if chained else None
            return open(self.path, "a", encoding="utf-8")
        except OSError as exc:
            raise JournalError(f"{self.path}: cannot append to the journal: {exc.strerror}") from None
        except JournalError:
            raise
        except ValueError as exc:
            raise JournalError(f"{self.path}:{len(whole)}: cannot go on from the last line: {exc}") from None

    def record(self, event: Event, late_ns: int | None = None) -> None:
        data = event.to_json()
        if late_ns is not None:
            data["late"] = late_ns
        self._write(data)

    def _write(self, data: object) -> None:
        """One line; JournalError when it cannot be written out now (a full disk): it is kept in
        the file's buffer, and goes out with the next line or ``sync`` that can be written."""
        line, crc = journal_line(data, self._after or 0)
        if self._after is not None:
            self._after = crc
        with self._disk("cannot write the journal"):
            self._file.write(line + "\n")
            self._file.flush()
            if self.fsync:
                os.fsync(self._file.fileno())

    def sync(self) -> None:
        """Everything written so far on the disk (each line is, where ``fsync`` is set);
        JournalError when it cannot be."""
        with self._disk("cannot write the journal"):
            self._file.flush()
            os.fsync(self._file.fileno())

    def close(self) -> None:
        """Closed, whatever happens; JournalError when the lines still buffered (a full disk)
        cannot be written: they are lost."""
        with self._disk("its last lines could not be written"):
            self._file.close()

    @contextlib.contextmanager
    def _disk(self, failed: str) -> Iterator[None]:
        """The disk's error (a full SD card) as a JournalError naming the journal and ``failed``."""
        try:
            yield
        except OSError as exc:
            raise JournalError(f"{self.path}: {failed}: {exc.strerror or exc}") from None

    def __enter__(self) -> JournalWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def read_header(path: str | Path) -> Journal:
    """A journal's set-up line alone (its game, when it was dealt, its number), read cheaply."""
    path = Path(path)
    try:
        with open(path, "rb") as f:
            first = f.readline(1 << 20)
    except OSError as exc:
        raise JournalError(f"{path}: cannot read journal: {exc.strerror}") from None
    if not first.endswith(b"\n"):
        raise TornSetUp(f"{path}: no whole set-up line")
    header, _ = _header(path, first[:-1])
    return header


def _header(path: Path, line: bytes) -> tuple[Journal, str]:
    """The set-up line read, and the journal's format (``FORMAT``, ``UNCHAINED``, ``BY_HAND``)."""
    try:
        data = json.loads(line)
    except (ValueError, RecursionError) as exc:  # (a number past Python's digits, nesting past its depth)
        raise JournalError(f"{path}:1: set-up line is not JSON: {exc}") from None
    version = data.pop("journal", None) if isinstance(data, dict) else None
    if version not in (FORMAT, UNCHAINED, BY_HAND):
        raise JournalError(
            f'{path}:1: not a cardtable journal (expected "journal": "{FORMAT}" as the table writes it, '
            f'or "{BY_HAND}" for a record written by hand)'
        )
    if version != BY_HAND:
        try:
            data = json.loads(_checked(line)[0])
        except (ValueError, RecursionError) as exc:
            raise JournalError(f"{path}:1: {exc}") from None
        data.pop("journal")
    if version == BY_HAND and isinstance(data, dict):
        data.setdefault("rules", {})  # a record written by hand names only the rules it changes
    start, number, names = data.pop("start", 0), data.pop("number", 0), data.pop("names", [])
    if type(start) is not int or start < 0:
        raise JournalError(f"{path}:1: start must be nanoseconds from 0, not {start!r}")
    if type(number) is not int or number < 0:
        raise JournalError(f"{path}:1: number must be a whole number from 0, not {number!r}")
    try:
        setup = GameSetup.from_json(data)
    except (GameSetupError, ValueError) as exc:
        raise JournalError(f"{path}:1: {exc}") from None
    if not (isinstance(names, list) and all(isinstance(n, str) for n in names) and len(names) in (0, setup.players)):
        raise JournalError(f"{path}:1: names must be the {setup.players} players' names, not {names!r}")
    if not all(n.isprintable() for n in names):  # (a terminal told them would obey their escapes)
        raise JournalError(f"{path}:1: names must be printable characters, not {names!r}")
    return Journal(setup, start_ns=start, number=number, names=tuple(names)), version


def _entry(data: Any, players: int) -> Entry:
    """One input line's event, every field checked (an ``EventError`` names the bad one)."""
    late = data.pop("late", None) if isinstance(data, dict) else None
    if late is not None and (type(late) is not int or late <= 0):
        raise EventError(f"late must be nanoseconds over 0, not {late!r}")
    event = event_from_json(data)
    seat = getattr(event, "seat", None)
    if seat is not None and seat >= players:
        raise EventError(f"{event.TYPE}: seat {seat} at a table of {players} seats")
    return Entry(event, late)


def read_journal(path: str | Path, salvage: bool = False) -> Journal:
    """Read a whole journal; a torn last line is dropped with a warning. Any other bad line
    raises a ``JournalError`` naming it, or with ``salvage`` ends the entries there and is named
    in ``damage`` (a bad set-up line raises either way: it proves nothing)."""
    path = Path(path)
    try:
        with open(path, "rb") as f:
            if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):  # a device (/dev/zero) would be read for ever
                raise JournalError(f"{path}: not a journal: it is not a plain file")
            raw = f.read()
    except OSError as exc:
        raise JournalError(f"{path}: cannot read journal: {exc.strerror}") from None
    lines = raw.split(b"\n")
    warnings = []
    if lines[0].endswith(b"\r"):  # copied through a program that ends lines in CR LF: read as written
        lines = [line.removesuffix(b"\r") for line in lines]
        warnings.append(f"{path}: its lines end in CR LF, as a copy made on Windows does; read without the CR")
    if lines and lines[-1] == b"":
        lines.pop()
    elif lines:
        torn = lines.pop()
        warnings.append(f"{path}:{len(lines) + 1}: torn last line ({len(torn)} bytes) ignored")
    if not lines and warnings:
        raise JournalError(f"{path}: no whole set-up line: its only line has no end (the table stopped writing it)")
    if not lines:
        raise JournalError(f"{path}: empty journal (no set-up line)")
    journal, version = _header(path, lines[0])
    journal.warnings = warnings
    after = line_checksum(lines[0]) if version == FORMAT else 0
    for number, line in enumerate(lines[1:], start=2):
        try:
            if not line.strip():  # an editor leaves blank lines in a record by hand; the table writes none
                if version == BY_HAND:
                    continue
                raise ValueError("a blank line, which the table never writes")
            if version == BY_HAND:
                data = json.loads(line)
            else:
                body, crc = _checked(line, after)
                data = json.loads(body)
                after = crc if version == FORMAT else 0
            journal.entries.append(_entry(data, journal.setup.players))
        except UnicodeDecodeError:
            problem = f"{path}:{number}: {NOT_TEXT}"
        except (json.JSONDecodeError, RecursionError) as exc:
            problem = f"{path}:{number}: not JSON: {exc}"
        except (ValueError, EventError) as exc:
            problem = f"{path}:{number}: {exc}"
        else:
            continue
        if not salvage:
            raise JournalError(problem)
        journal.damage = problem
        break
    return journal

"""The games a table deals one after another, each with its core and its journal file.

The latest ``KEPT_GAMES`` are kept (the one played last); a table runs for days, so the rest are
counted and let go. A game given up is renamed ``.abandoned`` so that a restart does not resume it.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import time
from collections import deque
from pathlib import Path

from table.controller import TableCore
from table.journal import JournalError

log = logging.getLogger("cardtable")

KEPT_GAMES = 3  # the cores of the latest games kept (the current one last)
ABANDONED = ".abandoned"  # added to the name of a journal whose game was given up


class GameSeries:
    """The cores and journal files of the latest games, and how many were dealt."""

    def __init__(self, last_number: int = 0) -> None:
        """``last_number``: the highest game number in the journal folder (``resume.last_number``)."""
        self.games: deque[TableCore] = deque(maxlen=KEPT_GAMES)  # the latest games' cores, the one played last
        self.journals: deque[Path] = deque(maxlen=KEPT_GAMES)  # their journal files
        self.dealt = 0
        self.number = last_number  # the last game's number in the folder: the next is numbered past it
        self._decisions_before = 0  # decisions of the games no longer kept

    def next_journal(self, folder: Path, game: str) -> tuple[Path, int]:
        """A new game's journal file and its number: named by the host's wall clock (for people
        to read; the number tells which game is newest), the game and the number."""
        return folder / f"{time.strftime('%Y%m%d-%H%M%S')}-{game}-{self.number + 1}.jsonl", self.number + 1

    def keep(self, core: TableCore, journal: Path, number: int) -> None:
        """A game dealt (or resumed), the ``number``-th of its folder: the latest kept; the oldest
        let go beyond ``KEPT_GAMES``."""
        self.number = max(self.number, number)
        if len(self.games) == self.games.maxlen:
            self._decisions_before += len(self.games[0].decisions)
        self.games.append(core)
        self.journals.append(journal)
        self.dealt += 1

    def decisions(self) -> int:
        """Every decision of every game dealt."""
        return self._decisions_before + sum(len(g.decisions) for g in self.games)

    @staticmethod
    def close_journal(core: TableCore) -> None:
        if core.journal is not None:
            try:
                core.journal.close()
            except JournalError as exc:  # said; the table closes the rest all the same
                log.error("%s", exc)

    def abandon(self, core: TableCore) -> None:
        """The game is given up (every button held, or a command): its lights are the table's
        again, it waits on nobody (no "your turn"), and a journal not finished is renamed so
        that a restart does not resume it."""
        core.outputs = dataclasses.replace(core.outputs, lights=lambda seat, pattern: None, ticks=[])
        if core.referee.finished or core.journal is None:
            return
        self.close_journal(core)
        core.journal = None
        path = self.journals[-1]
        with contextlib.suppress(OSError):
            path.rename(path.with_name(path.name + ABANDONED))
            self.journals[-1] = path.with_name(path.name + ABANDONED)
        log.warning("game %d abandoned; its journal is kept as %s", self.dealt, self.journals[-1].name)

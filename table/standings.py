"""Who is best: every finished game in a small SQLite database beside the journals.

For each game: its kind, preset, cards played, tricks, how it ended; for each player (by name):
won or not, the final score, good and bad slaps, each slap's reaction time (from the card that
made the pile slappable to their press), bids and bids made, lives lost. The live table adds a
game when it ends; ``rebuild`` makes the same database again from the journals, by replaying
them through the referee: the journals are the record, the database only a view of them.

``cardtable stats`` prints the standings and the records (the fastest slap, the longest game of
each kind, the best bidder); the scoreboard shows them between games.
"""

from __future__ import annotations

import logging
import os
import sqlite3
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from table.decisions import Decision
from table.games import GAMES
from table.journal import JournalError, read_journal
from table.narration import Narrator
from table.replay import Replay
from table.tally import GameTally, SeatTally

log = logging.getLogger(__name__)

FILE = "standings.sqlite"  # in the journal folder
BEST_BIDDER_BIDS = 5  # bids a player needs for the best bidder's record

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    journal TEXT PRIMARY KEY, game TEXT NOT NULL, preset TEXT NOT NULL, players INTEGER NOT NULL,
    cards INTEGER NOT NULL, tricks INTEGER NOT NULL, ending TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS seats (
    journal TEXT NOT NULL REFERENCES games(journal) ON DELETE CASCADE, seat INTEGER NOT NULL,
    name TEXT NOT NULL, won INTEGER NOT NULL, score INTEGER NOT NULL, good_slaps INTEGER NOT NULL,
    bad_slaps INTEGER NOT NULL, bids INTEGER NOT NULL, bids_made INTEGER NOT NULL,
    lives_lost INTEGER NOT NULL, PRIMARY KEY (journal, seat));
CREATE TABLE IF NOT EXISTS reactions (
    journal TEXT NOT NULL REFERENCES games(journal) ON DELETE CASCADE, seat INTEGER NOT NULL,
    name TEXT NOT NULL, ns INTEGER NOT NULL);
"""


@dataclass(frozen=True)
class Standing:
    name: str
    games: int
    wins: int


@dataclass(frozen=True)
class Record:
    what: str  # "fastest slap"
    who: str  # a player's name, or the players of a game
    value: str  # as said: "212 ms"


def tally_of(decisions: Iterable[Decision], referee: Any, names: Sequence[str]) -> GameTally:
    """A game's decisions counted as the table tells them (the ending in words with names)."""
    narrator, tally = Narrator(names), GameTally()
    for d in decisions:
        tally.heard(narrator.told(d, referee))
    return tally


def _moved(source: Path, target: Path) -> None:
    try:
        os.replace(source, target)
    except OSError as exc:
        raise JournalError(f"{source}: cannot be moved to {target.name}: {exc.strerror}") from None


class Standings:
    """The database: games added as they end, read back as standings and records."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.db = None
        try:
            self.db = sqlite3.connect(self.path)
            self.db.execute("PRAGMA foreign_keys = ON")
            self.db.executescript(SCHEMA)
        except sqlite3.Error as exc:
            if self.db is not None:
                self.db.close()
            raise JournalError(f"{self.path}: cannot open the standings database: {exc}") from None

    @classmethod
    def opened(cls, path: Path) -> Standings:
        """The database at ``path``, or, where the file there is damaged (not a database), a new
        one begun in its place, the damaged file kept aside as ``.damaged`` (the journals fill it
        again: ``cardtable stats --rebuild``)."""
        try:
            return cls(path)
        except JournalError as exc:
            if not path.is_file():
                raise
            aside = path.with_name(path.name + ".damaged")
            _moved(path, aside)
            log.error("%s: kept aside as %s, and a new one begun", exc, aside.name)
            return cls(path)

    @classmethod
    def rebuilt(cls, path: Path, folder: Path) -> tuple[Standings, int, list[str]]:
        """The database made anew from the journals in ``folder`` beside the one at ``path``, then
        put in its place (whatever that one held, damaged or not); how many games were over, and
        the journals that could not be read."""
        fresh = path.with_name(path.name + ".new")
        fresh.unlink(missing_ok=True)
        made = cls(fresh)
        try:
            kept, problems = made.rebuild(folder)
        finally:
            made.close()
        _moved(fresh, path)
        return cls(path), kept, problems

    def close(self) -> None:
        self.db.close()

    def add(self, journal: str, setup: Any, names: Sequence[str], tally: GameTally, scores: Sequence[int]) -> bool:
        """Keep a finished game (again, in place of one kept from the same journal); False for a
        game not over."""
        if not tally.over:
            return False
        with self.db:
            self.db.execute("DELETE FROM games WHERE journal = ?", (journal,))
            self.db.execute(
                "INSERT INTO games VALUES (?, ?, ?, ?, ?, ?, ?)",
                (journal, setup.game, setup.preset, setup.players, tally.cards, tally.tricks, tally.ending),
            )
            for seat, name in enumerate(names):
                s = tally.seats[seat] if seat < len(tally.seats) else SeatTally()
                counts = (s.good_slaps, s.bad_slaps, s.bids, s.bids_made, s.lives_lost)
                won = seat in tally.winners
                self.db.execute(
                    "INSERT INTO seats VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (journal, seat, name, won, scores[seat], *counts),
                )
                for ns in s.reactions_ns:
                    self.db.execute("INSERT INTO reactions VALUES (?, ?, ?, ?)", (journal, seat, name, ns))
        return True

    def add_played(
        self, journal: str, setup: Any, names: Sequence[str], decisions: Iterable[Decision], referee: Any
    ) -> bool:
        """A game kept from its decisions and its referee after them (the live table's, or a
        replay's), when it is over."""
        tally = tally_of(decisions, referee, names)
        return self.add(journal, setup, names, tally, referee.view().scores)

    def add_replayed(self, path: Path) -> bool:
        """A journal replayed through the referee and kept, when its game is over."""
        journal = read_journal(path, salvage=True)
        replay = Replay(journal)
        return self.add_played(path.name, journal.setup, journal.player_names(), replay.decisions(), replay.referee)

    def rebuild(self, folder: Path) -> tuple[int, list[str]]:
        """Every game again from the journals in ``folder``: how many were over, and the
        journals that could not be read (named, with what was wrong)."""
        with self.db:
            self.db.execute("DELETE FROM games")
        kept, problems = 0, []
        for path in sorted(folder.glob("*.jsonl")):
            try:
                kept += self.add_replayed(path)
            except JournalError as exc:
                problems.append(str(exc))
        return kept, problems

    def dump(self) -> dict[str, list[tuple[Any, ...]]]:
        """Every row of every table, in order: two databases made of the same games are equal."""
        return {
            table: self.db.execute(f"SELECT * FROM {table} ORDER BY 1, 2, 3").fetchall()
            for table in ("games", "seats", "reactions")
        }

    def standings(self) -> list[Standing]:
        rows = self.db.execute(
            "SELECT name, COUNT(*), SUM(won) FROM seats GROUP BY name ORDER BY SUM(won) DESC, COUNT(*), name"
        )
        return [Standing(name, games, wins) for name, games, wins in rows]

    def records(self) -> list[Record]:
        out = []
        fastest = self.db.execute("SELECT name, ns FROM reactions WHERE ns > 0 ORDER BY ns, name LIMIT 1").fetchone()
        if fastest is not None:
            out.append(Record("fastest slap", fastest[0], f"{fastest[1] / 1e6:.0f} ms after the card"))
        longest = self.db.execute(  # of the games that count cards played (the trading game reveals them)
            "SELECT game, journal, MAX(cards) FROM games WHERE cards > 0 GROUP BY game ORDER BY game"
        ).fetchall()
        for game, journal, cards in longest:
            title = GAMES[game].title if game in GAMES else game  # a game this version no longer plays
            title = "the" + title[3:] if title.startswith("The ") else title  # within the line: "of the bidding game"
            seats = self.db.execute("SELECT name FROM seats WHERE journal = ? ORDER BY seat", (journal,))
            names = [name for (name,) in seats]
            who = ", ".join(names[:-1]) + f" and {names[-1]}" if len(names) > 1 else "".join(names)
            out.append(Record(f"longest game of {title}", who, f"{cards} cards"))
        bidder = self.db.execute(
            "SELECT name, SUM(bids_made), SUM(bids) FROM seats GROUP BY name HAVING SUM(bids) >= ? "
            "ORDER BY SUM(bids_made) * 1.0 / SUM(bids) DESC, SUM(bids) DESC, name LIMIT 1",
            (BEST_BIDDER_BIDS,),
        ).fetchone()
        if bidder is not None:
            out.append(Record("best bidder", bidder[0], f"{bidder[1]} of {bidder[2]} bids made"))
        return out

    def summary(self) -> dict[str, Any]:
        """The standings and records as JSON for the scoreboard (the ``standings`` topic)."""
        return {
            "standings": [[s.name, s.games, s.wins] for s in self.standings()],
            "records": [[r.what, r.who, r.value] for r in self.records()],
        }

"""Helpers the whole-game tests share: a simulated game's journal, its replay, a referee
restored from a snapshot halfway through it, and lines appended as a bug in the table would."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

from table.games import setup_game
from table.journal import Journal, JournalWriter, journal_line, line_checksum, read_journal
from table.replay import Replay


def append_as_written(path: Path, *lines: Any) -> None:
    """``lines`` appended to a journal as the table writes its lines, each checksum carried on
    from the line before's: whatever they hold (a bug's wrong value), they are in place."""
    after = line_checksum(path.read_bytes().splitlines()[-1])
    with path.open("a") as f:
        for data in lines:
            line, after = journal_line(data, after)
            f.write(line + "\n")


def journal_and_replay(sim_cls: Any, game: str, preset: str | None, seed: int, players: int | None = None):
    """A simulated game, its journal read back, and the replay's lines."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "game.jsonl"
        sim = sim_cls(setup_game(game, preset, players=players, seed=seed))
        with JournalWriter(path, sim.setup, fsync=False) as journal:
            sim.journal = journal
            sim.run()
        journal = read_journal(path)
        return sim, journal, list(Replay(journal).lines())


def assert_restored_halfway_carries_on(journal: Journal) -> None:
    """A referee given the first half of a journal's events, and a copy restored from its
    snapshot, decide the second half identically."""
    events = sorted((e.event for e in journal.entries if e.late_ns is None), key=lambda e: e.sort_key())
    ref = journal.setup.referee()
    ref.start()
    half = len(events) // 2
    for event in events[:half]:
        ref.handle(event)
    clone = type(ref).restore(json.loads(json.dumps(ref.snapshot())))
    assert [d for e in events[half:] for d in ref.handle(e)] == [d for e in events[half:] for d in clone.handle(e)]
    assert ref.snapshot() == clone.snapshot()

"""Replaying a journal: the same events, in the sequencer's order, through a fresh referee.

The live table and the replay hand the referee the same events in the same order (the sequencer's
total order, ``Event.sort_key``), so they reach the same decisions; replay output is canonical JSON
and so byte-identical from one run to the next.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Iterator

from table.decisions import Decision, InputTooLate
from table.journal import Journal
from table.referee import Referee


def _canonical(data: object) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


def state_digest(referee: Referee) -> str:
    """A short fingerprint of a referee's whole state (CRC-32 of its snapshot): a table that
    goes on from a journal logs it, so that it can be compared with the journal's replay."""
    return f"{zlib.crc32(_canonical(referee.snapshot()).encode()):08x}"


class Replay:
    def __init__(self, journal: Journal) -> None:
        self.journal = journal
        self.referee = journal.setup.referee()

    def decisions(self) -> Iterator[Decision]:
        """Every decision of the journalled game, in order; afterwards the referee is final."""
        referee = self.referee
        yield from referee.start(self.journal.start_ns)  # as the live table started it
        entries = self.journal.entries
        order = sorted(range(len(entries)), key=lambda i: (entries[i].event.sort_key(), i))
        for i in order:
            event, late = entries[i].event, entries[i].late_ns
            if late is not None:
                yield InputTooLate(event.t_ns, event.TYPE, getattr(event, "seat", None), late)
            else:
                yield from referee.handle(event)
        if order:
            yield from referee.advance(entries[order[-1]].event.t_ns)

    def lines(self) -> Iterator[str]:
        """Decisions then the final state, one canonical JSON object a line."""
        for decision in self.decisions():
            yield _canonical(decision.to_json())
        yield _canonical({"kind": "final-state", "state": self.referee.snapshot()})

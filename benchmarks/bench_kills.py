"""A live ``cardtable run`` killed (SIGKILL: a power cut, ``kill -9``) at random moments while
cards are laid on its pile, and started again after the service's restart delay: cards laid
while it is down and cards it was still confirming at the kill must each be played once, in the
order they were laid, and the journal must replay to what the table decided.

The camera is a ``still:`` picture the benchmark replaces as each card is laid, whether the
table runs or not, as a real table goes on without it. A card is laid every ``LAY_S`` seconds,
longer than one restart leaves the table blind; a restart killed again while it starts leaves it
blind longer, and two cards laid on one another meanwhile show the table the top one only: it
asks (``table.laid_while_down``), and the players take the cards off and lay them again. Each
restart's state, as it logs it, is compared with the replay of the journal it was killed on.
``python -m benchmarks kills``: 100 kills; the tests run a few (``tests/benchmarks/test_bench_kills.py``).
"""

from __future__ import annotations

import os
import random
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from sim.mock_gpio import MOCK_PINS_ENV
from sim.rendered_table import pile_picture, rendered_config, write_picture
from table.decisions import CardPlayed
from table.events import CardSeen
from table.journal import JournalError, read_journal
from table.laid_while_down import LAID_PART
from table.replay import Replay, state_digest
from table.resume import numbered_journals

ROOT = Path(__file__).resolve().parents[1]
LAY_S = 4.0  # between two cards laid on the pile
DOWN_S = 2.0  # the table is started again this long after a kill (the unit's RestartSec)
# Spot cards whose ranks never pair or sandwich: nothing to slap, no challenge, every card played.
CARDS = tuple(f"{rank}{suit}" for suit, ranks in zip("CDHS", ("2345678", "3456782", "4567823", "5678234"), strict=True)
              for rank in ranks)  # fmt: skip
ASKED_WAIT_S = 20.0  # asked, the players wait this long for the table to see the cards they took off
RELAY_S = 2.0  # between the cards laid again
# Degrees: a card laid again lands turned otherwise, each time it is. One laid back within a
# few degrees and millimetres of where it lay is taken for the card uncovered
# (``vision.tracker``), not played.
RELAID_TURN = 45.0
MOCK_PINS = {**os.environ, **MOCK_PINS_ENV}


@dataclass
class Episode:
    laid: list[str]  # the cards laid, in order
    journaled: list[str]  # the cards the journal says were seen on the pile, in order
    played: list[str]  # the cards its replay plays
    kills: int
    resumed: int  # restarts that said they went on with the game
    stuck: int = 0  # 1 when the table did not stop within 30 s of SIGTERM
    asked: int = 0  # restarts that asked the players to fan out the cards laid while the table was down
    states: int = 0  # restarts whose state was compared with the replay of the journal they went on from
    differed: int = 0  # of them, those whose state was not the replay's


class Watched:
    """One run of the table, its log read as it comes: whether it asks the players to fan out
    the pile (and after which card), and the state it said it resumed to."""

    def __init__(self, command: list[str]) -> None:
        self.process = subprocess.Popen(
            command, cwd=ROOT, env=MOCK_PINS, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
        )
        self.lines: list[str] = []
        self.asked_after: str | None = None  # the card the cards to fan out were laid on
        self.asks = 0
        self.state: str | None = None
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        assert self.process.stderr is not None
        for line in self.process.stderr:
            self.lines.append(line)
            if (asked := ASKED.search(line)) is not None and self.asked_after is None:
                self.asked_after, self.asks = asked.group(1), self.asks + 1
            elif f"{LAID_PART}: recovered" in line or "shows on the pile again" in line:
                self.asked_after = None
            elif (resumed := RESUMED.search(line)) is not None:
                self.state = resumed.group(1)

    def end(self, how: str) -> str:
        """Kill it or stop it (``how``: "kill" or "term") and its whole log; one that does not
        stop within 30 s of SIGTERM is killed and says so."""
        if how == "kill":
            self.process.kill()
            self.process.wait()
        else:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
                self.lines.append("DID NOT STOP ON SIGTERM")
        self.reader.join(timeout=10)
        self.asked_after = None
        return "".join(self.lines)


ASKED = re.compile(r"where (\S+) lay when the table stopped")
RESUMED = re.compile(r"resuming the game in .*, state ([0-9a-f]{8})")


def replayed_state(folder: Path) -> str | None:
    """The state the replay of the table's newest journal reaches, as a table going on from it
    would find it; None without one."""
    journals = numbered_journals(folder)
    if not journals:
        return None
    try:
        replay = Replay(read_journal(journals[-1][1], salvage=True))
    except JournalError:
        return None
    for _ in replay.decisions():
        pass
    return state_digest(replay.referee)


def episode(
    folder: Path, cards: int, kills: int, rng: random.Random, lay_s: float = LAY_S, kill_at: list[float] | None = None
) -> Episode:
    """One game: ``cards`` laid ``lay_s`` apart, the table killed ``kills`` times at random
    moments (or at ``kill_at`` seconds) and started again ``DOWN_S`` later; then stopped cleanly
    and its journal read. Asked about the cards laid while it was down, the players take them
    off until the card it names shows, wait for the table to see it, and lay them again one by one."""
    picture = folder / "table.png"
    laid: list[str] = []
    write_picture(picture, pile_picture((), 0))
    config = rendered_config(folder, f"still:{picture}")
    command = [sys.executable, "-m", "table.cli", "run", "--config", str(config), "--quiet"]
    done = threading.Event()
    table: Watched

    shown = 0  # the cards lying on the pile: the first ``shown`` laid
    relaid: dict[int, int] = {}  # those laid again, and how many times: each time it lands otherwise

    def show() -> None:
        lying = range(max(0, shown - 3), shown)
        turns = tuple(RELAID_TURN * relaid.get(n, 0) for n in lying)
        write_picture(picture, pile_picture(tuple(laid[n] for n in lying), shown, turns=turns))

    def answer(after: str) -> None:
        """Asked: the cards taken off until ``after`` shows; once the table has seen it, laid
        again one by one."""
        nonlocal shown
        shown = laid.index(after) + 1 if after in laid else max(1, shown - 2)
        show()
        waited = time.monotonic()
        while table.asked_after is not None and time.monotonic() - waited < ASKED_WAIT_S and not done.is_set():
            time.sleep(0.1)
        while shown < len(laid) and table.asked_after is None:
            time.sleep(RELAY_S)
            relaid[shown] = relaid.get(shown, 0) + 1
            shown += 1
            show()

    def lay() -> None:
        nonlocal shown
        due = time.monotonic() + lay_s
        while len(laid) < cards:
            if (after := table.asked_after) is not None:
                answer(after)
                due = max(due, time.monotonic() + lay_s / 2)
            elif time.monotonic() >= due:
                laid.append(CARDS[len(laid) % len(CARDS)])
                shown = len(laid)
                show()
                due += lay_s
            else:
                time.sleep(0.05)
        settled = time.monotonic() + lay_s  # the last card read and decided; a question asked meanwhile answered
        while time.monotonic() < settled:
            if (after := table.asked_after) is not None:
                answer(after)
                settled = time.monotonic() + lay_s
            time.sleep(0.05)
        done.set()

    states: list[tuple[str | None, Watched]] = []
    span = cards * lay_s
    kill_at = sorted(kill_at or [rng.uniform(lay_s, span) for _ in range(kills)])
    started = time.monotonic()
    table = Watched(command)
    runs = [table]
    layer = threading.Thread(target=lay)
    layer.start()
    logs = []
    for at in kill_at:
        time.sleep(max(0.0, started + at - time.monotonic()))
        logs.append(table.end("kill"))
        expected = replayed_state(folder / "journal")
        time.sleep(DOWN_S)
        table = Watched(command)
        runs.append(table)
        states.append((expected, table))
    done.wait()
    layer.join()
    logs.append(table.end("term"))  # as systemd stops it
    compared = [(expected, run.state) for expected, run in states if expected is not None and run.state is not None]
    journals = sorted((folder / "journal").glob("*.jsonl"))
    journal = read_journal(journals[-1])
    seen = [e.event for e in journal.entries if e.late_ns is None and isinstance(e.event, CardSeen)]
    return Episode(
        laid,
        [event.card.code for event in seen],
        [d.card.code for d in Replay(journal).decisions() if isinstance(d, CardPlayed)],
        len(kill_at),
        resumed=sum("resuming the game in" in log for log in logs),
        stuck=sum("DID NOT STOP ON SIGTERM" in log for log in logs),
        asked=sum(run.asks > 0 for run in runs),
        states=len(compared),
        differed=sum(expected != state for expected, state in compared),
    )


def main(kills: int = 100, per_episode: int = 5) -> None:
    rng = random.Random(7)
    episodes = []
    for _ in range(kills // per_episode):
        with tempfile.TemporaryDirectory() as tmp:
            episodes.append(episode(Path(tmp), 4 * per_episode, per_episode, rng))
    right = sum(e.played == e.laid for e in episodes)
    lost = sum(len(set(e.laid) - set(e.played)) for e in episodes)
    twice = sum(len(e.played) - len(set(e.played)) for e in episodes)
    print(f"A live table killed {kills} times while cards are laid ({len(episodes)} games of {4 * per_episode} cards):")
    print(f"  games whose every card was played once, in order: {right} of {len(episodes)}")
    print(f"  cards lost {lost}, played twice {twice}; restarts that went on with the game "
          f"{sum(e.resumed for e in episodes)} of {kills}")  # fmt: skip
    print(f"  restarts whose state was the replay of their journal: "
          f"{sum(e.states - e.differed for e in episodes)} of {sum(e.states for e in episodes)} compared")  # fmt: skip
    print(f"  restarts that asked the players about the cards laid while it was down: {sum(e.asked for e in episodes)}")
    for e in episodes:
        if e.played != e.laid:
            print(f"  laid {' '.join(e.laid)}; played {' '.join(e.played)}")

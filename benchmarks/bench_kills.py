"""A live ``cardtable run`` killed (SIGKILL: a power cut, ``kill -9``) at random moments while
cards are laid on its pile, and started again after the service's restart delay: cards laid
while it is down and cards it was still confirming at the kill must each be played once, in the
order they were laid, and the journal must replay to what the table decided.

The camera is a ``still:`` picture the benchmark replaces as each card is laid, whether the
table runs or not, as a real table goes on without it. A card is laid every ``LAY_S`` seconds,
longer than one restart leaves the table blind; a restart killed again while it starts leaves it
blind longer, and two cards laid on one another meanwhile show the table the top one only.
``python -m benchmarks kills``: 100 kills; the tests run a few (``tests/benchmarks/test_bench_kills.py``).
"""

from __future__ import annotations

import os
import random
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
from table.journal import read_journal
from table.replay import Replay

ROOT = Path(__file__).resolve().parents[1]
LAY_S = 4.0  # between two cards laid on the pile
DOWN_S = 2.0  # the table is started again this long after a kill (the unit's RestartSec)
# Spot cards whose ranks never pair or sandwich: nothing to slap, no challenge, every card played.
CARDS = tuple(f"{rank}{suit}" for suit, ranks in zip("CDHS", ("2345678", "3456782", "4567823", "5678234"), strict=True)
              for rank in ranks)  # fmt: skip
MOCK_PINS = {**os.environ, **MOCK_PINS_ENV}


@dataclass
class Episode:
    laid: list[str]  # the cards laid, in order
    journaled: list[str]  # the cards the journal says were seen on the pile, in order
    played: list[str]  # the cards its replay plays
    kills: int
    resumed: int  # restarts that said they went on with the game
    stuck: int = 0  # 1 when the table did not stop within 30 s of SIGTERM


def episode(
    folder: Path, cards: int, kills: int, rng: random.Random, lay_s: float = LAY_S, kill_at: list[float] | None = None
) -> Episode:
    """One game: ``cards`` laid ``lay_s`` apart, the table killed ``kills`` times at random
    moments (or at ``kill_at`` seconds) and started again ``DOWN_S`` later; then stopped cleanly
    and its journal read."""
    picture = folder / "table.png"
    laid: list[str] = []
    write_picture(picture, pile_picture((), 0))
    config = rendered_config(folder, f"still:{picture}")
    command = [sys.executable, "-m", "table.cli", "run", "--config", str(config), "--quiet"]
    done = threading.Event()

    def lay() -> None:
        time.sleep(lay_s)
        for n in range(cards):
            laid.append(CARDS[n % len(CARDS)])
            write_picture(picture, pile_picture(tuple(laid[-3:]), n + 1))
            if done.wait(lay_s):
                return
        done.set()

    layer = threading.Thread(target=lay)
    layer.start()
    resumed = 0
    logs = []
    span = cards * lay_s
    kill_at = sorted(kill_at or [rng.uniform(lay_s, span) for _ in range(kills)])
    started = time.monotonic()
    table = subprocess.Popen(command, cwd=ROOT, env=MOCK_PINS, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    for at in kill_at:
        time.sleep(max(0.0, started + at - time.monotonic()))
        table.kill()
        logs.append(table.communicate()[1].decode())
        time.sleep(DOWN_S)
        table = subprocess.Popen(command, cwd=ROOT, env=MOCK_PINS, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    done.wait()
    layer.join()
    time.sleep(lay_s)  # the last card read and decided
    table.send_signal(signal.SIGTERM)  # as systemd stops it
    try:
        logs.append(table.communicate(timeout=30)[1].decode())
    except subprocess.TimeoutExpired:
        table.kill()
        logs.append(table.communicate()[1].decode() + "\nDID NOT STOP ON SIGTERM")
    resumed = sum("resuming the game in" in log for log in logs)
    stuck = sum("DID NOT STOP ON SIGTERM" in log for log in logs)
    journals = sorted((folder / "journal").glob("*.jsonl"))
    journal = read_journal(journals[-1])
    seen = [e.event for e in journal.entries if e.late_ns is None and isinstance(e.event, CardSeen)]
    journaled = [event.card.code for event in seen]
    played = [d.card.code for d in Replay(journal).decisions() if isinstance(d, CardPlayed)]
    return Episode(laid, journaled, played, len(kill_at), resumed, stuck)


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
    for e in episodes:
        if e.played != e.laid:
            print(f"  laid {' '.join(e.laid)}; played {' '.join(e.played)}")

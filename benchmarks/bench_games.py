"""Whole seeded games of every game on the rendered camera: how many keep count to the end.

Each game runs as ``bench_sim``'s do (rendered frames read by the table's vision and gestures,
presses on gpiozero's mock pins, ``sim.table_sim``), at 4 and 6 players, one game a seed. A game
keeps count when the table made no error of its own, the camera misread, missed or made up no
card (``sim.truth``), no player had to put a hand count right, and the game reached its end. A
game that lost count is listed with its first error and the cards played by the end.

``python -m benchmarks games`` plays 12 seeds a row (two games at a time, one a core: about an
hour here); ``python -m benchmarks games --seeds N`` plays fewer.
"""

from __future__ import annotations

import math
import re
import time
from concurrent.futures import ProcessPoolExecutor

GAMES = ("ers", "cuckoo", "oh-hell", "eights")
PLAYERS = (4, 6)
SEEDS = 12
AT = re.compile(r" at (\d+)")  # a time in an error said: the truth's and the table's errors say when


def play(game: str, players: int, seed: int) -> tuple[str, int, int, bool, str, float]:
    """One game: (game, players, seed, whether it kept count, what went wrong, seconds)."""
    from sim.games import SIMULATIONS
    from sim.table_sim import SimOptions
    from sim.truth import compare
    from table.games import setup_game
    from vision.cores import use_one_core

    use_one_core()
    setup = setup_game(game, None, {}, players, 0, seed)
    sim = SIMULATIONS[game](setup, SimOptions(camera="rendered", seats="gpio"))
    started = time.perf_counter()
    result = sim.run()
    took = time.perf_counter() - started
    truth = compare(sim)
    wrong = [
        *truth.problems,
        *truth.misread,
        *([f"{truth.corrected} hand count(s) put right"] if truth.corrected else []),
        *([f"stopped: {result.stuck}"] if result.stuck else []),
    ]
    said = f"{result.cards_played} cards" + (f"; first: {min(wrong, key=error_time)}" if wrong else "")
    return game, players, seed, not wrong, said, took


def error_time(error: str) -> float:
    """When an error said happened (its first ``at`` time), for the first one; one with no time last."""
    found = AT.search(error)
    return int(found.group(1)) if found else math.inf


def main(seeds: int = SEEDS) -> None:
    print(f"Whole games on the rendered camera and mock pins, {seeds} seeds a row: games that kept count to the end")
    rows = [(game, players, seed) for game in GAMES for players in PLAYERS for seed in range(1, seeds + 1)]
    kept: dict[tuple[str, int], list[bool]] = {}
    lost: dict[tuple[str, int], list[str]] = {}
    times: list[float] = []
    with ProcessPoolExecutor(max_workers=2) as pool:
        for game, players, seed, ok, said, took in pool.map(play, *zip(*rows, strict=True)):
            verdict = "kept count" if ok else "lost count"
            print(f"    {game}, {players} players, seed {seed}: {verdict}, {took:.0f} s", flush=True)
            kept.setdefault((game, players), []).append(ok)
            times.append(took)
            if not ok:
                lost.setdefault((game, players), []).append(f"seed {seed}: {said}")
    print("Kept count to the end:")
    for (game, players), oks in kept.items():
        print(f"  {game:8} {players} players: {sum(oks)} of {len(oks)}")
        for line in lost.get((game, players), []):
            print(f"      {line}")
    times.sort()
    print(f"  median {times[len(times) // 2]:.0f} s a game")

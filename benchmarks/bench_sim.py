"""Whole simulated games through every part of the table, held to the simulator's truth.

Each game runs on rendered frames read by the table's vision and presses on gpiozero's mock pins
(``sim.table_sim``), and ``sim.truth`` says what the table got wrong (nothing, it must be) and
what the camera did: cards misread, cards seen late (straightened by their player), slap races a
late card changed. Two games at a time, one a core.
"""

from __future__ import annotations

import time
from concurrent.futures import ProcessPoolExecutor

GAMES = [  # (game, players, seed, rules, photo finish share)
    ("ers", 4, 1, {}, 0.5),
    ("ers", 4, 7, {}, 0.5),
    ("ers", 2, 2, {}, 0.5),
    ("ers", 2, 3, {}, 1.0),
    ("oh-hell", 4, 5, {}, 0.0),
    ("cuckoo", 3, 3, {}, 0.0),
    ("cuckoo", 5, 1, {}, 0.0),
]


def play(game: str, players: int, seed: int, rules: dict, photo_finish: float) -> str:
    from sim.games import SIMULATIONS
    from sim.table_sim import SimOptions
    from sim.truth import compare
    from table.games import setup_game
    from vision.cores import use_one_core

    use_one_core()
    setup = setup_game(game, None, rules, players, 0, seed)
    sim = SIMULATIONS[game](setup, SimOptions(camera="rendered", seats="gpio", photo_finish=photo_finish))
    started = time.perf_counter()
    result = sim.run()
    took = time.perf_counter() - started
    truth = compare(sim)
    misread = "; ".join(truth.misread)
    stuck = f"\n  stopped with no winner: {result.stuck}" if result.stuck else ""
    return (
        f"{game}, {players} players, seed {seed}, photo finishes {photo_finish:g}: {result.cards_played} cards in "
        f"{took:.0f} s, {sim.nudged} straightened\n  {truth}" + (f"\n  misread: {misread}" if misread else "") + stuck
    )


def main() -> None:
    print("Whole games on rendered frames and mock pins, against the simulator's truth:")
    with ProcessPoolExecutor(max_workers=2) as pool:
        for line in pool.map(play, *zip(*GAMES, strict=True)):
            print(line)


if __name__ == "__main__":
    main()

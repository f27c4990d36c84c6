"""Run benchmarks and print a report of medians:
``python -m benchmarks [NAME ...] [--json] [--races N] [--seeds N] [--against REV]``."""

import argparse

from benchmarks import (
    bench_bridge,
    bench_damage,
    bench_engine,
    bench_games,
    bench_kills,
    bench_mqtt,
    bench_races,
    bench_sim,
    bench_table,
    bench_vision,
    referee_versions,
    table_piles,
)

BENCHMARKS = {
    "engine": lambda args: bench_engine.main(),
    "vision": lambda args: bench_vision.main(),
    "bridge": lambda args: bench_bridge.main(),
    "races": lambda args: bench_races.main(args.races, args.json),
    "table": lambda args: bench_table.main(),
    "sim": lambda args: bench_sim.main(),
    "games": lambda args: bench_games.main(args.seeds),
    "mqtt": lambda args: bench_mqtt.main(),
    "piles": lambda args: table_piles.main(),
    "damage": lambda args: bench_damage.main(),
    "kills": lambda args: bench_kills.main(),
    "versions": lambda args: referee_versions.main(args.against),
}

parser = argparse.ArgumentParser(prog="python -m benchmarks", description="Run benchmarks, print medians.")
parser.add_argument("which", nargs="*", metavar="BENCHMARK", help=f"{', '.join(BENCHMARKS)} (all if none)")
parser.add_argument("--json", action="store_true", help="races: one JSON object a row")
parser.add_argument("--races", type=int, default=1000, metavar="N", help="races: how many a row (default 1000)")
parser.add_argument("--seeds", type=int, default=bench_games.SEEDS, metavar="N", help="games: seeds a row (default 12)")
parser.add_argument(
    "--against", default="f3a65b3", metavar="REV", help="versions: the earlier commit (default: before the speed-ups)"
)
args = parser.parse_args()
which = args.which or [name for name in BENCHMARKS if name != "versions"]
if unknown := [name for name in which if name not in BENCHMARKS]:
    parser.error(f"no benchmark {', '.join(unknown)}: choose from {', '.join(BENCHMARKS)}")
for i, name in enumerate(which):
    if i and not args.json:
        print()
    BENCHMARKS[name](args)

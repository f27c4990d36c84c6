"""Run every benchmark and print a report of medians: ``python -m benchmarks [engine|vision|bridge|table|sim|mqtt]``."""

import argparse

from benchmarks import bench_bridge, bench_engine, bench_mqtt, bench_sim, bench_table, bench_vision

BENCHMARKS = {
    "engine": bench_engine.main,
    "vision": bench_vision.main,
    "bridge": bench_bridge.main,
    "table": bench_table.main,
    "sim": bench_sim.main,
    "mqtt": bench_mqtt.main,
}

parser = argparse.ArgumentParser(prog="python -m benchmarks", description="Run benchmarks, print medians.")
parser.add_argument("which", nargs="*", metavar="BENCHMARK", help=f"{', '.join(BENCHMARKS)} (all if none)")
which = parser.parse_args().which or list(BENCHMARKS)
if unknown := [name for name in which if name not in BENCHMARKS]:
    parser.error(f"no benchmark {', '.join(unknown)}: choose from {', '.join(BENCHMARKS)}")
for i, name in enumerate(which):
    if i:
        print()
    BENCHMARKS[name]()

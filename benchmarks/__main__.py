"""Run every benchmark and print a report of medians: ``python -m benchmarks [engine|vision|bridge]``."""

import sys

from benchmarks import bench_bridge, bench_engine, bench_vision

which = sys.argv[1:] or ["engine", "vision", "bridge"]
for i, name in enumerate(which):
    if i:
        print()
    {"engine": bench_engine.main, "vision": bench_vision.main, "bridge": bench_bridge.main}[name]()

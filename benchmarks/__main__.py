"""Run every benchmark and print a report of medians."""

from benchmarks.bench_engine import main

main()

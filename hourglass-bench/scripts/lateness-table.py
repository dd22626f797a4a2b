#!/usr/bin/env python3
"""Lateness and idle CPU from DriverLatenessBenchmark's JMH JSON, per impl and n.

Each figure is the mean of the per-iteration raw values (forks x iterations) with a 99.9 % Student-t
interval, in microseconds: the lateness percentiles of the near timers, and the timer thread's CPU
per near timer and per idle second (the raw data read as jmhstats.py says). Usage:
lateness-table.py lateness.json
"""
import json
import sys

from jmhstats import interval, raw


def cell(result, key):
    values = raw(result, key, 1000.0)
    mean, half = interval(values)
    return "%.1f ± %.1f (%.1f–%.1f)" % (mean, half, min(values), max(values))


def main(path):
    results = json.load(open(path))
    print("| impl | far timers pending | lateness p50, µs | p99, µs | p99.9, µs | early runs | "
          "timer thread CPU per near timer, µs | timer thread CPU per idle second, µs |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    idle = {(r["params"]["impl"], r["params"]["n"]): r for r in results if r["benchmark"].endswith(".idle")}
    for r in results:
        if not r["benchmark"].endswith(".nearTimers"):
            continue
        key = (r["params"]["impl"], r["params"]["n"])
        early = sum(raw(r, "earlyFires"))
        idle_cell = cell(idle[key], "workerCpuNanos") if key in idle else ""
        print("| %s | %s | %s | %s | %s | %d | %s | %s |" % (
            key[0], key[1], cell(r, "latenessP50Nanos"), cell(r, "latenessP99Nanos"),
            cell(r, "latenessP999Nanos"), early, cell(r, "workerCpuNanos"), idle_cell))


if __name__ == "__main__":
    main(sys.argv[1])

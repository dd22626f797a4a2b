#!/usr/bin/env python3
"""Lateness and idle CPU from DriverLatenessBenchmark's JMH JSON, per impl and n.

Each figure is the mean of the per-iteration raw values (forks x iterations) with a 99.9 % Student-t
interval, in microseconds: the lateness percentiles of the near timers, and the timer thread's CPU
per near timer and per idle second. The counters report each iteration's figure divided by the
measurement iteration count (JMH sums them over iterations, and over forks too, so its aggregated
score is not the mean): the raw data times that count is. Usage: lateness-table.py lateness.json
"""
import json
import math
import statistics
import sys

# two-sided 99.9 % Student-t quantiles by degrees of freedom
T999 = {1: 636.6, 2: 31.60, 3: 12.92, 4: 8.610, 5: 6.869, 6: 5.959, 7: 5.408, 8: 5.041, 9: 4.781,
        10: 4.587, 11: 4.437, 14: 4.140, 19: 3.883, 29: 3.659}


def interval(raw):
    mean = statistics.mean(raw)
    if len(raw) < 2:
        return mean, float("nan")
    t = T999.get(len(raw) - 1) or T999[max(k for k in T999 if k <= len(raw) - 1)]
    return mean, t * statistics.stdev(raw) / math.sqrt(len(raw))


def cell(result, key, scale=1000.0):
    iterations = result["measurementIterations"]
    raw = [x * iterations / scale for it in result["secondaryMetrics"][key]["rawData"] for x in it]
    mean, half = interval(raw)
    return "%.1f ± %.1f (%.1f–%.1f)" % (mean, half, min(raw), max(raw))


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
        early = sum(x * r["measurementIterations"] for it in r["secondaryMetrics"]["earlyFires"]["rawData"] for x in it)
        idle_cell = cell(idle[key], "workerCpuNanos") if key in idle else ""
        print("| %s | %s | %s | %s | %s | %d | %s | %s |" % (
            key[0], key[1], cell(r, "latenessP50Nanos"), cell(r, "latenessP99Nanos"),
            cell(r, "latenessP999Nanos"), early, cell(r, "workerCpuNanos"), idle_cell))


if __name__ == "__main__":
    main(sys.argv[1])

#!/usr/bin/env python3
"""Put and get of ExpiringMapBenchmark beside Caffeine, from one run's JMH JSON, with verdicts.

Per benchmark and size, for each map: the caller's time per operation (JMH's primary score) and the
CPU per operation, the caller's own CPU (callerCpuNanos) plus the CPU of the map's threads
(workerCpuNanos), each the mean of the per-iteration raw values (forks x iterations, read as
jmhstats.py says) with a 99.9 % Student-t interval. Then Caffeine's CPU over Hourglass's, with the
interval the repository's Verdict class uses: the extremes the two intervals allow (the low end no
less than 0). A win needs the whole interval above 1x, a loss below; anything else is a tie, and
with fewer than 3 forks every verdict is provisional.

Usage: map-table.py putget.json
"""
import json
import sys

from jmhstats import interval, raw

OURS = "HOURGLASS"
ANCHOR = "CAFFEINE"
FORKS_FOR_A_VERDICT = 3


def cell(pair):
    mean, half = pair
    return "%.1f ± %.1f" % (mean, half)


def cpu_per_op(result):
    """Per iteration: the caller's CPU plus the map's threads' CPU, both per operation."""
    return [c + w for c, w in zip(raw(result, "callerCpuNanos"), raw(result, "workerCpuNanos"))]


def time_per_op(result):
    return [x for fork in result["primaryMetric"]["rawData"] for x in fork]


def verdict(anchor, ours, forks):
    (a, ea), (b, eb) = anchor, ours
    low = max(0.0, a - ea) / (b + eb)
    high = (a + ea) / (b - eb) if b - eb > 0 else float("inf")
    if forks < FORKS_FOR_A_VERDICT:
        word = "provisional (%d forks)" % forks
    else:
        word = "win" if low > 1 else "loss" if high < 1 else "tie"
    return "%.2f× [%.2f–%.2f]: %s" % (a / b, low, high, word)


def main(path):
    results = {}
    for r in json.load(open(path)):
        name = r["benchmark"].rsplit(".", 1)[-1]
        results[(name, int(r["params"]["size"]), r["params"]["impl"])] = r
    print("| operation | threads | live entries | time per op, Hourglass / Caffeine (ns) "
          "| CPU per op, Hourglass / Caffeine (ns) | Caffeine's CPU over Hourglass's (99.9 %) |")
    print("| --- | ---: | ---: | ---: | ---: | --- |")
    for name, size in sorted({(n, s) for n, s, _ in results}):
        ours, anchor = results.get((name, size, OURS)), results.get((name, size, ANCHOR))
        if ours is None or anchor is None:
            sys.exit("%s at %d: the run lacks %s" % (name, size, OURS if ours is None else ANCHOR))
        ours_cpu, anchor_cpu = interval(cpu_per_op(ours)), interval(cpu_per_op(anchor))
        print("| %s | %d | %d | %s / %s | %s / %s | %s |" % (
            name, ours["threads"], size, cell(interval(time_per_op(ours))),
            cell(interval(time_per_op(anchor))), cell(ours_cpu), cell(anchor_cpu),
            verdict(anchor_cpu, ours_cpu, min(ours["forks"], anchor["forks"]))))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])

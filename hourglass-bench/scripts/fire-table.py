#!/usr/bin/env python3
"""Firing cost from DriverFireBenchmark.dueAtOnce's JMH JSON, per impl and n.

Per fired timeout, each the mean of the per-iteration raw values (forks x iterations) with a 99.9 %
Student-t interval, in ns: the time from the shared deadline until the last one ran (nsPerFired), the
timer's own threads' CPU (workerCpuNanos) and the benchmark thread's (callerCpuNanos), and their sum.
The counters report each iteration's figure divided by the measurement iteration count (JMH sums
them over iterations and forks), so the raw data times that count is the figure.
Usage: fire-table.py fire.json
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


def raw(result, key):
    iterations = result["measurementIterations"]
    return [x * iterations for it in result["secondaryMetrics"][key]["rawData"] for x in it]


def cell(values):
    mean, half = interval(values)
    return "%.1f ± %.1f" % (mean, half)


def main(path):
    print("| impl | due at once | ns per fired (deadline → last run) | timer threads' CPU per fired, ns | "
          "caller CPU per fired, ns | CPU per fired, ns |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for r in json.load(open(path)):
        worker = raw(r, "workerCpuNanos")
        caller = raw(r, "callerCpuNanos")
        total = [w + c for w, c in zip(worker, caller)]
        print("| %s | %s | %s | %s | %s | %s |" % (
            r["params"]["impl"], r["params"]["n"], cell(raw(r, "nsPerFired")), cell(worker), cell(caller),
            cell(total)))


if __name__ == "__main__":
    main(sys.argv[1])

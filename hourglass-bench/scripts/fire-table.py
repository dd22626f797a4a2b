#!/usr/bin/env python3
"""Firing cost from DriverFireBenchmark.dueAtOnce's JMH JSON, per impl and n.

Per fired timeout, each the mean of the per-iteration raw values (forks x iterations) with a 99.9 %
Student-t interval, in ns: the time from the shared deadline until the last one ran (nsPerFired), the
timer's own threads' CPU (workerCpuNanos) and the benchmark thread's (callerCpuNanos), and their sum.
The raw data is read as jmhstats.py says.
Usage: fire-table.py fire.json
"""
import json
import sys

from jmhstats import interval, raw


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

#!/usr/bin/env python3
"""Prints, per benchmark, impl and size of a driver run's JMH JSON files, each fork's mean caller
time per operation and mean timer-thread CPU per operation (workerCpuNanos), in fork order: what
cpu-table.py pools into one interval, shown fork by fork, to see whether forks differ by more
than their iterations do; and, where the run recorded it (coreRoundTripNanos, see
driver.CoreRoundTrip), each fork's median round trip of a value between two threads, timed after
each iteration: a hint of the machine's state (a median, so that one slow reading does not move it).

Usage: hourglass-bench/scripts/fork-table.py RUN_FOLDER/*.json
"""
import json
import statistics
import sys


def main(paths):
    print("| file | benchmark | impl | size | caller ns per op, by fork | timer threads' CPU ns per op, by fork "
          "| core round trip ns (median), by fork |")
    print("| --- | --- | --- | ---: | --- | --- | --- |")
    for path in paths:
        for entry in json.load(open(path)):
            iters = entry["measurementIterations"]
            callers = [sum(fork) / len(fork) for fork in entry["primaryMetric"]["rawData"]]
            worker = entry.get("secondaryMetrics", {}).get("workerCpuNanos")
            # WorkerCpu divides its per-iteration figure by the iteration count (see cpu-table.py).
            workers = [sum(fork) / len(fork) * iters for fork in worker["rawData"]] if worker else []
            trip = entry.get("secondaryMetrics", {}).get("coreRoundTripNanos")
            trips = [statistics.median(fork) * iters for fork in trip["rawData"]] if trip else []
            params = entry.get("params", {})
            print(f"| {path.rsplit('/', 1)[-1]} | {entry['benchmark'].rsplit('.', 2)[-2]} | {params.get('impl', '-')} "
                  f"| {params.get('n', params.get('pending', '-'))} "
                  f"| {', '.join(f'{v:,.0f}' for v in callers)} | {', '.join(f'{v:,.0f}' for v in workers)} "
                  f"| {', '.join(f'{v:,.0f}' for v in trips) or '-'} |")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])

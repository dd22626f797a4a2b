#!/usr/bin/env python3
"""Prints a markdown table of a driver run's JMH JSON files: per benchmark, impl and size, the
caller's ns per operation (JMH's score and 99.9 % interval) and the CPU per operation, the caller's
time plus the timer's own threads' CPU (workerCpuNanos), each measured iteration counted once, with
a 99.9 % Student-t interval over the iterations of every fork.

WorkerCpu divides its per-iteration figure by the measurement iteration count (JMH sums event
counters), so the raw per-iteration values are multiplied back here; the script reads only raw data.

With --max-round-trip NS (or --min-round-trip NS), only the measured iterations after which the
run timed a round trip between two threads (coreRoundTripNanos, see driver.CoreRoundTrip) of at
most (at least) NS are kept: one state of the machine. The caller's figure is then the mean and
interval of the kept iterations' raw data instead of JMH's score, and a column counts the
iterations kept and the forks they came from.

Usage: hourglass-bench/scripts/cpu-table.py [--max-round-trip NS | --min-round-trip NS] RUN_FOLDER/*.json
"""
import json
import math
import sys

# Two-sided 99.9 % Student-t quantiles (0.9995) by degrees of freedom; above 30, the normal's.
T9995 = {1: 636.6, 2: 31.60, 3: 12.92, 4: 8.610, 5: 6.869, 6: 5.959, 7: 5.408, 8: 5.041, 9: 4.781,
         10: 4.587, 11: 4.437, 12: 4.318, 13: 4.221, 14: 4.140, 15: 4.073, 16: 4.015, 17: 3.965,
         18: 3.922, 19: 3.883, 20: 3.850, 24: 3.745, 29: 3.659, 30: 3.646}


def t_quantile(df):
    keys = [k for k in sorted(T9995) if k <= df]
    return T9995[keys[-1]] if df <= 30 else 3.291


def interval(values):
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, float("nan")
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    return mean, t_quantile(n - 1) * sd / math.sqrt(n)


def kept_iterations(path, entry, keep):
    """Per measured iteration, in raw-data order, (fork index, whether the state filter keeps it)."""
    forks = entry["primaryMetric"]["rawData"]
    trip = entry.get("secondaryMetrics", {}).get("coreRoundTripNanos")
    if keep is None:
        return [(f, True) for f, fork in enumerate(forks) for _ in fork]
    if not trip:
        sys.exit(f"{path}: {entry['benchmark']} {entry.get('params')}: no coreRoundTripNanos recorded, "
                 f"so no state to filter on")
    iters = entry["measurementIterations"]
    return [(f, keep(v * iters)) for f, fork in enumerate(trip["rawData"]) for v in fork]


def rows(path, keep):
    for entry in json.load(open(path)):
        iters = entry["measurementIterations"]
        primary = entry["primaryMetric"]
        kept = kept_iterations(path, entry, keep)
        caller = [v for fork in primary["rawData"] for v in fork]
        worker_raw = entry.get("secondaryMetrics", {}).get("workerCpuNanos")
        worker = [v * iters for fork in worker_raw["rawData"] for v in fork] if worker_raw else [0.0] * len(caller)
        if not len(caller) == len(worker) == len(kept):
            sys.exit(f"{path}: {entry['benchmark']} {entry.get('params')}: {len(caller)} iterations of the "
                     f"primary metric, {len(worker)} of workerCpuNanos, {len(kept)} of coreRoundTripNanos")
        caller = [v for v, (_, k) in zip(caller, kept) if k]
        worker = [v for v, (_, k) in zip(worker, kept) if k]
        total = [c + w for c, w in zip(caller, worker)]
        # Class and method: a class may hold several benchmarks.
        name = ".".join(entry["benchmark"].rsplit(".", 2)[-2:])
        caller_cpu = entry.get("secondaryMetrics", {}).get("callerCpuNanos")
        if caller_cpu:
            # A check of the scaling: the caller's own CPU per op should be near its time per op.
            cpu = interval([v * iters for fork in caller_cpu["rawData"] for v in fork])[0]
            print(f"check {name} {entry.get('params')}: caller CPU {cpu:,.1f} "
                  f"vs time {primary['score']:,.1f} ns/op", file=sys.stderr)
        params = entry.get("params", {})
        empty = (float("nan"), float("nan"))
        yield {
            "benchmark": name,
            "impl": params.get("impl", "-"),
            "size": params.get("n", params.get("pending", "-")),
            "forks": entry["forks"],
            "caller": (primary["score"], primary["scoreError"]) if keep is None
            else interval(caller) if caller else empty,
            "worker": interval(worker) if worker else empty,
            "total": interval(total) if total else empty,
            "kept": f"{len(caller)} ({len({f for f, k in kept if k})})",
            "unit": primary["scoreUnit"],
        }


def fmt(pair):
    mean, err = pair
    if math.isnan(mean):
        return "-"
    return f"{mean:,.1f} ± {err:,.1f}" if not math.isnan(err) else f"{mean:,.1f}"


def main(args):
    keep = None
    if args and args[0] in ("--max-round-trip", "--min-round-trip"):
        if len(args) < 3:
            sys.exit(__doc__)
        try:
            bound = float(args[1])
        except ValueError:
            bound = float("nan")
        if not bound >= 0:
            sys.exit(f"{args[0]} needs a number of nanoseconds, 0 or more: {args[1]!r}")
        keep = (lambda t: t <= bound) if args[0] == "--max-round-trip" else (lambda t: t >= bound)
        args = args[2:]
    table = [r for path in args for r in rows(path, keep)]
    caller_head = "caller (JMH, 99.9 %)" if keep is None else "caller (kept iterations, 99.9 %)"
    kept_head = "" if keep is None else " iterations kept (forks) |"
    print(f"| benchmark | impl | size | forks | {caller_head} | timer threads' CPU per op "
          "| CPU per op (caller + threads) |" + kept_head)
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: |" + ("" if keep is None else " ---: |"))
    for r in table:
        kept = "" if keep is None else f" {r['kept']} |"
        caller = fmt(r["caller"]) + ("" if math.isnan(r["caller"][0]) else f" {r['unit']}")
        print(f"| {r['benchmark']} | {r['impl']} | {r['size']} | {r['forks']} | {caller} "
              f"| {fmt(r['worker'])} | {fmt(r['total'])} |" + kept)


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])

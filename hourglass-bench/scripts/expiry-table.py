#!/usr/bin/env python3
"""Expiry cost from ExpiringMapExpiryBenchmark.expireAll's JMH JSON, per map and size.

Per impl (with any other parameter but the size beside it, e.g. jitWarmupExpiries) and size, each
the mean of the per-iteration raw values (forks x iterations) with a 99.9 % Student-t interval:
the CPU of the map's threads and of the waiting thread per expired entry (cpuNanosPerExpiry, ns),
the latest expiry notice after its deadline (maxLatenessMs) and how often the map's threads went
to sleep during a shot (mapThreadSleeps, "–" in runs made before it was counted). When the same JSON holds
ThreadWakeBenchmark.parkAndWake, a second table gives its CPU per timed park and wake
(cpuNanosPerWake, ns), the floor under a pass that wakes the timer thread. The raw data is read
as jmhstats.py says.
Usage: expiry-table.py expiry.json
"""
import json
import sys

from jmhstats import interval, raw


def cell(values):
    mean, half = interval(values)
    return "%.1f ± %.1f" % (mean, half)


def label(params):
    """The impl, with any other parameter but the size (e.g. jitWarmupExpiries) beside it."""
    others = ["%s=%s" % (k, v) for k, v in sorted(params.items()) if k not in ("impl", "size")]
    return params["impl"] + (" (%s)" % ", ".join(others) if others else "")


def main(path):
    results = json.load(open(path))
    print("| map | entries expiring over 1 s | CPU per expired entry, ns | latest notice after its deadline, ms"
          " | the map's threads' sleeps per shot |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for r in results:
        if not r["benchmark"].endswith(".expireAll"):
            continue
        sleeps = "–" if "mapThreadSleeps" not in r["secondaryMetrics"] else cell(raw(r, "mapThreadSleeps"))
        print("| %s | %s | %s | %s | %s |" % (
            label(r["params"]), r["params"]["size"], cell(raw(r, "cpuNanosPerExpiry")),
            cell(raw(r, "maxLatenessMs")), sleeps))
    wakes = [r for r in results if r["benchmark"].endswith(".parkAndWake")]
    if wakes:
        print()
        print("| thread park and wake | park, µs | parks per shot | CPU per park and wake, ns |")
        print("| --- | ---: | ---: | ---: |")
        for r in wakes:
            print("| LockSupport.parkNanos | %s | %s | %s |" % (
                r["params"]["parkMicros"], r["params"]["wakes"], cell(raw(r, "cpuNanosPerWake"))))


if __name__ == "__main__":
    main(sys.argv[1])

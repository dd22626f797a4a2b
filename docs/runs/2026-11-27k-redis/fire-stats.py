#!/usr/bin/env python3
"""Summary of fire-nometa.txt: per server setting and build, the mean, min and max over all
repetitions, each round's mean, and in how many rounds the build after was below the build before.
Usage: fire-stats.py FILE"""
import re
import statistics as st
import sys

cur, runs = None, {}
for line in open(sys.argv[1]):
    m = re.match(r'== round (\d+) build (\S+) listpack (\S+)', line)
    if m:
        cur = (m.group(3), m.group(2), int(m.group(1)))
        continue
    m = re.search(r': (\d+) timers/s', line)
    if m and cur:
        runs.setdefault(cur, []).append(int(m.group(1)))
for lp in sorted({k[0] for k in runs}, reverse=True):
    means = {}
    for build in sorted({k[1] for k in runs}, reverse=True):
        keys = sorted(k for k in runs if k[0] == lp and k[1] == build)
        reps = [x for k in keys for x in runs[k]]
        means[build] = [st.mean(runs[k]) for k in keys]
        print(f"hash-max-listpack-entries {lp}, {build}: mean {st.mean(reps) / 1e3:.1f}k timers/s "
              f"(min {min(reps) / 1e3:.1f}k, max {max(reps) / 1e3:.1f}k) over {len(reps)} repetitions; "
              f"round means {', '.join(f'{r / 1e3:.1f}k' for r in means[build])}")
    before, after = (means[b] for b in sorted(means, reverse=True))
    print(f"  after below before in {sum(a < b for a, b in zip(after, before))} of {len(after)} rounds")

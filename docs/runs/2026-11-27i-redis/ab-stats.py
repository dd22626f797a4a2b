#!/usr/bin/env python3
"""Paired A/B of steady-ab.sh outputs: per round, each build's mean over its repetitions; the
mean of the per-round differences (first build minus second) with a two-sided 99.9 % Student-t
interval. Several files are pooled as consecutive rounds. Usage: ab-stats.py FILE..."""
import re
import statistics as st
import sys

T9995 = {1: 636.619, 2: 31.599, 3: 12.924, 4: 8.610, 5: 6.869, 6: 5.959, 7: 5.408, 8: 5.041,
         9: 4.781, 10: 4.587, 11: 4.437, 12: 4.318, 13: 4.221, 14: 4.140, 15: 4.073}

rounds, order = {}, []
for f, path in enumerate(sys.argv[1:]):
    cur = None
    for line in open(path):
        m = re.match(r'== round (\d+) build (\S+)', line)
        if m:
            cur = (f, int(m.group(1)), m.group(2))
            if m.group(2) not in order:
                order.append(m.group(2))
            continue
        m = re.search(r': ([\d.]+) us per fired timer by INFO commandstats, ([\d.]+) by INFO cpu', line)
        if m and cur:
            rounds.setdefault(cur, []).append((float(m.group(1)), float(m.group(2))))
a, b = order[0], order[1]
keys = sorted({(f, r) for f, r, _ in rounds})
for k, label in ((0, 'INFO commandstats sum'), (1, 'INFO cpu (user+sys)')):
    pa = [st.mean(x[k] for x in rounds[(f, r, a)]) for f, r in keys]
    pb = [st.mean(x[k] for x in rounds[(f, r, b)]) for f, r in keys]
    ra = [x[k] for (f, r, n), xs in rounds.items() if n == a for x in xs]
    rb = [x[k] for (f, r, n), xs in rounds.items() if n == b for x in xs]
    d = [x - y for x, y in zip(pa, pb)]
    n = len(d)
    half = T9995[n - 1] * st.stdev(d) / n ** 0.5
    lower = sum(1 for x in d if x > 0)
    print(f'{label}: {a} {st.mean(ra):.2f} ({min(ra):.1f}-{max(ra):.1f}), {b} {st.mean(rb):.2f} '
          f'({min(rb):.1f}-{max(rb):.1f}) us per fired timer over {len(ra)} and {len(rb)} repetitions; '
          f'{b} lower in {lower} of {n} rounds; paired difference {st.mean(d):.2f}, '
          f'99.9 % interval {st.mean(d) - half:.2f} to {st.mean(d) + half:.2f} ({n - 1} df)')

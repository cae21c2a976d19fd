#!/usr/bin/env python3
"""Sums sampled runs' counts over several seeds and prints the cells farthest from
Binomial(n * runs, 1/d), n from the unconditional report: deviations too small to show in
one run (test/e2e/Inputs/stats.py unbiased, 6 sigma a run) add up over seeds.

    aggregate.py EXACT.json SAMPLED-SEED1.json SAMPLED-SEED2.json ...

(JSON from sampler-report --all --json.) Used for the 16-seed figure in docs/benchmarks.md.
"""
import math
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "../../test/e2e/Inputs"))
import stats  # noqa: E402

exact, runs = sys.argv[1], sys.argv[2:]
if not runs:
    sys.exit("usage: aggregate.py EXACT.json SAMPLED.json...")
e, _ = stats.sites(exact)
total, d = {}, None
for f in runs:
    s, d = stats.sites(f)
    for k, v in s.items():
        t = total.setdefault(k, [0] * len(v))
        for i, c in enumerate(v):
            t[i] += c
p, rows = 1.0 / d, []
for k, counts in e.items():
    if k[4] == "bounds":
        continue
    for i, n in enumerate(counts):
        n *= len(runs)
        if n < 100:
            continue
        c = total.get(k, [0] * len(counts))[i]
        rows.append(((c - n * p) / math.sqrt(n * p * (1 - p)), k[3], k[5], i, n, c))
rows.sort(key=lambda r: -abs(r[0]))
for z, fn, text, cell, n, c in rows[:5]:
    print(f"{z:+.1f} sigma  {fn}  {text!r} cell {cell}: {c} of {n} executions")

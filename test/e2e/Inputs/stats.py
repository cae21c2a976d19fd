#!/usr/bin/env python3
"""Statistical checks on decoded reports (sampler-report --json).

  stats.py equal A.json B.json
      every site has the same counts in both runs (d = 1 vs the unconditional build)
  stats.py unbiased SAMPLED.json EXACT.json
      every cell's estimate (count x d) lies within 6 sigma of the exact count, where
      the count of a cell executed n times is Binomial(n, 1/d)
  stats.py fraction SAMPLED.json FUNCTION N P
      in FUNCTION, each site's total count (its cells summed) lies within 6 sigma of
      Binomial(N_site, P), N_site = N for every site
Exit status 1 with one line per violation; prints a summary line on success.
"""
import json
import math
import sys


def sites(path):
    with open(path) as f:
        doc = json.load(f)
    out = {}
    for report in doc["reports"]:
        for unit in report["units"]:
            for s in unit.get("sites", []):
                key = (s["file"], s["line"], s["column"], s["function"], s["scheme"],
                       s["description"], s["offset"])
                out[key] = [c["count"] for c in s["counts"]]
        sparsity = report["sparsity"]
    return out, sparsity


def fail(msgs):
    for m in msgs:
        print("FAIL:", m)
    sys.exit(1 if msgs else 0)


def equal(a, b):
    sa, _ = sites(a)
    sb, _ = sites(b)
    msgs = [f"{k}: {sa.get(k)} != {sb.get(k)}" for k in sorted(set(sa) | set(sb))
            if sa.get(k) != sb.get(k)]
    if not msgs:
        print(f"equal: {len(sa)} sites, identical counts")
    fail(msgs)


def unbiased(sampled, exact):
    s, d = sites(sampled)
    e, _ = sites(exact)
    assert d != "off" and d >= 1, "the sampled run must have a sparsity"
    p = 1.0 / d
    msgs, cells, worst = [], 0, 0.0
    for k, exact_counts in e.items():
        got = s.get(k)
        if got is None:
            msgs.append(f"{k}: missing from the sampled run")
            continue
        for n, c in zip(exact_counts, got):
            cells += 1
            if n == 0:
                if c != 0:
                    msgs.append(f"{k}: observed {c} of a cell that never ran")
                continue
            sigma = math.sqrt(n * p * (1 - p))
            z = abs(c - n * p) / sigma if sigma > 0 else abs(c - n * p)
            worst = max(worst, z)
            if z > 6:
                msgs.append(f"{k}: count {c} (estimate {c * d}) vs exact {n}: {z:.1f} sigma")
    if not msgs:
        print(f"unbiased: {cells} cells at d={d}, worst deviation {worst:.2f} sigma")
    fail(msgs)


def fraction(sampled, function, n, p):
    s, _ = sites(sampled)
    n, p = int(n), float(p)
    sigma = math.sqrt(n * p * (1 - p))
    msgs, seen = [], 0
    for k, counts in s.items():
        if k[3] != function:
            continue
        seen += 1
        total = sum(counts)
        z = abs(total - n * p) / sigma
        print(f"site {k[5]!r}: observed {total} of {n} executions ({z:.2f} sigma from {n * p:.0f})")
        if z > 6:
            msgs.append(f"{k}: observed {total}, expected {n * p:.0f} +- {6 * sigma:.0f}")
    if seen == 0:
        msgs.append(f"no sites in function {function}")
    fail(msgs)


if __name__ == "__main__":
    cmd, *args = sys.argv[1:]
    {"equal": equal, "unbiased": unbiased, "fraction": fraction}[cmd](*args)

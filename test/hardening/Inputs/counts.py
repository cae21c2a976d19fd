#!/usr/bin/env python3
"""Checks on decoded reports (sampler-report --json) for the hardening tests.

  counts.py scaled RUN.json BASE.json K FUNCTION[,FUNCTION...]
      every site of those functions has exactly K times the counts it has in BASE
      (8 threads running the loop one thread runs in BASE: K = 8)
  counts.py binomial SAMPLED.json EXACT.json FUNCTION[,FUNCTION...]
      every cell of the sites of those functions lies within 6 sigma of
      Binomial(exact, 1/d), d being the sampled run's sparsity
Exit status 1 with one line per violation; one summary line on success.
"""
import json
import math
import sys


def sites(path, functions):
    with open(path) as f:
        doc = json.load(f)
    out = {}
    for report in doc["reports"]:
        d = report["sparsity"]
        for unit in report["units"]:
            for s in unit.get("sites", []):
                if s["function"] not in functions:
                    continue
                key = (s["file"], s["line"], s["column"], s["function"], s["scheme"],
                       s["description"], s["offset"])
                out[key] = [c["count"] for c in s["counts"]]
    return out, d


def main():
    cmd, *args = sys.argv[1:]
    if cmd == "scaled":
        run, base, k, functions = args[0], args[1], int(args[2]), set(args[3].split(","))
        a, _ = sites(run, functions)
        b, _ = sites(base, functions)
        bad = [f"{key}: {a.get(key)} != {k} x {b.get(key)}" for key in sorted(set(a) | set(b))
               if key not in a or key not in b or a[key] != [k * c for c in b[key]]]
        cells = sum(len(v) for v in b.values())
        if not b:
            bad.append(f"no sites of {sorted(functions)} in {base}")
        ok = f"scaled: {len(b)} sites, {cells} cells, exactly {k} x"
    elif cmd == "binomial":
        run, exact, functions = args[0], args[1], set(args[2].split(","))
        s, d = sites(run, functions)
        e, _ = sites(exact, functions)
        p = 1.0 / d
        bad, cells, worst = [], 0, 0.0
        for key, ns in sorted(e.items()):
            got = s.get(key)
            if got is None:
                bad.append(f"{key}: missing from the sampled run")
                continue
            for n, c in zip(ns, got):
                cells += 1
                if n == 0:
                    if c:
                        bad.append(f"{key}: observed {c} of a cell that never ran")
                    continue
                z = abs(c - n * p) / math.sqrt(n * p * (1 - p))
                worst = max(worst, z)
                if z > 6:
                    bad.append(f"{key}: count {c} vs exact {n} at d={d}: {z:.1f} sigma")
        if not e:
            bad.append(f"no sites of {sorted(functions)} in {exact}")
        ok = f"binomial: {cells} cells at d={d}, worst {worst:.2f} sigma"
    else:
        sys.exit(f"unknown command {cmd}")
    for m in bad:
        print("FAIL:", m)
    if bad:
        sys.exit(1)
    print(ok)


if __name__ == "__main__":
    main()

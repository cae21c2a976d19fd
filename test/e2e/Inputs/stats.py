#!/usr/bin/env python3
"""Statistical checks on decoded reports (sampler-report --json).

  stats.py equal A.json B.json [--merge] [--schemes S1,S2]
      every site has the same counts in both runs (d = 1 vs the unconditional build);
      --merge sums the sites of the same source construct over all units first (an
      inline function has one copy per unit, and which copy runs is the linker's and
      the inliner's choice); --schemes compares only those schemes; --user skips
      sites in system headers (/usr/...), whose code runs from the instrumented unit
      or from the shared library depending on what the inliner did
  stats.py unbiased SAMPLED.json EXACT.json
      every cell's estimate (count x d) lies within 6 sigma of the exact count, where
      the count of a cell executed n times is Binomial(n, 1/d); where that law is far
      from normal (variance below 25), "6 sigma" is its exact tail probability beyond
      the count, as small as a normal law's beyond 6 sigma (about 1e-9): otherwise
      one observation of a cell expected 0.016 times (a 1.6% event, common among a
      hundred cells) would count as 7.7 sigma
  stats.py total RUN.json FUNCTION DESCRIPTION
      prints the sum of the cells of the sites of FUNCTION (a substring of the site's
      function) with DESCRIPTION, over every unit: what a run observed there in all
  stats.py lost EXACT.json D1.json [MIN]
      no site that the unconditional run executed MIN times or more (default 100; the
      sites of one source construct summed over units and reports) is unobserved in the
      d = 1 run: a lost site (a way around its region's check). Sites, not cells: where
      a branch's outcome depends on addresses, a cell may be 0 in one build and not in
      the other while the site's total is the same
  stats.py fraction SAMPLED.json FUNCTION N P
      in FUNCTION, each site's total count (its cells summed) lies within 6 sigma of
      Binomial(N_site, P), N_site = N for every site
Exit status 1 with one line per violation; prints a summary line on success.
"""
import json
import math
import statistics
import sys


def cells(site):
    """A site's cells: counts, or the values of a value scheme (bounds)."""
    if "counts" in site:
        return [c["count"] for c in site["counts"]]
    return [v["value"] for v in site.get("values", [])]


def sites(path, merge=False):
    with open(path) as f:
        doc = json.load(f)
    out = {}
    for report in doc["reports"]:
        for unit in report["units"]:
            for s in unit.get("sites", []):
                key = (s["file"], s["line"], s["column"], s["function"], s["scheme"],
                       s["description"], None if merge else s["offset"])
                if merge and key in out:
                    out[key] = [a + b for a, b in zip(out[key], cells(s))]
                else:
                    out[key] = cells(s)
        sparsity = report["sparsity"]
    return out, sparsity


def fail(msgs):
    for m in msgs:
        print("FAIL:", m)
    sys.exit(1 if msgs else 0)


def equal(a, b, *options):
    merge = "--merge" in options
    schemes = None
    if "--schemes" in options:
        schemes = set(options[list(options).index("--schemes") + 1].split(","))
    sa, _ = sites(a, merge)
    sb, _ = sites(b, merge)
    if schemes:
        sa = {k: v for k, v in sa.items() if k[4] in schemes}
        sb = {k: v for k, v in sb.items() if k[4] in schemes}
    if "--user" in options:
        sa = {k: v for k, v in sa.items() if not k[0].startswith("/usr/")}
        sb = {k: v for k, v in sb.items() if not k[0].startswith("/usr/")}
    msgs = [f"{k}: {sa.get(k)} != {sb.get(k)}" for k in sorted(set(sa) | set(sb))
            if sa.get(k) != sb.get(k)]
    if not msgs:
        print(f"equal: {len(sa)} sites, identical counts")
    fail(msgs)


def deviation(n, p, c):
    """How far the count c lies from Binomial(n, p), in standard deviations: the normal
    approximation where the variance is 25 or more, otherwise the normal quantile of
    the exact binomial tail beyond c (the same figure where both apply)."""
    mean, var = n * p, n * p * (1 - p)
    if var == 0:
        return 0.0 if c == mean else math.inf
    if var >= 25:
        return abs(c - mean) / math.sqrt(var)

    def pmf(k):
        return math.exp(math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)
                        + k * math.log(p) + (n - k) * math.log1p(-p))

    if c >= mean:  # upper tail: P(X >= c), its terms falling geometrically past the mean
        tail, k = 0.0, c
        while k <= n:
            term = pmf(k)
            tail += term
            if term < 1e-17 * tail or term == 0.0:
                break
            k += 1
    else:  # lower tail: P(X <= c), c below a mean under 25 / (1 - p)
        tail = sum(pmf(k) for k in range(0, c + 1))
    if tail >= 0.5:
        return 0.0
    return -statistics.NormalDist().inv_cdf(max(tail, 1e-300))


def unbiased(sampled, exact):
    s, d = sites(sampled)
    e, _ = sites(exact)
    assert d != "off" and d >= 1, "the sampled run must have a sparsity"
    p = 1.0 / d
    msgs, cells, worst = [], 0, 0.0
    for k, exact_counts in e.items():
        if k[4] == "bounds":
            continue  # values, not counts
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
            z = deviation(n, p, c)
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


def lost(exact, d1, minimum="100"):
    se, _ = sites(exact, merge=True)
    sd, _ = sites(d1, merge=True)
    # The counting schemes' sites executed often enough (bounds cells hold values).
    often = {k: sum(v) for k, v in se.items()
             if k[4] != "bounds" and sum(v) >= int(minimum)}
    msgs = [f"{k}: never observed at d = 1, executed {n} times"
            for k, n in sorted(often.items()) if sum(sd.get(k, [])) == 0]
    print(f"lost: {len(msgs)} of {len(often)} sites executed {minimum} times or more")
    fail(msgs)


def total(path, function, description):
    with open(path) as f:
        doc = json.load(f)
    n, sites_seen = 0, 0
    for report in doc["reports"]:
        for unit in report["units"]:
            for s in unit.get("sites", []):
                if function in s["function"] and s["description"] == description:
                    sites_seen += 1
                    n += sum(cells(s))
    print(f"total {n} over {sites_seen} sites")


if __name__ == "__main__":
    cmd, *args = sys.argv[1:]
    {"equal": equal, "unbiased": unbiased, "fraction": fraction, "total": total,
     "lost": lost}[cmd](*args)

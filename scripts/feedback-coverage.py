#!/usr/bin/env python3
"""Which functions of an instrumented binary a feedback file's runs found cold.

With -fsampler-feedback, a function whose hottest site ran at most N times a run (on average
over the file's runs; -fsampler-cold-count=N, default 1000; 0: never ran) is lowered in
place instead of cloned (-fsampler-cold-in-place, docs/sampling.md). This says how much of
a binary that concerns, before building with it: per function (by the name the site table
gives it), its hottest site's executions in the feedback (a site's cells summed; `bounds`
sites, whose cells hold values, left out, as the pass does), and the .text its symbols take
(nm -S; a function's copies, `f.sampler.slow` and the like, counted with it). Units of the
binary that the feedback does not name are left out (the pass leaves those alone too).
Cold functions with a site in a loop stay cloned unless -fsampler-cold-loops-in-place, and
so do those a call can cross more than -fsampler-cold-path-sites sites of (default 1); the
site table does not say which sites are in loops or on one path, so they are counted here
as cold.

  scripts/feedback-coverage.py BINARY FEEDBACK [--count N] [--list]

BINARY: built by sampler-cc (its site table is read with sampler-sites --json, found beside
this script's build as build/bin/sampler-sites or on PATH, or given by $SAMPLER_SITES).
FEEDBACK: a file written by `sampler-report --merge`. --list prints the cold functions.
"""
import collections
import json
import os
import re
import shutil
import subprocess
import sys


def die(msg):
    print(f"feedback-coverage: {msg}", file=sys.stderr)
    sys.exit(1)


def read_feedback(path):
    units, cur, runs = {}, None, 0
    try:
        lines = open(path, encoding="utf-8").read().split("\n")
    except OSError as e:
        die(f"{path}: {e.strerror}")
    if not lines or lines[0] != "sampler-feedback\t1":
        die(f"{path}:1: not a feedback file (sampler-report --merge writes them)")
    for n, line in enumerate(lines[1:], 2):
        f = line.split("\t")
        if f[0] == "runs" and len(f) == 2 and f[1].isdigit():
            runs = int(f[1])
        elif f[0] == "unit" and len(f) >= 3:
            cur = units[f[1]] = {}
        elif f[0] == "counts" and cur is not None:
            for tok in filter(None, f[1].split(" ") if len(f) > 1 else []):
                i, _, v = tok.partition(":")
                if not (i.isdigit() and v.isdigit()):
                    die(f"{path}:{n}: malformed count '{tok[:40]}'")
                cur[int(i)] = int(v)
    return units, runs


def sites_tool():
    env = os.environ.get("SAMPLER_SITES")
    if env:
        return env
    here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "build", "bin",
                        "sampler-sites")
    return here if os.access(here, os.X_OK) else shutil.which("sampler-sites") or die(
        "no sampler-sites: build sampler, or set SAMPLER_SITES")


def main(argv):
    args, count, listing = [], 1000, False
    it = iter(argv)
    for a in it:
        if a == "--list":
            listing = True
        elif a == "--count":
            v = next(it, "")
            if not v.isdigit():
                die(f"--count expects a number, got '{v[:40]}'")
            count = int(v)
        else:
            args.append(a)
    if len(args) != 2:
        die("usage: feedback-coverage.py BINARY FEEDBACK [--count N] [--list]")
    binary, feedback = args
    units, runs = read_feedback(feedback)
    r = subprocess.run([sites_tool(), "--json", binary], capture_output=True, text=True)
    if r.returncode != 0:
        die(r.stderr.strip() or f"sampler-sites failed on {binary}")
    table = json.loads(r.stdout)
    hottest = collections.Counter()
    sites = collections.Counter()
    for f in table["files"]:
        for u in f["units"]:
            cells = units.get(u["signature"])
            if cells is None:
                continue
            for s in u["sites"]:
                fn = s["function"]
                sites[fn] += 1
                if s["scheme"] != "bounds":
                    ran = sum(cells.get(s["offset"] + k, 0) for k in range(s["cells"]))
                    hottest[fn] = max(hottest[fn], ran)
    r = subprocess.run(["nm", "-S", "--demangle", binary], capture_output=True, text=True)
    if r.returncode != 0:
        die(r.stderr.strip() or f"nm failed on {binary}")
    size = collections.Counter()
    for line in r.stdout.splitlines():
        p = line.split(maxsplit=3)
        if len(p) == 4 and p[2] in "tTwW":
            size[re.sub(r"\..*$", "", p[3])] += int(p[1], 16)
    total = sum(size.values())
    cold = sorted(fn for fn in sites if hottest[fn] <= count * runs)
    cold_bytes = sum(size[fn] for fn in cold)
    what = "never ran" if count == 0 else f"hottest site at most {count} times a run"
    print(f"functions with sites in the feedback's units: {len(sites)}; cold ({what}, "
          f"{runs} runs): {len(cold)} ({sum(sites[fn] for fn in cold)} of "
          f"{sum(sites.values())} sites)")
    print(f"their .text: {cold_bytes} of the {total} bytes of function symbols "
          f"({100 * cold_bytes / total if total else 0:.1f}%)")
    if listing:
        for fn in cold:
            print(f"  {fn}\t{size[fn]}\t{hottest[fn]}")


if __name__ == "__main__":
    main(sys.argv[1:])

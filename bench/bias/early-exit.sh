#!/usr/bin/env bash
# Fairness of bounded loops on bench/bias/early-exit.c (2 million calls of a loop that mostly
# leaves early): the sampled build's counts against the unconditional build's (every cell
# within 6 sigma of Binomial(n, 1/d): test/e2e/Inputs/stats.py unbiased) at d = 10, 100, 1000,
# with and without the bounded-loop pass; and, for the same seed, whether the two sampled
# builds' counts are identical (stats.py equal).
#
#   bench/bias/early-exit.sh          (BUILD_DIR: default <root>/build)
# To see the old bias, build sampler at 4f8ffc3 and point BUILD_DIR at that build.
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${BUILD_DIR:-$root/build}
out=$build/bench/early-exit
mkdir -p "$out"
cc=$build/bin/sampler-cc report=$build/bin/sampler-report stats=$root/test/e2e/Inputs/stats.py
src=$root/bench/bias/early-exit.c
"$cc" -O2 "$src" -o "$out/bounded" || exit 1
"$cc" -O2 -fno-sampler-loop-bounds "$src" -o "$out/unbounded" || exit 1
"$cc" -O2 -fno-sampler-sampling "$src" -o "$out/exact" || exit 1
SAMPLER_FILE=$out/exact.report "$out/exact" >/dev/null
"$report" --all --json "$out/exact.report" --binary "$out/exact" >"$out/exact.json"
for d in 10 100 1000; do
  for b in bounded unbounded; do
    SAMPLER_SPARSITY=$d SAMPLER_SEED=7 SAMPLER_FILE=$out/$b.$d.report "$out/$b" >/dev/null
    "$report" --all --json "$out/$b.$d.report" --binary "$out/$b" >"$out/$b.$d.json"
    echo "d=$d $b: $(python3 "$stats" unbiased "$out/$b.$d.json" "$out/exact.json" 2>&1 | head -4)"
  done
  echo "d=$d bounded vs unbounded, seed 7: $(python3 "$stats" equal "$out/bounded.$d.json" "$out/unbounded.$d.json" 2>&1 | head -1)"
done

#!/usr/bin/env bash
# Wall clock of scripts/bench-quick.sh's builds, for changes whose cost valgrind does not see
# (a chain through memory, a stall): the same workloads as bench-quick, each build run in
# turn, ROUNDS times, and the median (and the fastest) of each build's times. Alone on the
# machine; a few percent of noise between runs is usual, so compare builds of one run only.
# Each build runs from WALL_COPIES copies of its binary (3 unless set), one a round in
# turn: two byte-identical copies of one binary can differ by 3% on their own, by where
# the file's pages land (docs/benchmarks.md, "Wall-clock differences of a few percent
# between two binaries are not resolved here").
#
#   scripts/wall-quick.sh ROUNDS SPARSITY PROGRAM:NAME[:CONF] ...
#
#   PROGRAM   lua, zlib or bzip2 (bench-quick's)
#   NAME      a bench-quick run (BUILD_DIR/bench/quick/NAME)
#   CONF      sampled (default) or baseline
#   SPARSITY  SAMPLER_SPARSITY of the sampled builds (off, 1000, 100, 1...); SAMPLER_SEED=1
#
# e.g. scripts/wall-quick.sh 7 off lua:cgp1:baseline lua:cgp1 lua:fin1
# Prints one line a build: median and fastest, seconds, and the median's ratio to the first
# build named.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=SCRIPTDIR/lib-real.sh
. "$root/scripts/lib-real.sh"
[ $# -ge 3 ] || real_die "usage: $0 ROUNDS SPARSITY PROGRAM:NAME[:CONF] ..."
rounds=$1 sparsity=$2
shift 2
[[ $rounds =~ ^[1-9][0-9]*$ ]] || real_die "ROUNDS must be a positive integer, not '$rounds'"
build=$(real_build_dir "${BUILD_DIR:-}")
data=$build/bench/data
copies=${WALL_COPIES:-3}
[[ $copies =~ ^[1-9][0-9]*$ ]] || real_die "WALL_COPIES must be a positive integer, not '$copies'"
times=$(mktemp)
dir=$(mktemp -d)
trap 'rm -f "$times"; rm -rf "$dir"' EXIT
i=0
for spec in "$@"; do
  IFS=: read -r prog name conf <<<"$spec"
  case $prog in lua | zlib | bzip2) ;; *) real_die "unknown program '$prog' in '$spec' (known: lua zlib bzip2)" ;; esac
  case ${conf:-sampled} in sampled | baseline) ;; *) real_die "unknown build '$conf' in '$spec' (known: sampled baseline)" ;; esac
  exe=$build/bench/quick/$name/$prog-${conf:-sampled}/prog.nodebug
  [ -x "$exe" ] || real_die "no $exe: run scripts/bench-quick.sh $name"
  for ((c = 0; c < copies; c++)); do
    mkdir -p "$dir/$i/$c"
    cp "$exe" "$dir/$i/$c/"
  done
  i=$((i + 1))
done
for ((r = 0; r < rounds; r++)); do
  i=0
  for spec in "$@"; do
    IFS=: read -r prog name conf <<<"$spec"
    exe=$dir/$i/$((r % copies))/prog.nodebug
    i=$((i + 1))
    real_quick_workload "$prog" "$data"
    start=$(date +%s%N)
    (cd "$root/bench/lua" && env -i PATH=/usr/bin:/bin LC_ALL=C SAMPLER_SPARSITY="$sparsity" \
      SAMPLER_SEED=1 SAMPLER_FILE=/dev/null "$exe" "${QUICK_ARGS[@]}" <"$QUICK_STDIN" >/dev/null) ||
      real_die "$spec failed"
    end=$(date +%s%N)
    printf '%s %s\n' "$spec" "$((end - start))" >>"$times"
  done
done
python3 - "$times" "$@" <<'EOF'
import statistics, sys
runs = {}
for line in open(sys.argv[1]):
    spec, ns = line.split()
    runs.setdefault(spec, []).append(int(ns) / 1e9)
first = statistics.median(runs[sys.argv[2]])
for spec in sys.argv[2:]:
    m = statistics.median(runs[spec])
    print(f"{spec:28s} median {m:.4f} s  fastest {min(runs[spec]):.4f} s  {m / first:.3f}")
EOF

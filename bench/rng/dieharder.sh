#!/usr/bin/env bash
# dieharder.sh - Debian's dieharder on the runtime's generator (docs/runtime.md, "The
# generator, and why it is good enough"; figures in docs/benchmarks.md, "A generator step
# of 7 instructions").
#
#   bash bench/rng/dieharder.sh [low|top] [TEST...]
#
# low (default): bits 11..42 of each output, the weakest that a draw reads; top: bits
# 32..63. TEST: dieharder test numbers (-d N), one run each; none: `dieharder -a`, which
# takes hours (rgb_lagged_sum with many lags is the slow part). Needs the build in
# BUILD_DIR (default build/) and the dieharder package (apt-get install dieharder: a
# measurement tool, not part of the test suite, so scripts/setup.sh does not install it).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${BUILD_DIR:-$root/build}
arg=
case ${1:-} in
  low) shift ;;
  top) arg=top; shift ;;
  '' | [0-9]*) ;;
  *) echo "dieharder.sh: '$1' is neither low, top nor a test number" >&2; exit 2 ;;
esac
for t in "$@"; do
  [[ $t =~ ^[0-9]+$ ]] || { echo "dieharder.sh: '$t' is not a test number" >&2; exit 2; }
done
command -v dieharder >/dev/null || { echo "dieharder.sh: dieharder not installed (apt-get install dieharder)" >&2; exit 1; }
[ -f "$build/lib/libsampler_rt.a" ] || { echo "dieharder.sh: no $build/lib/libsampler_rt.a (build sampler first)" >&2; exit 1; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
/usr/lib/llvm-19/bin/clang -O2 "$root/bench/rng/feed.c" "$build/lib/libsampler_rt.a" -lm -lpthread -o "$out/feed"
# The feeder dies of SIGPIPE when dieharder has read enough: the pipeline's status is
# dieharder's.
set +o pipefail
if [ $# -eq 0 ]; then
  "$out/feed" $arg | dieharder -a -g 200
else
  for t in "$@"; do "$out/feed" $arg | dieharder -d "$t" -g 200; done
fi

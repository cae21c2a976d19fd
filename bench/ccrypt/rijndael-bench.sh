#!/usr/bin/env bash
# Instructions (valgrind cachegrind) of ccrypt's rijndael.c under bench/ccrypt/rijndael-driver.c,
# built with clang-19 and with sampler-cc, at the given sparsities (default: off 100 1000 1).
#
#   bench/ccrypt/rijndael-bench.sh [SAMPLER_CC_FLAGS...]     e.g. -fno-sampler-loop-bounds
# Environment: BUILD_DIR (default <root>/build), SPARSITIES.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# shellcheck source=SCRIPTDIR/../../scripts/lib-real.sh
. "$root/scripts/lib-real.sh"
build=$(real_build_dir "${BUILD_DIR:-}")
src=$(real_fetch ccrypt)/src
out=$build/bench/rijndael
mkdir -p "$out"
# What configure would define for it on x86-64 (no config.h: the source tree stays as fetched).
cfg=(-O2 -I"$src" "-DUINT32_TYPE=unsigned int")
count() { # BINARY [ENV...]: valgrind's I refs
  local bin=$1
  shift
  env -i PATH=/usr/bin:/bin "$@" valgrind --tool=cachegrind --cache-sim=no \
    --cachegrind-out-file=/dev/null "$bin" 2>&1 >/dev/null | awk '/I *refs/ { gsub(",", "", $NF); print $NF }'
}
"$REAL_CLANG" "${cfg[@]}" "$root/bench/ccrypt/rijndael-driver.c" "$src/rijndael.c" "$src/tables.c" -o "$out/baseline"
"$build/bin/sampler-cc" "${cfg[@]}" "$@" "$root/bench/ccrypt/rijndael-driver.c" "$src/rijndael.c" "$src/tables.c" -o "$out/sampled"
base=$(count "$out/baseline")
printf 'baseline\t%s\t1.000\n' "$base"
for d in ${SPARSITIES:-off 100 1000 1}; do
  n=$(count "$out/sampled" SAMPLER_SPARSITY="$d" SAMPLER_SEED=1 SAMPLER_FILE="$out/sampled-$d.report")
  printf '%s\t%s\t%s\n' "$d" "$n" "$(awk -v a="$n" -v b="$base" 'BEGIN { printf "%.3f", a / b }')"
done

#!/usr/bin/env bash
# Real-program test: GNU bc and dc (Debian's bc source package) built with sampler-cc.
#
#   test/real/bc.sh [BUILD_DIR]
#
# 1. fetches Debian's bc source into <root>/third_party/bc;
# 2. builds it twice with its own autoconf build in BUILD_DIR/test/real/bc/: baseline/ with
#    clang-19, sampler-cc-<hash>/ with sampler-cc (-O2 -g, plus SAMPLER_CC_FLAGS). The build works
#    on a copy of the source tree with every file given the same time stamp: Debian's patches
#    touch Makefile.am, bc.y and the texinfo sources, which would otherwise make the build run
#    automake, bison and makeinfo. `configure --without-readline`, then make in lib/, bc/ and
#    dc/ (not doc/). bc's build compiles and runs `fbc` (bc itself) to translate the math library
#    libmath.b: with sampler-cc, an instrumented program runs during the build. dc needs
#    -Wno-error=implicit-function-declaration with clang >= 16 (it calls checkferror_output()
#    without a declaration; Debian builds with gcc, where that is a warning);
# 3. runs the bc scripts test/real/bc/*.bc (`bc -q [ARGS] FILE`: ARGS from a `/* bc-args: ... */`
#    line, e.g. -l for the math library; `/* expect-exit: N */` gives the exit status, 0 if none)
#    and the dc scripts test/real/bc/*.dc with both builds, and requires the same stdout, stderr
#    and exit status;
# 4. checks that the instrumented runs' reports are complete, decode with sampler-report, and
#    have non-zero counts at sites in number.c (the arbitrary precision arithmetic).
#
# Environment: see "The corpus" in scripts/lib-real.sh.
set -euo pipefail
exec 2>&1

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
# shellcheck source=../../scripts/lib-real.sh
. "$root/scripts/lib-real.sh"

CFLAGS_BC="-O2 -g -Wno-error=implicit-function-declaration"

# build_bc SRC CC CFLAGS: in the current (build) folder.
build_bc() {
  local src=$1 cc=$2 cflags=$3
  tar -C "$src" --exclude=./debian -cf - . | tar -xf -
  # One time stamp for every file: nothing generated looks out of date.
  find . -exec touch -h -d @1500000000 {} +
  ./configure CC="$cc" CFLAGS="$cflags" --without-readline
  make -j"$REAL_JOBS" -C lib
  make -j"$REAL_JOBS" -C bc
  make -j"$REAL_JOBS" -C dc
  mkdir -p bin
  ln -s ../bc/bc ../dc/dc bin/
}

real_test_begin bc "${1:-}"
shopt -s nullglob
bc_workloads=("$here"/bc/*.bc)
dc_workloads=("$here"/bc/*.dc)
shopt -u nullglob
[ "${#bc_workloads[@]}" -gt 0 ] || { real_fail "no workloads in $here/bc"; real_finish; }

echo "== fetching Debian's bc source"
src=$(real_fetch bc)
echo "   $src"
real_build_pair bc "$src" "$CFLAGS_BC" build_bc || real_finish
REAL_BASE_BIN=$REAL_BASE_DIR/bin
REAL_INST_BIN=$REAL_INST_DIR/bin

echo "== running the workloads with both builds (stdout, stderr, exit status)"
for w in "${bc_workloads[@]}"; do
  name=$(basename "$w" .bc)
  args=$(sed -nE 's@^/\*[[:space:]]*bc-args:[[:space:]]*(.*[^[:space:]])[[:space:]]*\*/.*@\1@p' "$w" | head -n 1 || true)
  expect=$(sed -nE 's@^/\*[[:space:]]*expect-exit:[[:space:]]*([0-9]+).*@\1@p' "$w" | head -n 1 || true)
  # shellcheck disable=SC2086 # $args: zero or more options
  real_run_pair "bc-$name" --expect "${expect:-0}" -- bc -q $args "$w"
done
for w in "${dc_workloads[@]}"; do
  real_run_pair "dc-$(basename "$w" .dc)" -- dc "$w"
done

real_check_reports 'number\.c'
real_finish

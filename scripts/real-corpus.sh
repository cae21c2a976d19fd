#!/usr/bin/env bash
# Build and check the whole real-program corpus (test/real/*.sh): each program is fetched from
# Debian's source package, built with its own build system twice (clang-19 and sampler-cc),
# run on its test suite and workloads with both builds (same output and exit status required),
# and the instrumented runs' reports are decoded.
#
#   scripts/real-corpus.sh [--fast] [BUILD_DIR]
#
# Default: every program (lua, zlib, bzip2, bc, ccrypt, sqlite) with the default schemes at
# SAMPLER_SPARSITY=100, plus sqlite with all schemes (-fsampler-schemes=all) at 100, the ctest
# test real-sqlite. --fast: the quick subset, without sqlite (whose instrumented build takes
# minutes): lua, zlib, bzip2, bc, ccrypt with the default schemes, plus bc with all schemes.
#
# BUILD_DIR: the sampler build folder (default $SAMPLER_BUILD_DIR, else <root>/build); it is
# configured and built first if needed (a folder with bin/sampler-cc and no CMakeCache.txt,
# such as an install tree, is used as it is). Builds of the programs are kept in
# BUILD_DIR/test/real/<program>/ and reused while compiler, flags and sources are unchanged.
# Each test's full output goes to BUILD_DIR/test/real/logs/<program>-<config>.log; this script
# prints one line per test and a summary, and exits non-zero if any test failed.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=lib-real.sh
. "$root/scripts/lib-real.sh"

fast=0
build_arg=""
for a in "$@"; do
  case $a in
    --fast) fast=1 ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    -*) echo "usage: $0 [--fast] [BUILD_DIR]" >&2; exit 2 ;;
    *) build_arg=$a ;;
  esac
done
build=$(real_build_dir "$build_arg")
# A build tree is brought up to date; a folder with bin/sampler-cc but no CMakeCache.txt (an
# install tree, or a copy of one) is used as it is.
if [ -f "$build/CMakeCache.txt" ] || [ ! -x "$build/bin/sampler-cc" ]; then
  real_ensure_project_built "$build"
fi

# name|script|SAMPLER_CC_FLAGS
tests=(
  "lua|lua.sh|"
  "zlib|zlib.sh|"
  "bzip2|bzip2.sh|"
  "bc|bc.sh|"
  "ccrypt|ccrypt.sh|"
)
if [ "$fast" = 1 ]; then
  tests+=("bc|bc.sh|-fsampler-schemes=all")
else
  tests+=("sqlite|sqlite.sh|" "sqlite|sqlite.sh|-fsampler-schemes=all")
fi

logs=$build/test/real/logs
mkdir -p "$logs"
echo "== real-program corpus$([ "$fast" = 1 ] && echo " (--fast)"): ${#tests[@]} tests, SAMPLER_SPARSITY=100, sampler build $build"
printf '   %-8s %-24s %-5s %7s  %s\n' program flags result seconds log
passed=0
failed=0
t_all=$(real_now_ms)
for t in "${tests[@]}"; do
  IFS='|' read -r name script flags <<<"$t"
  config=${flags:-default}
  config=${config#-fsampler-schemes=}
  log=$logs/$name-$config.log
  t0=$(real_now_ms)
  rc=0
  env SAMPLER_SPARSITY=100 SAMPLER_CC_FLAGS="$flags" \
    bash "$root/test/real/$script" "$build" >"$log" 2>&1 </dev/null || rc=$?
  secs=$(( ($(real_now_ms) - t0) / 1000 ))
  if [ "$rc" -eq 0 ]; then
    result=PASS; passed=$((passed + 1))
  else
    result=FAIL; failed=$((failed + 1))
  fi
  printf '   %-8s %-24s %-5s %7s  %s\n' "$name" "${flags:-(default schemes)}" "$result" "$secs" "$log"
  if [ "$rc" -ne 0 ]; then
    grep -E '^(  FAIL|FAIL|ERROR)' "$log" | head -n 5 | sed 's/^/            /' || true
  fi
done
echo "== $(( ($(real_now_ms) - t_all) / 1000 )) s in all"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]

#!/usr/bin/env bash
# Compare sampler-cc variants on Lua: instructions of bench/lua/workload.lua with sampling
# switched off at run time (SAMPLER_SPARSITY=off, or $SP), under valgrind (cachegrind, no cache
# simulation), and the .text size of each interpreter. Used for the "what each change bought"
# figures in docs/benchmarks.md.
#
#   scripts/bench-lua-variants.sh NAME:FLAGS [NAME:FLAGS...]
#     NAME "base" builds with plain clang-19 (FLAGS ignored); any other NAME with
#     build/bin/sampler-cc and the extra FLAGS, e.g.
#   scripts/bench-lua-variants.sh base: default: t3:-fsampler-clone-threshold=3 late:-fsampler-sample-late
#
# Environment: SP (run-time sparsity, default off), BUILD_DIR (default <root>/build),
# OUT (work folder, default BUILD_DIR/bench/variants).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
. "$root/scripts/lib-real.sh"
build=${BUILD_DIR:-$root/build}
out=${OUT:-$build/bench/variants}
mkdir -p "$out"
src=$(real_fetch lua5.4)
workload=$root/bench/lua/workload.lua
[ "$#" -gt 0 ] || { echo "usage: $0 NAME:FLAGS..." >&2; exit 2; }

run() { # name compiler flags
  local d=$out/$1
  rm -rf "$d"
  # The same fixed hash seed and environment as scripts/bench-lua.sh: repeatable counts.
  if ! real_build_lua "$src" "$d" "$2" "$REAL_LUA_CFLAGS '-Dluai_makeseed(L)=0x5eedu' $3" \
      "variant-$1-$(date +%s)" >"$out/$1.log" 2>&1; then
    echo "$1: build failed (see $out/$1.log)" >&2
    return 1
  fi
  objcopy --strip-debug "$d/lua" "$d/lua.nodebug" # valgrind 3.19 cannot read clang 19's DWARF 5
  local ir text
  ir=$(cd "$root/bench/lua" && env -i SAMPLER_SPARSITY="${SP:-off}" SAMPLER_FILE="$d/run.report" \
    valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null \
    "$d/lua.nodebug" "$workload" 2>&1 >/dev/null | awk '/I *refs/ {gsub(",", "", $NF); print $NF}')
  text=$(size -A "$d/lua" | awk '$1 == ".text" {print $2}')
  printf '| %s | `%s` | %s | %s |\n' "$1" "${3:-}" "$ir" "$text"
}

echo "| variant | flags | instructions (SAMPLER_SPARSITY=${SP:-off}) | .text bytes |"
echo "|---|---|--:|--:|"
for spec in "$@"; do
  name=${spec%%:*}
  flags=${spec#*:}
  if [ "$name" = base ]; then
    run base /usr/lib/llvm-19/bin/clang ""
  else
    run "$name" "$build/bin/sampler-cc" "$flags"
  fi
done

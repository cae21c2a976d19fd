#!/usr/bin/env bash
# The main job, end to end: build sampler (if needed), build Lua 5.4 from Debian's source with
# sampler-cc, run a Lua program with it, and show the decoded report of that run.
#
# Usage: scripts/demo.sh [LUA_SCRIPT [ARGS...]]   default: test/real/lua/numeric.lua
# Environment: BUILD_DIR or SAMPLER_BUILD_DIR (default <root>/build); SAMPLER_CC_FLAGS (extra
# flags for sampler-cc); SAMPLER_SPARSITY and SAMPLER_SEED (passed to the run);
# DEMO_LINES (how many lines of the decoded report to show, default 40).
set -euo pipefail
exec 2>&1

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=lib-real.sh
. "$root/scripts/lib-real.sh"

build=$(real_build_dir "${BUILD_DIR:-}")
extra_flags=${SAMPLER_CC_FLAGS:-}
script=${1:-$root/test/real/lua/numeric.lua}
[ "$#" -gt 0 ] && shift
[ -f "$script" ] || real_die "no Lua script $script"
script=$(cd "$(dirname "$script")" && pwd)/$(basename "$script")

real_ensure_project_built "$build"
sampler_cc=$build/bin/sampler-cc
report_tool=$build/bin/sampler-report
[ -x "$sampler_cc" ] || real_die "$sampler_cc was not built"
[ -x "$report_tool" ] || real_die "$report_tool was not built"

echo "== Lua 5.4 from Debian's source package"
src=$(real_fetch lua5.4)
echo "== building lua with sampler-cc"
lua_dir=$(real_lua_dir "$build" "$sampler_cc" "$extra_flags")
real_build_lua "$src" "$lua_dir" "$sampler_cc" "$REAL_LUA_CFLAGS${extra_flags:+ $extra_flags}" \
  "$(real_compiler_fingerprint "$sampler_cc" "$build")"
lua=$lua_dir/lua

demo=$build/demo
mkdir -p "$demo"
report=$demo/lua.report
rm -f "$report"
real_clean_sampler_env
echo "== running: lua $(basename "$script") $*   (SAMPLER_FILE=$report${SAMPLER_SPARSITY:+ SAMPLER_SPARSITY=$SAMPLER_SPARSITY})"
status=0
(cd "$(dirname "$script")" && SAMPLER_FILE=$report "$lua" "$script" "$@") >"$demo/lua.out" || status=$?
head -n 10 "$demo/lua.out"
[ "$(wc -l <"$demo/lua.out")" -gt 10 ] && echo "   ... ($(wc -l <"$demo/lua.out") lines of output in $demo/lua.out)"
echo "   exit status $status"
[ -s "$report" ] || real_die "the run wrote no report at $report"

echo "== sampler-report $report --binary $lua   (first ${DEMO_LINES:-40} lines)"
"$report_tool" "$report" --binary "$lua" >"$demo/lua.decoded.txt"
head -n "${DEMO_LINES:-40}" "$demo/lua.decoded.txt"
echo "== full decoded report: $demo/lua.decoded.txt ($(wc -l <"$demo/lua.decoded.txt") lines)"

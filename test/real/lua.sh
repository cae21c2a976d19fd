#!/usr/bin/env bash
# Real-program test: Lua 5.4 (Debian's lua5.4 source package) built with sampler-cc.
#
#   test/real/lua.sh [BUILD_DIR]
#
# 1. fetches Debian's lua5.4 source into <root>/third_party/lua5.4 (scripts/fetch-source.sh);
# 2. builds Lua's interpreter twice, outside the source tree, in BUILD_DIR/test/real/lua/:
#    baseline/ with plain clang-19 -O2, and sampler-cc-<hash>/ with sampler-cc -O2 (same flags
#    plus SAMPLER_CC_FLAGS; the hash names the compiler and those flags);
# 3. runs every workload test/real/lua/*.lua with both interpreters and requires identical
#    stdout, stderr and exit status (and the exit status a workload declares with a
#    `-- expect-exit: N` line, 0 if none);
# 4. checks the instrumented runs' reports (docs/report-format.md): each is complete and records
#    the run's exit status, `sampler-report REPORT --binary LUA` decodes it, and the reports
#    show non-zero counts at sites in lvm.c (Lua's VM loop).
#
# BUILD_DIR: the sampler build folder; default $SAMPLER_BUILD_DIR, else <root>/build.
# Environment:
#   SAMPLER_CC_FLAGS   extra flags appended to sampler-cc's CFLAGS (a separate build per value)
#   SAMPLER_SPARSITY   passed through to the instrumented runs (as is SAMPLER_SEED); all other
#                      SAMPLER_* variables are cleared for the runs; SAMPLER_FILE is set per run
#   SAMPLER_CC         the instrumented build's compiler instead of BUILD_DIR/bin/sampler-cc;
#                      for developing this script with plain clang-19: without reports, the
#                      report checks are skipped (and said so)
#   SAMPLER_REPORT_TOOL  the decoder instead of BUILD_DIR/bin/sampler-report
#   REAL_KEEP=1        keep the temporary folder with outputs and reports (kept on failure anyway)
#   REAL_TIMEOUT       seconds allowed per workload run (default 60)
set -euo pipefail
exec 2>&1   # one ordered stream (ctest shows it on failure)

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
# shellcheck source=../../scripts/lib-real.sh
. "$root/scripts/lib-real.sh"

build=$(real_build_dir "${1:-}")
cc_override=${SAMPLER_CC:-}
sampler_cc=${SAMPLER_CC:-$build/bin/sampler-cc}
report_tool=${SAMPLER_REPORT_TOOL:-$build/bin/sampler-report}
extra_flags=${SAMPLER_CC_FLAGS:-}
timeout_s=${REAL_TIMEOUT:-60}
workloads_dir=$here/lua

failures=()
fail() { failures+=("$*"); printf '  FAIL: %s\n' "$*"; }
show() { sed 's/^/      | /' "$2" 2>/dev/null | head -n "$1" || true; }             # show N FILE
show_diff() { diff -u "$1" "$2" | head -n 30 | sed 's/^/      | /' || true; }     # show_diff A B

finish() {
  if [ "${#failures[@]}" -eq 0 ]; then
    [ "${REAL_KEEP:-0}" = 1 ] && echo "outputs and reports kept in $tmp" || rm -rf "$tmp"
    echo "PASS: lua: ${#workloads[@]} workloads, baseline and sampler-cc builds agree${report_note}"
    exit 0
  fi
  echo "outputs and reports kept in $tmp"
  echo "FAIL: lua: ${#failures[@]} problem(s): ${failures[0]}$([ "${#failures[@]}" -gt 1 ] && echo " (and more above)")"
  exit 1
}

echo "== lua real-program test"
echo "   sampler build:    $build"
echo "   baseline CC:      $REAL_CLANG"
echo "   instrumented CC:  $sampler_cc${cc_override:+ (SAMPLER_CC override)}"
echo "   CFLAGS:           $REAL_LUA_CFLAGS"
echo "   extra flags:      ${extra_flags:-(none)}   (SAMPLER_CC_FLAGS, instrumented build only)"
echo "   SAMPLER_SPARSITY: ${SAMPLER_SPARSITY:-(unset: runtime default)}"

[ -x "$REAL_CLANG" ] || { echo "FAIL: lua: $REAL_CLANG not found (run scripts/setup.sh)"; exit 1; }
if ! command -v "$sampler_cc" >/dev/null 2>&1; then
  echo "FAIL: lua: instrumented compiler $sampler_cc not found (build the project first: cmake --build $build)"
  exit 1
fi

shopt -s nullglob
workloads=("$workloads_dir"/*.lua)
shopt -u nullglob
[ "${#workloads[@]}" -gt 0 ] || { echo "FAIL: lua: no workloads in $workloads_dir"; exit 1; }

# --- 1. source -----------------------------------------------------------------------------
echo "== fetching Debian's lua5.4 source"
src=$(real_fetch lua5.4)
echo "   $src"

# --- 2. builds -----------------------------------------------------------------------------
base_dir=$(real_lua_dir "$build" "$REAL_CLANG" "")
inst_dir=$(real_lua_dir "$build" "$sampler_cc" "$extra_flags")

echo "== building lua: baseline (clang-19)"
real_build_lua "$src" "$base_dir" "$REAL_CLANG" "$REAL_LUA_CFLAGS" \
  "$(real_compiler_fingerprint "$REAL_CLANG")"
echo "== building lua: instrumented ($(basename "$sampler_cc"))"
t0=$(real_now_ms)
real_build_lua "$src" "$inst_dir" "$sampler_cc" "$REAL_LUA_CFLAGS${extra_flags:+ $extra_flags}" \
  "$(real_compiler_fingerprint "$sampler_cc" "$([ -z "$cc_override" ] && echo "$build")")"
echo "   ($(( $(real_now_ms) - t0 )) ms)"
base_lua=$base_dir/lua
inst_lua=$inst_dir/lua

tmp=$(mktemp -d "${TMPDIR:-/tmp}/sampler-lua.XXXXXX")
mkdir -p "$tmp/baseline" "$tmp/sampler" "$tmp/reports" "$tmp/decoded"

# run_lua DIR OUTPREFIX SCRIPT [VAR=VALUE...]: run the workload SCRIPT with DIR/lua from the
# workloads' folder, with no stdin, VAR=VALUE added to the environment, and the interpreter
# found through PATH so that its argv[0] (which error messages show) is "lua" for both builds.
# Prints the exit status.
run_lua() {
  local dir=$1 out=$2 script=$3 rc=0
  shift 3
  (cd "$workloads_dir" && env PATH="$dir:$PATH" "$@" timeout "$timeout_s" lua "$script") \
    </dev/null >"$out.out" 2>"$out.err" || rc=$?
  echo "$rc"
}

# Runs of the baseline: no SAMPLER_* at all. Runs of the instrumented build: a clean SAMPLER_*
# environment except the pass-through variables, and SAMPLER_FILE per run.
real_clean_sampler_env
pass_env=()
sparsity_expected=${SAMPLER_SPARSITY:-}
[ -n "${SAMPLER_SPARSITY:-}" ] && pass_env+=("SAMPLER_SPARSITY=$SAMPLER_SPARSITY")
[ -n "${SAMPLER_SEED:-}" ] && pass_env+=("SAMPLER_SEED=$SAMPLER_SEED")
unset SAMPLER_SPARSITY SAMPLER_SEED

# --- 3. compare ----------------------------------------------------------------------------
echo "== running ${#workloads[@]} workloads with both interpreters (stdout, stderr, exit status)"
printf '   %-24s %9s %6s %9s %9s\n' workload "status" expect "base ms" "instr ms"
declare -A status
for w in "${workloads[@]}"; do
  name=$(basename "$w" .lua)
  expect=$(sed -nE 's/^--[[:space:]]*expect-exit:[[:space:]]*([0-9]+).*/\1/p' "$w" | head -n 1 || true)
  expect=${expect:-0}
  t0=$(real_now_ms)
  rc_base=$(run_lua "$base_dir" "$tmp/baseline/$name" "$name.lua")
  t1=$(real_now_ms)
  rc_inst=$(run_lua "$inst_dir" "$tmp/sampler/$name" "$name.lua" \
              "${pass_env[@]}" "SAMPLER_FILE=$tmp/reports/$name.report")
  t2=$(real_now_ms)
  status[$name]=$rc_inst
  printf '   %-24s %9s %6s %9s %9s\n' "$name" "$rc_base/$rc_inst" "$expect" "$((t1 - t0))" "$((t2 - t1))"
  if [ "$rc_base" != "$expect" ]; then
    fail "$name: baseline exit status $rc_base, the workload expects $expect"
    show 10 "$tmp/baseline/$name.err"
  fi
  [ -s "$tmp/baseline/$name.out" ] || fail "$name: baseline printed nothing"
  if [ "$rc_base" != "$rc_inst" ]; then
    fail "$name: exit status differs: baseline $rc_base, instrumented $rc_inst"
    show 10 "$tmp/sampler/$name.err"
  fi
  if ! cmp -s "$tmp/baseline/$name.out" "$tmp/sampler/$name.out"; then
    fail "$name: stdout differs"
    show_diff "$tmp/baseline/$name.out" "$tmp/sampler/$name.out"
  fi
  # stderr: compared too, except lines the sampler runtime itself may write ("sampler...").
  if ! cmp -s "$tmp/baseline/$name.err" <(grep -vi '^sampler' "$tmp/sampler/$name.err" || true); then
    fail "$name: stderr differs"
    show_diff "$tmp/baseline/$name.err" "$tmp/sampler/$name.err"
  fi
done

# --- 4. reports ----------------------------------------------------------------------------
report_note=""
shopt -s nullglob
reports=("$tmp"/reports/*)
shopt -u nullglob
if [ -n "$cc_override" ] && [ "${#reports[@]}" -eq 0 ]; then
  echo "== SKIPPED: report checks: the instrumented build (SAMPLER_CC=$cc_override) wrote no reports"
  report_note=" (report checks skipped: SAMPLER_CC override)"
  finish
fi
echo "== checking reports (docs/report-format.md) and decoding them with $(basename "$report_tool")"
if [ ! -x "$report_tool" ]; then
  fail "report decoder $report_tool not found"
  finish
fi
lvm_raw_total=0
lvm_human_total=0
printf '   %-24s %-10s %-8s %14s %16s\n' workload report decoded "lvm.c cells>0" "lvm.c sites>0"
for w in "${workloads[@]}"; do
  name=$(basename "$w" .lua)
  report=$tmp/reports/$name.report
  if [ ! -s "$report" ]; then
    fail "$name: no report at $report"
    continue
  fi
  rstate=ok
  [ "$(head -1 "$report")" = "$(printf 'sampler-report\t1')" ] || { rstate=bad; fail "$name: report does not start with 'sampler-report<TAB>1'"; }
  [ "$(tail -n 1 "$report")" = "end-of-report" ] || { rstate=bad; fail "$name: report does not end with end-of-report (truncated)"; }
  if ! grep -qx "$(printf 'end\texit\t%s' "${status[$name]}")" "$report"; then
    rstate=bad
    fail "$name: report's end line is '$(grep -m1 "^end$(printf '\t')" "$report" || echo none)', the run exited with ${status[$name]}"
  fi
  if [ -n "$sparsity_expected" ] && ! grep -qx "$(printf 'sparsity\t%s' "$sparsity_expected")" "$report"; then
    rstate=bad
    fail "$name: report's sparsity line is '$(grep -m1 "^sparsity" "$report" || echo none)', SAMPLER_SPARSITY=$sparsity_expected"
  fi
  # Raw count of non-zero cells in units whose source name ends in lvm.c.
  lvm_raw=$(awk -F'\t' '$1 == "unit" { inlvm = ($5 ~ /(^|\/)lvm\.c$/); next }
                        $1 == "counts" && inlvm { n = split($2, c, " ");
                          for (i = 1; i <= n; i++) { split(c[i], kv, ":"); if (kv[2] + 0 > 0) k++ } }
                        END { print k + 0 }' "$report")
  dstate=ok
  if ! "$report_tool" "$report" --binary "$inst_lua" >"$tmp/decoded/$name.txt" 2>"$tmp/decoded/$name.err"; then
    dstate=FAILED
    fail "$name: $(basename "$report_tool") $report --binary $inst_lua failed"
    show 5 "$tmp/decoded/$name.err"
  elif [ ! -s "$tmp/decoded/$name.txt" ]; then
    dstate=empty
    fail "$name: $(basename "$report_tool") printed nothing"
  fi
  # Human output: site lines "lvm.c:LINE:COL  function  scheme  description  cell=N ...
  # estimate cell=N ..." with a non-zero cell (looked for before the estimates).
  lvm_human=$(grep -E '(^|[[:space:]/])lvm\.c:[0-9]+' "$tmp/decoded/$name.txt" 2>/dev/null |
              sed -E 's/[[:space:]]estimate[[:space:]].*//' |
              grep -cE '[[:space:]][^[:space:]=]+=[1-9][0-9]*([[:space:]]|$)' || true)
  lvm_raw_total=$((lvm_raw_total + lvm_raw))
  lvm_human_total=$((lvm_human_total + lvm_human))
  printf '   %-24s %-10s %-8s %14s %16s\n' "$name" "$rstate" "$dstate" "$lvm_raw" "$lvm_human"
done
if [ "$sparsity_expected" = off ]; then
  echo "   (SAMPLER_SPARSITY=off: no counts expected in sampled units; lvm.c count check skipped)"
else
  if [ "$lvm_raw_total" -eq 0 ]; then
    fail "no report has a non-zero count in a unit named lvm.c"
  fi
  if [ "$lvm_human_total" -eq 0 ]; then
    fail "no decoded report shows an lvm.c:LINE site with a non-zero count"
  fi
fi
if [ -s "$tmp/decoded/${name}.txt" ]; then
  echo "   decoded report of $name.lua (first 15 lines):"
  show 15 "$tmp/decoded/$name.txt"
fi
report_note="; ${#reports[@]} reports decode"
if [ "$sparsity_expected" != off ]; then
  report_note="$report_note, lvm.c counts non-zero ($lvm_raw_total cells, $lvm_human_total site lines)"
fi
[ -n "$sparsity_expected" ] && report_note="$report_note, SAMPLER_SPARSITY=$sparsity_expected"
finish

#!/usr/bin/env bash
# creduce interestingness test for a sampler-cc miscompilation found by
# scripts/difftest-csmith.sh (docs/differential-testing.md, "Reducing a failure").
#
# Exit 0 iff FILE (a C program, preprocessed so that it needs no csmith header) is
#   - free of the undefined behaviour that reduction tends to introduce: clang-19 accepts it
#     with the warnings for uninitialized variables, missing returns, implicit declarations
#     and bad conversions turned into errors, and its ASan+UBSan build runs to completion
#     (exit status 0 or the reference's), and
#   - stable: clang-19 -O0 and -O2 builds terminate within IT_TIMEOUT and print the same, and
#   - still miscompiled: the sampler-cc build with IT_CFLAGS, run at SAMPLER_SPARSITY=IT_SPARSITY,
#     prints something else, exits differently, crashes or times out (IT_KIND=timeout: only a
#     timeout counts, so that a hang is not reduced into another bug);
#     or, with IT_KIND=counts: the sampled build at d=1 and the -fno-sampler-sampling build
#     (both with IT_CFLAGS) count differently (reports decoded by sampler-report, compared
#     through norm-report.awk); IT_MATCH (a grep -E pattern) must then match the diff.
#
# creduce runs it without arguments in a copy of the folder, so the settings come from the
# environment (export them before running creduce) or from a wrapper:
#   IT_FILE      the file (default prog.c)
#   IT_CFLAGS    sampler-cc flags (e.g. "-O2 -fsampler-schemes=all")
#   IT_SPARSITY  SAMPLER_SPARSITY of the instrumented run (default 1)
#   IT_BUILD     sampler's build folder (default: this repository's build/)
#   IT_TIMEOUT   seconds for one run (default 5; an instrumented run gets 2 x that)
#   IT_KIND      any (default) | timeout | output (only a different output or exit status) |
#                counts (see above)
#   IT_MATCH     with IT_KIND=counts: a pattern the counts diff must match (default: any)
# Usage:  IT_CFLAGS="-O2 -fsampler-schemes=all" creduce test/difftest/interesting-c.sh prog.c
set -u
src=${IT_FILE:-prog.c}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
build=${IT_BUILD:-$here/../../build}
cflags=${IT_CFLAGS:?IT_CFLAGS: the sampler-cc flags of the failing build}
d=${IT_SPARSITY:-1}
to=${IT_TIMEOUT:-5}
kind=${IT_KIND:-any}
CLANG=/usr/lib/llvm-19/bin/clang
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT

# Reject the undefined behaviour that reduction introduces.
"$CLANG" -O0 -Werror=uninitialized -Werror=sometimes-uninitialized \
  -Werror=conditional-uninitialized -Werror=return-type -Werror=implicit-int \
  -Werror=implicit-function-declaration -Werror=int-conversion \
  -Werror=incompatible-pointer-types -Werror=int-to-pointer-cast -Werror=pointer-to-int-cast \
  -Werror=array-bounds -Werror=division-by-zero -Werror=shift-count-overflow \
  -Werror=shift-count-negative -Werror=main-return-type -Werror=return-stack-address \
  -Werror=tautological-compare -fsyntax-only "$src" 2>/dev/null || exit 1
"$CLANG" -O2 "$src" -o "$t/ref" -w 2>/dev/null || exit 1
"$CLANG" -O0 "$src" -o "$t/ref0" -w 2>/dev/null || exit 1
(timeout "$to" "$t/ref" 1 >"$t/ref.out" 2>/dev/null; exit $?) 2>/dev/null; rrc=$?
[ $rrc -ne 124 ] && [ $rrc -lt 128 ] || exit 1
(timeout "$to" "$t/ref0" 1 >"$t/ref0.out" 2>/dev/null; exit $?) 2>/dev/null; r0=$?
[ $r0 -eq $rrc ] && cmp -s "$t/ref.out" "$t/ref0.out" || exit 1
"$CLANG" -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -w "$src" -o "$t/san" \
  2>/dev/null || exit 1
(ASAN_OPTIONS=detect_leaks=0 timeout $((to * 4)) "$t/san" 1 >"$t/san.out" 2>/dev/null; exit $?) 2>/dev/null
src_rc=$?
[ $src_rc -eq $rrc ] && cmp -s "$t/ref.out" "$t/san.out" || exit 1

# Counts: sampled at d=1 versus unconditional.
if [ "$kind" = counts ]; then
  timeout 300 "$build/bin/sampler-cc" $cflags -w "$src" -o "$t/s" >/dev/null 2>&1 || exit 1
  timeout 300 "$build/bin/sampler-cc" $cflags -fno-sampler-sampling -w "$src" -o "$t/u" >/dev/null 2>&1 || exit 1
  (SAMPLER_SPARSITY=1 SAMPLER_FILE="$t/s.report" timeout $((to * 2)) "$t/s" 1 >/dev/null 2>&1; exit $?) 2>/dev/null || exit 1
  (SAMPLER_FILE="$t/u.report" timeout $((to * 2)) "$t/u" 1 >/dev/null 2>&1; exit $?) 2>/dev/null || exit 1
  "$build/bin/sampler-report" "$t/s.report" --binary "$t/s" >"$t/s.txt" 2>/dev/null || exit 1
  "$build/bin/sampler-report" "$t/u.report" --binary "$t/u" >"$t/u.txt" 2>/dev/null || exit 1
  awk -f "$here/norm-report.awk" "$t/s.txt" "$t/s.txt" >"$t/s.norm"
  awk -f "$here/norm-report.awk" "$t/u.txt" "$t/u.txt" >"$t/u.norm"
  diff "$t/s.norm" "$t/u.norm" >"$t/diff" && exit 1
  grep -Eq -- "${IT_MATCH:-.}" "$t/diff"
  exit
fi

# Still miscompiled?
timeout 300 "$build/bin/sampler-cc" $cflags -w "$src" -o "$t/inst" >/dev/null 2>&1 || exit 1
(SAMPLER_SPARSITY=$d SAMPLER_SEED=1 SAMPLER_FILE="$t/report" timeout $((to * 2)) "$t/inst" 1 \
  >"$t/inst.out" 2>/dev/null; exit $?) 2>/dev/null
irc=$?
case $kind in
  timeout) [ $irc -eq 124 ] ;;
  output)  [ $irc -ne 124 ] && [ $irc -lt 128 ] && { [ $irc -ne $rrc ] || ! cmp -s "$t/ref.out" "$t/inst.out"; } ;;
  *)       [ $irc -ne $rrc ] || ! cmp -s "$t/ref.out" "$t/inst.out" ;;
esac

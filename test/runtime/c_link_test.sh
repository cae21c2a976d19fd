#!/bin/sh
# The runtime links into plain C programs: no libstdc++, no C++ symbols, with the C
# driver (clang-19) and -lm only; static and shared; and the programs write reports.
#
# usage: c_link_test.sh CLANG LIBDIR ABI_INCLUDE_DIR SOURCE_DIR WORK_DIR
set -eu
CLANG=$1 LIBDIR=$2 INC=$3 SRC=$4 WORK=$5
rm -rf "$WORK"
mkdir -p "$WORK"
fail() { echo "FAIL: $*" >&2; exit 1; }

# 1. The archive itself: no C++ in it (defined or needed).
if nm "$LIBDIR/libsampler_rt.a" | grep -E ' [TtUuDdBbWwVv] (_Z|__cxa_|__gxx_|_Unwind_)'; then
  fail "libsampler_rt.a has C++ symbols"
fi

# 2. A plain C link against the static archive.
"$CLANG" -std=c11 -Wall -Werror -O1 -I"$INC" -o "$WORK/prog_static" "$SRC/c_program.c" \
  "$LIBDIR/libsampler_rt.a" -lm || fail "static link"
if nm "$WORK/prog_static" | grep -E ' (_Z|__cxa_begin_catch|__gxx_personality|_Unwind_Resume)'; then
  fail "static program has C++ symbols"
fi
if readelf -d "$WORK/prog_static" | grep -E 'NEEDED.*(libstdc\+\+|libc\+\+)'; then
  fail "static program needs a C++ library"
fi

# 3. The same program against the shared runtime.
"$CLANG" -std=c11 -Wall -Werror -O1 -I"$INC" -o "$WORK/prog_shared" "$SRC/c_program.c" \
  -L"$LIBDIR" -lsampler_rt -Wl,-rpath,"$LIBDIR" || fail "shared link"
readelf -d "$WORK/prog_shared" | grep -q 'NEEDED.*libsampler_rt.so' || fail "not linked to libsampler_rt.so"
if readelf -d "$LIBDIR/libsampler_rt.so" | grep -E 'NEEDED.*(libstdc\+\+|libc\+\+)'; then
  fail "libsampler_rt.so needs a C++ library"
fi

check_report() { # file: with d = 1 every execution is sampled, so counts are exact
  f=$1
  [ -f "$f" ] || fail "no report $f"
  head -n 1 "$f" | grep -qx "$(printf 'sampler-report\t1')" || fail "$f: bad first line"
  grep -qx "$(printf 'end\texit\t3')" "$f" || fail "$f: no 'end exit 3'"
  grep -qx "$(printf 'sparsity\t1')" "$f" || fail "$f: no 'sparsity 1'"
  grep -qx "$(printf 'seed\t0x000000000000002a')" "$f" || fail "$f: wrong seed"
  grep -qx "$(printf 'unit\tdeadbeef000102030405060708090a0b\t4\t1\tc_program.c')" "$f" || fail "$f: unit"
  grep -qx "$(printf 'counts\t0:750 1:250 3:1000')" "$f" || fail "$f: counts"
  [ "$(tail -n 1 "$f")" = end-of-report ] || fail "$f: not ended"
}

for kind in static shared; do
  set +e
  SAMPLER_FILE="$WORK/$kind.%p.report" SAMPLER_SPARSITY=1 SAMPLER_SEED=42 \
    "$WORK/prog_$kind" > "$WORK/$kind.out" 2> "$WORK/$kind.err"
  status=$?
  set -e
  [ $status -eq 3 ] || fail "$kind: exit status $status, expected 3"
  [ ! -s "$WORK/$kind.err" ] || fail "$kind: unexpected stderr: $(cat "$WORK/$kind.err")"
  n=$(ls "$WORK" | grep -c "^$kind\.[0-9]*\.report\$" || true)
  [ "$n" -eq 1 ] || fail "$kind: expected one report, found $n"
  check_report "$(ls "$WORK"/$kind.*.report)"
done

# 4. Invalid settings: one line each, the program runs on with the same status.
set +e
SAMPLER_FILE="$WORK/bad.report" SAMPLER_SPARSITY=abc "$WORK/prog_static" > /dev/null 2> "$WORK/bad.err"
status=$?
set -e
[ $status -eq 3 ] || fail "invalid setting changed the exit status to $status"
expected="sampler: SAMPLER_SPARSITY='abc' is not an integer >= 1 or 'off'; using 100"
[ "$(cat "$WORK/bad.err")" = "$expected" ] || fail "message: $(cat "$WORK/bad.err")"
grep -qx "$(printf 'sparsity\t100')" "$WORK/bad.report" || fail "default sparsity not used"

# 5. An unwritable report: one line, same status.
set +e
SAMPLER_FILE="$WORK/missing/r.report" "$WORK/prog_static" > /dev/null 2> "$WORK/nodir.err"
status=$?
set -e
[ $status -eq 3 ] || fail "unwritable report changed the exit status to $status"
expected="sampler: cannot write report '$WORK/missing/r.report': No such file or directory"
[ "$(cat "$WORK/nodir.err")" = "$expected" ] || fail "message: $(cat "$WORK/nodir.err")"

# 6. Sampling at the default density: counts are plausible, never more than executed.
SAMPLER_FILE="$WORK/d100.report" "$WORK/prog_static" > /dev/null || true
grep -q "^counts" "$WORK/d100.report" || fail "no counts line at d=100"

echo "PASS"
rm -rf "$WORK"

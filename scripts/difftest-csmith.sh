#!/usr/bin/env bash
# Differential testing of sampler-cc against clang-19 with csmith-generated programs.
#
# For each seed: csmith generates a program (fixed seed, bounded size); clang-19 -O2 builds the
# reference and sampler-cc -O2 -fsampler-schemes=all (sampled) the instrumented binary, which
# runs at SAMPLER_SPARSITY=1 and =7 (same binary, SAMPLER_SEED=seed). The output (csmith's
# checksum, and with the argument 1 the checksum after every global) and the exit status of
# every run must equal the reference's. Each seed also gets one extra build, by seed modulo 4:
#   0: sampler-cc -O0 (sampled), run at d=1 and d=7
#   1: sampler-cc -O2 -fno-sampler-sampling (unconditional)
#   2: sampler-cc -O1 -fsampler-elements -fsampler-compare-constants (sampled), run at d=3
#   3: sampler-cc -O3 -fsampler-elements (sampled), run at d=1
# For the seeds with the unconditional build (1 modulo 4), the decoded reports (sampler-report)
# of the -O2 sampled run at d=1 and of the unconditional run must also give the same counts
# for every site: at d=1 sampling observes every execution. A mismatch counts as a difference.
# (scalar-pairs sites between pointers are left out: stack addresses differ between builds.)
#
# A program whose reference run times out is skipped (counted); one whose instrumented run
# times out (the limit is generous: see DIFFTEST_INST_TIMEOUT) is a difference. The reference
# must be stable: built by clang-19 at -O0 too, it must print the same and exit the same (a
# program where it does not, or whose reference crashes, is not tested, and counted apart).
# A sampler-cc failure (non-zero exit, or a crash message from clang/LLVM) is a compile
# failure. Each
# failing case is kept in <results>/failures/SEED/: prog.c, the outputs, the kind of failure
# (`kind`) and repro.sh, which rebuilds and reruns the failing configuration and exits 0 iff the
# failure is still there (usable as a creduce interestingness test: see
# docs/differential-testing.md).
#
# Usage: scripts/difftest-csmith.sh [-n COUNT] [-j JOBS] [-s START_SEED] [-v] [-S] [BUILD_DIR]
#   -n COUNT       programs to test (default 100)
#   -j JOBS        programs tested in parallel (default 2)
#   -s START_SEED  first csmith seed (default 1); seeds START_SEED .. START_SEED+COUNT-1
#   -v             one line per program, not only per failure
#   -S             snapshot: copy BUILD_DIR's bin/, lib/ and include/ first and test the copy
#                  (for long runs while the build folder is being rebuilt)
#   BUILD_DIR      sampler's build folder (default <root>/build)
# Environment:
#   DIFFTEST_OUT           results folder (default BUILD_DIR/difftest); failures/ below it
#   DIFFTEST_CSMITH_OPTS   csmith options (default: see CSMITH_OPTS_DEFAULT below)
#   DIFFTEST_SCHEMES       value of -fsampler-schemes= (default all)
#   DIFFTEST_REF_TIMEOUT   seconds for a reference run (default 2)
#   DIFFTEST_INST_TIMEOUT  seconds for an instrumented run (default max(10, 30 x reference time))
#   DIFFTEST_CC_TIMEOUT    seconds for one compile (default 300)
#   DIFFTEST_KEEP_ALL=1    keep the work folder of every program (default: failures only)
# To stop a long run early and still get its summary: touch <results>/STOP (the seeds not
# started yet are not run, nor counted).
# Output: one line per failure (-v: per program), the programs not tested, then
#   difftest: N programs, D differences, C compile failures, T skipped (timeouts)
# Exit status: 0 if D = C = 0 (and some program was tested); 1 if not; 2 on a usage error;
# 77 if csmith, its headers or the build are missing (ctest reports the test as skipped).
set -uo pipefail

CSMITH_OPTS_DEFAULT="--max-funcs 3 --max-block-depth 3 --max-block-size 3 --max-expr-complexity 5 --max-array-dim 2 --max-array-len-per-dim 4 --max-struct-fields 4 --max-union-fields 3"
CRASH_RE='PLEASE submit a bug report|Stack dump:|LLVM ERROR|Assertion .* failed|clang frontend command failed|Segmentation fault|Illegal instruction|Aborted|UNREACHABLE executed|Bad machine code|Broken module|error: unable to load plugin'
CLANG=/usr/lib/llvm-19/bin/clang
# Normalizes a decoded report (sampler-report's text) for the counts comparison.
NORM_AWK=$(cat "$(dirname "${BASH_SOURCE[0]}")/../test/difftest/norm-report.awk")
export NORM_AWK

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
self="$root/scripts/$(basename "${BASH_SOURCE[0]}")"

# ----------------------------------------------------------------------------------------
# One seed (run by the workers through xargs): prints at most one line; writes the status.
# ----------------------------------------------------------------------------------------
if [ "${1:-}" = "--one" ]; then
  seed=$2
  if [ -e "$DT_OUT/STOP" ]; then echo not-run >"$DT_STATUS/$seed"; exit 0; fi
  dir="$DT_WORK/$seed"
  rm -rf "$dir"; mkdir -p "$dir"; cd "$dir" || exit 1
  inc="-I$DT_CSMITH_INC"
  status() { echo "$1" >"$DT_STATUS/$seed"; }
  keep() { # keep KIND DETAIL: save the case in failures/SEED, say so
    local kind=$1 detail=$2 f="$DT_OUT/failures/$seed"
    rm -rf "$f"; mkdir -p "$f"
    cp -a "$dir"/. "$f"/
    rm -f "$f"/ref "$f"/ref0 "$f"/*.report
    find "$f" -maxdepth 1 -name 'inst-*' ! -name '*.*' -delete   # binaries; keep outputs
    printf '%s\n' "$kind: $detail" >"$f/kind"
    echo "difftest: seed $seed: $kind: $detail (kept in $f)"
  }
  # Write repro.sh: builds ref + the configuration, reruns, exits 0 iff the failure is there.
  write_repro() { # write_repro KIND "CFLAGS" SPARSITY
    local kind=$1 cflags=$2 d=$3
    cat >"$dir/repro.sh" <<EOF
#!/usr/bin/env bash
# Reproduce difftest seed $seed ($kind). Exit 0 iff the failure is still there.
# Generated by: csmith --seed $seed $DT_CSMITH_OPTS -o prog.c
# Usage: repro.sh [FILE.c] (default prog.c, in the current folder)
src=\${1:-prog.c}
CC="$DT_REPRO_BUILD/bin/sampler-cc"
CFLAGS="$cflags"
INC="$inc"
EOF
    cat >>"$dir/repro.sh" <<'EOF'
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
EOF
    if [ "$kind" = "compile-failure" ]; then
      cat >>"$dir/repro.sh" <<EOF
timeout $DT_CC_TIMEOUT "\$CC" \$CFLAGS -w \$INC "\$src" -o "\$t/inst" >"\$t/cc.err" 2>&1
rc=\$?
cat "\$t/cc.err" >&2
[ \$rc -ne 0 ] || grep -Eq '$CRASH_RE' "\$t/cc.err"
EOF
    else
      cat >>"$dir/repro.sh" <<EOF
$CLANG -O2 -w \$INC "\$src" -o "\$t/ref" || exit 1
timeout $DT_REF_TIMEOUT "\$t/ref" 1 >"\$t/ref.out" 2>/dev/null; rrc=\$?
[ \$rrc -ne 124 ] && [ \$rrc -lt 128 ] || exit 1
$CLANG -O0 -w \$INC "\$src" -o "\$t/ref0" || exit 1
timeout $DT_REF_TIMEOUT "\$t/ref0" 1 >"\$t/ref0.out" 2>/dev/null; r0=\$?
[ \$r0 -eq \$rrc ] && cmp -s "\$t/ref.out" "\$t/ref0.out" || exit 1
timeout $DT_CC_TIMEOUT "\$CC" \$CFLAGS -w \$INC "\$src" -o "\$t/inst" || exit 1
SAMPLER_SPARSITY=$d SAMPLER_SEED=$seed SAMPLER_FILE="\$t/report" timeout ${DT_INST_TIMEOUT:-60} "\$t/inst" 1 >"\$t/inst.out" 2>/dev/null; irc=\$?
echo "reference exit \$rrc, instrumented exit \$irc (sparsity $d)" >&2
diff "\$t/ref.out" "\$t/inst.out" >&2
[ \$rrc -ne \$irc ] || ! cmp -s "\$t/ref.out" "\$t/inst.out"
EOF
    fi
    chmod +x "$dir/repro.sh"
  }

  # 1. generate
  if ! timeout 60 csmith --seed "$seed" $DT_CSMITH_OPTS -o prog.c >csmith.log 2>&1 || [ ! -s prog.c ]; then
    status skip-gen; echo "difftest: seed $seed: skipped: csmith failed"; exit 0
  fi
  # 2. reference
  if ! timeout "$DT_CC_TIMEOUT" "$CLANG" -O2 -w $inc prog.c -o ref >ref.cc.err 2>&1; then
    status skip-refcc; echo "difftest: seed $seed: skipped: clang-19 could not build the reference"; exit 0
  fi
  skipped() { # skipped STATUS WHY
    status "$1"; [ "$DT_VERBOSE" = 1 ] && echo "difftest: seed $seed: skipped ($2)"
    cd /; rm -rf "$dir"; exit 0
  }
  t0=$(date +%s%N)
  (timeout "$DT_REF_TIMEOUT" ./ref 1 >ref.out 2>ref.err; exit $?) 2>/dev/null; rrc=$?
  t1=$(date +%s%N)
  [ $rrc -ne 124 ] || skipped skip-timeout "reference timeout"
  [ $rrc -lt 128 ] || skipped skip-refcrash "reference crashed with status $rrc"
  # The reference must be stable: clang-19 -O0 must agree with -O2. (Loops that csmith leaves
  # without side effects may be deleted at -O2 under C's forward-progress rule, while they spin
  # at -O0, or once instrumentation gives them side effects: such programs are not tested.)
  timeout "$DT_CC_TIMEOUT" "$CLANG" -O0 -w $inc prog.c -o ref0 >ref0.cc.err 2>&1 ||
    skipped skip-refcc "clang-19 -O0 could not build the reference"
  (timeout "$DT_REF_TIMEOUT" ./ref0 1 >ref0.out 2>/dev/null; exit $?) 2>/dev/null; r0=$?
  [ $r0 -ne 124 ] || skipped skip-timeout "reference -O0 timeout"
  [ $r0 -eq $rrc ] && cmp -s ref.out ref0.out || skipped skip-unstable "clang-19 -O0 and -O2 disagree"
  ms=$(( (t1 - t0) / 1000000 ))
  itimeout=${DT_INST_TIMEOUT:-$(( ms * 30 / 1000 > 10 ? ms * 30 / 1000 : 10 ))}
  DT_INST_TIMEOUT=$itimeout

  # 3. instrumented builds: "NAME|FLAGS|SPARSITIES"
  configs=("O2|-O2|1 7")
  case $((seed % 4)) in
    0) configs+=("O0|-O0|1 7") ;;
    1) configs+=("O2-unconditional|-O2 -fno-sampler-sampling|1") ;;
    2) configs+=("O1-elements-constants|-O1 -fsampler-elements -fsampler-compare-constants|3") ;;
    3) configs+=("O3-elements|-O3 -fsampler-elements|1") ;;
  esac
  for c in "${configs[@]}"; do
    IFS='|' read -r name flags ds <<<"$c"
    cflags="$flags -fsampler-schemes=$DT_SCHEMES"
    timeout "$DT_CC_TIMEOUT" "$DT_BUILD/bin/sampler-cc" $cflags -w $inc prog.c -o "inst-$name" >"inst-$name.cc.err" 2>&1
    crc=$?
    if [ $crc -ne 0 ] || grep -Eq "$CRASH_RE" "inst-$name.cc.err"; then
      write_repro compile-failure "$cflags" 1
      status ccfail
      why="exit $crc"; [ $crc -eq 124 ] && why="timeout after ${DT_CC_TIMEOUT}s"
      keep compile-failure "sampler-cc $cflags: $why: $(grep -Em1 "$CRASH_RE|error" "inst-$name.cc.err" | cut -c1-160)"
      exit 0
    fi
    for d in $ds; do
      (SAMPLER_SPARSITY=$d SAMPLER_SEED=$seed SAMPLER_FILE="$dir/inst-$name-d$d.report" \
        timeout "$itimeout" "./inst-$name" 1 >"inst-$name-d$d.out" 2>"inst-$name-d$d.err"; exit $?) 2>/dev/null
      irc=$?
      if [ $irc -ne $rrc ] || ! cmp -s ref.out "inst-$name-d$d.out"; then
        write_repro difference "$cflags" "$d"
        status diff
        if [ $irc -eq 124 ]; then what="instrumented run timed out after ${itimeout}s (reference: ${ms} ms)"
        elif [ $irc -ne $rrc ]; then what="exit status $irc, reference $rrc"
        else what="output differs: $(cmp ref.out "inst-$name-d$d.out" 2>&1 | head -1 | sed 's/^[^:]*: //')"; fi
        keep difference "sampler-cc $cflags, SAMPLER_SPARSITY=$d: $what"
        exit 0
      fi
    done
  done
  # Counts: at d=1 the sampled build observes every site execution, so its report must count
  # exactly what the unconditional build's does (both -O2, same schemes).
  if [ $((seed % 4)) -eq 1 ] && [ -x "$DT_BUILD/bin/sampler-report" ]; then
    printf '%s' "$NORM_AWK" >norm.awk
    norm() { awk -f norm.awk "$1" "$1"; }
    "$DT_BUILD/bin/sampler-report" inst-O2-d1.report --binary inst-O2 >counts-sampled.txt 2>&1
    r1=$?
    "$DT_BUILD/bin/sampler-report" inst-O2-unconditional-d1.report --binary inst-O2-unconditional \
      >counts-unconditional.txt 2>&1
    r2=$?
    if [ $r1 -ne 0 ] || [ $r2 -ne 0 ] || ! grep -q '^unit ' counts-sampled.txt ||
       ! cmp -s <(norm counts-sampled.txt) <(norm counts-unconditional.txt); then
      cflags="-O2 -fsampler-schemes=$DT_SCHEMES"
      cat >repro.sh <<EOF2
#!/usr/bin/env bash
# Reproduce difftest seed $seed (counts): sampler-cc $cflags at SAMPLER_SPARSITY=1 must count
# what sampler-cc $cflags -fno-sampler-sampling counts (compared with norm.awk, beside this
# script). Usage: repro.sh [FILE.c] (default prog.c). Exit 0 iff the counts still differ.
src=\${1:-prog.c}
awkf=\$(cd "\$(dirname "\$0")" && pwd)/norm.awk
B="$DT_REPRO_BUILD"
t=\$(mktemp -d); trap 'rm -rf "\$t"' EXIT
"\$B/bin/sampler-cc" $cflags -w $inc "\$src" -o "\$t/s" || exit 1
"\$B/bin/sampler-cc" $cflags -fno-sampler-sampling -w $inc "\$src" -o "\$t/u" || exit 1
SAMPLER_SPARSITY=1 SAMPLER_FILE="\$t/s.report" timeout $DT_INST_TIMEOUT "\$t/s" 1 >/dev/null || exit 1
SAMPLER_FILE="\$t/u.report" timeout $DT_INST_TIMEOUT "\$t/u" 1 >/dev/null || exit 1
"\$B/bin/sampler-report" "\$t/s.report" --binary "\$t/s" >"\$t/s.txt"
"\$B/bin/sampler-report" "\$t/u.report" --binary "\$t/u" >"\$t/u.txt"
diff <(awk -f "\$awkf" "\$t/s.txt" "\$t/s.txt") <(awk -f "\$awkf" "\$t/u.txt" "\$t/u.txt") >&2 && exit 1
exit 0
EOF2
      chmod +x repro.sh
      status diff
      keep difference "counts: sampler-cc $cflags at SAMPLER_SPARSITY=1 and -fno-sampler-sampling count differently: $(diff <(norm counts-sampled.txt) <(norm counts-unconditional.txt) | grep -m1 '^[<>]' | cut -c1-120)"
      exit 0
    fi
    : >"$DT_STATUS/$seed.counts"
  fi
  status pass
  [ "$DT_VERBOSE" = 1 ] && echo "difftest: seed $seed: ok (${configs[*]})"
  if [ "${DIFFTEST_KEEP_ALL:-0}" != 1 ]; then cd /; rm -rf "$dir"; fi
  exit 0
fi

# ----------------------------------------------------------------------------------------
# Driver
# ----------------------------------------------------------------------------------------
usage() { sed -n '/^# Usage:/,/^# Exit status/p' "$self" | sed 's/^# \{0,1\}//' >&2; exit 2; }
count=100 jobs=2 start=1 verbose=0 snapshot=0
while getopts "n:j:s:vSh" o; do
  case $o in
    n) count=$OPTARG ;; j) jobs=$OPTARG ;; s) start=$OPTARG ;; v) verbose=1 ;; S) snapshot=1 ;;
    *) usage ;;
  esac
done
shift $((OPTIND - 1))
[ $# -le 1 ] || usage
for v in "$count" "$jobs" "$start"; do [[ $v =~ ^[0-9]+$ ]] || usage; done
[ "$jobs" -ge 1 ] || usage
build=$(cd "${1:-$root/build}" 2>/dev/null && pwd) || { echo "difftest: no build folder ${1:-$root/build}" >&2; exit 77; }

skip() { echo "difftest: SKIPPED: $*" >&2; exit 77; }
command -v csmith >/dev/null || skip "csmith not found (Debian package csmith)"
[ -x "$CLANG" ] || skip "$CLANG not found (clang-19)"
[ -x "$build/bin/sampler-cc" ] || skip "$build/bin/sampler-cc not built"
inc=""
for d in /usr/include/csmith /usr/include/csmith-* /usr/local/include/csmith /usr/local/include/csmith-*; do
  [ -f "$d/csmith.h" ] && { inc=$d; break; }
done
[ -n "$inc" ] || skip "csmith.h not found (Debian package libcsmith-dev)"

out=${DIFFTEST_OUT:-$build/difftest}
mkdir -p "$out/failures"
out=$(cd "$out" && pwd)
rm -f "$out/STOP"
tmp=$(mktemp -d "$out/run.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/status" "$tmp/work"

tested=$build
if [ $snapshot = 1 ]; then
  tested=$tmp/snapshot
  mkdir -p "$tested/lib"
  cp -a "$build/bin" "$build/include" "$tested/"
  cp -a "$build"/lib/*.so "$build"/lib/*.a "$tested/lib/"
  echo "difftest: testing a snapshot of $build (git $(git -C "$root" rev-parse --short HEAD 2>/dev/null), lib/ built $(date -r "$build/lib/SamplerPass.so" -u +%FT%TZ))"
fi
export DT_BUILD=$tested DT_REPRO_BUILD=$build DT_SCHEMES=${DIFFTEST_SCHEMES:-all} DT_OUT=$out DT_WORK=$tmp/work DT_STATUS=$tmp/status DT_CSMITH_INC=$inc
export DT_CSMITH_OPTS=${DIFFTEST_CSMITH_OPTS:-$CSMITH_OPTS_DEFAULT}
export DT_REF_TIMEOUT=${DIFFTEST_REF_TIMEOUT:-2} DT_CC_TIMEOUT=${DIFFTEST_CC_TIMEOUT:-300}
export DT_VERBOSE=$verbose
[ -n "${DIFFTEST_INST_TIMEOUT:-}" ] && export DT_INST_TIMEOUT=$DIFFTEST_INST_TIMEOUT
unset SAMPLER_SPARSITY SAMPLER_SEED SAMPLER_FILE SAMPLER_COUNTDOWNS SAMPLER_VERBOSE

# Sanity: the tested sampler-cc builds and runs a trivial program.
printf '#include <stdio.h>\nint main(int c, char **v) { if (c > 1) puts(v[1]); return 0; }\n' >"$tmp/sanity.c"
if ! "$tested/bin/sampler-cc" -O2 -fsampler-schemes="$DT_SCHEMES" "$tmp/sanity.c" -o "$tmp/sanity" >"$tmp/sanity.err" 2>&1 ||
   [ "$(SAMPLER_FILE="$tmp/sanity.report" "$tmp/sanity" ok)" != ok ]; then
  cat "$tmp/sanity.err" >&2
  echo "difftest: FAILED: $tested/bin/sampler-cc cannot build and run a trivial program"
  exit 1
fi

last=$((start + count - 1))
echo "difftest: seeds $start..$last, $jobs jobs, csmith $DT_CSMITH_OPTS, results in $out"
begin=$SECONDS
seq "$start" "$last" | xargs -P "$jobs" -n 1 bash "$self" --one
n=0 d=0 c=0 t=0 other=0 unstable=0 refcrash=0 notrun=0
for s in $(seq "$start" "$last"); do
  st=$(cat "$tmp/status/$s" 2>/dev/null || echo missing)
  n=$((n + 1))
  case $st in
    pass) ;; diff) d=$((d + 1)) ;; ccfail) c=$((c + 1)) ;; skip-timeout) t=$((t + 1)) ;;
    skip-unstable) unstable=$((unstable + 1)) ;; skip-refcrash) refcrash=$((refcrash + 1)) ;;
    not-run) n=$((n - 1)); notrun=$((notrun + 1)) ;;
    *) other=$((other + 1)); echo "difftest: seed $s: $st" ;;
  esac
done
echo "difftest: $(ls "$tmp/status" | grep -c '\.counts$') programs also had their d=1 counts compared with the unconditional build's"
echo "difftest: not tested: $unstable with clang-19 -O0 and -O2 disagreeing, $refcrash whose reference crashed, $other others (csmith or clang-19 failed)"
other=$((other + unstable + refcrash))
[ $notrun -eq 0 ] || echo "difftest: stopped early ($out/STOP): $notrun seeds not run"
echo "difftest: seeds $start..$last in $((SECONDS - begin)) s"
line="difftest: $n programs, $d differences, $c compile failures, $t skipped (timeouts)"
echo "$line"
echo "$(date -u +%FT%TZ) seeds $start..$last: $line" >>"$out/log"
if [ $((n - other - t)) -eq 0 ] && [ $n -gt 0 ]; then
  echo "difftest: FAILED: no program was tested"; exit 1
fi
[ $d -eq 0 ] && [ $c -eq 0 ]

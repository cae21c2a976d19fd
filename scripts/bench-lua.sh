#!/usr/bin/env bash
# Benchmark: the cost of sampler's instrumentation on Lua 5.4 (Debian's lua5.4 source package).
#
#   scripts/bench-lua.sh [-o FILE] [--reuse] [BUILD_DIR]
#
# Builds Lua's interpreter (scripts/lib-real.sh: real_fetch, real_build_lua) at -O2 in four
# configurations, in BUILD_DIR/bench/lua/<configuration>/:
#   baseline        clang-19                            (the reference)
#   sampled         sampler-cc                          (default schemes: branches,returns)
#   unconditional   sampler-cc -fno-sampler-sampling    (every site execution counted)
#   profile-instr   clang-19 -fprofile-instr-generate   (the peer: LLVM's instrumentation PGO)
# and runs the workload bench/lua/workload.lua under valgrind (cachegrind, no cache simulation)
# with each: baseline twice (the counts must be identical), unconditional and profile-instr
# once, sampled once for each SAMPLER_SPARSITY in off 10000 1000 100 1. For each run it
# records the total number of instructions executed (valgrind's "I refs": the whole process,
# dynamic loader and libc included), checks that the run exits 0 and prints exactly what the
# baseline prints (the checksums), and, for sampler's builds, that the run wrote a complete
# report with the right sparsity (the number of observations in it is shown too). It also
# times native runs (the least CPU time of BENCH_NATIVE_RUNS). For each build it records the
# .text size of the interpreter (llvm-size-19 -A) and the wall-clock time of the build step.
# From cachegrind's per-function counts it also shows where the instructions go.
#
# Prints a Markdown report (machine, tables, exact commands) on stdout, and writes it to FILE
# with -o FILE. Progress goes to stderr. Exit status 0 if every check passed, 1 otherwise (the
# table is still printed, with the failures; the runs' outputs are kept).
#
# Options:
#   -o FILE    also write the Markdown report to FILE
#   --reuse    do not rebuild a configuration whose build is up to date (its compile time is
#              then shown as "-"); by default every configuration is rebuilt, so that the
#              compile times are measured
#   BUILD_DIR  the sampler build folder (its bin/sampler-cc is used as is: build it first);
#              default $SAMPLER_BUILD_DIR, else <root>/build. The builds use a copy of its
#              bin/sampler-cc, lib/ and include/ (BUILD_DIR/bench/lua/sampler/), taken at the
#              start, so that a rebuild of the sampler during the benchmark cannot mix versions.
# Environment:
#   BENCH_SEED        SAMPLER_SEED of the sampled runs (default 12345)
#   BENCH_SPARSITIES  the sparsities of the sampled runs (default "off 10000 1000 100 1")
#   BENCH_JOBS        make -j for the builds (default 1: compile times are less noisy serially)
#   BENCH_NATIVE_RUNS native runs of each configuration, without valgrind, for the CPU-time
#                     column (the least is shown; default 3; 0: no native runs)
#
# Reproducibility. Instruction counts are repeatable exactly (the script runs the baseline
# twice and checks it): the sampled runs use a fixed SAMPLER_SEED, and every build defines
# luai_makeseed(L) as a constant, because Lua otherwise seeds its string hashes from time(NULL)
# and addresses, which moves the counts by ~0.05% from run to run. That define is the only
# difference from the flags of test/real/lua.sh (REAL_LUA_CFLAGS, -O2 -g). Each run gets a fixed,
# minimal environment (env -i PATH=/usr/bin:/bin LC_ALL=C plus its own variables), because the
# environment's size moves the stack and with it, slightly, the counts.
# The whole script takes about 6 minutes on 2 cores (the sampled run at d=1 is the longest).
# Valgrind 3.19 (Debian bookworm) cannot read clang 19's DWARF 5, so valgrind runs a copy of each
# interpreter with the debug sections removed (llvm-strip-19 --strip-debug: same code).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/.." && pwd)
# shellcheck source=SCRIPTDIR/lib-real.sh
. "$root/scripts/lib-real.sh"

usage() { sed -n '3,4p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }

out_file=""
reuse=0
build_arg=""
while [ "$#" -gt 0 ]; do
  case $1 in
    -o) [ "$#" -ge 2 ] || usage; out_file=$2; shift 2 ;;
    -o*) out_file=${1#-o}; shift ;;
    --reuse) reuse=1; shift ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    -*) echo "bench-lua: unknown option $1" >&2; usage ;;
    *) [ -z "$build_arg" ] || usage; build_arg=$1; shift ;;
  esac
done

build=$(real_build_dir "$build_arg")
sampler_cc=$build/bin/sampler-cc
seed=${BENCH_SEED:-12345}
read -r -a sparsities <<<"${BENCH_SPARSITIES:-off 10000 1000 100 1}"
REAL_JOBS=${BENCH_JOBS:-1}
native_runs=${BENCH_NATIVE_RUNS:-3}
case $native_runs in ''|*[!0-9]*) real_die "BENCH_NATIVE_RUNS must be a number, not '$native_runs'" ;; esac
workload_dir=$root/bench/lua
workload=workload.lua
work=$build/bench/lua
size_tool=/usr/lib/llvm-19/bin/llvm-size
strip_tool=/usr/lib/llvm-19/bin/llvm-strip
cflags="$REAL_LUA_CFLAGS '-Dluai_makeseed(L)=0x5eedu'"

log() { real_log "bench-lua: $*"; }

[ -x "$REAL_CLANG" ] || real_die "$REAL_CLANG not found (run scripts/setup.sh)"
[ -x "$sampler_cc" ] || real_die "$sampler_cc not found (build the project first: cmake --build $build)"
command -v valgrind >/dev/null 2>&1 || real_die "valgrind not found (apt-get install valgrind)"
for t in "$size_tool" "$strip_tool"; do [ -x "$t" ] || real_die "$t not found"; done
[ -f "$workload_dir/$workload" ] || real_die "no workload $workload_dir/$workload"

# Only the variables each run sets explicitly reach it.
real_clean_sampler_env
unset SAMPLER_SPARSITY SAMPLER_SEED LLVM_PROFILE_FILE

# The sampler build may be rebuilt while this runs (it takes minutes), and the builds would then
# mix two versions: compile with a private copy of it, BUILD_DIR/bench/lua/sampler/{bin,lib,include}
# (sampler-cc finds its plugin, runtime and header relative to its own bin/), taken while the
# build is not changing.
snap=$work/sampler
snapshot_files() {   # snapshot_files DIR: checksum of the parts of a sampler build sampler-cc uses
  (cd "$1" && { md5sum bin/sampler-cc lib/SamplerPass.so lib/libsampler_rt.a lib/libsampler_rt.so
                find include -type f -print0 | sort -z | xargs -0 -r md5sum; } 2>/dev/null |
     md5sum | cut -c1-16)
}
snapshot_sampler() {
  local fp0 fp1
  for _ in 1 2 3 4 5 6; do
    fp0=$(snapshot_files "$build")
    rm -rf "$snap"
    mkdir -p "$snap/bin" "$snap/lib"
    cp "$sampler_cc" "$snap/bin/"
    cp "$build"/lib/SamplerPass.so "$build"/lib/libsampler_rt.a "$build"/lib/libsampler_rt.so "$snap/lib/"
    cp -r "$build/include" "$snap/include"
    fp1=$(snapshot_files "$build")
    if [ "$fp0" = "$fp1" ] && [ "$(snapshot_files "$snap")" = "$fp0" ]; then
      sampler_fp=$fp0
      return 0
    fi
    log "the sampler build is changing; retrying the copy in 20 s"
    sleep 20
  done
  real_die "the sampler build in $build kept changing; could not take a consistent copy"
}
log "copying the sampler build ($build) to $snap"
snapshot_sampler
sampler_cc_orig=$sampler_cc
sampler_cc=$snap/bin/sampler-cc

log "fetching Debian's lua5.4 source"
src=$(real_fetch lua5.4)

# --- builds --------------------------------------------------------------------------------
# Configuration: name, compiler, extra flags.
configs=(baseline sampled unconditional profile-instr)
declare -A cfg_cc=(
  [baseline]=$REAL_CLANG [sampled]=$sampler_cc
  [unconditional]=$sampler_cc [profile-instr]=$REAL_CLANG)
declare -A cfg_extra=(
  [baseline]="" [sampled]="" [unconditional]="-fno-sampler-sampling"
  [profile-instr]="-fprofile-instr-generate")
declare -A cfg_flags cfg_dir cfg_ctime cfg_text

for c in "${configs[@]}"; do
  cc=${cfg_cc[$c]}
  flags=$cflags${cfg_extra[$c]:+ ${cfg_extra[$c]}}
  dir=$work/$c
  cfg_flags[$c]=$flags
  cfg_dir[$c]=$dir
  if [ "$cc" = "$sampler_cc" ]; then
    fp=$sampler_fp
  else
    fp=$(real_compiler_fingerprint "$cc")
  fi
  [ "$reuse" = 1 ] || rm -f "$dir/.config"   # forces real_build_lua to rebuild
  log "building lua: $c ($(basename "$cc") $flags, make -j$REAL_JOBS)"
  t0=$(date +%s%N)
  was_built=$([ -f "$dir/.config" ] && echo yes || echo no)
  real_build_lua "$src" "$dir" "$cc" "$flags" "$fp"
  t1=$(date +%s%N)
  if [ "$reuse" = 1 ] && [ "$was_built" = yes ] && [ "$(stat -c %Y "$dir/lua")" -lt "$(( t0 / 1000000000 ))" ]; then
    cfg_ctime[$c]="-"
  else
    cfg_ctime[$c]=$(awk -v ns=$((t1 - t0)) 'BEGIN { printf "%.1f", ns / 1e9 }')
  fi
  # .text of the interpreter (for sampler's builds, the static runtime is in it; for
  # profile-instr, compiler-rt's profile runtime).
  cfg_text[$c]=$("$size_tool" -A "$dir/lua" | awk '$1 == ".text" { print $2 }')
  [ -n "${cfg_text[$c]}" ] || real_die "no .text in $dir/lua"
  "$strip_tool" --strip-debug -o "$dir/lua.nodebug" "$dir/lua"
  log "  $c: ${cfg_ctime[$c]} s, .text ${cfg_text[$c]} bytes"
done

# --- runs ----------------------------------------------------------------------------------
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sampler-bench-lua.XXXXXX")
failures=()
fail() { failures+=("$*"); log "FAIL: $*"; }

# Runs: name|configuration|sparsity shown|environment (space-separated VAR=VALUE)
runs=("baseline|baseline|-|" "baseline-repeat|baseline|-|")
for d in "${sparsities[@]}"; do
  runs+=("sampled-$d|sampled|$d|SAMPLER_SPARSITY=$d SAMPLER_SEED=$seed SAMPLER_FILE=$tmp/sampled-$d.report")
done
runs+=("unconditional|unconditional|(all)|SAMPLER_SEED=$seed SAMPLER_FILE=$tmp/unconditional.report")
runs+=("profile-instr|profile-instr|(all)|LLVM_PROFILE_FILE=$tmp/profile-instr.profraw")

vg=(valgrind --tool=cachegrind --cache-sim=no)
# Every run gets this environment and its own variables, nothing else: the environment's size
# moves the stack, and Lua's behaviour depends slightly on addresses (LUA_INIT would even run code).
run_env=(PATH=/usr/bin:/bin LC_ALL=C)
declare -A run_ir run_obs run_cmd run_ok run_cpu
TIMEFORMAT='%3U %3S'   # bash's time: user and system CPU seconds
for r in "${runs[@]}"; do
  IFS='|' read -r name c d envs <<<"$r"
  read -r -a envv <<<"$envs"
  lua=${cfg_dir[$c]}/lua.nodebug
  run_cmd[$name]="cd bench/lua && env -i ${run_env[*]} ${envs:+$envs }${vg[*]} --cachegrind-out-file=/dev/null $lua $workload"
  log "running $name (${vg[0]} ${vg[1]} ...)"
  t0=$(date +%s)
  rc=0
  (cd "$workload_dir" && env -i "${run_env[@]}" "${envv[@]}" "${vg[@]}" --cachegrind-out-file="$tmp/$name.cg" --log-file="$tmp/$name.vg" \
      "$lua" "$workload") \
    </dev/null >"$tmp/$name.out" 2>"$tmp/$name.err" || rc=$?
  ir=$(sed -nE 's/^==[0-9]+== I +refs: +([0-9,]+).*/\1/p' "$tmp/$name.vg" | tr -d , | tail -n 1)
  run_ir[$name]=${ir:-?}
  run_ok[$name]=ok
  log "  $name: $(( $(date +%s) - t0 )) s under valgrind, Ir ${run_ir[$name]}, exit $rc"
  [ -n "$ir" ] || { run_ok[$name]=FAIL; fail "$name: no instruction count in $tmp/$name.vg"; }
  if [ "$rc" != 0 ]; then
    run_ok[$name]=FAIL; fail "$name: exit status $rc (stderr: $(head -c 300 "$tmp/$name.err"))"
  fi
  if [ -s "$tmp/$name.err" ]; then
    run_ok[$name]=FAIL; fail "$name: wrote to stderr: $(head -c 300 "$tmp/$name.err")"
  fi
  if [ "$name" != baseline ] && ! cmp -s "$tmp/baseline.out" "$tmp/$name.out"; then
    run_ok[$name]=FAIL
    fail "$name: output differs from the baseline's: $(diff "$tmp/baseline.out" "$tmp/$name.out" | head -n 6 | tr '\n' ' ')"
  fi
  run_obs[$name]="-"
  case $c in
    sampled|unconditional)
      report=$tmp/$name.report
      want_sparsity=$d
      [ "$c" = sampled ] || want_sparsity=""   # unconditional: SAMPLER_SPARSITY is unset and irrelevant
      if [ ! -s "$report" ]; then
        run_ok[$name]=FAIL; fail "$name: no report at $report"
      elif [ "$(tail -n 1 "$report")" != end-of-report ] ||
           ! grep -qx "$(printf 'end\texit\t0')" "$report" ||
           { [ "$c" = sampled ] && ! grep -qx "$(printf 'sparsity\t%s' "$want_sparsity")" "$report"; }; then
        run_ok[$name]=FAIL
        fail "$name: report $report is incomplete, or its end/sparsity lines are wrong (want exit 0${want_sparsity:+, sparsity $want_sparsity})"
      else
        # Observations: the sum of all counts in the report.
        run_obs[$name]=$(awk -F'\t' '$1 == "counts" { n = split($2, c, " ");
                                       for (i = 1; i <= n; i++) { split(c[i], kv, ":"); s += kv[2] } }
                                     END { printf "%.0f", s + 0 }' "$report")
      fi
      ;;
    profile-instr)
      [ -s "$tmp/$name.profraw" ] || { run_ok[$name]=FAIL; fail "$name: no profile written"; }
      ;;
  esac

  # Native runs (same binary, same environment but for the report/profile paths): the least
  # user+system CPU time of $native_runs runs. Noisy, but it shows what instruction counts cannot
  # (e.g. the cost of atomic read-modify-write instructions, which valgrind counts as one).
  run_cpu[$name]="-"
  [ "$name" = baseline-repeat ] && continue
  for ((i = 0; i < native_runs; i++)); do
    rc=0
    { time (cd "$workload_dir" && env -i "${run_env[@]}" "${envv[@]}" SAMPLER_FILE="$tmp/$name.native.report" \
              LLVM_PROFILE_FILE="$tmp/$name.native.profraw" "$lua" "$workload" \
              </dev/null >"$tmp/$name.native.out" 2>"$tmp/$name.native.err") ; } 2>"$tmp/$name.time" || rc=$?
    if [ "$rc" != 0 ] || ! cmp -s "$tmp/baseline.out" "$tmp/$name.native.out"; then
      run_ok[$name]=FAIL
      fail "$name: native run: exit status $rc, or its output differs from the baseline's ($tmp/$name.native.out)"
      break
    fi
    run_cpu[$name]=$(awk -v best="${run_cpu[$name]}" '{ t = $1 + $2 }
      END { if (best == "-" || t < best + 0) best = t; printf "%.2f", best }' "$tmp/$name.time")
  done
  [ "$native_runs" -eq 0 ] || log "  $name: native CPU time ${run_cpu[$name]} s (least of $native_runs)"
done

if [ "${run_ir[baseline]}" != "${run_ir[baseline-repeat]}" ]; then
  fail "the baseline's instruction count is not repeatable: ${run_ir[baseline]} then ${run_ir[baseline-repeat]}"
fi
# At d=1 the sampled build observes every site execution, as the unconditional build counts
# them; but the two are different binaries, and Lua's own behaviour depends slightly on
# addresses (its C-string cache in lstring.c is indexed by the string's address, tables hash
# pointers), so the totals may differ by a few counts in a few hundred million: a sanity
# check with a tolerance of 1e-5, not an exact one (the end-to-end tests check exactness).
obs_note=""
if [ "${run_obs[sampled-1]:--}" != - ] && [ "${run_obs[unconditional]:--}" != - ]; then
  obs_note=$(awk -v a="${run_obs[sampled-1]}" -v b="${run_obs[unconditional]}" 'BEGIN {
    d = a - b; if (d < 0) d = -d
    printf "%s, difference %.0f (%.2g of the unconditional count)", (b > 0 && d / b <= 1e-5) ? "ok" : "TOO LARGE", d, (b > 0 ? d / b : 0) }')
  case $obs_note in
    ok*) ;;
    *) fail "sampled at d=1 made ${run_obs[sampled-1]} observations, unconditional ${run_obs[unconditional]}: $obs_note" ;;
  esac
fi

if [ "$(snapshot_files "$snap")" != "$sampler_fp" ]; then
  fail "the copy of the sampler build in $snap changed while the benchmark ran"
fi

# --- report --------------------------------------------------------------------------------
base_ir=${run_ir[baseline]}
site_execs=${run_obs[unconditional]:--}
base_text=${cfg_text[baseline]}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a ~ /^[0-9]+$/ && b + 0 > 0) printf "%.3f", a / b; else print "?" }'; }
group() { printf '%s' "$1" | sed -E ':a; s/^([0-9]+)([0-9]{3})/\1,\2/; ta'; }   # 1234567 -> 1,234,567

# Per-function instructions (from the cachegrind files; names from the symbol tables): the
# functions among the 8 most expensive of any of these runs.
prof_runs=()
for name in baseline sampled-off sampled-100 sampled-1 unconditional profile-instr; do
  [ -s "$tmp/$name.cg" ] && prof_runs+=("$name")
done
for name in "${prof_runs[@]}"; do
  awk '/^fn=/ { fn = substr($0, 4); next } /^[0-9]/ { ir[fn] += $2 }
       END { for (f in ir) printf "%s\t%.0f\n", f, ir[f] }' "$tmp/$name.cg" |
    sort -t "$(printf '\t')" -k2,2nr >"$tmp/$name.fns"
done
functions_table() {
  local files=() name
  for name in "${prof_runs[@]}"; do files+=("$tmp/$name.fns"); done
  awk -F'\t' -v names="${prof_runs[*]}" -v top=8 '
    FNR == 1 { k++ }
    { ir[$1, k] = $2; if (FNR <= top) pick[$1] = 1; if ($2 > max[$1]) max[$1] = $2 }
    END {
      n = split(names, col, " ")
      printf "| function |"; for (i = 1; i <= n; i++) printf " %s |", col[i]; printf "\n"
      printf "|---|"; for (i = 1; i <= n; i++) printf "--:|"; printf "\n"
      m = 0; for (f in pick) rows[++m] = f
      for (i = 2; i <= m; i++) for (j = i; j > 1 && max[rows[j]] > max[rows[j-1]]; j--) {
        t = rows[j]; rows[j] = rows[j-1]; rows[j-1] = t }
      for (r = 1; r <= m; r++) {
        f = rows[r]; printf "| %s |", f
        for (i = 1; i <= n; i++) {
          if ((f, i) in ir) printf " %.1f |", ir[f, i] / 1e6; else printf " — |"
        }
        printf "\n"
      }
    }' "${files[@]}"
}

cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
commit=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)
if [ "$commit" != unknown ] && [ -n "$(git -C "$root" status --porcelain --untracked-files=no 2>/dev/null)" ]; then
  commit="$commit (with uncommitted changes)"
fi
checksum=$(sed -n 's/^checksum[[:space:]]*//p' "$tmp/baseline.out")

{
  echo "## Lua 5.4 benchmark (scripts/bench-lua.sh)"
  echo
  echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "- machine: $(nproc) CPUs, $cpu; $(uname -sr)"
  echo "- compiler: $("$REAL_CLANG" --version | head -n 1); $(valgrind --version)"
  echo "- sampler: commit $commit; a copy of $sampler_cc_orig and its lib/, include/ (fingerprint $sampler_fp)"
  echo "- Lua: $(basename "$src") (Debian source package), workload bench/lua/workload.lua, checksum $checksum"
  echo "- instructions: valgrind cachegrind \"I refs\", whole process; sampled runs with SAMPLER_SEED=$seed"
  echo "- compile time: wall clock of the whole build step (make -j$REAL_JOBS: the interpreter's 32 C files, then the link)"
  echo
  echo "| configuration | sparsity | instructions | ratio | extra instr. per site execution | observations | native CPU s | CPU ratio | .text bytes | .text ratio | compile s | check |"
  echo "|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|"
  for r in "${runs[@]}"; do
    IFS='|' read -r name c d _ <<<"$r"
    [ "$name" = baseline-repeat ] && continue
    obs=${run_obs[$name]}
    [ "$obs" != - ] && obs=$(group "$obs")
    per_site="-"
    if [ "$name" != baseline ] && [ "$site_execs" -gt 0 ] 2>/dev/null; then
      per_site=$(awk -v a="${run_ir[$name]}" -v b="$base_ir" -v n="$site_execs" \
                 'BEGIN { if (a ~ /^[0-9]+$/) printf "%.2f", (a - b) / n; else print "?" }')
    fi
    cpu_ratio="-"
    [ "${run_cpu[$name]}" = - ] || cpu_ratio=$(awk -v a="${run_cpu[$name]}" -v b="${run_cpu[baseline]}" \
                 'BEGIN { if (b + 0 > 0) printf "%.2f", a / b; else print "?" }')
    printf '| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n' "$c" "$d" "$(group "${run_ir[$name]}")" \
      "$(ratio "${run_ir[$name]}" "$base_ir")" "$per_site" "$obs" "${run_cpu[$name]}" "$cpu_ratio" \
      "$(group "${cfg_text[$c]}")" "$(ratio "${cfg_text[$c]}" "$base_text")" "${cfg_ctime[$c]}" "${run_ok[$name]}"
  done
  echo
  echo "Baseline repeated: $(group "${run_ir[baseline-repeat]}") instructions ($([ "${run_ir[baseline]}" = "${run_ir[baseline-repeat]}" ] && echo identical || echo DIFFERENT))."
  echo "Observations: the sum of all counts in the run's sampler report."
  if [ "$site_execs" -gt 0 ] 2>/dev/null; then
    echo "Extra instructions per site execution: (instructions - baseline's) / $(group "$site_execs"), the number of site executions (the unconditional run's observations); for profile-instr, whose counters are elsewhere, it only puts its overhead in the same unit."
  fi
  if [ "$native_runs" -gt 0 ]; then
    echo "Native CPU s: user + system CPU seconds of the same binary without valgrind, the least of $native_runs runs (noisy: load average at the end $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs)."
  fi
  [ -z "$obs_note" ] || echo "Observations at d=1 against unconditional: $obs_note."
  if [ "${#prof_runs[@]}" -gt 0 ]; then
    echo
    echo "### Where the instructions go"
    echo
    echo "Millions of instructions per function (valgrind cachegrind, self cost; the 8 most expensive functions of each run; runs named as above, e.g. sampled-100 = sampled at sparsity 100). — : no instructions in that function in that run (inlined into its callers, or not in that binary)."
    echo
    functions_table
  fi
  echo
  echo "### Commands"
  echo
  echo "Builds (scripts/lib-real.sh real_build_lua: each of Lua's src/*.c compiled with \`CC CFLAGS -c\`, linked with \`CC CFLAGS -o lua *.o -Wl,-E -lm -ldl\`; then \`llvm-strip --strip-debug -o lua.nodebug lua\` for valgrind):"
  echo
  echo '```'
  for c in "${configs[@]}"; do
    printf '%-14s CC=%s CFLAGS="%s"\n' "$c" "${cfg_cc[$c]}" "${cfg_flags[$c]}"
  done
  echo '```'
  echo
  echo "Runs (from the repository root):"
  echo
  echo '```'
  for r in "${runs[@]}"; do
    IFS='|' read -r name _ <<<"$r"
    echo "${run_cmd[$name]}"
  done
  echo '```'
  if [ "$native_runs" -gt 0 ]; then
    echo
    # shellcheck disable=SC2016  # backquotes for Markdown
    echo 'Native runs: the same commands without `valgrind ... --cachegrind-out-file=/dev/null`,'" timed with bash's \`time\` (TIMEFORMAT='%3U %3S'), $native_runs times each."
  fi
  if [ "${#failures[@]}" -gt 0 ]; then
    echo
    echo "### FAILED checks"
    echo
    for f in "${failures[@]}"; do echo "- $f"; done
    echo
    echo "Outputs kept in $tmp."
  fi
} >"$tmp/report.md"

cat "$tmp/report.md"
[ -z "$out_file" ] || cp "$tmp/report.md" "$out_file"
if [ "${#failures[@]}" -gt 0 ]; then
  log "${#failures[@]} check(s) failed; outputs kept in $tmp"
  exit 1
fi
rm -rf "$tmp"

# shellcheck shell=bash
# Shell functions shared by the real-program tests (test/real/*.sh) and scripts/demo.sh.
# Source it from bash:  . "$root/scripts/lib-real.sh"
# Every function logs to stderr; functions that return a path print only that path on stdout.

# The repository root: this file lives in <root>/scripts/.
REAL_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
REAL_CLANG=${REAL_CLANG:-/usr/lib/llvm-19/bin/clang}   # the baseline compiler: clang-19, never LLVM 14's
REAL_JOBS=${REAL_JOBS:-$(nproc 2>/dev/null || echo 2)}

real_log() { printf '%s\n' "$*" >&2; }
real_die() { printf 'ERROR: %s\n' "$*" >&2; exit 1; }

# real_build_dir [DIR]: the sampler build folder as an absolute path (it may not exist yet):
# DIR, else $SAMPLER_BUILD_DIR, else <root>/build.
real_build_dir() {
  local d=${1:-${SAMPLER_BUILD_DIR:-$REAL_ROOT/build}}
  if [ -d "$d" ]; then
    (cd "$d" && pwd)
  else
    case $d in
      /*) printf '%s\n' "$d" ;;
      *) printf '%s\n' "$PWD/$d" ;;
    esac
  fi
}

# real_quick_workload PROG DATA: the workload scripts/bench-quick.sh and scripts/wall-quick.sh
# run for PROG (lua, zlib or bzip2), DATA the folder of bench/make-data.py's text.txt: sets
# QUICK_ARGS (the program's arguments) and QUICK_STDIN (its standard input).
real_quick_workload() {
  case $1 in
    lua) QUICK_ARGS=("$REAL_ROOT/bench/lua/workload.lua"); QUICK_STDIN=/dev/null ;;
    zlib) QUICK_ARGS=(-6); QUICK_STDIN=$2/text.txt ;;
    bzip2) QUICK_ARGS=(-c); QUICK_STDIN=$2/text.txt ;;
    *) real_die "unknown program '$1' (known: lua zlib bzip2)" ;;
  esac
}

# real_ensure_project_built BUILD: configure (if needed) and build the project in BUILD.
real_ensure_project_built() {
  local build=$1 gen=()
  if [ ! -f "$build/CMakeCache.txt" ]; then
    command -v ninja >/dev/null 2>&1 && gen=(-G Ninja)
    real_log "== configuring sampler in $build"
    cmake -S "$REAL_ROOT" -B "$build" "${gen[@]}" -DCMAKE_BUILD_TYPE=Release >&2
  fi
  real_log "== building sampler in $build"
  cmake --build "$build" -j "$REAL_JOBS" >&2
}

# real_fetch PKG: fetch Debian's source package PKG into <root>/third_party/PKG (ignored by git)
# and print the unpacked source tree's path. If `apt-get source` fails (a mirror that lacks one
# of the package's files: seen for ccrypt's .debian.tar.xz), falls back to real_fetch_orig, and
# keeps using that fallback later (remove third_party/PKG to try apt-get source again).
real_fetch() {
  local path
  # An earlier fallback: keep using it (do not ask the mirror again at every run).
  if [ -s "$REAL_ROOT/third_party/$1/.fetched-orig-$1" ]; then
    real_fetch_orig "$1"
    return
  fi
  if path=$(bash "$REAL_ROOT/scripts/fetch-source.sh" "$1" "$REAL_ROOT/third_party/$1"); then
    printf '%s\n' "$path"
    return 0
  fi
  real_log "fetch: apt-get source $1 failed; falling back to its upstream tarball alone"
  real_fetch_orig "$1"
}

# real_fetch_orig PKG: Debian's upstream tarball of the source package PKG (its .orig.tar.*,
# downloaded with `apt-get source --download-only`, checked against the SHA-256 that apt's
# source index gives), unpacked into <root>/third_party/PKG/ without the Debian changes; prints
# the tree's path. Reused once unpacked (stamp .fetched-orig-PKG).
real_fetch_orig() {
  local pkg=$1 dir=$REAL_ROOT/third_party/$1 stamp tmp orig sum want name sandbox=()
  mkdir -p "$dir"
  stamp=$dir/.fetched-orig-$pkg
  exec 7>"$dir/.lock-orig-$pkg"
  flock 7
  if [ -f "$stamp" ] && [ -n "$(cat "$stamp")" ] && [ -d "$dir/$(cat "$stamp")" ]; then
    real_log "fetch: $pkg: upstream tarball already unpacked in $dir/$(cat "$stamp")"
    printf '%s\n' "$dir/$(cat "$stamp")"
    exec 7>&-
    return 0
  fi
  tmp=$(mktemp -d "$dir/.tmp-orig-$pkg.XXXXXX")
  chmod 0755 "$tmp"
  [ "$(id -u)" -eq 0 ] && sandbox=(-o APT::Sandbox::User=root)
  (cd "$tmp" && apt-get source -q --download-only "${sandbox[@]}" "$pkg") >&2 || true
  orig=$(find "$tmp" -maxdepth 1 -name "${pkg}_*.orig.tar.*" ! -name '*.asc' | head -n 1)
  if [ -z "$orig" ]; then
    rm -rf "$tmp"; exec 7>&-
    real_die "could not download $pkg's source, nor its upstream tarball"
  fi
  sum=$(sha256sum "$orig" | cut -d' ' -f1)
  want=$(apt-cache showsrc --only-source "$pkg" 2>/dev/null |
         awk -v f="$(basename "$orig")" '/^Checksums-Sha256:/ { on = 1; next } /^[^ ]/ { on = 0 }
                                          on && $3 == f { print $1; exit }')
  if [ -z "$want" ] || [ "$sum" != "$want" ]; then
    rm -rf "$tmp"; exec 7>&-
    real_die "$(basename "$orig"): SHA-256 $sum does not match apt's source index (${want:-no entry})"
  fi
  mkdir "$tmp/unpack"
  tar -xf "$orig" -C "$tmp/unpack"
  set -- "$tmp"/unpack/*/
  if [ "$#" -ne 1 ] || [ ! -d "$1" ]; then
    rm -rf "$tmp"; exec 7>&-
    real_die "$(basename "$orig") does not unpack to a single folder"
  fi
  name=$(basename "$1")
  rm -rf "${dir:?}/$name"
  mv "$1" "$dir/$name"
  mv -f "$orig" "$dir/"
  rm -rf "$tmp"
  printf '%s\n' "$name" >"$stamp"
  real_log "fetch: $pkg: upstream tarball $(basename "$orig") (SHA-256 checked) unpacked in $dir/$name, WITHOUT Debian's patches"
  exec 7>&-
  printf '%s\n' "$dir/$name"
}

# real_build_lua SRC OUT CC CFLAGS [FINGERPRINT]: build Lua's interpreter from Debian's lua5.4 source
# tree SRC (its src/*.c) in the folder OUT (a copy of src/, outside the source tree) with the C
# compiler CC and the flags CFLAGS; the interpreter is OUT/lua. Debian's src/Makefile is patched
# to build through libtool (static + shared + C++ variants), so we do not use it: we compile the
# same files as upstream's `make linux` (= linux-noreadline: -DLUA_USE_LINUX, no readline) with
# our own small makefile. Rebuilt only if CC, CFLAGS, the source tree or FINGERPRINT changed
# (FINGERPRINT: any text that changes when the compiler does; see real_compiler_fingerprint).
real_build_lua() {
  local src=$1 out=$2 cc=$3 cflags=$4 fingerprint=${5:-}
  local config
  mkdir -p "$(dirname "$out")"
  # Concurrent runs (ctest -j with several configurations) share the baseline build.
  exec 8>"$out.lock"
  flock 8
  [ -f "$src/src/lvm.c" ] || real_die "$src is not a Lua source tree (no src/lvm.c)"
  config=$(printf 'CC=%s\nCFLAGS=%s\nSRC=%s\nCOMPILER=%s\n' "$cc" "$cflags" "$src" "$fingerprint")
  if [ -x "$out/lua" ] && [ -f "$out/.config" ] && [ "$(cat "$out/.config")" = "$config" ]; then
    real_log "   lua in $out is up to date ($cc)"
    exec 8>&-
    return 0
  fi
  rm -rf "$out"
  mkdir -p "$out"
  cp "$src"/src/*.c "$src"/src/*.h "$out"/
  # Debian's luaconf.h includes a header that debian/rules generates; make it the same way.
  local multiarch
  multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || echo "$(uname -m)-linux-gnu")
  if grep -q 'lua5.4-deb-multiarch.h' "$out/luaconf.h" && [ ! -f "$out/lua5.4-deb-multiarch.h" ]; then
    printf '#ifndef _LUA_DEB_MULTIARCH_\n#define _LUA_DEB_MULTIARCH_\n#define DEB_HOST_MULTIARCH "%s"\n#endif\n' \
      "$multiarch" >"$out/lua5.4-deb-multiarch.h"
  fi
  # Upstream's CORE_O + LIB_O + lua.o (not luac).
  cat >"$out/Makefile" <<'EOF'
CORE = lapi lcode lctype ldebug ldo ldump lfunc lgc llex lmem lobject lopcodes lparser \
       lstate lstring ltable ltm lundump lvm lzio
LIB  = lauxlib lbaselib lcorolib ldblib liolib lmathlib loadlib loslib lstrlib ltablib lutf8lib linit
OBJS = $(addsuffix .o,$(CORE) $(LIB) lua)
lua: $(OBJS)
	$(CC) $(CFLAGS) -o $@ $(OBJS) -Wl,-E -lm -ldl
%.o: %.c
	$(CC) $(CFLAGS) -c $< -o $@
EOF
  real_log "   building lua in $out"
  real_log "     CC=$cc"
  real_log "     CFLAGS=$cflags"
  if ! make -C "$out" -j "$REAL_JOBS" CC="$cc" CFLAGS="$cflags" >"$out/build.log" 2>&1; then
    tail -n 40 "$out/build.log" >&2
    real_die "building lua with $cc failed (full log: $out/build.log)"
  fi
  [ -x "$out/lua" ] || real_die "no lua executable in $out"
  printf '%s\n' "$config" >"$out/.config"
  exec 8>&-
}

# real_compiler_fingerprint CC [BUILD]: a checksum of the compiler CC (resolved on PATH) and,
# when BUILD is given, of the libraries and headers in BUILD/lib and BUILD/include (sampler's
# plugins, runtime and sampler.h, which sampler-cc uses), so that a rebuilt sampler rebuilds the
# instrumented program.
real_compiler_fingerprint() {
  local cc=$1 build=${2:-} exe
  exe=$(command -v "$cc" 2>/dev/null || echo "$cc")
  {
    md5sum "$(readlink -f "$exe")" 2>/dev/null || echo "no compiler $cc"
    local d
    for d in ${build:+"$build/lib" "$build/include"}; do
      [ -d "$d" ] || continue
      find "$d" -maxdepth 2 -type f \( -name '*.so*' -o -name '*.a' -o -name '*.h' \) -print0 |
        sort -z | xargs -0 -r md5sum
    done
  } | md5sum | cut -c1-16
}

# real_prog_dir BUILD PROG CC EXTRA_FLAGS: where the program PROG built with CC (+ EXTRA_FLAGS)
# lives: a folder under BUILD/test/real/PROG/ named after CC and the flags, so that builds with
# different flags (and concurrent tests using them) do not collide; the baseline (clang-19, no
# extra flags) is BUILD/test/real/PROG/baseline.
real_prog_dir() {
  local build=$1 prog=$2 cc=$3 extra=$4 work
  work=$build/test/real/$prog
  [ -d "$build" ] || work=${TMPDIR:-/tmp}/sampler-real-$prog   # only without a sampler build
  if [ "$cc" = "$REAL_CLANG" ] && [ -z "$extra" ]; then
    printf '%s\n' "$work/baseline"
  else
    printf '%s\n' "$work/$(basename "$cc")-$(printf '%s\n%s\n' "$cc" "$extra" | md5sum | cut -c1-8)"
  fi
}

# real_lua_dir BUILD CC EXTRA_FLAGS: real_prog_dir for Lua (BUILD/test/real/lua/...).
real_lua_dir() { real_prog_dir "$1" lua "$2" "$3"; }

# The flags both Lua builds use: upstream's (`-std=gnu99 -Wall -DLUA_COMPAT_5_3` plus the
# `linux` target's -DLUA_USE_LINUX), at -O2 with debug information.
REAL_LUA_CFLAGS="-std=gnu99 -O2 -g -Wall -DLUA_COMPAT_5_3 -DLUA_USE_LINUX"

# real_clean_sampler_env: unset the SAMPLER_* variables a developer may have set, except the
# ones that are meant to pass through to instrumented runs (SAMPLER_SPARSITY, SAMPLER_SEED).
# SAMPLER_BUILD_DIR, SAMPLER_CC and SAMPLER_CC_FLAGS are read by the scripts before this.
real_clean_sampler_env() {
  local v
  for v in $(compgen -e | grep '^SAMPLER_' || true); do
    case $v in
      SAMPLER_SPARSITY|SAMPLER_SEED) ;;
      *) unset "$v" ;;
    esac
  done
}

# real_now_ms: wall clock in milliseconds.
real_now_ms() { echo $(( $(date +%s%N) / 1000000 )); }

# === The corpus: programs built with their own build systems (test/real/*.sh but lua.sh) ======
# A test script calls, in this order:
#   real_test_begin NAME BUILD_ARG         header, globals, compilers checked, clean environment
#   src=$(real_fetch PKG)                  Debian's source
#   real_build_pair NAME SRC CFLAGS FUNC   both builds (cached), with the program's build system
#   real_run_pair / real_suite_pair ...    workloads run with both builds, outputs compared
#   real_check_reports FILE_RE             the instrumented runs' reports checked and decoded
#   real_finish                            the PASS/FAIL line and the exit status
# Environment read by real_test_begin (as by test/real/lua.sh): SAMPLER_CC_FLAGS (extra flags
# of the instrumented build only; a separate build per value), SAMPLER_SPARSITY and SAMPLER_SEED
# (passed to the instrumented runs; every other SAMPLER_* variable is cleared), SAMPLER_CC (the
# instrumented build's compiler instead of BUILD/bin/sampler-cc: report checks are skipped if
# it writes no reports), SAMPLER_REPORT_TOOL, REAL_KEEP=1 (keep the temporary folder),
# REAL_TIMEOUT (seconds per workload run, default 120).

# real__children_cpu: set REAL__CPU to the CPU time (user + system, seconds) of this shell's
# finished child processes so far. (bash's `times`, which must run in this shell: not in a
# command substitution, whose subshell has its own, empty, account.)
real__children_cpu() {
  local f
  f=$(mktemp)
  times >"$f"
  REAL__CPU=$(awk 'NR == 2 { t = 0; for (i = 1; i <= NF; i++) { split($i, p, "m"); t += p[1] * 60 + p[2] + 0 }; printf "%.3f", t }' "$f")
  rm -f "$f"
}

# real_cached_build OUT CONFIG FUNC [ARGS...]: build into the folder OUT by running FUNC ARGS...
# with OUT as the current folder (FUNC: a shell function of the calling script that drives the
# program's own build system; it runs in a subshell under `set -e`), unless OUT already holds a
# complete build made with the same CONFIG (text naming compiler, flags, source tree, compiler
# fingerprint and recipe). Holds the lock OUT.lock meanwhile, so that concurrent tests share one
# build. FUNC's output goes to OUT/build.log; instrumented programs that the build itself runs
# (configure's test programs, generators) write their reports in OUT/.build-reports/. Sets
# REAL_BUILD_MS and REAL_BUILD_CPU (wall milliseconds, CPU seconds; 0 when up to date).
# Returns 1, after showing the log's tail, if FUNC fails.
real_cached_build() {
  local out=$1 config=$2 rc=0 t0 c0 opts=$-
  shift 2
  REAL_BUILD_MS=0
  REAL_BUILD_CPU=0
  mkdir -p "$(dirname "$out")"
  exec 8>"$out.lock"
  flock 8
  if [ -f "$out/.config" ] && [ "$(cat "$out/.config")" = "$config" ]; then
    real_log "   up to date: $out"
    exec 8>&-
    return 0
  fi
  rm -rf "$out"
  mkdir -p "$out/.build-reports"
  real_log "   building in $out (log: build.log there)"
  t0=$(real_now_ms)
  real__children_cpu
  c0=$REAL__CPU
  set +e
  (
    set -e
    cd "$out"
    real_clean_sampler_env
    unset SAMPLER_SPARSITY SAMPLER_SEED
    export SAMPLER_FILE="$out/.build-reports/%p.report"
    "$@"
  ) >"$out/build.log" 2>&1
  rc=$?
  case $opts in *e*) set -e ;; esac
  if [ "$rc" -ne 0 ]; then
    tail -n 40 "$out/build.log" | sed 's/^/      | /' >&2
    real_log "   build FAILED (exit status $rc; full log: $out/build.log)"
    exec 8>&-
    return 1
  fi
  printf '%s\n' "$config" >"$out/.config"
  REAL_BUILD_MS=$(( $(real_now_ms) - t0 ))
  real__children_cpu
  REAL_BUILD_CPU=$(awk -v a="$c0" -v b="$REAL__CPU" 'BEGIN { printf "%.1f", b - a }')
  real_log "   built in $REAL_BUILD_MS ms (CPU time, user + system: $REAL_BUILD_CPU s)"
  exec 8>&-
}

real_fail() { REAL_FAILURES+=("$*"); printf '  FAIL: %s\n' "$*"; }
real_show() { sed 's/^/      | /' "$2" 2>/dev/null | head -n "$1" || true; }              # N FILE
real_show_diff() { diff -u "$1" "$2" | head -n 30 | sed 's/^/      | /' || true; }       # A B

# real_test_begin NAME [BUILD_DIR]: start the test NAME: set the globals the other functions
# use, print the configuration, check both compilers, make the temporary folder REAL_TMP, and
# clean the SAMPLER_* environment (REAL_PASS_ENV keeps what the instrumented runs get).
real_test_begin() {
  REAL_NAME=$1
  REAL_BUILD=$(real_build_dir "${2:-}")
  REAL_CC_OVERRIDE=${SAMPLER_CC:-}
  REAL_SAMPLER_CC=${SAMPLER_CC:-$REAL_BUILD/bin/sampler-cc}
  REAL_REPORT_TOOL=${SAMPLER_REPORT_TOOL:-$REAL_BUILD/bin/sampler-report}
  REAL_EXTRA_FLAGS=${SAMPLER_CC_FLAGS:-}
  REAL_TIMEOUT=${REAL_TIMEOUT:-120}
  REAL_FAILURES=()
  REAL_RUN_NAMES=()
  REAL_SHARED_LIBS=()
  REAL_BASE_ENV=()
  REAL_INST_ENV=()
  REAL_NOTE=""
  declare -gA REAL_RUN_RC=()
  REAL_T0=$(real_now_ms)
  echo "== $REAL_NAME real-program test"
  echo "   sampler build:    $REAL_BUILD"
  echo "   baseline CC:      $REAL_CLANG"
  echo "   instrumented CC:  $REAL_SAMPLER_CC${REAL_CC_OVERRIDE:+ (SAMPLER_CC override)}"
  echo "   extra flags:      ${REAL_EXTRA_FLAGS:-(none)}   (SAMPLER_CC_FLAGS, instrumented build only)"
  echo "   SAMPLER_SPARSITY: ${SAMPLER_SPARSITY:-(unset: runtime default)}"
  REAL_TMP=$(mktemp -d "${TMPDIR:-/tmp}/sampler-$REAL_NAME.XXXXXX")
  mkdir -p "$REAL_TMP/baseline" "$REAL_TMP/sampler" "$REAL_TMP/reports" "$REAL_TMP/decoded" "$REAL_TMP/run"
  [ -x "$REAL_CLANG" ] || { real_fail "$REAL_CLANG not found (run scripts/setup.sh)"; real_finish; }
  if ! command -v "$REAL_SAMPLER_CC" >/dev/null 2>&1; then
    real_fail "instrumented compiler $REAL_SAMPLER_CC not found (build the project first: cmake --build $REAL_BUILD)"
    real_finish
  fi
  real_clean_sampler_env
  REAL_PASS_ENV=()
  REAL_SPARSITY=${SAMPLER_SPARSITY:-}
  [ -n "${SAMPLER_SPARSITY:-}" ] && REAL_PASS_ENV+=("SAMPLER_SPARSITY=$SAMPLER_SPARSITY")
  [ -n "${SAMPLER_SEED:-}" ] && REAL_PASS_ENV+=("SAMPLER_SEED=$SAMPLER_SEED")
  unset SAMPLER_SPARSITY SAMPLER_SEED
  return 0
}

# real_finish: print the PASS or FAIL line (with REAL_NOTE) and exit 0 or 1. The temporary
# folder is removed on success (unless REAL_KEEP=1) and kept on failure.
real_finish() {
  local secs=$(( ($(real_now_ms) - REAL_T0) / 1000 ))
  if [ "${#REAL_FAILURES[@]}" -eq 0 ]; then
    if [ "${REAL_KEEP:-0}" = 1 ]; then echo "outputs and reports kept in $REAL_TMP"; else rm -rf "$REAL_TMP"; fi
    echo "PASS: $REAL_NAME: ${#REAL_RUN_NAMES[@]} runs, baseline and sampler-cc builds agree${REAL_NOTE} (${secs} s)"
    exit 0
  fi
  echo "outputs and reports kept in $REAL_TMP"
  echo "FAIL: $REAL_NAME: ${#REAL_FAILURES[@]} problem(s): ${REAL_FAILURES[0]}$([ "${#REAL_FAILURES[@]}" -gt 1 ] && echo " (and more above)") (${secs} s)"
  exit 1
}

# real_build_pair PROG SRC CFLAGS FUNC: build PROG from the source tree SRC twice with FUNC (see
# real_cached_build; called as `FUNC SRC CC CFLAGS` in the build folder): with clang-19 and
# CFLAGS in REAL_BASE_DIR (BUILD/test/real/PROG/baseline), and with sampler-cc and CFLAGS plus
# SAMPLER_CC_FLAGS in REAL_INST_DIR. A build is redone when the compiler (fingerprint), the flags,
# the source tree or FUNC's text changes. The two builds run side by side (the baseline in the
# background: its messages are shown when both are done), since the instrumented build's
# longest steps are single compiles. Sets REAL_{BASE,INST}_BUILD_{MS,CPU}. Returns 1 (after a
# FAIL line) if a build fails.
real_build_pair() {
  local prog=$1 src=$2 cflags=$3 func=$4 recipe inst_flags base_config inst_config pid rc_base=0 rc_inst=0
  recipe=$(declare -f "$func" | md5sum | cut -c1-16)
  inst_flags="$cflags${REAL_EXTRA_FLAGS:+ $REAL_EXTRA_FLAGS}"
  REAL_BASE_DIR=$(real_prog_dir "$REAL_BUILD" "$prog" "$REAL_CLANG" "")
  REAL_INST_DIR=$(real_prog_dir "$REAL_BUILD" "$prog" "$REAL_SAMPLER_CC" "$REAL_EXTRA_FLAGS")
  base_config=$(printf 'CC=%s\nCFLAGS=%s\nSRC=%s\nCOMPILER=%s\nRECIPE=%s\n' "$REAL_CLANG" "$cflags" "$src" \
                  "$(real_compiler_fingerprint "$REAL_CLANG")" "$recipe")
  inst_config=$(printf 'CC=%s\nCFLAGS=%s\nSRC=%s\nCOMPILER=%s\nRECIPE=%s\n' "$REAL_SAMPLER_CC" "$inst_flags" "$src" \
                  "$(real_compiler_fingerprint "$REAL_SAMPLER_CC" "$([ -z "$REAL_CC_OVERRIDE" ] && echo "$REAL_BUILD")")" "$recipe")
  echo "== building $prog, side by side: baseline (clang-19) and instrumented ($(basename "$REAL_SAMPLER_CC"))"
  echo "   baseline CFLAGS=$cflags"
  echo "   instrumented CFLAGS=$inst_flags"
  (
    rc=0
    real_cached_build "$REAL_BASE_DIR" "$base_config" "$func" "$src" "$REAL_CLANG" "$cflags" || rc=$?
    echo "$REAL_BUILD_MS $REAL_BUILD_CPU" >"$REAL_TMP/build-baseline.times"
    exit "$rc"
  ) >"$REAL_TMP/build-baseline.txt" 2>&1 &
  pid=$!
  echo "-- instrumented:"
  real_cached_build "$REAL_INST_DIR" "$inst_config" "$func" "$src" "$REAL_SAMPLER_CC" "$inst_flags" || rc_inst=$?
  REAL_INST_BUILD_MS=$REAL_BUILD_MS
  REAL_INST_BUILD_CPU=$REAL_BUILD_CPU
  wait "$pid" || rc_base=$?
  echo "-- baseline:"
  cat "$REAL_TMP/build-baseline.txt"
  read -r REAL_BASE_BUILD_MS REAL_BASE_BUILD_CPU <"$REAL_TMP/build-baseline.times" 2>/dev/null ||
    { REAL_BASE_BUILD_MS=0; REAL_BASE_BUILD_CPU=0; }
  if [ "$rc_base" -ne 0 ]; then
    real_fail "$prog: the baseline build with clang-19 failed (log: $REAL_BASE_DIR/build.log)"
    return 1
  fi
  if [ "$rc_inst" -ne 0 ]; then
    real_fail "$prog: the build with $(basename "$REAL_SAMPLER_CC") failed, the baseline build did not (log: $REAL_INST_DIR/build.log)"
    return 1
  fi
  echo "   build times, wall ms / CPU s (0: up to date): baseline $REAL_BASE_BUILD_MS / $REAL_BASE_BUILD_CPU, instrumented $REAL_INST_BUILD_MS / $REAL_INST_BUILD_CPU"
  return 0
}

# real__run_one BIN RUN OUT STDIN [VAR=VALUE...] -- CMD...: run CMD in the fresh folder RUN with
# BIN first on PATH, VAR=VALUE in the environment, STDIN as standard input, stdout and stderr
# to OUT.out and OUT.err. Prints the exit status.
real__run_one() {
  local bin=$1 run=$2 out=$3 stdin=$4 rc=0 vars=()
  shift 4
  while [ "$#" -gt 0 ] && [ "$1" != -- ]; do vars+=("$1"); shift; done
  shift
  rm -rf "$run"
  mkdir -p "$run"
  (cd "$run" && env PATH="$bin:$PATH" "${vars[@]}" timeout "$REAL_TIMEOUT" "$@") \
    <"$stdin" >"$out.out" 2>"$out.err" || rc=$?
  echo "$rc"
}

real__table_header() {
  printf '   %-26s %9s %6s %9s %9s\n' run "status" expect "base ms" "instr ms"
}

# real_run_pair NAME [--expect N] [--stdin FILE] [--filter SHELL_CMD] -- CMD [ARGS...]: run the
# workload NAME with both builds: CMD (found on PATH, where each build's REAL_BASE_BIN or
# REAL_INST_BIN comes first, so that both runs have the same argv[0]) runs in the same fresh
# folder REAL_TMP/run/NAME, so that the runs see the same paths, with stdin from FILE (default
# /dev/null). Requires the exit status N (default 0) of both, the same stdout (after SHELL_CMD,
# a filter such as a sed command that removes timings, if given), the same stderr (except
# lines the sampler runtime may write, "sampler..."), and the same files left in the folder.
# The baseline run has the VAR=VALUE settings of the array REAL_BASE_ENV in its environment
# (e.g. LD_LIBRARY_PATH=REAL_BASE_DIR, for a program linked with its own shared library); the
# instrumented run has REAL_INST_ENV, REAL_PASS_ENV and SAMPLER_FILE=REAL_TMP/reports/NAME/%p.report.
real_run_pair() {
  local name=$1 expect=0 stdin=/dev/null filter="" rc_base rc_inst t0 t1 t2 run side
  shift
  while [ "$#" -gt 0 ]; do
    case $1 in
      --expect) expect=$2; shift 2 ;;
      --stdin) stdin=$2; shift 2 ;;
      --filter) filter=$2; shift 2 ;;
      --) shift; break ;;
      *) real_die "real_run_pair: unknown option $1" ;;
    esac
  done
  [ "${#REAL_RUN_NAMES[@]}" -eq 0 ] && real__table_header
  REAL_RUN_NAMES+=("$name")
  run=$REAL_TMP/run/$name
  mkdir -p "$REAL_TMP/reports/$name"
  t0=$(real_now_ms)
  rc_base=$(real__run_one "$REAL_BASE_BIN" "$run" "$REAL_TMP/baseline/$name" "$stdin" \
              "${REAL_BASE_ENV[@]}" -- "$@")
  rm -rf "$REAL_TMP/baseline/$name.files"; mv "$run" "$REAL_TMP/baseline/$name.files"
  t1=$(real_now_ms)
  rc_inst=$(real__run_one "$REAL_INST_BIN" "$run" "$REAL_TMP/sampler/$name" "$stdin" \
              "${REAL_INST_ENV[@]}" "${REAL_PASS_ENV[@]}" "SAMPLER_FILE=$REAL_TMP/reports/$name/%p.report" -- "$@")
  rm -rf "$REAL_TMP/sampler/$name.files"; mv "$run" "$REAL_TMP/sampler/$name.files"
  t2=$(real_now_ms)
  REAL_RUN_RC[$name]=$rc_inst
  printf '   %-26s %9s %6s %9s %9s\n' "$name" "$rc_base/$rc_inst" "$expect" "$((t1 - t0))" "$((t2 - t1))"
  for side in baseline sampler; do
    if [ -n "$filter" ]; then
      sh -c "$filter" <"$REAL_TMP/$side/$name.out" >"$REAL_TMP/$side/$name.cmp" || true
    else
      cp "$REAL_TMP/$side/$name.out" "$REAL_TMP/$side/$name.cmp"
    fi
  done
  if [ "$rc_base" != "$expect" ]; then
    real_fail "$name: baseline exit status $rc_base, the workload expects $expect"
    real_show 10 "$REAL_TMP/baseline/$name.err"
  fi
  [ -s "$REAL_TMP/baseline/$name.out" ] || [ -n "$(ls -A "$REAL_TMP/baseline/$name.files")" ] ||
    real_fail "$name: the baseline run printed nothing and wrote no file"
  if [ "$rc_base" != "$rc_inst" ]; then
    real_fail "$name: exit status differs: baseline $rc_base, instrumented $rc_inst"
    real_show 10 "$REAL_TMP/sampler/$name.err"
  fi
  if ! cmp -s "$REAL_TMP/baseline/$name.cmp" "$REAL_TMP/sampler/$name.cmp"; then
    real_fail "$name: stdout differs${filter:+ (after the filter)}"
    real_show_diff "$REAL_TMP/baseline/$name.cmp" "$REAL_TMP/sampler/$name.cmp"
  fi
  if ! cmp -s "$REAL_TMP/baseline/$name.err" <(grep -vi '^sampler' "$REAL_TMP/sampler/$name.err" || true); then
    real_fail "$name: stderr differs"
    real_show_diff "$REAL_TMP/baseline/$name.err" "$REAL_TMP/sampler/$name.err"
  fi
  if ! diff -r "$REAL_TMP/baseline/$name.files" "$REAL_TMP/sampler/$name.files" >"$REAL_TMP/sampler/$name.files.diff" 2>&1; then
    real_fail "$name: the files the runs left differ"
    real_show 10 "$REAL_TMP/sampler/$name.files.diff"
  fi
  return 0
}

# real_suite_pair NAME CMD [ARGS...]: run the program's own test suite, CMD (e.g. make check), in
# each build's folder (REAL_BASE_DIR, REAL_INST_DIR; under the build's lock) and require exit
# status 0 from both; the logs, with the build folder's path replaced by @DIR@, must be the
# same. The instrumented suite's programs write their reports in REAL_TMP/reports/NAME/.
real_suite_pair() {
  local name=$1 rc_base=0 rc_inst=0 t0 t1 t2 side dir
  shift
  [ "${#REAL_RUN_NAMES[@]}" -eq 0 ] && real__table_header
  REAL_RUN_NAMES+=("$name")
  mkdir -p "$REAL_TMP/reports/$name"
  t0=$(real_now_ms)
  exec 8>"$REAL_BASE_DIR.lock"; flock 8
  (cd "$REAL_BASE_DIR" && timeout "$REAL_TIMEOUT" "$@") </dev/null >"$REAL_TMP/baseline/$name.log" 2>&1 || rc_base=$?
  exec 8>&-
  t1=$(real_now_ms)
  exec 8>"$REAL_INST_DIR.lock"; flock 8
  (cd "$REAL_INST_DIR" && env "${REAL_PASS_ENV[@]}" "SAMPLER_FILE=$REAL_TMP/reports/$name/%p.report" \
     timeout "$REAL_TIMEOUT" "$@") </dev/null >"$REAL_TMP/sampler/$name.log" 2>&1 || rc_inst=$?
  exec 8>&-
  t2=$(real_now_ms)
  REAL_RUN_RC[$name]=suite
  printf '   %-26s %9s %6s %9s %9s\n' "$name" "$rc_base/$rc_inst" 0 "$((t1 - t0))" "$((t2 - t1))"
  for side in baseline sampler; do
    dir=$REAL_BASE_DIR
    [ "$side" = sampler ] && dir=$REAL_INST_DIR
    # Literal replacement of the build folder's path (awk index(), no regex).
    awk -v d="$dir" '{ while ((i = index($0, d)) > 0) $0 = substr($0, 1, i - 1) "@DIR@" substr($0, i + length(d)); print }' \
      "$REAL_TMP/$side/$name.log" | grep -vi '^sampler' >"$REAL_TMP/$side/$name.cmp" || true
  done
  if [ "$rc_base" != 0 ]; then
    real_fail "$name: '$*' failed in the baseline build (exit status $rc_base)"
    tail -n 10 "$REAL_TMP/baseline/$name.log" | sed 's/^/      | /'
  fi
  if [ "$rc_inst" != 0 ]; then
    real_fail "$name: '$*' failed in the instrumented build (exit status $rc_inst)"
    tail -n 10 "$REAL_TMP/sampler/$name.log" | sed 's/^/      | /'
  fi
  if ! cmp -s "$REAL_TMP/baseline/$name.cmp" "$REAL_TMP/sampler/$name.cmp"; then
    real_fail "$name: the output of '$*' differs"
    real_show_diff "$REAL_TMP/baseline/$name.cmp" "$REAL_TMP/sampler/$name.cmp"
  fi
  return 0
}

# real_check_reports FILE_RE: check the instrumented runs' reports (docs/report-format.md): each
# run wrote at least one, each is complete and records an exit (the run's exit status, when the
# run wrote one report), the sparsity matches SAMPLER_SPARSITY, `sampler-report REPORT --binary
# PROGRAM` (the program the report names, plus --binary LIB for each instrumented shared library
# in the array REAL_SHARED_LIBS) decodes it; and, unless SAMPLER_SPARSITY=off, the
# reports have non-zero counts in units whose source file's name matches the extended regular
# expression FILE_RE (e.g. 'sqlite3\.c'), both raw and as decoded FILE:LINE site lines.
real_check_reports() {
  local file_re=$1 name report n rstate dstate raw human raw_total=0 human_total=0 nreports=0
  local prog end reports progs decoded b bins
  shopt -s nullglob
  reports=("$REAL_TMP"/reports/*/*.report)
  shopt -u nullglob
  if [ -n "$REAL_CC_OVERRIDE" ] && [ "${#reports[@]}" -eq 0 ]; then
    echo "== SKIPPED: report checks: the instrumented build (SAMPLER_CC=$REAL_CC_OVERRIDE) wrote no reports"
    REAL_NOTE="$REAL_NOTE (report checks skipped: SAMPLER_CC override)"
    return 0
  fi
  echo "== checking reports (docs/report-format.md) and decoding them with $(basename "$REAL_REPORT_TOOL")"
  if [ ! -x "$REAL_REPORT_TOOL" ]; then
    real_fail "report decoder $REAL_REPORT_TOOL not found"
    return 0
  fi
  printf '   %-26s %7s %-6s %-8s %12s %12s\n' run reports report decoded "cells>0" "sites>0"
  for name in "${REAL_RUN_NAMES[@]}"; do
    shopt -s nullglob
    reports=("$REAL_TMP/reports/$name"/*.report)
    shopt -u nullglob
    n=${#reports[@]}
    nreports=$((nreports + n))
    if [ "$n" -eq 0 ]; then
      real_fail "$name: the instrumented run wrote no report"
      continue
    fi
    rstate=ok; dstate=ok
    for report in "${reports[@]}"; do
      if [ "$(head -1 "$report")" != "$(printf 'sampler-report\t1')" ]; then
        rstate=bad; real_fail "$name: $report does not start with 'sampler-report<TAB>1'"
      fi
      if [ "$(tail -n 1 "$report")" != "end-of-report" ]; then
        rstate=bad; real_fail "$name: $report does not end with end-of-report (truncated)"
      fi
      end=$(grep -m1 "^end$(printf '\t')" "$report" || echo none)
      if [ "$n" -eq 1 ] && [ "${REAL_RUN_RC[$name]}" != suite ]; then
        if [ "$end" != "$(printf 'end\texit\t%s' "${REAL_RUN_RC[$name]}")" ]; then
          rstate=bad; real_fail "$name: the report's end line is '$end', the run exited with ${REAL_RUN_RC[$name]}"
        fi
      elif [[ $end != $'end\texit\t'* ]]; then
        rstate=bad; real_fail "$name: $report: end line '$end' (no exit)"
      fi
      if [ -n "$REAL_SPARSITY" ] && ! grep -qx "$(printf 'sparsity\t%s' "$REAL_SPARSITY")" "$report"; then
        rstate=bad
        real_fail "$name: $report: sparsity line '$(grep -m1 "^sparsity" "$report" || echo none)', SAMPLER_SPARSITY=$REAL_SPARSITY"
      fi
    done
    # Non-zero cells of units whose source file matches, over all the run's reports.
    raw=$(REAL_RE="(^|/)(${file_re})\$" awk -F'\t' '
            FNR == 1 { in_file = 0 }
            $1 == "unit" { in_file = ($5 ~ ENVIRON["REAL_RE"]); next }
            $1 == "counts" && in_file { n = split($2, c, " ");
              for (i = 1; i <= n; i++) { split(c[i], kv, ":"); if (kv[2] + 0 > 0) k++ } }
            END { print k + 0 }' "${reports[@]}")
    # Decode: one sampler-report call per program the run's reports name (--binary PROGRAM, and
    # each of REAL_SHARED_LIBS).
    human=0
    mapfile -t progs < <(awk -F'\t' '$1 == "program" { print $2; nextfile }' "${reports[@]}" | sort -u)
    for prog in "${progs[@]}"; do
      mapfile -t group < <(PROG=$prog awk -F'\t' '$1 == "program" { if ($2 == ENVIRON["PROG"]) print FILENAME; nextfile }' "${reports[@]}")
      bins=(--binary "$prog")
      for b in "${REAL_SHARED_LIBS[@]}"; do bins+=(--binary "$b"); done
      decoded=$REAL_TMP/decoded/$name.$(basename "$prog").txt
      if ! "$REAL_REPORT_TOOL" "${group[@]}" "${bins[@]}" >"$decoded" 2>"$decoded.err"; then
        dstate=FAILED
        real_fail "$name: $(basename "$REAL_REPORT_TOOL") (${#group[@]} reports of $prog) ${bins[*]} failed"
        real_show 5 "$decoded.err"
        continue
      elif [ ! -s "$decoded" ]; then
        dstate=empty
        real_fail "$name: $(basename "$REAL_REPORT_TOOL") printed nothing for the reports of $prog"
      fi
      # Decoded site lines "  FILE:LINE:COL  function  scheme  description  cell=N ...
      # estimate cell=N ..." of a matching file with a non-zero cell (before the estimates).
      human=$(( human + $(grep -E "^[[:space:]]+([^[:space:]]*/)?(${file_re}):[0-9]+" "$decoded" |
                          sed -E 's/[[:space:]]estimate[[:space:]].*//' |
                          grep -cE '[[:space:]][^[:space:]=]+=[1-9][0-9]*([[:space:]]|$)' || true) ))
      # Keep the longest decoded output to show.
      if [ -z "${REAL_SHOW_DECODED:-}" ] || [ "$(wc -l <"$decoded")" -gt "$(wc -l <"$REAL_SHOW_DECODED")" ]; then
        REAL_SHOW_DECODED=$decoded
      fi
    done
    raw_total=$((raw_total + raw))
    human_total=$((human_total + human))
    printf '   %-26s %7s %-6s %-8s %12s %12s\n' "$name" "$n" "$rstate" "$dstate" "$raw" "$human"
  done
  if [ "$REAL_SPARSITY" = off ]; then
    echo "   (SAMPLER_SPARSITY=off: no counts expected in sampled units; count check skipped)"
  else
    [ "$raw_total" -gt 0 ] || real_fail "no report has a non-zero count in a unit whose file matches '$file_re'"
    [ "$human_total" -gt 0 ] || real_fail "no decoded report shows a site line of '$file_re' with a non-zero count"
  fi
  if [ -n "${REAL_SHOW_DECODED:-}" ] && [ -s "$REAL_SHOW_DECODED" ]; then
    echo "   the longest decoded output ($(basename "$REAL_SHOW_DECODED" .txt)), first 12 lines:"
    real_show 12 "$REAL_SHOW_DECODED"
  fi
  REAL_NOTE="$REAL_NOTE; $nreports reports decode"
  [ "$REAL_SPARSITY" != off ] && REAL_NOTE="$REAL_NOTE, non-zero counts in '$file_re' ($raw_total cells, $human_total site lines)"
  [ -n "$REAL_SPARSITY" ] && REAL_NOTE="$REAL_NOTE, SAMPLER_SPARSITY=$REAL_SPARSITY"
  return 0
}

# real_make_data DIR: write deterministic input files for the compressors' and ccrypt's
# workloads into DIR (made if needed): text.txt (~300 KiB of pseudo-random words: compressible),
# random.bin (64 KiB of pseudo-random bytes: incompressible), zeros.bin (100,000 NUL bytes),
# ramp.bin (a repeating 0..255 byte ramp with a twist, 50,000 bytes), one.txt (1 byte), empty
# (0 bytes). The same bytes on every machine (a fixed linear congruential generator).
real_make_data() {
  mkdir -p "$1"
  python3 - "$1" <<'PY'
import os, sys
d = sys.argv[1]
state = 20240607
def rnd():
    global state
    state = (state * 6364136223846793005 + 1442695040888963407) % (1 << 64)
    return state >> 33
words = ("the of and to in is that for it as was with be by on not he this are or his from at "
         "which but have an they you were her she there been one all we their has would when if "
         "sampler report branch predicate instrumentation countdown sparsity statistical debugging "
         "zlib bzip2 deflate inflate huffman block sort cipher rijndael arbitrary precision").split()
lines, line = [], []
size = 0
while size < 300 * 1024:
    w = words[rnd() % len(words)]
    if rnd() % 17 == 0:
        w = w.capitalize() + ("," if rnd() % 2 else ".")
    line.append(w)
    if len(line) >= 8 + rnd() % 8:
        s = " ".join(line) + "\n"
        lines.append(s); size += len(s); line = []
open(os.path.join(d, "text.txt"), "w").write("".join(lines))
open(os.path.join(d, "random.bin"), "wb").write(bytes(rnd() & 255 for _ in range(64 * 1024)))
open(os.path.join(d, "zeros.bin"), "wb").write(bytes(100000))
open(os.path.join(d, "ramp.bin"), "wb").write(bytes(((i % 256) ^ (i // 4096)) & 255 for i in range(50000)))
open(os.path.join(d, "one.txt"), "w").write("x")
open(os.path.join(d, "empty"), "wb").close()
PY
}

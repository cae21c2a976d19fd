#!/usr/bin/env bash
# Real-program test: SQLite 3 (Debian's sqlite3 source package) built with sampler-cc.
#
#   test/real/sqlite.sh [BUILD_DIR]
#
# 1. fetches Debian's sqlite3 source (the full source tree, not the amalgamation) into
#    <root>/third_party/sqlite3 (scripts/fetch-source.sh);
# 2. builds it twice with its own autoconf build, outside the source tree, in
#    BUILD_DIR/test/real/sqlite/: baseline/ with plain clang-19 -O2, sampler-cc-<hash>/ with
#    sampler-cc -O2 plus SAMPLER_CC_FLAGS. `configure --disable-shared ...` then `make sqlite3`
#    generates the amalgamation sqlite3.c (tclsh, and lemon & co. built with the same compiler and
#    run during the build) and links the shell (shell.c + libsqlite3.a); speedtest1
#    (test/speedtest1.c) is linked by the Makefile's own rule against that library instead of
#    compiling sqlite3.c a second time;
# 3. runs the SQL workloads test/real/sqlite/*.sql with `sqlite3 test.db` (a fresh database
#    file, stdin from the workload; a `-- expect-exit: N` line gives the expected exit status)
#    and speedtest1 (--size 10 --verify --nosync, test sets main, cte, orm and fp, timings
#    filtered out: its verification hash of all results stays) with both builds, and requires the
#    same stdout, stderr, exit status and database files;
# 4. checks that the instrumented runs' reports are complete, decode with sampler-report, and
#    have non-zero counts at sites in sqlite3.c.
#
# The ctest test real-sqlite runs it with SAMPLER_CC_FLAGS=-fsampler-schemes=all and
# SAMPLER_SPARSITY=100. Environment: see "The corpus" in scripts/lib-real.sh (SAMPLER_CC_FLAGS,
# SAMPLER_SPARSITY, SAMPLER_SEED, SAMPLER_CC, SAMPLER_REPORT_TOOL, REAL_KEEP, REAL_TIMEOUT).
set -euo pipefail
exec 2>&1   # one ordered stream (ctest shows it on failure)

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
# shellcheck source=../../scripts/lib-real.sh
. "$root/scripts/lib-real.sh"

# -O2 without -g: sqlite3.c is 250,000 lines, and debug information makes its instrumented
# build slower still (sites get their file:line:column without -g, see docs/tools.md).
CFLAGS_SQLITE="-O2"

# build_sqlite SRC CC CFLAGS: in the current (build) folder.
build_sqlite() {
  local src=$1 cc=$2 cflags=$3
  # No readline (interactive only), no Tcl extension, no shared library (one compile of
  # sqlite3.c, and executables that need no LD_LIBRARY_PATH).
  "$src/configure" CC="$cc" CFLAGS="$cflags" --disable-shared --disable-readline \
    --disable-editline --disable-tcl
  make -j"$REAL_JOBS" sqlite3
  # The Makefile's speedtest1 rule, but linked with libsqlite3.la (built above) rather than
  # compiling sqlite3.c again.
  printf '%s\n' 'speedtest1-lib: $(TOP)/test/speedtest1.c libsqlite3.la' \
    '	$(LTLINK) $(ST_OPT) -o speedtest1 $(TOP)/test/speedtest1.c libsqlite3.la $(TLIBS)' >speedtest1.mk
  make -f Makefile -f speedtest1.mk speedtest1-lib
  test -x sqlite3 && test -x speedtest1
  # Not libtool wrapper scripts: real executables (the reports name them).
  [ "$(head -c 4 sqlite3 | tail -c 3)" = ELF ] && [ "$(head -c 4 speedtest1 | tail -c 3)" = ELF ]
}

real_test_begin sqlite "${1:-}"

shopt -s nullglob
workloads=("$here"/sqlite/*.sql)
shopt -u nullglob
[ "${#workloads[@]}" -gt 0 ] || { real_fail "no workloads in $here/sqlite"; real_finish; }

echo "== fetching Debian's sqlite3 source"
src=$(real_fetch sqlite3)
echo "   $src"

real_build_pair sqlite "$src" "$CFLAGS_SQLITE" build_sqlite || real_finish
REAL_BASE_BIN=$REAL_BASE_DIR
REAL_INST_BIN=$REAL_INST_DIR

echo "== running the workloads with both builds (stdout, stderr, exit status, files)"
for w in "${workloads[@]}"; do
  name=$(basename "$w" .sql)
  expect=$(sed -nE 's/^--[[:space:]]*expect-exit:[[:space:]]*([0-9]+).*/\1/p' "$w" | head -n 1 || true)
  real_run_pair "$name" --expect "${expect:-0}" --stdin "$w" -- sqlite3 -batch test.db
done
real_run_pair speedtest1 --filter "sed -E 's/[[:space:]]+[0-9]+\.[0-9]{3}s\$//'" -- \
  speedtest1 --size 10 --verify --nosync --testset main,cte,orm,fp speedtest1.db

real_check_reports 'sqlite3\.c'
real_finish

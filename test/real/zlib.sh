#!/usr/bin/env bash
# Real-program test: zlib (Debian's zlib source package) built with sampler-cc.
#
#   test/real/zlib.sh [BUILD_DIR]
#
# 1. fetches Debian's zlib source into <root>/third_party/zlib;
# 2. builds it twice with its own build system (`configure` then `make all infcover`: static and
#    shared library, example, minigzip and their shared-library variants, and the inflate
#    coverage test), outside the source tree, in BUILD_DIR/test/real/zlib/: baseline/ with
#    clang-19 -O2 -g, sampler-cc-<hash>/ with sampler-cc and the same flags plus
#    SAMPLER_CC_FLAGS. The shared variants mix an instrumented executable (static runtime) with
#    an instrumented libz.so (shared runtime);
# 3. runs zlib's own tests in each build folder (`make test`: example and minigzip, static and
#    shared; ./infcover) and the workload test/real/zlib/roundtrip.sh (minigzip round trips of
#    generated data at several levels and strategies, checked with gzip -d), once with minigzip
#    and once with minigzipsh (the shared libz.so, LD_LIBRARY_PATH set to the build), with both
#    builds, and requires the same exit status, output and compressed bytes;
# 4. checks that the instrumented runs' reports are complete, decode with sampler-report, and
#    have non-zero counts at sites in deflate.c or inflate.c.
#
# Environment: see "The corpus" in scripts/lib-real.sh.
set -euo pipefail
exec 2>&1

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
# shellcheck source=../../scripts/lib-real.sh
. "$root/scripts/lib-real.sh"

CFLAGS_ZLIB="-O2 -g"

# build_zlib SRC CC CFLAGS: in the current (build) folder.
build_zlib() {
  local src=$1 cc=$2 cflags=$3
  CC="$cc" CFLAGS="$cflags" "$src/configure"
  make -j"$REAL_JOBS" all infcover
}

real_test_begin zlib "${1:-}"
echo "== fetching Debian's zlib source"
src=$(real_fetch zlib)
echo "   $src"
real_build_pair zlib "$src" "$CFLAGS_ZLIB" build_zlib || real_finish
REAL_BASE_BIN=$REAL_BASE_DIR
REAL_INST_BIN=$REAL_INST_DIR
shopt -s nullglob
REAL_SHARED_LIBS=("$REAL_INST_DIR"/libz.so.*.*)
shopt -u nullglob
# minigzipsh and examplesh use the build's libz.so (as `make test` runs them), not the system's.
REAL_BASE_ENV=("LD_LIBRARY_PATH=$REAL_BASE_DIR")
REAL_INST_ENV=("LD_LIBRARY_PATH=$REAL_INST_DIR")
for d in "$REAL_BASE_DIR" "$REAL_INST_DIR"; do
  case $(LD_LIBRARY_PATH=$d ldd "$d/minigzipsh") in
    *"=> $d/libz.so"*) ;;
    *) real_fail "$d/minigzipsh does not load $d/libz.so with LD_LIBRARY_PATH=$d" ;;
  esac
done

data=$REAL_TMP/data
real_make_data "$data"

echo "== running zlib's tests and the workloads with both builds"
real_suite_pair make-test make test
real_suite_pair infcover ./infcover
real_run_pair roundtrip -- sh "$here/zlib/roundtrip.sh" "$data"
real_run_pair roundtrip-shared -- env MINIGZIP=minigzipsh sh "$here/zlib/roundtrip.sh" "$data"

real_check_reports 'deflate\.c|inflate\.c'
real_finish

#!/usr/bin/env bash
# Real-program test: bzip2 (Debian's bzip2 source package) built with sampler-cc.
#
#   test/real/bzip2.sh [BUILD_DIR]
#
# 1. fetches Debian's bzip2 source into <root>/third_party/bzip2;
# 2. builds it twice with its own Makefile (`make CC=... CFLAGS=... libbz2.a bzip2
#    bzip2recover`, in a copy of the source tree: the Makefile builds in place; Debian's patch
#    links bzip2 with the shared libbz2.so, so the runs set LD_LIBRARY_PATH to the build) in
#    BUILD_DIR/test/real/bzip2/: baseline/ with clang-19, sampler-cc-<hash>/ with sampler-cc
#    (the Makefile's own flags -Wall -Winline -O2 -g -D_FILE_OFFSET_BITS=64, plus
#    SAMPLER_CC_FLAGS for the instrumented build);
# 3. runs bzip2's own tests (`make check`: the sample files compressed and decompressed, compared
#    with the reference files) in each build folder, and the workload
#    test/real/bzip2/roundtrip.sh (round trips of generated data at block sizes 1, 5, 9, small-
#    memory decompression, integrity tests, multi-stream, a damaged file and bzip2recover) with
#    both builds, and requires the same exit status, output and files;
# 4. checks that the instrumented runs' reports are complete, decode with sampler-report, and
#    have non-zero counts at sites in compress.c, decompress.c or blocksort.c.
#
# Environment: see "The corpus" in scripts/lib-real.sh.
set -euo pipefail
exec 2>&1

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
# shellcheck source=../../scripts/lib-real.sh
. "$root/scripts/lib-real.sh"

# The Makefile's CFLAGS (-Wall -Winline -O2 -g $(BIGFILES)).
CFLAGS_BZIP2="-Wall -Winline -O2 -g -D_FILE_OFFSET_BITS=64"

# build_bzip2 SRC CC CFLAGS: in the current (build) folder.
build_bzip2() {
  local src=$1 cc=$2 cflags=$3
  tar -C "$src" --exclude=./debian -cf - . | tar -xf -
  make -j"$REAL_JOBS" CC="$cc" CFLAGS="$cflags" libbz2.a bzip2 bzip2recover
}

real_test_begin bzip2 "${1:-}"
echo "== fetching Debian's bzip2 source"
src=$(real_fetch bzip2)
echo "   $src"
real_build_pair bzip2 "$src" "$CFLAGS_BZIP2" build_bzip2 || real_finish
REAL_BASE_BIN=$REAL_BASE_DIR
REAL_INST_BIN=$REAL_INST_DIR
# Debian's Makefile links bzip2 with the shared libbz2.so it builds: the runs must load the
# build's own library (LD_LIBRARY_PATH, as `make check` does), not the system's.
REAL_BASE_ENV=("LD_LIBRARY_PATH=$REAL_BASE_DIR")
REAL_INST_ENV=("LD_LIBRARY_PATH=$REAL_INST_DIR")
REAL_SHARED_LIBS=("$REAL_INST_DIR/libbz2.so.1.0.4")
for d in "$REAL_BASE_DIR" "$REAL_INST_DIR"; do
  case $(LD_LIBRARY_PATH=$d ldd "$d/bzip2") in
    *"=> $d/libbz2.so"*) ;;
    *) real_fail "$d/bzip2 does not load $d/libbz2.so with LD_LIBRARY_PATH=$d" ;;
  esac
done

data=$REAL_TMP/data
real_make_data "$data"

echo "== running bzip2's tests and the workloads with both builds"
real_suite_pair make-check make check
real_run_pair roundtrip -- sh "$here/bzip2/roundtrip.sh" "$data"

real_check_reports 'compress\.c|decompress\.c|blocksort\.c'
real_finish

#!/usr/bin/env bash
# Real-program test: ccrypt (Debian's ccrypt source package) built with sampler-cc.
#
#   test/real/ccrypt.sh [BUILD_DIR]
#
# 1. fetches Debian's ccrypt source into <root>/third_party/ccrypt (if `apt-get source` fails,
#    as it does on mirrors that lack ccrypt_1.11-2.debian.tar.xz, Debian's upstream tarball
#    alone: see real_fetch in scripts/lib-real.sh);
# 2. builds it twice with its own autoconf build in BUILD_DIR/test/real/ccrypt/: baseline/ with
#    clang-19, sampler-cc-<hash>/ with sampler-cc (-O2 -g, plus SAMPLER_CC_FLAGS), on a copy of
#    the source tree with one time stamp for every file (as for bc). `configure --disable-emacs
#    --disable-nls --disable-libcrypt`: ccrypt's own DES crypt(3) replacement, because its test
#    crypt3-check disagrees with Debian's libxcrypt (with plain clang-19 too); it is skipped then;
# 3. runs ccrypt's own tests (`make check`: rijndael-check, length-check.sh, ccrypt-check.sh) in
#    each build folder, and the workload test/real/ccrypt/roundtrip.sh (encrypt/decrypt round
#    trips of generated data with a fixed key, file mode, key change, wrong keys, the shipped
#    testdata.cpt, ccguess) with both builds, and requires the same exit status and output;
# 4. checks that the instrumented runs' reports are complete, decode with sampler-report, and
#    have non-zero counts at sites in rijndael.c or ccryptlib.c.
#
# Environment: see "The corpus" in scripts/lib-real.sh.
set -euo pipefail
exec 2>&1

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
# shellcheck source=../../scripts/lib-real.sh
. "$root/scripts/lib-real.sh"

CFLAGS_CCRYPT="-O2 -g"

# build_ccrypt SRC CC CFLAGS: in the current (build) folder.
build_ccrypt() {
  local src=$1 cc=$2 cflags=$3
  tar -C "$src" --exclude=./debian -cf - . | tar -xf -
  find . -exec touch -h -d @1500000000 {} +
  ./configure CC="$cc" CFLAGS="$cflags" --disable-emacs --disable-nls --disable-libcrypt
  make -j"$REAL_JOBS"
  # The test programs too (make check would build them, under the test's lock, untimed).
  make -j"$REAL_JOBS" -C check rijndael-check crypt3-check
}

real_test_begin ccrypt "${1:-}"
echo "== fetching Debian's ccrypt source"
src=$(real_fetch ccrypt)
echo "   $src"
real_build_pair ccrypt "$src" "$CFLAGS_CCRYPT" build_ccrypt || real_finish
REAL_BASE_BIN=$REAL_BASE_DIR/src
REAL_INST_BIN=$REAL_INST_DIR/src

data=$REAL_TMP/data
real_make_data "$data"

echo "== running ccrypt's tests and the workloads with both builds"
real_suite_pair make-check make check
real_run_pair roundtrip -- sh "$here/ccrypt/roundtrip.sh" "$data" "$src/check"

real_check_reports 'rijndael\.c|ccryptlib\.c'
real_finish

#!/usr/bin/env bash
# Build sampler if needed, then run the whole test suite through ctest: lit (IR, tools,
# end-to-end tests), the GoogleTest units, and the real-program tests (test/real/).
#
# Usage: scripts/test.sh [CTEST ARGS...]     e.g. scripts/test.sh -R real-lua   or   -L real
# Environment: BUILD_DIR (default <root>/build), BUILD_TYPE (default Release, for a first
# configure), CTEST_PARALLEL_LEVEL (ctest's own; default: the number of cores). Tests run side
# by side: the longest, real-sqlite, is mostly one compile of sqlite3.c, which leaves the other
# cores to the rest of the suite (test/real/CMakeLists.txt starts it first).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${BUILD_DIR:-$root/build}

if [ ! -f "$build/CMakeCache.txt" ]; then
  gen=()
  command -v ninja >/dev/null 2>&1 && gen=(-G Ninja)
  echo "== configuring $build"
  cmake -S "$root" -B "$build" "${gen[@]}" -DCMAKE_BUILD_TYPE="${BUILD_TYPE:-Release}"
fi
echo "== building $build"
cmake --build "$build" -j "$(nproc)"
export CTEST_PARALLEL_LEVEL=${CTEST_PARALLEL_LEVEL:-$(nproc)}
echo "== testing (ctest, $CTEST_PARALLEL_LEVEL at a time)"
ctest --test-dir "$build" --output-on-failure "$@"

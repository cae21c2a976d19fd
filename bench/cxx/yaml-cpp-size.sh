#!/usr/bin/env bash
# Code size and compile time of a C++ library under sampler: yaml-cpp (Debian's source
# package, fetched at run time into third_party/, never committed), its 29 units built into
# one shared library, once with clang++-19 and once with sampler-c++ and the given flags.
# C++ is where inline functions are emitted by every unit that uses them (linkonce_odr,
# in comdat groups), which the C corpus does not have.
#
#   bench/cxx/yaml-cpp-size.sh [SAMPLER_CXX_FLAGS...]    e.g. -fno-sampler-copy-comdat
# Prints, for each build: .text bytes, its ratio to clang++-19's, the private copies
# (F.sampler.slow, F.sampler.twin) the library holds, and the build's CPU seconds
# (units compiled two at a time). Environment: BUILD_DIR (default <root>/build).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# shellcheck source=SCRIPTDIR/../../scripts/lib-real.sh
. "$root/scripts/lib-real.sh"
build=$(real_build_dir "${BUILD_DIR:-}")
src=$(real_fetch yaml-cpp)
out=$build/bench/yaml-cpp
rm -rf "$out"
mkdir -p "$out"

lib() { # NAME CXX [FLAGS...]: builds $out/NAME/libyaml-cpp.so, prints its CPU seconds
  local name=$1 dir=$out/$1
  shift
  mkdir -p "$dir"
  # CPU time of this shell's waited-for children (utime + stime + cutime + cstime).
  local me=$BASHPID start end
  start=$(awk '{ print $14 + $15 + $16 + $17 }' "/proc/$me/stat")
  # shellcheck disable=SC2016 # the inner shell expands them
  ( cd "$src" && find src -maxdepth 1 -name '*.cpp' -print0 | xargs -0 -P2 -I{} sh -c \
      'f=$0 d=$1; shift; exec "$@" -O2 -fPIC -Iinclude -Isrc -c "$f" -o "$d/$(basename "$f" .cpp).o"' \
      {} "$dir" "$@" )
  "$@" -shared "$dir"/*.o -o "$dir/libyaml-cpp.so"
  end=$(awk '{ print $14 + $15 + $16 + $17 }' "/proc/$me/stat")
  awk -v t=$((end - start)) -v hz="$(getconf CLK_TCK)" 'BEGIN { printf "%.1f", t / hz }'
}
text() { /usr/lib/llvm-19/bin/llvm-size -A "$1" | awk '$1 == ".text" { print $2 }'; }
copies() { /usr/lib/llvm-19/bin/llvm-nm "$1" | grep -c '\.sampler\.\(slow\|twin\)' || true; }

base_s=$(lib baseline /usr/lib/llvm-19/bin/clang++)
samp_s=$(lib sampled "$build/bin/sampler-c++" "$@")
base_t=$(text "$out/baseline/libyaml-cpp.so")
samp_t=$(text "$out/sampled/libyaml-cpp.so")
printf 'build\t.text\tratio\tcopies\tCPU s\n'
printf 'clang++-19\t%s\t1.000\t%s\t%s\n' "$base_t" "$(copies "$out/baseline/libyaml-cpp.so")" "$base_s"
printf 'sampler-c++ %s\t%s\t%s\t%s\t%s\n' "$*" "$samp_t" \
  "$(awk -v a="$samp_t" -v b="$base_t" 'BEGIN { printf "%.3f", a / b }')" \
  "$(copies "$out/sampled/libyaml-cpp.so")" "$samp_s"

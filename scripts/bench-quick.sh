#!/usr/bin/env bash
# A quick comparison for changes to the transformation or the runtime: instructions
# (valgrind cachegrind, exactly repeatable) of three workloads, each built with plain clang-19
# and with sampler-cc, run with sampling off and at d = 100. Minutes, where scripts/bench.sh
# (every program, configuration and peer, wall clock, sizes, compile times) takes most of an
# hour. Used for the "what each change bought" figures of docs/benchmarks.md.
#
#   scripts/bench-quick.sh [NAME]        results in BUILD_DIR/bench/quick/NAME/ (default: now)
#
#   lua    Lua 5.4's interpreter on bench/lua/workload.lua (built by lib-real.sh's real_build_lua, its hash seed fixed)
#   zlib   minigzip -6 compressing bench/make-data.py's text.txt (4 MiB); zlib's library
#          sources and test/minigzip.c, compiled with -O2 -D_LARGEFILE64_SOURCE=1 -DHAVE_HIDDEN
#   bzip2  bzip2 -c compressing the same text; its sources, -O2 -D_FILE_OFFSET_BITS=64
# Extra sampler-cc flags: $QUICK_FLAGS. Extra flags for both builds, the clang-19 baseline
# too (a tuning, -mtune=CPU): $QUICK_BASE_FLAGS. Sparsities: $QUICK_SPARSITIES (default
# "off 100").
# Programs: $QUICK_PROGRAMS (default "lua zlib bzip2").
# Prints one line per run: program, sparsity, instructions, ratio to the clang-19 build.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=SCRIPTDIR/lib-real.sh
. "$root/scripts/lib-real.sh"
build=$(real_build_dir "${BUILD_DIR:-}")
name=${1:-$(date +%Y%m%d-%H%M%S)}
out=$build/bench/quick/$name
sampler=$build/bin/sampler-cc
clang=$REAL_CLANG
read -r -a flags <<<"${QUICK_FLAGS:-}"
read -r -a baseflags <<<"${QUICK_BASE_FLAGS:-}"
read -r -a sparsities <<<"${QUICK_SPARSITIES:-off 100}"
read -r -a programs <<<"${QUICK_PROGRAMS:-lua zlib bzip2}"
[ -x "$sampler" ] || real_die "no $sampler: build sampler first"
mkdir -p "$out"
data=$build/bench/data
[ -s "$data/text.txt" ] || python3 "$root/bench/make-data.py" "$data" >&2

instructions() { # DIR-OF-RUN COMMAND...: valgrind's I refs of the command (stdin: $stdin)
  local d=$1
  shift
  (cd "$d" && env -i PATH=/usr/bin:/bin LC_ALL=C "${run_env[@]}" \
    valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null "$@" \
    <"$stdin" 2>&1 >/dev/null | awk '/I *refs/ { gsub(",", "", $NF); print $NF }')
}

compile_all() { # OUTDIR CC FLAGS... -- SOURCES...: compile each source to OUTDIR/<name>.o
  local dir=$1 cc=$2 pids=() src
  shift 2
  local cflags=()
  while [ "$1" != -- ]; do cflags+=("$1"); shift; done
  shift
  mkdir -p "$dir"
  for src in "$@"; do
    "$cc" "${cflags[@]}" -w -c "$src" -o "$dir/$(basename "${src%.c}").o" &
    pids+=($!)
    if [ "${#pids[@]}" -ge "$REAL_JOBS" ]; then wait "${pids[0]}"; pids=("${pids[@]:1}"); fi
  done
  for p in "${pids[@]}"; do wait "$p"; done
}

build_zlib() { # DIR CC EXTRA...
  local dir=$1 cc=$2 src f
  shift 2
  src=$(real_fetch zlib)
  local srcs=()
  for f in adler32 crc32 deflate infback inffast inflate inftrees trees zutil compress \
           uncompr gzclose gzlib gzread gzwrite; do srcs+=("$src/$f.c"); done
  srcs+=("$src/test/minigzip.c")
  compile_all "$dir" "$cc" -O2 -D_LARGEFILE64_SOURCE=1 -DHAVE_HIDDEN "-I$src" "$@" -- "${srcs[@]}"
  "$cc" -O2 "$@" "$dir"/*.o -o "$dir/prog"
}

build_bzip2() { # DIR CC EXTRA...
  local dir=$1 cc=$2 src f
  shift 2
  src=$(real_fetch bzip2)
  local srcs=()
  for f in blocksort huffman crctable randtable compress decompress bzlib bzip2; do
    srcs+=("$src/$f.c")
  done
  compile_all "$dir" "$cc" -O2 -D_FILE_OFFSET_BITS=64 "-I$src" "$@" -- "${srcs[@]}"
  "$cc" -O2 "$@" "$dir"/*.o -o "$dir/prog"
}

build_lua() { # DIR CC EXTRA...
  local dir=$1 cc=$2 src
  shift 2
  src=$(real_fetch lua5.4)
  real_build_lua "$src" "$dir" "$cc" "$REAL_LUA_CFLAGS '-Dluai_makeseed(L)=0x5eedu' $*" \
    "quick-$name-$(date +%s%N)" >"$dir.log" 2>&1 || real_die "lua build failed: $dir.log"
  cp "$dir/lua" "$dir/prog"
}

for prog in "${programs[@]}"; do
  case $prog in lua | zlib | bzip2) ;; *) real_die "unknown program '$prog' in QUICK_PROGRAMS (known: lua zlib bzip2)" ;; esac
  for conf in baseline sampled; do
    dir=$out/$prog-$conf
    rm -rf "$dir"
    mkdir -p "$dir"
    if [ "$conf" = baseline ]; then
      "build_$prog" "$dir" "$clang" "${baseflags[@]}" >"$dir.log" 2>&1 || real_die "build failed: $dir.log"
    else
      "build_$prog" "$dir" "$sampler" "${baseflags[@]}" "${flags[@]}" >"$dir.log" 2>&1 ||
        real_die "build failed: $dir.log"
    fi
    # valgrind 3.19 cannot read clang 19's DWARF 5: run a copy without debug sections.
    /usr/lib/llvm-19/bin/llvm-strip --strip-debug -o "$dir/prog.nodebug" "$dir/prog"
  done
  real_quick_workload "$prog" "$data"
  args=("${QUICK_ARGS[@]}")
  stdin=$QUICK_STDIN
  if [ "$prog" = lua ]; then rundir=$root/bench/lua; else rundir=$out; fi
  run_env=()
  base=$(instructions "$rundir" "$out/$prog-baseline/prog.nodebug" "${args[@]}")
  printf '%s\tbaseline\t%s\t1.000\n' "$prog" "$base"
  for d in "${sparsities[@]}"; do
    run_env=(SAMPLER_SPARSITY="$d" SAMPLER_SEED=1 SAMPLER_FILE="$out/$prog-$d.report")
    n=$(instructions "$rundir" "$out/$prog-sampled/prog.nodebug" "${args[@]}")
    printf '%s\t%s\t%s\t%s\n' "$prog" "$d" "$n" "$(awk -v a="$n" -v b="$base" 'BEGIN { printf "%.3f", a / b }')"
  done
done

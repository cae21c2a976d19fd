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
# and print the unpacked source tree's path.
real_fetch() {
  bash "$REAL_ROOT/scripts/fetch-source.sh" "$1" "$REAL_ROOT/third_party/$1"
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

# real_lua_dir BUILD CC EXTRA_FLAGS: where the Lua built with CC (+ EXTRA_FLAGS) lives: a folder
# under BUILD/test/real/lua/ named after CC and the flags, so that builds with different flags
# (and concurrent tests using them) do not collide; the baseline is BUILD/test/real/lua/baseline.
real_lua_dir() {
  local build=$1 cc=$2 extra=$3 work
  work=$build/test/real/lua
  [ -d "$build" ] || work=${TMPDIR:-/tmp}/sampler-real-lua   # only without a sampler build
  if [ "$cc" = "$REAL_CLANG" ] && [ -z "$extra" ]; then
    printf '%s\n' "$work/baseline"
  else
    printf '%s\n' "$work/$(basename "$cc")-$(printf '%s\n%s\n' "$cc" "$extra" | md5sum | cut -c1-8)"
  fi
}

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

#!/usr/bin/env bash
# Install every Debian package that sampler's build, tests and real-program tests need on a
# fresh Debian bookworm machine, and make sure apt has deb-src entries (scripts/fetch-source.sh
# uses `apt-get source`).
#
# Idempotent and quick on a rerun: packages already installed are skipped (dpkg-query), and
# `apt-get update` runs only when something has to be installed or the source indexes are
# missing. Set SETUP_FORCE_UPDATE=1 to run `apt-get update` anyway.
#
# Usage: scripts/setup.sh            (as root, or as a user with sudo)
set -euo pipefail

log() { printf 'setup: %s\n' "$*"; }

# Everything the build and the tests use. Keep one package a line, with why.
PACKAGES=(
  # build of sampler itself
  cmake
  ninja-build
  make
  g++
  # LLVM/Clang 19 (the unversioned clang/opt on these machines are LLVM 14: never used)
  clang-19
  llvm-19-dev
  libclang-19-dev
  llvm-19-tools        # lit, FileCheck, not, count
  libclang-rt-19-dev
  lld-19
  # tests
  libgtest-dev
  python3              # lit
  valgrind
  gnuplot-nox          # bench: scripts/bench.sh draws its plot
  gdb                  # docs/benchmarks.md: scripts/count-shrinks.py counts the coalescer's work
  linux-perf           # docs/benchmarks.md: perf record -e cpu-clock, where the time goes
  # real-program tests: `apt-get source` + unpacking (.tar.xz / .tar.gz + patches)
  dpkg-dev
  xz-utils
  patch
  # lua5.4 is built with its own Makefile's `linux` target (no readline), so it needs
  # nothing beyond make and the compiler: no libreadline-dev.
  tcl                  # sqlite3: tclsh generates the amalgamation sqlite3.c during its build
  ed                   # bc: its build runs fix-libmath_h, an ed script
  # (test/real/*.sh also use python3, above, to generate the compressors' input data, and
  # gzip, tar, cmp and ldd, which every Debian system has.)
  # later work: random program generation and test-case reduction
  csmith
  libcsmith-dev        # csmith.h, for the programs csmith generates (scripts/difftest-csmith.sh)
  creduce
)

SUDO=()
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then
    SUDO=(sudo)
    log "not root: using sudo"
  else
    log "ERROR: must run as root (or with sudo available)" >&2
    exit 1
  fi
fi
export DEBIAN_FRONTEND=noninteractive

# --- deb-src entries ---------------------------------------------------------------------
# True if any enabled deb-src entry exists in a deb822 .sources file or a classic .list file.
have_deb_src() {
  local f
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] || continue
    # A paragraph (stanza) whose Types: line lists deb-src and which is not Enabled: no.
    if awk 'BEGIN { RS = ""; found = 0 }
            {
              types = 0; disabled = 0
              n = split($0, lines, "\n")
              for (i = 1; i <= n; i++) {
                l = lines[i]
                if (l ~ /^[Tt]ypes:/ && l ~ /(:|[ \t])deb-src([ \t]|$)/) types = 1
                if (l ~ /^[Ee]nabled:[ \t]*[Nn]o/) disabled = 1
              }
              if (types && !disabled) found = 1
            }
            END { exit(found ? 0 : 1) }' "$f"; then
      return 0
    fi
  done
  for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
    [ -f "$f" ] || continue
    if grep -Eq '^[[:space:]]*deb-src[[:space:]]' "$f"; then
      return 0
    fi
  done
  return 1
}

add_deb_src() {
  local f out tmp
  # deb822: copy every enabled stanza whose Types: lists deb, with Types: deb-src.
  out=/etc/apt/sources.list.d/sampler-deb-src.sources
  tmp=$(mktemp)
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] || continue
    [ "$f" = "$out" ] && continue
    awk 'BEGIN { RS = ""; ORS = "\n\n" }
         {
           n = split($0, lines, "\n"); isdeb = 0; disabled = 0; body = ""
           for (i = 1; i <= n; i++) {
             l = lines[i]
             if (l ~ /^#/) continue
             if (l ~ /^[Tt]ypes:/) {
               if (l ~ /(:|[ \t])deb([ \t]|$)/) isdeb = 1
               continue
             }
             if (l ~ /^[Ee]nabled:[ \t]*[Nn]o/) disabled = 1
             body = body l "\n"
           }
           if (isdeb && !disabled) printf "Types: deb-src\n%s\n", body
         }' "$f" >>"$tmp"
  done
  if [ -s "$tmp" ]; then
    log "adding deb-src entries (deb822) in $out:"
    sed 's/^/setup:   /' "$tmp"
    "${SUDO[@]}" install -m 0644 "$tmp" "$out"
  fi
  rm -f "$tmp"
  # classic one-line format: add a deb-src line for each deb line.
  out=/etc/apt/sources.list.d/sampler-deb-src.list
  tmp=$(mktemp)
  for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
    [ -f "$f" ] || continue
    [ "$f" = "$out" ] && continue
    sed -En 's/^[[:space:]]*deb([[:space:]])/deb-src\1/p' "$f" >>"$tmp"
  done
  if [ -s "$tmp" ]; then
    log "adding deb-src entries (one-line format) in $out:"
    sed 's/^/setup:   /' "$tmp"
    "${SUDO[@]}" install -m 0644 "$tmp" "$out"
  fi
  rm -f "$tmp"
}

need_update=0
if have_deb_src; then
  log "deb-src entries: present"
else
  add_deb_src
  if ! have_deb_src; then
    log "ERROR: found no deb entries to derive deb-src entries from" >&2
    exit 1
  fi
  need_update=1
fi
# The deb-src entries are there, but are their indexes? (apt-get source needs them.)
if ! compgen -G '/var/lib/apt/lists/*_source_Sources*' >/dev/null; then
  log "no source indexes downloaded yet"
  need_update=1
fi

# --- packages ------------------------------------------------------------------------------
missing=()
for p in "${PACKAGES[@]}"; do
  if [ "$(dpkg-query -W -f='${db:Status-Abbrev}' "$p" 2>/dev/null || true)" != "ii " ]; then
    missing+=("$p")
  fi
done
if [ "${#missing[@]}" -gt 0 ]; then
  log "to install: ${missing[*]}"
  need_update=1
else
  log "all ${#PACKAGES[@]} packages already installed"
fi

if [ "$need_update" = 1 ] || [ "${SETUP_FORCE_UPDATE:-0}" = 1 ]; then
  log "apt-get update"
  "${SUDO[@]}" apt-get update -q
fi
if [ "${#missing[@]}" -gt 0 ]; then
  log "apt-get install ${missing[*]}"
  "${SUDO[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

# --- checks --------------------------------------------------------------------------------
for tool in /usr/lib/llvm-19/bin/clang /usr/lib/llvm-19/bin/FileCheck \
            /usr/lib/llvm-19/build/utils/lit/lit.py /usr/lib/llvm-19/lib/cmake/llvm/LLVMConfig.cmake; do
  if [ ! -e "$tool" ]; then
    log "ERROR: $tool is missing after install" >&2
    exit 1
  fi
done
log "ok: $(/usr/lib/llvm-19/bin/clang --version | head -1)"

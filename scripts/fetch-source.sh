#!/usr/bin/env bash
# Fetch and unpack the Debian source package PKG into DIR with `apt-get source`, unless it is
# already there, and print the unpacked source directory's absolute path (the only thing
# written to stdout; progress goes to stderr).
#
# Usage: scripts/fetch-source.sh PKG DIR          e.g. scripts/fetch-source.sh lua5.4 third_party/lua5.4
#
# DIR should be an ignored folder (third_party/ is in .gitignore): downloaded sources are never
# committed. Needs deb-src entries and their indexes (scripts/setup.sh sets both up).
# Safe to run concurrently for the same DIR (flock).
set -euo pipefail

if [ "$#" -ne 2 ]; then
  echo "usage: $0 PKG DIR" >&2
  exit 2
fi
pkg=$1
dir=$2
log() { printf 'fetch-source: %s\n' "$*" >&2; }

mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
stamp="$dir/.fetched-$pkg"

# The stamp holds the unpacked directory's name; it is written only after a complete unpack.
done_path() {
  local name
  [ -f "$stamp" ] || return 1
  name=$(cat "$stamp")
  [ -n "$name" ] && [ -f "$dir/$name/debian/changelog" ] || return 1
  printf '%s\n' "$dir/$name"
}

exec 9>"$dir/.lock-$pkg"
flock 9

if path=$(done_path); then
  log "$pkg: already unpacked in $path"
  printf '%s\n' "$path"
  exit 0
fi

command -v dpkg-source >/dev/null 2>&1 || { log "ERROR: dpkg-source missing (install dpkg-dev: scripts/setup.sh)"; exit 1; }
if ! compgen -G '/var/lib/apt/lists/*_source_Sources*' >/dev/null; then
  log "ERROR: apt has no source indexes (no deb-src entries?): run scripts/setup.sh first"
  exit 1
fi

# Unpack into a fresh temporary folder beside the final place, then move it in: an interrupted
# fetch never leaves a half-unpacked tree that looks complete.
tmp=$(mktemp -d "$dir/.tmp-$pkg.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
chmod 0755 "$tmp"
sandbox=()
# As root apt downloads as user _apt, which may not be able to write here; stay root.
[ "$(id -u)" -eq 0 ] && sandbox=(-o APT::Sandbox::User=root)
log "$pkg: apt-get source into $dir"
if ! (cd "$tmp" && apt-get source -q "${sandbox[@]}" "$pkg") >&2; then
  # A mirror whose index names a version its pool no longer holds (seen for zlib's
  # 1:1.2.13.dfsg-1+deb12u1 on bookworm-security, 404): try the index's other versions,
  # newest first, before giving up.
  fetched=""
  for version in $(apt-cache showsrc --only-source "$pkg" 2>/dev/null |
                   awk '/^Version:/ { print $2 }' | sort -u -r -V | tail -n +2); do
    rm -rf "${tmp:?}"/*
    log "$pkg: apt-get source failed; trying version $version"
    if (cd "$tmp" && apt-get source -q "${sandbox[@]}" "$pkg=$version") >&2; then
      fetched=$version
      break
    fi
  done
  if [ -z "$fetched" ]; then
    log "ERROR: apt-get source $pkg failed for every version apt's source index lists"
    exit 1
  fi
  log "$pkg: fetched version $fetched (not the newest the index lists)"
fi

name=""
for d in "$tmp"/*/; do
  d=${d%/}
  if [ -f "$d/debian/changelog" ] && [ "$(head -1 "$d/debian/changelog" | cut -d' ' -f1)" = "$pkg" ]; then
    name=$(basename "$d")
    break
  fi
done
if [ -z "$name" ]; then
  # PKG may have been a binary package name: accept the single unpacked tree.
  set -- "$tmp"/*/debian/changelog
  if [ "$#" -eq 1 ] && [ -f "$1" ]; then
    name=$(basename "$(dirname "$(dirname "$1")")")
  fi
fi
if [ -z "$name" ]; then
  log "ERROR: apt-get source $pkg unpacked no $pkg source tree"
  exit 1
fi

rm -rf "${dir:?}/$name"
mv "$tmp/$name" "$dir/$name"
# Keep the downloaded .dsc/.tar files beside it (small), for reference.
find "$tmp" -maxdepth 1 -type f -exec mv -f {} "$dir/" \;
printf '%s\n' "$name" >"$stamp"
log "$pkg: unpacked $dir/$name"
printf '%s\n' "$dir/$name"

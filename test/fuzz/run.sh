#!/bin/sh
# Runs each fuzz target of test/fuzz for a bounded time, starting from the
# seed corpus (every seed is run first: the corpus doubles as a regression
# suite). Fails on any crash, sanitizer report, leak, timeout or property
# violation; the input at fault is saved in ARTIFACTS.
#
#   run.sh BINDIR SRCDIR SECONDS ARTIFACTS [TARGET...]
#
# BINDIR holds the fuzzers (TARGET_fuzzer), SRCDIR is test/fuzz (corpus/TARGET,
# TARGET.dict), SECONDS the time for each target. New inputs the run finds go
# to a temporary directory, not to the seed corpus; to keep one, minimise it
# (-minimize_crash=1 for a crash) and copy it into corpus/TARGET by hand.
set -u
if [ $# -lt 4 ]; then
  echo "usage: $0 BINDIR SRCDIR SECONDS ARTIFACTS [TARGET...]" >&2
  exit 2
fi
bin=$1 src=$2 secs=$3 artifacts=$4
shift 4
[ $# -gt 0 ] || set -- report site_table feedback
mkdir -p "$artifacts" || exit 1
work=$(mktemp -d "${TMPDIR:-/tmp}/sampler-fuzz.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT INT TERM
status=0
for t in "$@"; do
  exe=$bin/${t}_fuzzer
  if [ ! -x "$exe" ]; then
    echo "run.sh: $exe not built" >&2
    status=1
    continue
  fi
  mkdir -p "$work/$t"
  echo "== $t: $secs s from $(ls "$src/corpus/$t" | wc -l) seeds"
  # -malloc_limit_mb: inputs are at most 4 KB; a reader that allocates in
  # proportion to what a table or report claims (not to its size) fails here.
  "$exe" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
      -malloc_limit_mb=64 -print_final_stats=1 -dict="$src/$t.dict" \
      -artifact_prefix="$artifacts/$t-" "$work/$t" "$src/corpus/$t" \
      > "$work/$t.log" 2>&1
  rc=$?
  grep -E '^(stat::number_of_executed_units|stat::peak_rss_mb|Done)|#[0-9]+ *DONE' "$work/$t.log"
  if [ $rc -ne 0 ]; then
    echo "== $t: FAILED (exit $rc); log:" >&2
    tail -n 60 "$work/$t.log" >&2
    status=1
  else
    echo "== $t: ok"
  fi
done
exit $status

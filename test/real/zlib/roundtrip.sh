#!/bin/sh
# zlib workload: minigzip (zlib's test program, on PATH) compresses each input file of DATA
# (scripts/lib-real.sh real_make_data) with several levels and strategies, through stdin and
# stdout, and decompresses the result again: the round trip must give the input back, and
# gzip(1) must read what minigzip wrote. Prints the size and checksum of every compressed stream
# (compared between the builds: the same zlib must compress to the same bytes), and leaves the
# compressed files in the current folder (compared too). MINIGZIP names the program (default
# minigzip; minigzipsh is the same linked with the shared libz.so).
#   [MINIGZIP=minigzipsh] roundtrip.sh DATA
set -eu
data=$1
status=0
minigzip() { command "${MINIGZIP:-minigzip}" "$@"; }
for f in text.txt random.bin zeros.bin ramp.bin one.txt empty; do
  for opt in -1 -6 -9 -f -h -r "-9 -f" "-1 -r"; do
    out=$f$(echo "$opt" | tr -d ' ').gz
    # shellcheck disable=SC2086 # $opt is one or two options
    minigzip $opt <"$data/$f" >"$out"
    minigzip -d <"$out" >round.tmp
    if cmp -s round.tmp "$data/$f" && gzip -dc <"$out" | cmp -s - "$data/$f"; then
      ok=ok
    else
      ok=MISMATCH; status=1
    fi
    printf '%-12s %-6s %8s %s %s\n' "$f" "$opt" "$(wc -c <"$out")" "$(cksum <"$out" | cut -d' ' -f1)" "$ok"
  done
done
rm -f round.tmp
# In-place mode: FILE -> FILE.gz -> FILE.
cp "$data/text.txt" inplace.txt
minigzip inplace.txt
test -f inplace.txt.gz && test ! -f inplace.txt
minigzip -d inplace.txt.gz
cmp inplace.txt "$data/text.txt" && echo "in-place round trip: ok"
# A truncated stream: minigzip must fail.
head -c 1000 text.txt-9.gz >truncated.gz
if minigzip -d <truncated.gz >/dev/null 2>truncated.err; then
  echo "truncated stream: decompressed?!"; status=1
else
  echo "truncated stream: rejected"
fi
exit $status

#!/bin/sh
# bzip2 workload: bzip2 (on PATH) compresses each input file of DATA (scripts/lib-real.sh
# real_make_data) at several block sizes, through stdin and stdout, and decompresses the result
# (also with -s, the small-memory decompressor); tests integrity (-t), file mode (-k, -f),
# multi-stream files, and bzip2recover on a damaged file. Prints sizes and checksums of the
# compressed streams (compared between the builds) and leaves the files in the current folder.
#   roundtrip.sh DATA
set -eu
data=$1
status=0
for f in text.txt random.bin zeros.bin ramp.bin one.txt empty; do
  for opt in -1 -5 -9; do
    out=$f$opt.bz2
    bzip2 $opt <"$data/$f" >"$out"
    if bzip2 -d <"$out" | cmp -s - "$data/$f" && bzip2 -ds <"$out" | cmp -s - "$data/$f" && bzip2 -tq "$out"; then
      ok=ok
    else
      ok=MISMATCH; status=1
    fi
    printf '%-12s %-3s %8s %s %s\n' "$f" "$opt" "$(wc -c <"$out")" "$(cksum <"$out" | cut -d' ' -f1)" "$ok"
  done
done
# File mode: -k keeps the input, -f overwrites, -d restores.
cp "$data/text.txt" file.txt
bzip2 -k -9 file.txt
bzip2 -f -d file.txt.bz2 2>&1
cmp file.txt "$data/text.txt" && echo "file mode round trip: ok"
# Two streams one after the other decompress to the two inputs one after the other.
cat text.txt-1.bz2 ramp.bin-9.bz2 >multi.bz2
cat "$data/text.txt" "$data/ramp.bin" >multi.expected
bzip2 -dc multi.bz2 | cmp - multi.expected && echo "multi-stream: ok"
rm -f multi.expected
# Damage one byte in the middle of a multi-block stream: -t must fail (exit status 2) and
# bzip2recover must save the intact blocks.
cat "$data/text.txt" "$data/text.txt" "$data/text.txt" "$data/text.txt" >big.txt
bzip2 -1 big.txt
size=$(wc -c <big.txt.bz2)
{ head -c $((size / 2)) big.txt.bz2; printf 'X'; tail -c $((size - size / 2 - 1)) big.txt.bz2; } >damaged.bz2
rm -f big.txt.bz2
if bzip2 -t damaged.bz2 2>damaged.err; then echo "damaged: passed -t?!"; status=1; else echo "damaged: -t fails, exit status $?"; fi
bzip2recover damaged.bz2 >recover.out 2>&1 || echo "bzip2recover: exit status $?"
ls rec*damaged.bz2 | while read -r r; do printf '%s: ' "$r"; bzip2 -dc "$r" | wc -c; done
exit $status

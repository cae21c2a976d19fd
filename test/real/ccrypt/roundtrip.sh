#!/bin/sh
# ccrypt workload: ccrypt (on PATH) encrypts each input file of DATA (scripts/lib-real.sh
# real_make_data) with a fixed key and decrypts it again, as a filter and in file mode; changes
# a key (-x); rejects a wrong key; decrypts the encrypted test file that ccrypt's source ships
# (CHECK/testdata.cpt, key "testkey"); and ccguess finds that key from a near miss.
# Encryption starts from a random nonce, so encrypted bytes differ from run to run: the output
# shows only sizes and decrypted checksums, and the encrypted files are removed at the end.
#   roundtrip.sh DATA CHECK
set -eu
data=$1
check=$2
key="correct horse battery staple"
status=0
for f in text.txt random.bin zeros.bin ramp.bin one.txt empty; do
  ccrypt -e -K "$key" <"$data/$f" >"$f.cpt"
  ccrypt -d -K "$key" <"$f.cpt" >"$f.out"
  if cmp -s "$f.out" "$data/$f"; then ok=ok; else ok=MISMATCH; status=1; fi
  # A wrong key: refused (exit status 4), nothing decrypted.
  rc=0; ccrypt -d -K "wrong $key" <"$f.cpt" >"$f.wrong" 2>"$f.wrong.err" || rc=$?
  printf '%-12s plain %7s encrypted %7s decrypted %s %s, wrong key: exit status %s, %s bytes\n' \
    "$f" "$(wc -c <"$data/$f")" "$(wc -c <"$f.cpt")" "$(cksum <"$f.out" | cut -d' ' -f1)" "$ok" \
    "$rc" "$(wc -c <"$f.wrong")"
  rm -f "$f.out" "$f.wrong"
done
cat text.txt.wrong.err
# File mode: FILE -> FILE.cpt -> FILE; key change with -x.
cp "$data/text.txt" file.txt
ccrypt -e -K "$key" file.txt
test -f file.txt.cpt && test ! -f file.txt
ccrypt -x -K "$key" -H "new key" file.txt.cpt
ccrypt -d -K "new key" file.txt.cpt
cmp file.txt "$data/text.txt" && echo "file mode and key change: ok"
# -c (cat) of the encrypted file that ccrypt's own tests use.
ccrypt -c -K testkey "$check/testdata.cpt" | cmp - "$check/testdata" && echo "testdata.cpt: ok"
# ccguess: one character of the key is wrong.
# (Only its result: the progress display is for a terminal.)
ccguess -K testkez -d 1 "$check/testdata.cpt" 2>&1 | tr '\r\033' '\n\n' | grep -a 'Possible match'
ccguess -K tsetkye -d 2 "$check/testdata.cpt" 2>&1 | tr '\r\033' '\n\n' | grep -a 'Possible match'
rm -f ./*.cpt
exit $status

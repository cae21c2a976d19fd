/* A small driver for ccrypt's rijndael.c (fetched at test time, never committed):
 * 100,000 blocks encrypted, then decrypted, with a 256-bit key and block. Used for the
 * per-instruction profiles of xShiftSubst and the runtime's draws in docs/benchmarks.md
 * ("Micro-benchmarks"), built with bench/ccrypt/rijndael-bench.sh. */
#include "rijndael.h"
#include <stdio.h>

int main(void) {
  roundkey rk;
  xword32 key[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  xword32 blk[8] = {0};
  xrijndaelKeySched(key, 256, 256, &rk);
  for (int i = 0; i < 100000; i++) {
    xrijndaelEncrypt(blk, &rk);
    blk[0] ^= (xword32)i;
  }
  for (int i = 0; i < 100000; i++) {
    xrijndaelDecrypt(blk, &rk);
    blk[1] ^= (xword32)i;
  }
  printf("%x %x\n", (unsigned)blk[0], (unsigned)blk[7]);
  return 0;
}

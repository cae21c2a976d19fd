// A site's draw is a call from inline assembly (since ABI 6), which pushes below the
// stack pointer: no function that draws may keep data there (LLVM's red zone, the
// 128 bytes below rsp that a function without calls may use without moving rsp),
// and LLVM does not count the assembly's call as a call. So the pass gives every
// function that calls anything `noredzone` (markNoRedZone): one with sites, or one an
// instrumented function may be inlined into. `spill` is a leaf that keeps more values
// than there are registers across its loop; lowered in place (one copy, so no check
// calls the runtime either), it kept its spills at -0x18(%rsp) and below without the
// attribute, where the draw's return address and the runtime's pushes land: at d = 2
// it crashed. With the attribute it moves rsp first, and its result is the same at
// every density. The default (cloned) form is run too.
// RUN: %sampler-cc -O2 -fsampler-clone-threshold=1000 %s -o %t-inplace
// RUN: llvm-objdump -d --no-show-raw-insn %t-inplace | FileCheck %s
// RUN: %sampler-cc -O2 %s -o %t-cloned
// RUN: llvm-objdump -d --no-show-raw-insn %t-cloned | FileCheck %s
// RUN: env SAMPLER_SPARSITY=off SAMPLER_FILE=%t.off %t-inplace > %t.expected
// RUN: env SAMPLER_SPARSITY=2 SAMPLER_FILE=%t.2 %t-inplace > %t.inplace.txt
// RUN: env SAMPLER_SPARSITY=2 SAMPLER_FILE=%t.2c %t-cloned > %t.cloned.txt
// RUN: env SAMPLER_SPARSITY=1 SAMPLER_FILE=%t.1 %t-inplace > %t.every.txt
// RUN: cmp %t.expected %t.inplace.txt
// RUN: cmp %t.expected %t.cloned.txt
// RUN: cmp %t.expected %t.every.txt
// CHECK-LABEL: <spill>:
// CHECK-NOT:   -0x{{[0-9a-f]+}}(%rsp)
// CHECK:       sub{{q?}} ${{0x[0-9a-f]+}}, %rsp
// CHECK-NOT:   -0x{{[0-9a-f]+}}(%rsp)
// CHECK:       <main>:
#include <stdio.h>

/* A leaf: more values live across the loop than there are registers. */
__attribute__((noinline)) long spill(const long *a, long n) {
  long s0 = 1, s1 = 2, s2 = 3, s3 = 4, s4 = 5, s5 = 6, s6 = 7, s7 = 8, s8 = 9, s9 = 10;
  long s10 = 11, s11 = 12, s12 = 13, s13 = 14, s14 = 15, s15 = 16, s16 = 17, s17 = 18;
  for (long i = 0; i < n; i++) {
    long x = a[i];
    if (x & 1) s0 += x; else s1 ^= x;
    if (x & 2) s2 += s0; else s3 -= s1;
    if (x & 4) s4 += s2 * 3; else s5 ^= s3;
    if (x & 8) s6 += s4; else s7 -= s5;
    if (x & 16) s8 += s6; else s9 ^= s7;
    if (x & 32) s10 += s8; else s11 ^= s9;
    if (x & 64) s12 += s10; else s13 -= s11;
    if (x & 128) s14 += s12; else s15 ^= s13;
    s16 += s14 ^ s15;
    s17 = s17 * 31 + s16;
  }
  return s0 + s1 + s2 + s3 + s4 + s5 + s6 + s7 + s8 + s9 + s10 + s11 + s12 + s13 + s14 + s15 +
         s16 + s17;
}

int main(void) {
  static long a[100000];
  unsigned long v = 12345;
  for (long i = 0; i < 100000; i++) {
    v = v * 6364136223846793005ul + 1442695040888963407ul;
    a[i] = (long)(v >> 33);
  }
  long r = 0;
  for (int k = 0; k < 20; k++)
    r ^= spill(a, 100000 - k);
  printf("%ld\n", r);
  return 0;
}

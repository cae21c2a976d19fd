// A site's draw is a call from inline assembly whose constraints name no vector
// register (ABI 7): the runtime keeps them all, saving the x87, SSE, AVX and AVX-512
// state around its rare calls into C code, which computes with them. `mix` and
// `mix256` keep sixteen floating-point accumulators live across their loops' sites;
// lowered in place, every draw is in the loop. At d = 2 many draws reach the C code
// (a fresh trial that is sampled), at d = 3000000 every one does (a density beyond the
// table), and a thread's first draw does at any density: a register the runtime did
// not keep would change the printed sums. They are the same at every density, in
// place and cloned. (`mix256` runs where the machine has AVX: 256-bit accumulators,
// whose upper halves the C code's VEX instructions would clear.)
// RUN: %sampler-cc -O2 -fsampler-clone-threshold=1000 %s -o %t-inplace
// RUN: %sampler-cc -O2 %s -o %t-cloned
// RUN: env SAMPLER_SPARSITY=off SAMPLER_FILE=%t.off %t-inplace > %t.expected
// RUN: env SAMPLER_SPARSITY=2 SAMPLER_FILE=%t.2 %t-inplace > %t.2.txt
// RUN: env SAMPLER_SPARSITY=3000000 SAMPLER_FILE=%t.3m %t-inplace > %t.3m.txt
// RUN: env SAMPLER_SPARSITY=2 SAMPLER_FILE=%t.2c %t-cloned > %t.2c.txt
// RUN: cmp %t.expected %t.2.txt
// RUN: cmp %t.expected %t.3m.txt
// RUN: cmp %t.expected %t.2c.txt
// The draws ran (the report counts sampled sites):
// RUN: grep -q -E '^counts	[0-9]+:[1-9]' %t.2
#include <stdio.h>

/* Sixteen accumulators, a branch (a site) on each step. */
__attribute__((noinline)) double mix(const double *a, long n) {
  double s0 = 1, s1 = 2, s2 = 3, s3 = 4, s4 = 5, s5 = 6, s6 = 7, s7 = 8;
  double s8 = 9, s9 = 10, s10 = 11, s11 = 12, s12 = 13, s13 = 14, s14 = 15, s15 = 16;
  for (long i = 0; i < n; i++) {
    double x = a[i];
    if (x > 0.5) s0 += x; else s1 -= x;
    if (x > 0.25) s2 = s2 * 0.5 + s0; else s3 += s1;
    if (x > 0.75) s4 += s2; else s5 -= s3 * 0.25;
    if (x > 0.125) s6 += s4 * 0.125; else s7 += s5;
    s8 += s6 * 0.5; s9 -= s7 * 0.25; s10 += s8 * 0.125; s11 -= s9 * 0.0625;
    s12 += s10 * 0.03125; s13 -= s11 * 0.015625; s14 += s12 * x; s15 -= s13 * x;
    if (s15 < -1e6) s15 = -s15 * 1e-6;
    if (s14 > 1e6) s14 = s14 * 1e-6;
  }
  return s0 + s1 + s2 + s3 + s4 + s5 + s6 + s7 + s8 + s9 + s10 + s11 + s12 + s13 + s14 + s15;
}

#if defined(__x86_64__)
typedef double v4d __attribute__((vector_size(32)));
/* The same with four lanes in each of eight accumulators, where AVX has them in ymm. */
__attribute__((noinline, target("avx"))) double mix256(const double *a, long n) {
  v4d s0 = {1, 2, 3, 4}, s1 = {5, 6, 7, 8}, s2 = {9, 10, 11, 12}, s3 = {13, 14, 15, 16};
  v4d s4 = {17, 18, 19, 20}, s5 = {21, 22, 23, 24}, s6 = {25, 26, 27, 28};
  v4d s7 = {29, 30, 31, 32};
  for (long i = 0; i + 4 <= n; i += 4) {
    v4d x = {a[i], a[i + 1], a[i + 2], a[i + 3]};
    if (a[i] > 0.5) s0 += x; else s1 -= x;
    if (a[i + 1] > 0.25) s2 = s2 * 0.5 + s0; else s3 += s1;
    if (a[i + 2] > 0.75) s4 += s2; else s5 -= s3 * 0.25;
    s6 += s4 * 0.125; s7 -= s5 * 0.0625;
    if (s7[0] < -1e6) s7 = s7 * -1e-6;
    if (s6[0] > 1e6) s6 = s6 * 1e-6;
  }
  v4d t = s0 + s1 + s2 + s3 + s4 + s5 + s6 + s7;
  return t[0] + t[1] + t[2] + t[3];
}
#endif

int main(void) {
  static double a[100000];
  unsigned long v = 12345;
  for (long i = 0; i < 100000; i++) {
    v = v * 6364136223846793005ul + 1442695040888963407ul;
    a[i] = (double)(v >> 11) * 0x1.0p-53;
  }
  double r = 0;
  for (int k = 0; k < 20; k++)
    r += mix(a, 100000 - k);
  printf("%.17g\n", r);
#if defined(__x86_64__)
  if (__builtin_cpu_supports("avx")) {
    double q = 0;
    for (int k = 0; k < 20; k++)
      q += mix256(a, 100000 - 4 * k);
    printf("%.17g\n", q);
  }
#endif
  return 0;
}

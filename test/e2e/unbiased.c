// Across many sites, count x d estimates the exact count without bias: every
// cell of a sampled run (d = 10 and d = 100, fixed seeds) lies within 6 sigma
// of Binomial(exact, 1/d), where the exact counts come from the unconditional
// build. With d = 1 every count equals the unconditional build's.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %sampler-cc -O2 %s -o %t/sampled
// RUN: %sampler-cc -O2 -fno-sampler-sampling %s -o %t/exact
// RUN: env SAMPLER_FILE=%t/exact.report %t/exact
// RUN: %sampler-report --all --json %t/exact.report --binary %t/exact > %t/exact.json
// RUN: env SAMPLER_SPARSITY=1 SAMPLER_FILE=%t/d1.report %t/sampled
// RUN: %sampler-report --all --json %t/d1.report --binary %t/sampled > %t/d1.json
// RUN: python3 %S/Inputs/stats.py equal %t/d1.json %t/exact.json
// RUN: env SAMPLER_SPARSITY=10 SAMPLER_SEED=42 SAMPLER_FILE=%t/d10.report %t/sampled
// RUN: %sampler-report --all --json %t/d10.report --binary %t/sampled > %t/d10.json
// RUN: python3 %S/Inputs/stats.py unbiased %t/d10.json %t/exact.json
// RUN: env SAMPLER_SPARSITY=100 SAMPLER_SEED=7 SAMPLER_FILE=%t/d100.report %t/sampled
// RUN: %sampler-report --all --json %t/d100.report --binary %t/sampled > %t/d100.json
// RUN: python3 %S/Inputs/stats.py unbiased %t/d100.json %t/exact.json

#include <stdio.h>

static unsigned state = 1;
__attribute__((noinline)) static int next(void) {
  state = state * 1103515245u + 12345u;
  return (int)((state >> 16) & 0x7fff) - 16384;
}

__attribute__((noinline)) static int classify(int v, int k) {
  // Twelve sites with very different frequencies, some inside a loop.
  int r = 0;
  if (v % 2 == 0) r++;
  if (v % 3 == 0) r++;
  if (v % 5 == 0) r++;
  if (v % 7 == 0) r++;
  if (v % 11 == 0) r++;
  if (v > 8000) r++;
  if (v < -12000) r++;
  for (int j = 0; j < k % 4; j++)
    if ((v >> j) & 1) r++;
  switch (k % 5) {
  case 0: r += 2; break;
  case 1: r -= 1; break;
  case 3: r *= 2; break;
  default: break;
  }
  return r;
}

int main(void) {
  long total = 0;
  for (int i = 0; i < 200000; i++)
    total += classify(next(), i);
  printf("%ld\n", total);
  return 0;
}

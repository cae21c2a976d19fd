// Regression test for a sampling bias (fixed). The transformation used to
// subtract a region's weight W on its fast path whatever the path, while the slow
// path crossed the sites one by one. In a region whose paths cross different
// numbers of sites (classify: W = 2, an early return crosses 1), the site after an
// early return was then sampled both when the countdown at the region's entry was
// W + 1 (fast path, W - 1 = 1 left) and when it was 2 (slow path, one decrement
// leaves 1): probability about 2/d instead of 1/d, 70 to 100 sigma off at d = 10.
// Both copies now consume exactly one trial per site crossed (docs/sampling.md).
// Every cell of a d = 10 run must be within 6 sigma of Binomial(exact, 1/10).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %sampler-cc -O2 %s -o %t/sampled
// RUN: %sampler-cc -O2 -fno-sampler-sampling %s -o %t/exact
// RUN: env SAMPLER_FILE=%t/exact.report %t/exact
// RUN: %sampler-report --json --all %t/exact.report --binary %t/exact > %t/exact.json
// RUN: env SAMPLER_SPARSITY=10 SAMPLER_SEED=5 SAMPLER_FILE=%t/d10.report %t/sampled
// RUN: %sampler-report --json --all %t/d10.report --binary %t/sampled > %t/d10.json
// RUN: python3 %S/Inputs/counts.py binomial %t/d10.json %t/exact.json main,classify

#include <stdio.h>

__attribute__((noinline)) static int classify(int v) {
  if (v % 3 == 0)
    return 0;
  if (v % 7 == 1)
    return 1;
  return 2;
}

int main(void) {
  long sum = 0;
  for (int i = 0; i < 200000; i++)
    sum += classify(i);
  printf("%ld\n", sum);
  return 0;
}

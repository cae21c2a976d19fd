// The trial ownership of the sampling transformation (docs/sampling.md): a check
// pays for all W trials of its region at once, each site owns one trial of the
// region by its position, and a success no site on the path owns is discarded
// (the next site then is a fresh trial). Paths here cross very different numbers
// of sites between the same checks: diamonds with 0 and 4 sites in their arms,
// early returns, a loop entered from the function's entry region and from its
// back edge, a weighty call in one arm, a loop whose usual path crosses half
// its region's weight.
// At small d (2, 3) most regions go to the instrumented copy and many successes
// are discarded: every cell must still lie within 6 sigma of Binomial(n, 1/d),
// and at d = 1 every count must equal the unconditional build's.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %sampler-cc -O2 %s -o %t/sampled
// RUN: %sampler-cc -O2 -fno-sampler-sampling %s -o %t/exact
// RUN: env SAMPLER_FILE=%t/exact.report %t/exact > %t/exact.out
// RUN: %sampler-report --all --json %t/exact.report --binary %t/exact > %t/exact.json
// RUN: env SAMPLER_SPARSITY=1 SAMPLER_FILE=%t/d1.report %t/sampled > %t/d1.out
// RUN: cmp %t/exact.out %t/d1.out
// RUN: %sampler-report --all --json %t/d1.report --binary %t/sampled > %t/d1.json
// RUN: python3 %S/../e2e/Inputs/stats.py equal %t/d1.json %t/exact.json
// RUN: env SAMPLER_SPARSITY=2 SAMPLER_SEED=11 SAMPLER_FILE=%t/d2.report %t/sampled > %t/d2.out
// RUN: cmp %t/exact.out %t/d2.out
// RUN: %sampler-report --all --json %t/d2.report --binary %t/sampled > %t/d2.json
// RUN: python3 %S/../e2e/Inputs/stats.py unbiased %t/d2.json %t/exact.json
// RUN: env SAMPLER_SPARSITY=3 SAMPLER_SEED=12 SAMPLER_FILE=%t/d3.report %t/sampled > /dev/null
// RUN: %sampler-report --all --json %t/d3.report --binary %t/sampled > %t/d3.json
// RUN: python3 %S/../e2e/Inputs/stats.py unbiased %t/d3.json %t/exact.json
// RUN: env SAMPLER_SPARSITY=10 SAMPLER_SEED=13 SAMPLER_FILE=%t/d10.report %t/sampled > /dev/null
// RUN: %sampler-report --all --json %t/d10.report --binary %t/sampled > %t/d10.json
// RUN: python3 %S/../e2e/Inputs/stats.py unbiased %t/d10.json %t/exact.json
#include <stdio.h>

static unsigned state = 7;
__attribute__((noinline)) static unsigned rnd(void) {
  state = state * 1103515245u + 12345u;
  return (state >> 16) & 0x7fff;
}

__attribute__((noinline)) static int weighty(int v) { return v & 1 ? v * 3 : v / 2; }

__attribute__((noinline)) static int diamond(unsigned v) {
  int r = 0;
  if (v & 1) {          // one arm: four sites, the other none
    if (v & 2) r++;
    if (v & 4) r++;
    if (v & 8) r++;
    if (v & 16) r++;
  }
  if (v & 32)           // early return after few sites
    return r;
  if (v & 64)
    r += weighty((int)v); // a weighty call in one arm only: a check after it
  if (v % 3 == 0) r--;
  return r;
}

__attribute__((noinline)) static int loops(unsigned v) {
  int r = 0;
  // The loop's blocks are reached from the entry's check and from the back
  // edge's: the same sites, two regions of different weights.
  for (unsigned j = 0; j < (v & 7); j++) {
    if ((v >> j) & 1) r += 2;
    if (j == 5) break;
  }
  // A long loop with two more sites in a rare arm: the back edge's region
  // weighs 4, most iterations cross 2 sites.
  unsigned k = 0;
  do {
    k++;
    if (__builtin_expect(k == 40, 0)) {
      if (v & 128) r++;
      if (v & 256) r++;
    }
  } while (k < 50);
  return r;
}

int main(void) {
  long total = 0;
  for (int i = 0; i < 60000; i++) {
    unsigned v = rnd();
    total += diamond(v) + loops(v >> 3);
  }
  printf("%ld\n", total);
  return 0;
}

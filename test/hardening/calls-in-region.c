// Calls inside a region (docs/sampling.md): a region's check pays for its W
// trials before anything else runs, the functions it calls consume the trials
// after those, and the region's instrumented copy keeps its own countdown in a
// local from the first weighty call on. Here sites stand before, between and
// after calls to functions that have sites of their own and often take their
// instrumented copies too: a straight-line caller, a recursive function with
// sites on both sides of the recursive call, a callee called from a loop, and
// mutual recursion through a function pointer (an unknown callee).
// At small d every cell must lie within 6 sigma of Binomial(n, 1/d); at d = 1
// every count must equal the unconditional build's.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %sampler-cc -O2 %s -o %t/sampled
// RUN: %sampler-cc -O0 %s -o %t/sampled-O0
// RUN: %sampler-cc -O2 -fno-sampler-sampling %s -o %t/exact
// RUN: env SAMPLER_FILE=%t/exact.report %t/exact > %t/exact.out
// RUN: %sampler-report --all --json %t/exact.report --binary %t/exact > %t/exact.json
// RUN: env SAMPLER_SPARSITY=1 SAMPLER_FILE=%t/d1.report %t/sampled > %t/d1.out
// RUN: cmp %t/exact.out %t/d1.out
// RUN: %sampler-report --all --json %t/d1.report --binary %t/sampled > %t/d1.json
// RUN: python3 %S/../e2e/Inputs/stats.py equal %t/d1.json %t/exact.json
// RUN: env SAMPLER_SPARSITY=2 SAMPLER_SEED=21 SAMPLER_FILE=%t/d2.report %t/sampled > %t/d2.out
// RUN: cmp %t/exact.out %t/d2.out
// RUN: %sampler-report --all --json %t/d2.report --binary %t/sampled > %t/d2.json
// RUN: python3 %S/../e2e/Inputs/stats.py unbiased %t/d2.json %t/exact.json
// RUN: env SAMPLER_SPARSITY=3 SAMPLER_SEED=22 SAMPLER_FILE=%t/d3.report %t/sampled > /dev/null
// RUN: %sampler-report --all --json %t/d3.report --binary %t/sampled > %t/d3.json
// RUN: python3 %S/../e2e/Inputs/stats.py unbiased %t/d3.json %t/exact.json
// RUN: env SAMPLER_SPARSITY=10 SAMPLER_SEED=23 SAMPLER_FILE=%t/d10.report %t/sampled > /dev/null
// RUN: %sampler-report --all --json %t/d10.report --binary %t/sampled > %t/d10.json
// RUN: python3 %S/../e2e/Inputs/stats.py unbiased %t/d10.json %t/exact.json
// RUN: env SAMPLER_SPARSITY=3 SAMPLER_SEED=24 SAMPLER_FILE=%t/o0.report %t/sampled-O0 > %t/o0.out
// RUN: cmp %t/exact.out %t/o0.out
#include <stdio.h>

static unsigned state = 11;
__attribute__((noinline)) static unsigned rnd(void) {
  state = state * 1103515245u + 12345u;
  return (state >> 16) & 0x7fff;
}

// Three sites on every path: in d = 2 or 3 it takes its instrumented copy often.
__attribute__((noinline)) static int leaf(unsigned v) {
  int r = 0;
  if (v & 1) r += 1;
  if (v & 2) r += 2;
  if (v & 4) r += 3;
  return r;
}

// Sites before, between and after weighty calls, in one region.
__attribute__((noinline)) static int straight(unsigned v) {
  int r = 0;
  if (v & 8) r++;
  r += leaf(v);
  if (v & 16) r++;
  r += leaf(v >> 1);
  if (v & 32) r++;
  if (v & 64) r++;
  return r;
}

// Recursion: the callee is the function itself.
__attribute__((noinline)) static int recurse(unsigned v, int depth) {
  if (depth == 0)
    return 0;
  int r = (v & 1) ? 1 : 0;
  r += recurse(v >> 1, depth - 1);
  if (v & 2) r += 2;
  return r;
}

// A loop whose body calls a function with sites between two sites of its own.
__attribute__((noinline)) static int looping(unsigned v) {
  int r = 0;
  for (unsigned j = 0; j < (v & 7); j++) {
    if ((v >> j) & 1) r++;
    r += leaf(v >> j);
    if ((v >> j) & 2) r--;
  }
  return r;
}

// Through a function pointer: an unknown callee, which calls back.
static int (*volatile hop)(unsigned, int);
__attribute__((noinline)) static int ping(unsigned v, int n) {
  if (n <= 0)
    return 0;
  int r = (v & 4) ? 1 : 0;
  r += hop(v >> 1, n - 1);
  if (v & 8) r += 3;
  return r;
}

int main(void) {
  hop = ping;
  long total = 0;
  for (int i = 0; i < 40000; i++) {
    unsigned v = rnd();
    total += straight(v) + recurse(v, (int)(v & 3) + 1) + looping(v >> 2) +
             ping(v, (int)((v >> 4) & 3));
  }
  printf("%ld\n", total);
  return 0;
}

// With -fsampler-countdown-slot-sites=N, a function cloned in place with at
// least N sites keeps its instrumented copy's countdown in a stack slot
// instead of a register (lib/SamplingTransform.cpp, step 7): the same trials,
// read from memory. Here every function qualifies (N = 1), with every scheme:
// loops, calls whose sites take trials, a switch, early returns. With the
// same seed every count equals the register build's at d = 3 and 30; at d = 1
// every count equals the unconditional build's. (A slot that a site forgets to
// write after a draw, or that the entry of the copy does not set, fails both.)
// RUN: rm -rf %t && mkdir -p %t
// RUN: %sampler-cc -O2 -fsampler-schemes=all -fsampler-countdown-slot-sites=1 -S -emit-llvm %s -o - | FileCheck %s --check-prefix=SLOT
// RUN: %sampler-cc -O2 -fsampler-schemes=all -S -emit-llvm %s -o - | FileCheck %s --check-prefix=REG
// RUN: %sampler-cc -O2 -fsampler-schemes=all -fsampler-countdown-slot-sites=1 %s -o %t/slot
// RUN: %sampler-cc -O2 -fsampler-schemes=all %s -o %t/reg
// RUN: %sampler-cc -O2 -fsampler-schemes=all -fno-sampler-sampling %s -o %t/exact
// RUN: env SAMPLER_FILE=%t/exact.report %t/exact > %t/exact.out
// RUN: %sampler-report --all --json %t/exact.report --binary %t/exact > %t/exact.json
// RUN: env SAMPLER_SPARSITY=1 SAMPLER_FILE=%t/d1.report %t/slot > %t/d1.out
// RUN: cmp %t/exact.out %t/d1.out
// RUN: %sampler-report --all --json %t/d1.report --binary %t/slot > %t/d1.json
// RUN: python3 %S/../e2e/Inputs/stats.py equal %t/d1.json %t/exact.json
// RUN: env SAMPLER_SPARSITY=3 SAMPLER_SEED=51 SAMPLER_FILE=%t/s3.report %t/slot > %t/s3.out
// RUN: cmp %t/exact.out %t/s3.out
// RUN: %sampler-report --all --json %t/s3.report --binary %t/slot > %t/s3.json
// RUN: env SAMPLER_SPARSITY=3 SAMPLER_SEED=51 SAMPLER_FILE=%t/r3.report %t/reg > /dev/null
// RUN: %sampler-report --all --json %t/r3.report --binary %t/reg > %t/r3.json
// RUN: python3 %S/../e2e/Inputs/stats.py equal %t/s3.json %t/r3.json
// RUN: python3 %S/../e2e/Inputs/stats.py unbiased %t/s3.json %t/exact.json
// RUN: env SAMPLER_SPARSITY=30 SAMPLER_SEED=52 SAMPLER_FILE=%t/s30.report %t/slot > /dev/null
// RUN: %sampler-report --all --json %t/s30.report --binary %t/slot > %t/s30.json
// RUN: env SAMPLER_SPARSITY=30 SAMPLER_SEED=52 SAMPLER_FILE=%t/r30.report %t/reg > /dev/null
// RUN: %sampler-report --all --json %t/r30.report --binary %t/reg > %t/r30.json
// RUN: python3 %S/../e2e/Inputs/stats.py equal %t/s30.json %t/r30.json

// SLOT-LABEL: define {{.*}}@step(
// SLOT:         %sampler.cd = alloca i64
// SLOT:         load volatile i64, ptr %sampler.cd
// SLOT:         store volatile i64 %{{.*}}, ptr %sampler.cd
// SLOT-LABEL: define {{.*}}@main(
// REG-LABEL:  define {{.*}}@step(
// REG-NOT:      sampler.cd{{ }}
// REG:        {{^}}}
#include <stdio.h>

static unsigned char text[4096];
static long total;

__attribute__((noinline)) static int helper(int v) { return v % 5 == 0 ? v / 5 : v + 1; }

// A little interpreter: a loop round a switch, calls in some cases, early
// returns, and assignments for scalar-pairs to compare.
__attribute__((noinline)) long step(const unsigned char *code, int n, long acc) {
  int pc = 0, depth = 0;
  long reg = acc & 255;
  if (n <= 0)
    return acc;
  while (pc < n) {
    int op = code[pc] % 7;
    switch (op) {
    case 0:
      reg += pc;
      break;
    case 1:
      reg = helper((int)(reg & 1023));
      break;
    case 2:
      if (reg > 500)
        reg -= 300;
      else
        reg *= 2;
      break;
    case 3:
      depth++;
      if (depth > 20)
        return reg + depth;
      break;
    case 4:
      total += reg;
      break;
    case 5:
      for (int k = 0; k < (op + pc) % 5; k++)
        reg ^= k;
      break;
    default:
      if (helper(pc) < 3)
        pc++;
      break;
    }
    pc++;
  }
  return reg + depth;
}

int main(void) {
  unsigned x = 4242;
  for (int i = 0; i < (int)sizeof text; i++) {
    x = x * 1103515245u + 12345u;
    text[i] = (unsigned char)(x >> 16);
  }
  long sum = 0;
  for (int r = 0; r < 20000; r++)
    sum += step(text + (r * 7919u) % 3900u, (r % 61) + 1, r);
  printf("%ld %ld\n", sum, total);
  return 0;
}

// Checks on the cold heavy ways of unbalanced branches (-fsampler-cold-heavy-percent,
// docs/sampling.md): with a profile's branch weights, the rarely taken way of a
// branch that leads to many more sites than the other gets a check of its own, so
// that the usual way's region weighs less. Only check edges are added, so every site
// execution still owns one trial: trained on this program, the build must still be
// exact at d = 1 and unbiased at d = 2, 3 and 10, and the remarks show that the rule
// applied (a chain walk whose four tests usually stop at the first, as zlib's
// longest_match).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %clang -O2 -fprofile-instr-generate %s -o %t/train
// RUN: env LLVM_PROFILE_FILE=%t/train.profraw %t/train > /dev/null
// RUN: llvm-profdata merge -o %t/train.profdata %t/train.profraw
// RUN: %sampler-cc -O2 -fprofile-instr-use=%t/train.profdata -Rpass=sampler-cold-heavy %s -o %t/sampled 2>&1 | FileCheck %s
// RUN: %sampler-cc -O2 -fprofile-instr-use=%t/train.profdata -fno-sampler-sampling %s -o %t/exact
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
// CHECK: cold-heavy.c:[[@LINE+20]]:{{[0-9]+}}: remark: a branch's way of {{[0-9]+}} sites more, taken {{[0-9]+}}% of the time, gets a check of its own
#include <stdio.h>

static unsigned state = 7;
__attribute__((noinline)) static unsigned rnd(void) {
  state = state * 1103515245u + 12345u;
  return (state >> 16) & 0x7fff;
}

static unsigned char window[4096];

// A chain walk: most steps fail the first test and go on; a few pass it and
// run three more tests and a short match loop.
__attribute__((noinline)) static int walk(unsigned start, int steps, unsigned char a,
                                          unsigned char b) {
  int best = 0;
  unsigned cur = start;
  while (steps-- > 0) {
    const unsigned char *m = window + (cur & 4095);
    cur = cur * 5 + 1;
    if (m[0] != a || m[1] != b || m[2] == 0 || m[3] == m[2])
      continue;
    int len = 2;
    while (len < 8 && m[len] == m[len - 1] + 1)
      len++;
    if (len > best)
      best = len;
  }
  return best;
}

int main(void) {
  for (unsigned i = 0; i < sizeof window; i++)
    window[i] = (unsigned char)(rnd() % 16);
  long total = 0;
  for (int round = 0; round < 3000; round++)
    total += walk(rnd(), 40, (unsigned char)(rnd() % 4), (unsigned char)(rnd() % 4));
  printf("%ld\n", total);
  return 0;
}

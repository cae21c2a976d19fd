// Regions split where they would weigh more than 8 sites, and heavy loops checked
// on entry (docs/sampling.md, test/sampling/region-shape.ll): a chain of 12 tests
// with early returns (most calls return after two or three, as in bzip2's
// mainGtU), a heavy inner loop entered by few iterations of an outer one (zlib's
// longest_match), and a loop of 16 sites per iteration with early exits. Every
// cell must lie within 6 sigma of Binomial(n, 1/d) at small d, where most regions
// take their instrumented copies; at d = 1 every count must equal the
// unconditional build's.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %sampler-cc -O2 %s -o %t/sampled
// RUN: %sampler-cc -O2 -fno-sampler-sampling %s -o %t/exact
// RUN: env SAMPLER_FILE=%t/exact.report %t/exact > %t/exact.out
// RUN: %sampler-report --all --json %t/exact.report --binary %t/exact > %t/exact.json
// RUN: env SAMPLER_SPARSITY=1 SAMPLER_FILE=%t/d1.report %t/sampled > %t/d1.out
// RUN: cmp %t/exact.out %t/d1.out
// RUN: %sampler-report --all --json %t/d1.report --binary %t/sampled > %t/d1.json
// RUN: python3 %S/../e2e/Inputs/stats.py equal %t/d1.json %t/exact.json
// RUN: env SAMPLER_SPARSITY=2 SAMPLER_SEED=31 SAMPLER_FILE=%t/d2.report %t/sampled > %t/d2.out
// RUN: cmp %t/exact.out %t/d2.out
// RUN: %sampler-report --all --json %t/d2.report --binary %t/sampled > %t/d2.json
// RUN: python3 %S/../e2e/Inputs/stats.py unbiased %t/d2.json %t/exact.json
// RUN: env SAMPLER_SPARSITY=3 SAMPLER_SEED=32 SAMPLER_FILE=%t/d3.report %t/sampled > /dev/null
// RUN: %sampler-report --all --json %t/d3.report --binary %t/sampled > %t/d3.json
// RUN: python3 %S/../e2e/Inputs/stats.py unbiased %t/d3.json %t/exact.json
// RUN: env SAMPLER_SPARSITY=10 SAMPLER_SEED=33 SAMPLER_FILE=%t/d10.report %t/sampled > /dev/null
// RUN: %sampler-report --all --json %t/d10.report --binary %t/sampled > %t/d10.json
// RUN: python3 %S/../e2e/Inputs/stats.py unbiased %t/d10.json %t/exact.json
// The same with every scheme: several sites in one block, so that a split could
// fall between a site and its observation (it must not).
// RUN: %sampler-cc -O2 -fsampler-schemes=all %s -o %t/all
// RUN: %sampler-cc -O2 -fsampler-schemes=all -fno-sampler-sampling %s -o %t/all-exact
// RUN: env SAMPLER_FILE=%t/all-exact.report %t/all-exact > /dev/null
// RUN: %sampler-report --all --json %t/all-exact.report --binary %t/all-exact > %t/all-exact.json
// RUN: env SAMPLER_SPARSITY=1 SAMPLER_FILE=%t/all-d1.report %t/all > %t/all-d1.out
// RUN: cmp %t/exact.out %t/all-d1.out
// RUN: %sampler-report --all --json %t/all-d1.report --binary %t/all > %t/all-d1.json
// RUN: python3 %S/../e2e/Inputs/stats.py equal %t/all-d1.json %t/all-exact.json --schemes branches,returns,float-kinds,function-entries,checks
#include <stdio.h>

static unsigned state = 5;
__attribute__((noinline)) static unsigned rnd(void) {
  state = state * 1103515245u + 12345u;
  return (state >> 16) & 0x7fff;
}

static unsigned char block[4096];

// Twelve tests, most calls return early.
__attribute__((noinline)) static int chain(unsigned i, unsigned j) {
  if (block[i] != block[j]) return block[i] > block[j];
  if (block[i + 1] != block[j + 1]) return block[i + 1] > block[j + 1];
  if (block[i + 2] != block[j + 2]) return block[i + 2] > block[j + 2];
  if (block[i + 3] != block[j + 3]) return block[i + 3] > block[j + 3];
  if (block[i + 4] != block[j + 4]) return block[i + 4] > block[j + 4];
  if (block[i + 5] != block[j + 5]) return block[i + 5] > block[j + 5];
  if (block[i + 6] != block[j + 6]) return block[i + 6] > block[j + 6];
  if (block[i + 7] != block[j + 7]) return block[i + 7] > block[j + 7];
  if (block[i + 8] != block[j + 8]) return block[i + 8] > block[j + 8];
  if (block[i + 9] != block[j + 9]) return block[i + 9] > block[j + 9];
  if (block[i + 10] != block[j + 10]) return block[i + 10] > block[j + 10];
  if (block[i + 11] != block[j + 11]) return block[i + 11] > block[j + 11];
  return 0;
}

// An outer loop whose iterations rarely enter a heavy inner loop.
__attribute__((noinline)) static int search(unsigned start) {
  int best = 0;
  for (unsigned k = 0; k < 40; k++) {
    unsigned a = (start + k * 97) & 2047, b = (start + k * 31) & 2047;
    if (block[a] != block[b] || block[a + 1] != block[b + 1])
      continue;
    int len = 2;
    while (len < 64 && block[a + len] == block[b + len] &&
           block[a + len + 1] == block[b + len + 1] &&
           block[a + len + 2] == block[b + len + 2] &&
           block[a + len + 3] == block[b + len + 3])
      len += 4;
    if (len > best)
      best = len;
  }
  return best;
}

// Sixteen tests per iteration, leaving early.
__attribute__((noinline)) static int scan(unsigned i, unsigned j) {
  int n = 0;
  do {
    if (block[i] != block[j]) break;
    if (block[i + 1] != block[j + 1]) break;
    if (block[i + 2] != block[j + 2]) break;
    if (block[i + 3] != block[j + 3]) break;
    if (block[i + 4] != block[j + 4]) break;
    if (block[i + 5] != block[j + 5]) break;
    if (block[i + 6] != block[j + 6]) break;
    if (block[i + 7] != block[j + 7]) break;
    n += 8;
    i += 8;
    j += 8;
  } while (n < 64 && (block[i] & 1) == 0 && (block[j] & 2) == 0 && (i & 8) == 0 &&
           (j & 16) == 0 && n != 40 && i < 4000 && j < 4000 && n != 48);
  return n;
}

int main(void) {
  // Few distinct letters, so that comparisons often go on.
  for (unsigned i = 0; i < sizeof block; i++)
    block[i] = (unsigned char)(rnd() % 3 ? 'a' : 'b' + rnd() % 2);
  long total = 0;
  for (int r = 0; r < 20000; r++) {
    unsigned v = rnd();
    total += chain(v & 2047, (v >> 4) & 2047) + search(v) + scan(v & 1023, (v >> 3) & 1023);
  }
  printf("%ld\n", total);
  return 0;
}

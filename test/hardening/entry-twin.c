// A function that calls nothing and whose fast copy may return before it
// touches the countdown again tail-calls a twin on its entry check's slow way
// (lib/EntryTwin.cpp): a private copy entered with the first region paid for,
// which runs what the slow way ran. Here: early returns before a loop (bzip2's
// mainGtU), with eight arguments (two on the stack), returning a pair in
// registers, and returning a large struct through a hidden pointer; and two
// functions that call others (an early return before a call whose sites take
// trials, a recursive one), which keep their entry checks as they are. With
// the same seed every count equals the build without twins
// (-fsampler-entry-twin-limit=0) at d = 3, 30 and 300; at d = 1 every count
// equals the unconditional build's, and at d = 3 every cell lies within 6
// sigma of Binomial(n, 1/3). (A twin that pays for its first region again
// fails both at d = 3.)
// RUN: rm -rf %t && mkdir -p %t
// RUN: %sampler-cc -O2 -S -emit-llvm %s -o - | FileCheck %s
// RUN: %sampler-cc -O2 %s -o %t/twin
// RUN: %sampler-cc -O2 -fsampler-entry-twin-limit=0 %s -o %t/single
// RUN: %sampler-cc -O2 -fno-sampler-sampling %s -o %t/exact
// RUN: env SAMPLER_FILE=%t/exact.report %t/exact > %t/exact.out
// RUN: %sampler-report --all --json %t/exact.report --binary %t/exact > %t/exact.json
// RUN: env SAMPLER_SPARSITY=1 SAMPLER_FILE=%t/d1.report %t/twin > %t/d1.out
// RUN: cmp %t/exact.out %t/d1.out
// RUN: %sampler-report --all --json %t/d1.report --binary %t/twin > %t/d1.json
// RUN: python3 %S/../e2e/Inputs/stats.py equal %t/d1.json %t/exact.json
// RUN: env SAMPLER_SPARSITY=3 SAMPLER_SEED=41 SAMPLER_FILE=%t/t3.report %t/twin > %t/t3.out
// RUN: cmp %t/exact.out %t/t3.out
// RUN: %sampler-report --all --json %t/t3.report --binary %t/twin > %t/t3.json
// RUN: python3 %S/../e2e/Inputs/stats.py unbiased %t/t3.json %t/exact.json
// RUN: env SAMPLER_SPARSITY=3 SAMPLER_SEED=41 SAMPLER_FILE=%t/s3.report %t/single > /dev/null
// RUN: %sampler-report --all --json %t/s3.report --binary %t/single > %t/s3.json
// RUN: python3 %S/../e2e/Inputs/stats.py equal %t/t3.json %t/s3.json
// RUN: env SAMPLER_SPARSITY=30 SAMPLER_SEED=42 SAMPLER_FILE=%t/t30.report %t/twin > /dev/null
// RUN: %sampler-report --all --json %t/t30.report --binary %t/twin > %t/t30.json
// RUN: env SAMPLER_SPARSITY=30 SAMPLER_SEED=42 SAMPLER_FILE=%t/s30.report %t/single > /dev/null
// RUN: %sampler-report --all --json %t/s30.report --binary %t/single > %t/s30.json
// RUN: python3 %S/../e2e/Inputs/stats.py equal %t/t30.json %t/s30.json
// RUN: env SAMPLER_SPARSITY=300 SAMPLER_SEED=43 SAMPLER_FILE=%t/t300.report %t/twin > /dev/null
// RUN: %sampler-report --all --json %t/t300.report --binary %t/twin > %t/t300.json
// RUN: env SAMPLER_SPARSITY=300 SAMPLER_SEED=43 SAMPLER_FILE=%t/s300.report %t/single > /dev/null
// RUN: %sampler-report --all --json %t/s300.report --binary %t/single > %t/s300.json
// RUN: python3 %S/../e2e/Inputs/stats.py equal %t/t300.json %t/s300.json

// Each leaf function's entry check goes to its twin, which has its
// instrumented copy of the first region:
// CHECK-LABEL: define {{.*}}@gt(
// CHECK:         musttail call {{.*}}@gt.sampler.twin(
// CHECK-LABEL: define {{.*}}@note(
// CHECK-NOT:     musttail
// CHECK:       {{^}}}
// CHECK-LABEL: define {{.*}}@many(
// CHECK:         musttail call {{.*}}@many.sampler.twin(
// CHECK-LABEL: define {{.*}}@minmax(
// CHECK:         musttail call {{.*}}@minmax.sampler.twin(
// CHECK-LABEL: define {{.*}}@stats(
// CHECK:         musttail call {{.*}}@stats.sampler.twin(
// CHECK-LABEL: define {{.*}}@depth(
// CHECK-NOT:     musttail
// CHECK:       {{^}}}
// CHECK-DAG:   define internal {{.*}}@gt.sampler.twin(
// CHECK-DAG:   define internal {{.*}}@many.sampler.twin(
// CHECK-DAG:   define internal {{.*}}@minmax.sampler.twin(
// CHECK-DAG:   define internal {{.*}}@stats.sampler.twin(
#include <stdio.h>

static unsigned char text[4096];

// Three compares that usually decide, then a loop.
__attribute__((noinline)) int gt(const unsigned char *s, int i, int j, int n) {
  if (s[i] != s[j])
    return s[i] > s[j];
  if (s[i + 1] != s[j + 1])
    return s[i + 1] > s[j + 1];
  if (s[i + 2] != s[j + 2])
    return s[i + 2] > s[j + 2];
  for (int k = 3; k < n; k++)
    if (s[i + k] != s[j + k])
      return s[i + k] > s[j + k];
  return 0;
}

static long total;

__attribute__((noinline)) static int helper(int v) { return v % 5 == 0 ? v / 5 : v + 1; }

// An early return, then a call whose sites take trials (no twin: it calls).
__attribute__((noinline)) void note(int v) {
  if (v < 0)
    return;
  if (v % 3 == 0)
    total += helper(v);
  total += v;
}

// Eight arguments: the last two on the stack, forwarded in place.
__attribute__((noinline)) long many(long a, long b, long c, long d, long e, long f,
                                    long g, long h) {
  if (a > h)
    return a - h;
  long s = 0;
  for (long k = b; k < c + (g & 7); k++)
    s += (k & 1) ? d : e;
  return s + f;
}

struct pair {
  long lo, hi;
};

// A pair returned in registers.
__attribute__((noinline)) struct pair minmax(const unsigned char *v, int n) {
  struct pair p = {255, 0};
  if (n <= 0)
    return p;
  for (int i = 0; i < n; i++) {
    if (v[i] < p.lo)
      p.lo = v[i];
    if (v[i] > p.hi)
      p.hi = v[i];
  }
  return p;
}

struct big {
  long n, sum, odd, max, first, last;
};

// A large struct returned through a hidden pointer (sret).
__attribute__((noinline)) struct big stats(const unsigned char *v, int n) {
  struct big b = {0, 0, 0, 0, -1, -1};
  if (n <= 0)
    return b;
  b.first = v[0];
  for (int i = 0; i < n; i++) {
    b.n++;
    b.sum += v[i];
    if (v[i] & 1)
      b.odd++;
    if (v[i] > b.max)
      b.max = v[i];
  }
  b.last = v[n - 1];
  return b;
}

// Recursive (it calls itself: no twin).
__attribute__((noinline)) int depth(const unsigned char *t, int i, int n) {
  if (i >= n)
    return 0;
  if (t[i] < 40)
    return 1;
  return 1 + depth(t, 2 * i + 1, n) + depth(t, 2 * i + 2, n);
}

int main(void) {
  unsigned x = 12345;
  for (int i = 0; i < (int)sizeof text; i++) {
    x = x * 1103515245u + 12345u;
    // Few letters, so that compares often go past the first bytes.
    text[i] = (unsigned char)('a' + (x >> 16) % 3);
  }
  long sum = 0;
  for (int r = 0; r < 60000; r++) {
    int i = (int)((unsigned)r * 7919u % 4000u), j = (int)(((unsigned)r * 104729u + 13u) % 4000u);
    sum += gt(text, i, j, 64);
    note(r % 11 - 2);
    sum += many(r % 13, r % 5, r % 9, 3, 4, r, r % 17, 6);
    struct pair p = minmax(text + i, r % 9);
    struct big b = stats(text + j, r % 7);
    sum += p.lo + p.hi + b.n + b.sum + b.odd + b.max + b.first + b.last;
    if (r % 50 == 0)
      sum += depth(text + (r % 3000), 0, 200);
  }
  printf("%ld %ld\n", sum, total);
  return 0;
}

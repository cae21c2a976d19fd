// With -fsampler-check-stride=K (4 by default), an unbounded loop's back-edge
// check in the fast copy is tested once every K iterations: the loop is
// unrolled K times, the first copy's check tests for the K - 1 after it, and
// where that fails the loop goes on in a fallback, the loop as it was
// (lib/CheckStride.cpp). Exact: every iteration still pays, and every way
// to the instrumented copy is taken where the loop as it was would take it.
// Here loops the pass takes (a list walk, a search that stops at a sentinel,
// a scan to the next space), each the hottest loop of its function, run from
// 0 to 44 iterations, with every scheme. With the same seed every count
// equals the stride-1 build's at d = 3 and 30 (a first copy that tests
// fewer iterations ahead than the copies it drops the tests of misses
// trials there and fails); at d = 1 every count equals the unconditional
// build's.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %sampler-cc -O2 -fsampler-schemes=all -S -emit-llvm %s -o - | FileCheck %s --check-prefix=STRIDE
// RUN: %sampler-cc -O2 -fsampler-schemes=all -fsampler-check-stride=1 -S -emit-llvm %s -o - | FileCheck %s --check-prefix=ONE
// RUN: %sampler-cc -O2 -fsampler-schemes=all %s -o %t/stride
// RUN: %sampler-cc -O2 -fsampler-schemes=all -fsampler-check-stride=1 %s -o %t/one
// RUN: %sampler-cc -O2 -fsampler-schemes=all -fno-sampler-sampling %s -o %t/exact
// RUN: env SAMPLER_FILE=%t/exact.report %t/exact > %t/exact.out
// RUN: %sampler-report --all --json %t/exact.report --binary %t/exact > %t/exact.json
// RUN: env SAMPLER_SPARSITY=1 SAMPLER_FILE=%t/d1.report %t/stride > %t/d1.out
// RUN: cmp %t/exact.out %t/d1.out
// RUN: %sampler-report --all --json %t/d1.report --binary %t/stride > %t/d1.json
// RUN: python3 %S/../e2e/Inputs/stats.py equal %t/d1.json %t/exact.json
// RUN: env SAMPLER_SPARSITY=3 SAMPLER_SEED=61 SAMPLER_FILE=%t/s3.report %t/stride > %t/s3.out
// RUN: cmp %t/exact.out %t/s3.out
// RUN: %sampler-report --all --json %t/s3.report --binary %t/stride > %t/s3.json
// RUN: env SAMPLER_SPARSITY=3 SAMPLER_SEED=61 SAMPLER_FILE=%t/o3.report %t/one > /dev/null
// RUN: %sampler-report --all --json %t/o3.report --binary %t/one > %t/o3.json
// RUN: python3 %S/../e2e/Inputs/stats.py equal %t/s3.json %t/o3.json
// RUN: python3 %S/../e2e/Inputs/stats.py unbiased %t/s3.json %t/exact.json
// RUN: env SAMPLER_SPARSITY=30 SAMPLER_SEED=62 SAMPLER_FILE=%t/s30.report %t/stride > /dev/null
// RUN: %sampler-report --all --json %t/s30.report --binary %t/stride > %t/s30.json
// RUN: env SAMPLER_SPARSITY=30 SAMPLER_SEED=62 SAMPLER_FILE=%t/o30.report %t/one > /dev/null
// RUN: %sampler-report --all --json %t/o30.report --binary %t/one > %t/o30.json
// RUN: python3 %S/../e2e/Inputs/stats.py equal %t/s30.json %t/o30.json

// Each loop's first copy tests the countdown K - 1 iterations ahead.
// STRIDE-LABEL: define {{.*}}@walk(
// STRIDE:         %countdown.ahead = add i64 %{{.*}}, -{{[0-9]+}}
// STRIDE-LABEL: define {{.*}}@find(
// STRIDE:         %countdown.ahead = add i64 %{{.*}}, -{{[0-9]+}}
// STRIDE-LABEL: define {{.*}}@span(
// STRIDE:         %countdown.ahead = add i64 %{{.*}}, -{{[0-9]+}}
// ONE-NOT:      countdown.ahead
#include <stdio.h>

struct node {
  struct node *next;
  int v;
};

static struct node nodes[64];
static unsigned char text[4096];
static int table[64];

// A list walk: no trip count.
__attribute__((noinline)) int walk(struct node *n) {
  int c = 0;
  while (n) {
    if (n->v > 40)
      c++;
    n = n->next;
  }
  return c;
}

// A search that stops at a sentinel the caller puts after the table.
__attribute__((noinline)) int find(const int *a, int x) {
  int i = 0;
  while (a[i] != x)
    i++;
  return i;
}

// A scan to the next space (or the end of the string).
__attribute__((noinline)) int span(const unsigned char *s) {
  int k = 0;
  while (s[k] > ' ')
    k++;
  return k;
}

int main(void) {
  unsigned x = 4242;
  for (int i = 0; i < (int)sizeof text - 1; i++) {
    x = x * 1103515245u + 12345u;
    text[i] = (unsigned char)(x >> 16) % 23 ? 33 + (x >> 20) % 90 : ' ';
  }
  long sum = 0;
  for (int r = 0; r < 20000; r++) {
    int len = (r * 13) % 41;
    for (int i = 0; i < len; i++) {
      nodes[i].v = text[(r + i) % 4000] % 100;
      nodes[i].next = i + 1 < len ? &nodes[i + 1] : 0;
    }
    sum += walk(len ? nodes : 0);
    int n = (r * 7) % 45 + 1;
    for (int i = 0; i < n; i++)
      table[i] = (i * 37 + r) % 101;
    table[n - 1] = 101 + r % 5; // the sentinel
    sum += find(table, 101 + r % 5);
    sum += span(text + r % 4000);
  }
  printf("%ld\n", sum);
  return 0;
}

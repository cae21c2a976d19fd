// A function that calls nothing and keeps nothing in its frame takes its
// instrumented copy out of its frame (lib/ContinuationTwin.cpp): every way
// from its fast code into the instrumented copy (its checks' slow ways, in
// loops and between them) tail-calls a continuation that begins there, with
// the values live on the way. Here: a cell parser (a varint loop, then
// compares unrolled by hand; SQLite's btreeParseCellPtr), a byte compare with
// early returns and a loop (whose entry check also has a twin), a pair
// returned in registers and a large struct returned through a hidden
// pointer; and a loop that carries more values than registers pass, which
// keeps its instrumented copy. With the same seed every count equals
// the build without continuations (-fsampler-continuation-limit=0) at d = 3,
// 30 and 300; at d = 1 every count equals the unconditional build's, and at
// d = 3 every cell lies within 6 sigma of Binomial(n, 1/3).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %sampler-cc -O2 -fsampler-continuation-limit=2000 -S -emit-llvm %s -o - | FileCheck %s
// RUN: %sampler-cc -O2 -fsampler-continuation-limit=2000 %s -o %t/cont
// RUN: %sampler-cc -O2 -fsampler-continuation-limit=0 %s -o %t/single
// RUN: %sampler-cc -O2 -fno-sampler-sampling %s -o %t/exact
// RUN: env SAMPLER_FILE=%t/exact.report %t/exact > %t/exact.out
// RUN: %sampler-report --all --json %t/exact.report --binary %t/exact > %t/exact.json
// RUN: env SAMPLER_SPARSITY=1 SAMPLER_FILE=%t/d1.report %t/cont > %t/d1.out
// RUN: cmp %t/exact.out %t/d1.out
// RUN: %sampler-report --all --json %t/d1.report --binary %t/cont > %t/d1.json
// RUN: python3 %S/../e2e/Inputs/stats.py equal %t/d1.json %t/exact.json
// RUN: env SAMPLER_SPARSITY=3 SAMPLER_SEED=41 SAMPLER_FILE=%t/c3.report %t/cont > %t/c3.out
// RUN: cmp %t/exact.out %t/c3.out
// RUN: %sampler-report --all --json %t/c3.report --binary %t/cont > %t/c3.json
// RUN: python3 %S/../e2e/Inputs/stats.py unbiased %t/c3.json %t/exact.json
// RUN: env SAMPLER_SPARSITY=3 SAMPLER_SEED=41 SAMPLER_FILE=%t/s3.report %t/single > /dev/null
// RUN: %sampler-report --all --json %t/s3.report --binary %t/single > %t/s3.json
// RUN: python3 %S/../e2e/Inputs/stats.py equal %t/c3.json %t/s3.json
// RUN: env SAMPLER_SPARSITY=30 SAMPLER_SEED=42 SAMPLER_FILE=%t/c30.report %t/cont > %t/c30.out
// RUN: cmp %t/exact.out %t/c30.out
// RUN: %sampler-report --all --json %t/c30.report --binary %t/cont > %t/c30.json
// RUN: env SAMPLER_SPARSITY=30 SAMPLER_SEED=42 SAMPLER_FILE=%t/s30.report %t/single > /dev/null
// RUN: %sampler-report --all --json %t/s30.report --binary %t/single > %t/s30.json
// RUN: python3 %S/../e2e/Inputs/stats.py equal %t/c30.json %t/s30.json
// RUN: env SAMPLER_SPARSITY=300 SAMPLER_SEED=43 SAMPLER_FILE=%t/c300.report %t/cont > /dev/null
// RUN: %sampler-report --all --json %t/c300.report --binary %t/cont > %t/c300.json
// RUN: env SAMPLER_SPARSITY=300 SAMPLER_SEED=43 SAMPLER_FILE=%t/s300.report %t/single > /dev/null
// RUN: %sampler-report --all --json %t/s300.report --binary %t/single > %t/s300.json
// RUN: python3 %S/../e2e/Inputs/stats.py equal %t/c300.json %t/s300.json

// Each function's fast copy tail-calls its continuation and calls no draw:
// CHECK-LABEL: define {{.*}}@parse(
// CHECK-NOT:     __sampler_f
// CHECK:         tail call {{.*}}@parse.sampler.cont(
// CHECK-NOT:     __sampler_f
// CHECK:       {{^}}}
// CHECK-LABEL: define {{.*}}@gt(
// CHECK-NOT:     __sampler_f
// CHECK:         tail call {{.*}}@gt.sampler.cont(
// CHECK-NOT:     __sampler_f
// CHECK:       {{^}}}
// CHECK-LABEL: define {{.*}}@mix(
// CHECK-NOT:     sampler.cont
// CHECK:       {{^}}}
// CHECK-LABEL: define {{.*}}@tally(
// CHECK:         tail call {{.*}}@tally.sampler.cont(
// CHECK:       {{^}}}
// CHECK-LABEL: define {{.*}}@stats(
// CHECK:         tail call {{.*}}@stats.sampler.cont(
// CHECK:       {{^}}}
// CHECK-DAG:   define internal {{.*}}@parse.sampler.cont(
// CHECK-DAG:   define internal {{.*}}@stats.sampler.cont(
#include <stdio.h>

static unsigned char text[4096];

struct cell {
  unsigned long long key;
  unsigned payload, size;
  const unsigned char *rest;
};

// A varint loop, then a key whose bytes are compared one by one.
__attribute__((noinline)) void parse(const unsigned char *p, struct cell *c,
                                     unsigned max) {
  unsigned n = *p;
  if (n >= 0x80) {
    const unsigned char *end = p + 8;
    n &= 0x7f;
    do
      n = (n << 7) | (*++p & 0x7f);
    while (*p >= 0x80 && p < end);
  }
  p++;
  unsigned long long key = *p;
  if (key >= 0x80) {
    unsigned char x;
    key = (key << 7) ^ (x = *++p);
    if (x >= 0x80) {
      key = (key << 7) ^ (x = *++p);
      if (x >= 0x80)
        key = (key << 7) ^ *++p;
    }
  }
  p++;
  c->key = key;
  c->rest = p;
  c->payload = n;
  c->size = n <= max ? n + 4 : max;
}

// Compares that usually decide, then a loop.
__attribute__((noinline)) int gt(const unsigned char *s, int i, int j, int n) {
  if (s[i] != s[j])
    return s[i] > s[j];
  if (s[i + 1] != s[j + 1])
    return s[i + 1] > s[j + 1];
  for (int k = 2; k < n; k++)
    if (s[i + k] != s[j + k])
      return s[i + k] > s[j + k];
  return 0;
}

// A loop that carries nine values: its way into the instrumented copy would
// pass more than six registers take, and the frame the stack's arguments
// need would go to the entry (no continuation).
__attribute__((noinline)) long mix(const unsigned char *v, int n, long a, long b) {
  long s0 = 0, s1 = 1, s2 = 2, s3 = 3, s4 = a, s5 = b;
  for (int i = 0; i < n; i++) {
    unsigned char c = v[i];
    if (c & 1)
      s0 += c;
    else
      s1 ^= c;
    if (c & 2)
      s2 += s0;
    else
      s3 += s1;
    s4 = s4 * 3 + (c > 'a');
    s5 += s4 >> 3;
  }
  return s0 + s1 + s2 + s3 + s4 + s5;
}

struct tallies {
  long odd, high;
};

// A pair returned in registers, every other byte counted.
__attribute__((noinline)) struct tallies tally(const unsigned char *v, int n) {
  struct tallies t = {0, 0};
  for (int i = 0; i < n; i += 2) {
    if (v[i] & 1)
      t.odd += v[i];
    if (v[i] > 'b')
      t.high++;
  }
  return t;
}

struct summary {
  long n, sum, max, parity, head, tail;
};

// A large struct returned through a hidden pointer (sret), its loop's values
// in locals.
__attribute__((noinline)) struct summary stats(const unsigned char *v, int n) {
  struct summary b = {n, 0, 0, 0, -1, -1};
  long sum = 0, max = 0;
  for (int i = 0; i < n; i++) {
    sum += v[i];
    if (v[i] > max)
      max = v[i];
  }
  b.sum = sum;
  b.max = max;
  b.parity = sum & 1;
  if (n > 0)
    b.head = v[0], b.tail = v[n - 1];
  return b;
}

int main(void) {
  unsigned x = 12345;
  for (int i = 0; i < (int)sizeof text; i++) {
    x = x * 1103515245u + 12345u;
    // Bytes with the high bit set one time in three (varints of one to
    // nine bytes), few letters otherwise (compares go past the first bytes).
    text[i] = (unsigned char)((x >> 16) % 3 == 0 ? 0x80 | (x >> 8) : 'a' + (x >> 20) % 3);
  }
  long sum = 0;
  for (int r = 0; r < 40000; r++) {
    int i = (int)((unsigned)r * 7919u % 4000u), j = (int)(((unsigned)r * 104729u + 13u) % 4000u);
    struct cell c;
    parse(text + i, &c, 100 + r % 50);
    sum += (long)(c.key & 0xffff) + c.payload + c.size + (c.rest - text);
    sum += gt(text, i, j, 48);
    sum += mix(text + j, r % 23, r, r % 7);
    struct tallies t = tally(text + i, r % 9);
    struct summary b = stats(text + j, r % 7);
    sum += t.odd + t.high + b.n + b.sum + b.parity + b.max + b.head + b.tail;
  }
  printf("%ld\n", sum);
  return 0;
}

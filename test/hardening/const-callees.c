// Functions with sites that the program declares `const` or `pure`
// (lib/WeightyEffects.h): their sites take trials and write counters, so the
// declarations are widened to "reads and writes the program's memory" on the
// functions and their calls. Without that (the change undone), a caller's
// instrumented copy kept its countdown in a local across the call, the callee
// ran on the trials of the region after its caller's, and the callee's cells
// came out biased: one cell 7.5 sigma off at d = 3, three 6.3 to 7.4 sigma
// at d = 10 (against the -O2 unconditional build); LLVM also merged the two
// calls of `twice`, so the -O2 unconditional build counted one call where the
// source makes two (the -O0 build two), and the FileCheck lines below fail.
// A `const` function without sites (`square`) keeps its declaration, and its
// repeated call is still merged.
// Here: a `const` and a `pure` callee between a caller's sites, a `const`
// function without sites calling one with (weighty all the same), a loop
// calling a `const` callee, and another unit's `const` function with sites,
// called from here and twice with one argument from a unit without sites
// (Inputs/const_nosites.c).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %sampler-cc -O2 -fsampler-schemes=branches -c %S/Inputs/const_nosites.c -o %t/nosites.o
// RUN: %sampler-cc -O0 -fsampler-schemes=branches -c %S/Inputs/const_nosites.c -o %t/nosites-O0.o
// RUN: %sampler-cc -O2 -fsampler-schemes=branches -S -emit-llvm %S/Inputs/const_nosites.c -o - | FileCheck %s --check-prefix=NOSITES
// RUN: %sampler-cc -O2 %s %S/Inputs/const_other.c %t/nosites.o -o %t/sampled
// RUN: %sampler-cc -O2 -fsampler-sample-late %s %S/Inputs/const_other.c %t/nosites.o -o %t/late
// RUN: %sampler-cc -O2 -fno-sampler-sampling %s %S/Inputs/const_other.c %t/nosites.o -o %t/exact
// RUN: %sampler-cc -O0 -fno-sampler-sampling %s %S/Inputs/const_other.c %t/nosites-O0.o -o %t/exact-O0
// RUN: %sampler-cc -O2 -S -emit-llvm %s -o - | FileCheck %s
// RUN: env SAMPLER_FILE=%t/exact.report %t/exact > %t/exact.out
// RUN: %sampler-report --all --json %t/exact.report --binary %t/exact > %t/exact.json
// RUN: env SAMPLER_FILE=%t/exact-O0.report %t/exact-O0 > %t/exact-O0.out
// RUN: cmp %t/exact.out %t/exact-O0.out
// RUN: %sampler-report --all --json %t/exact-O0.report --binary %t/exact-O0 > %t/exact-O0.json
// RUN: python3 %S/../e2e/Inputs/stats.py equal %t/exact.json %t/exact-O0.json
// RUN: env SAMPLER_SPARSITY=1 SAMPLER_FILE=%t/d1.report %t/sampled > %t/d1.out
// RUN: cmp %t/exact.out %t/d1.out
// RUN: %sampler-report --all --json %t/d1.report --binary %t/sampled > %t/d1.json
// RUN: python3 %S/../e2e/Inputs/stats.py equal %t/d1.json %t/exact.json
// RUN: env SAMPLER_SPARSITY=2 SAMPLER_SEED=51 SAMPLER_FILE=%t/d2.report %t/sampled > /dev/null
// RUN: %sampler-report --all --json %t/d2.report --binary %t/sampled > %t/d2.json
// RUN: python3 %S/../e2e/Inputs/stats.py unbiased %t/d2.json %t/exact.json
// RUN: env SAMPLER_SPARSITY=3 SAMPLER_SEED=52 SAMPLER_FILE=%t/d3.report %t/sampled > /dev/null
// RUN: %sampler-report --all --json %t/d3.report --binary %t/sampled > %t/d3.json
// RUN: python3 %S/../e2e/Inputs/stats.py unbiased %t/d3.json %t/exact.json
// RUN: env SAMPLER_SPARSITY=10 SAMPLER_SEED=53 SAMPLER_FILE=%t/d10.report %t/sampled > /dev/null
// RUN: %sampler-report --all --json %t/d10.report --binary %t/sampled > %t/d10.json
// RUN: python3 %S/../e2e/Inputs/stats.py unbiased %t/d10.json %t/exact.json
// RUN: env SAMPLER_SPARSITY=3 SAMPLER_SEED=54 SAMPLER_FILE=%t/l3.report %t/late > %t/l3.out
// RUN: cmp %t/exact.out %t/l3.out
// RUN: %sampler-report --all --json %t/l3.report --binary %t/late > %t/l3.json
// RUN: python3 %S/../e2e/Inputs/stats.py unbiased %t/l3.json %t/exact.json

// The declarations widened: the `const` function reads and writes the
// program's memory and no other; the `pure` one reads its argument's and
// inaccessible memory as before. `square` keeps `memory(none)`.
// CHECK: define {{.*}} @cf({{.*}} #[[CF:[0-9]+]]
// CHECK: define {{.*}} @pf({{.*}} #[[PF:[0-9]+]]
// CHECK: define {{.*}} @square({{.*}} #[[SQ:[0-9]+]]
// Both calls of `cf` in `twice` stay; the two of `square` are one.
// CHECK-LABEL: define {{.*}} @twice(
// CHECK: call {{.*}} @cf(
// CHECK: call {{.*}} @cf(
// CHECK: call {{.*}} @square(
// CHECK-NOT: @square(
// CHECK-LABEL: define {{.*}} @looper(
// CHECK-LABEL: define {{.*}} @main(
// CHECK-DAG: attributes #[[CF]] = { {{.*}}memory(readwrite, argmem: none, inaccessiblemem: none)
// CHECK-DAG: attributes #[[PF]] = { {{.*}}memory(readwrite, argmem: read, inaccessiblemem: read)
// CHECK-DAG: attributes #[[SQ]] = { {{.*}}memory(none)
// A unit without sites keeps both calls of another unit's `const` function.
// NOSITES-LABEL: define {{.*}} @twice_other(
// NOSITES: call {{.*}} @other_const(
// NOSITES: call {{.*}} @other_const(
#include <stdio.h>

static unsigned state = 7;
__attribute__((noinline)) static unsigned rnd(void) {
  state = state * 1103515245u + 12345u;
  return (state >> 16) & 0x7fff;
}

__attribute__((const, noinline)) int cf(unsigned v) {
  int r = 0;
  if (v & 1) r += 1;
  if (v & 2) r += 2;
  return r;
}

__attribute__((pure, noinline)) int pf(const unsigned *p) {
  int r = 0;
  if (*p & 4) r += 1;
  if (*p & 8) r += 2;
  return r;
}

// No sites (-fsampler-skip would be one way; here nothing to observe): a
// weightless `const` function, left as declared.
__attribute__((const, noinline)) unsigned square(unsigned v) {
  return v * v;
}

// Another unit's, declared `const` here.
__attribute__((const)) int other_const(unsigned v);
// A unit without sites, calling other_const twice.
int twice_other(unsigned v);

// A caller's sites before, between and after the calls.
__attribute__((noinline)) int caller(unsigned v) {
  int r = 0;
  if (v & 16) r++;
  r += cf(v);
  if (v & 32) r++;
  r += pf(&v);
  if (v & 64) r++;
  r += other_const(v >> 1);
  if (v & 128) r++;
  return r;
}

// The same call twice: merged under the declaration, two calls without it.
__attribute__((noinline)) int twice(unsigned v) {
  int r = cf(v >> 2);
  if (v & 256) r++;
  r += cf(v >> 2);
  return r + (int)(square(v) + square(v));
}

// A loop calling a `const` callee: it must not carry the countdown in a
// register across the call.
__attribute__((noinline)) int looper(unsigned v) {
  int r = 0;
  for (unsigned j = 0; j < (v & 7); j++) {
    if ((v >> j) & 1) r++;
    r += cf(v >> j);
  }
  return r;
}

int main(void) {
  long total = 0;
  for (int i = 0; i < 40000; i++) {
    unsigned v = rnd() | (rnd() << 15);
    total += caller(v) + twice(v >> 1) + looper(v >> 3) + twice_other(v >> 5);
  }
  printf("%ld\n", total);
  return 0;
}

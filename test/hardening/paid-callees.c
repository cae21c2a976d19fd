// Callees paid by their callers (-fsampler-paid-callee-weight=N, off by
// default; docs/sampling.md, "Callees paid by their callers"): a leaf function
// of one region, whose check pays for W trials whatever path it takes, is paid
// by a cloned caller's region as W sites of its own, where the region then
// weighs no more than a region may (8) or than it did. The caller's fast copy
// calls the leaf's body, with no check; its instrumented copy calls the leaf
// itself with the thread-local countdown set to where the leaf's W trials lie
// in the region, and takes back what the leaf leaves. Here leaves are called
// before and after sites of their callers, twice in a region (the second does
// not fit: its callee keeps its check), after a weighty call (the thread-local
// then holds the weighty callee's countdown, which must come back), in loops
// (one bounded, whose trials the loop then pays on entry), with paths of fewer
// sites than their weight, and once from a loop (a local function called once).
// At small d every cell must lie within 6 sigma of Binomial(n, 1/d); at d = 1
// every count must equal the unconditional build's; without paid callees the
// program's output is the same. (Mutations that place the leaf's trials at the
// region's end, or that call the leaf with the thread-local as it is, its
// trials after the region's, fail at d = 2, 3 and 10: 30 cells by 12 to 364
// sigma, and 4 to 10 cells by 6 to 60 sigma. One that leaves the region's
// countdown in the thread-local after a weighty call is not seen here: the
// weighty callee's trials and the next region's then coincide, which counts
// alone do not show; test/sampling/paid-callees.ll pins that store.)
// RUN: rm -rf %t && mkdir -p %t
// RUN: %sampler-cc -O2 -fsampler-paid-callee-weight=8 %s -o %t/sampled
// RUN: %sampler-cc -O2 -fsampler-paid-callee-weight=8 -S -emit-llvm %s -o - | FileCheck %s --implicit-check-not=@once.sampler.callee
// RUN: %sampler-cc -O0 -fsampler-paid-callee-weight=8 %s -o %t/sampled-O0
// RUN: %sampler-cc -O2 %s -o %t/unpaid
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
// RUN: env SAMPLER_SPARSITY=3 SAMPLER_SEED=34 SAMPLER_FILE=%t/o0.report %t/sampled-O0 > %t/o0.out
// RUN: cmp %t/exact.out %t/o0.out
// RUN: env SAMPLER_SPARSITY=3 SAMPLER_SEED=35 SAMPLER_FILE=%t/unpaid.report %t/unpaid > %t/unpaid.out
// RUN: cmp %t/exact.out %t/unpaid.out

// straight's region: its own 5 trials (three branches, two calls' returns)
// and leaf3's 3, whose body its fast copy calls; varied's 4 more would make it
// weigh 12, more than 8: varied keeps its check, called from both copies. The
// instrumented copy calls leaf3 itself.
// CHECK-LABEL: define {{.*}} @straight(
// CHECK:         call {{.*}} @leaf3.sampler.body(
// CHECK:         call {{.*}} @varied(
// A counted loop calling a paid callee takes no trials but its own: bounded,
// it pays for its iterations on entry (docs/sampling.md, "Bounded loops").
// CHECK-LABEL: define {{.*}} @counted(
// CHECK:         sampler.loop.affordable
// CHECK-LABEL: define {{.*}} @straight.sampler.slow(
// CHECK:         call {{.*}} @leaf3(
// CHECK:         call {{.*}} @varied(
#include <stdio.h>

static unsigned state = 7;
__attribute__((noinline)) static unsigned rnd(void) {
  state = state * 1103515245u + 12345u;
  return (state >> 16) & 0x7fff;
}

// Three sites on every path.
__attribute__((noinline)) static int leaf3(unsigned v) {
  int r = 0;
  if (v & 1) r += 1;
  if (v & 2) r += 2;
  if (v & 4) r += 3;
  return r;
}

// Four sites on its heaviest path, one on its shortest: its check (and a
// caller's region) pays for four trials whichever it takes.
__attribute__((noinline)) int varied(unsigned v) {
  if (v & 8)
    return 1;
  int r = 0;
  if (v & 16) r += 2;
  if (v & 32) r += 3;
  if (v & 64) r += 4;
  return r;
}

// Sites before, between and after two paid calls, in one region.
__attribute__((noinline)) int straight(unsigned v) {
  int r = 0;
  if (v & 128) r++;
  r += leaf3(v);
  if (v & 256) r++;
  r += varied(v >> 1);
  if (v & 512) r++;
  return r;
}

// Not a leaf: it calls a function with sites. A call of it is weighty.
__attribute__((noinline)) static int weighty(unsigned v) {
  int r = 0;
  for (unsigned j = 0; j < (v & 3); j++)
    r += leaf3(v >> j);
  return r;
}

// A paid call after a weighty one: the leaf runs on the region's trials, and
// the thread-local gets back what the weighty callee left.
__attribute__((noinline)) int after_weighty(unsigned v) {
  int r = 0;
  if (v & 1024) r++;
  r += weighty(v);
  r += leaf3(v >> 2);
  if (v & 2048) r++;
  return r;
}

// A loop whose iteration has sites of its own (its test, two branches, two
// calls' returns): leaf3's 3 trials fit in its region, varied keeps its check.
__attribute__((noinline)) int looping(unsigned v) {
  int r = 0;
  for (unsigned j = 0; j < (v & 7); j++) {
    if ((v >> j) & 1) r++;
    r += leaf3(v >> j);
    r += varied(v >> (j + 1));
    if ((v >> j) & 2) r--;
  }
  return r;
}

// A local leaf called once, in a loop: paid, it needs no copy for its one
// call to stay the last (lib/SingleCallLocals.cpp): the fast copy calls its
// body, the instrumented copy the function.
static int once(unsigned v) {
  int r = 0;
  if (v & 1) r += 5;
  if (v & 2) r += 7;
  return r;
}

__attribute__((noinline)) int calls_once(unsigned v) {
  int r = 0;
  for (unsigned j = 0; j < (v & 7); j++) {
    if ((v >> j) & 4) r++;
    r += once(v >> j);
  }
  return r;
}

// A counted loop whose iteration is a paid call and a site.
__attribute__((noinline)) int counted(const unsigned *a, int n) {
  int r = 0;
  for (int i = 0; i < n; i++) {
    if (a[i] & 1) r++;
    r += leaf3(a[i] >> 1);
  }
  return r;
}

// One region: its own 4 trials (a branch, three calls' returns) and the first
// leaf3's 3; the second leaf3's would make it weigh 10, so it keeps its check,
// and so does varied. Its instrumented copy is a function of its own.
__attribute__((noinline)) int heavy(unsigned v) {
  int r = (v & 4096) ? 1 : 0;
  r += leaf3(v);
  r += leaf3(v >> 3);
  r += varied(v >> 5);
  return r;
}

int main(void) {
  long total = 0;
  unsigned a[32];
  for (int i = 0; i < 40000; i++) {
    unsigned v = rnd() | (rnd() << 15);
    if (i % 8 == 0) {
      for (int k = 0; k < 32; k++)
        a[k] = rnd();
      total += counted(a, (int)(v % 33));
    }
    total += straight(v) + after_weighty(v >> 1) + looping(v >> 2) +
             heavy(v >> 3) + calls_once(v >> 4);
  }
  printf("%ld\n", total);
  return 0;
}

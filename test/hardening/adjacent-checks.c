// A check right after another's fast edge is paid by the first (lib/CheckMerge.cpp):
// here a small function of one region, with its own entry check, inlined at the
// top of functions with theirs, or after a branch of their region whose ways
// join before it, or on one way of such a branch (the other way gives the
// second check's trials back). The first check pays both regions' trials and
// gives the second's back on its way to the instrumented copy, which the
// countdown then enters with trials to spare and fires no site before the second
// check. So every site execution owns the same trial as without the merge: with
// the same seed, every count equals the build without it
// (-fno-sampler-check-merge), at d = 3, 30 and 300 (where the way back runs
// often, sometimes, rarely); at d = 1 every count equals the unconditional
// build's, and at d = 3 every cell lies within 6 sigma of Binomial(n, 1/3).
// (A mutation that gives back one trial too few fails the equality at d = 3.)
// RUN: rm -rf %t && mkdir -p %t
// The shapes below are CheckMerge's alone, before EntryTwin gives the merged
// check's slow way to a twin (test/hardening/entry-twin.c):
// RUN: %sampler-cc -O2 -fsampler-entry-twin-limit=0 -S -emit-llvm %s -o - | FileCheck %s
// RUN: %sampler-cc -O2 %s -o %t/merged
// RUN: %sampler-cc -O2 -fno-sampler-check-merge %s -o %t/separate
// RUN: %sampler-cc -O2 -fno-sampler-sampling %s -o %t/exact
// RUN: env SAMPLER_FILE=%t/exact.report %t/exact > %t/exact.out
// RUN: %sampler-report --all --json %t/exact.report --binary %t/exact > %t/exact.json
// RUN: env SAMPLER_SPARSITY=1 SAMPLER_FILE=%t/d1.report %t/merged > %t/d1.out
// RUN: cmp %t/exact.out %t/d1.out
// RUN: %sampler-report --all --json %t/d1.report --binary %t/merged > %t/d1.json
// RUN: python3 %S/../e2e/Inputs/stats.py equal %t/d1.json %t/exact.json
// RUN: env SAMPLER_SPARSITY=3 SAMPLER_SEED=31 SAMPLER_FILE=%t/m3.report %t/merged > %t/m3.out
// RUN: cmp %t/exact.out %t/m3.out
// RUN: %sampler-report --all --json %t/m3.report --binary %t/merged > %t/m3.json
// RUN: python3 %S/../e2e/Inputs/stats.py unbiased %t/m3.json %t/exact.json
// RUN: env SAMPLER_SPARSITY=3 SAMPLER_SEED=31 SAMPLER_FILE=%t/s3.report %t/separate > /dev/null
// RUN: %sampler-report --all --json %t/s3.report --binary %t/separate > %t/s3.json
// RUN: python3 %S/../e2e/Inputs/stats.py equal %t/m3.json %t/s3.json
// RUN: env SAMPLER_SPARSITY=30 SAMPLER_SEED=32 SAMPLER_FILE=%t/m30.report %t/merged > /dev/null
// RUN: %sampler-report --all --json %t/m30.report --binary %t/merged > %t/m30.json
// RUN: env SAMPLER_SPARSITY=30 SAMPLER_SEED=32 SAMPLER_FILE=%t/s30.report %t/separate > /dev/null
// RUN: %sampler-report --all --json %t/s30.report --binary %t/separate > %t/s30.json
// RUN: python3 %S/../e2e/Inputs/stats.py equal %t/m30.json %t/s30.json
// RUN: env SAMPLER_SPARSITY=300 SAMPLER_SEED=33 SAMPLER_FILE=%t/m300.report %t/merged > /dev/null
// RUN: %sampler-report --all --json %t/m300.report --binary %t/merged > %t/m300.json
// RUN: env SAMPLER_SPARSITY=300 SAMPLER_SEED=33 SAMPLER_FILE=%t/s300.report %t/separate > /dev/null
// RUN: %sampler-report --all --json %t/s300.report --binary %t/separate > %t/s300.json
// RUN: python3 %S/../e2e/Inputs/stats.py equal %t/m300.json %t/s300.json

// api's region (two sites) and classify's (two), one check for both; its way to
// the instrumented copy gives classify's two trials back:
// CHECK-LABEL: define {{.*}}@api(
// CHECK:         %countdown.paid = add i64 %countdown, -4
// CHECK:         br i1 %countdown.enough, label %{{.*}}, label %sampler.merged.back
// CHECK:       sampler.merged.back:
// CHECK:         load volatile i64
// CHECK-NEXT:    add i64 %{{.*}}, 2
// CHECK-NEXT:    store i64
// CHECK-NOT:     load volatile
// CHECK:       {{^}}}
// Two inlined calls in a row (the first one's fast body touches no countdown):
// one check for both.
// CHECK-LABEL: define {{.*}}@twice(
// CHECK:         %countdown.paid = add i64 %countdown, -4
// CHECK:       sampler.merged.back:
// CHECK:         load volatile i64
// CHECK-NEXT:    add i64 %{{.*}}, 2
// A branch between the two checks, both ways joining before the second:
// CHECK-LABEL: define {{.*}}@diamond(
// CHECK:         %countdown.paid = add i64 %countdown, -4
// CHECK:       sampler.merged.back:
// CHECK:         load volatile i64
// CHECK-NEXT:    add i64 %{{.*}}, 2
// CHECK-NOT:     add i64 %countdown{{[.a-z0-9]*}}, -2
// CHECK:       {{^}}}
// A call that may take trials between two checks: each keeps its own.
// CHECK-LABEL: define {{.*}}@guarded(
// CHECK:         %countdown.paid = add i64 %countdown, -3
// CHECK:         call {{.*}}@heavy(
// CHECK:         add i64 %countdown{{[.a-z0-9]*}}, -2
// CHECK-NOT:   sampler.merged.back
// Only some paths reach the second check: the first pays for both, and the way
// that misses it gives its trials back (its static frequency is low enough),
// here at the top of the block it leads to, which nothing else enters:
// CHECK-LABEL: define {{.*}}@some_paths(
// CHECK:         %countdown.paid = add i64 %countdown, -4
// CHECK:       sampler.merged.back:
// CHECK:         load volatile i64
// CHECK-NEXT:    add i64 %{{.*}}, 2
// CHECK:       sampler.body:
// CHECK:         br i1 %cmp, label %if.then, label
// CHECK:       if.then:
// CHECK-NEXT:    load volatile i64
// CHECK-NEXT:    add i64 %{{.*}}, 2
// CHECK-NEXT:    store i64
// CHECK-NEXT:    call {{.*}}@rare(
// CHECK-NOT:     add i64 %countdown{{[.a-z0-9]*}}, -2
// CHECK:       {{^}}}
// Each way of a branch has a check; the likely way's is merged, and the other
// way's pays two less (the same countdown after it) instead of a give-back:
// CHECK-LABEL: define {{.*}}@either_way(
// CHECK:         %countdown.paid = add i64 %countdown, -4
// CHECK:       if.end:
// CHECK-NEXT:    %countdown.i = load volatile i64
// CHECK-NEXT:    %countdown.paid.i = add i64 %countdown.i, -1
// CHECK-NOT:     sampler.merged.giveback
// CHECK:       {{^}}}
// CHECK-LABEL: define {{.*}}@main(
#include <stdio.h>

// One region of two sites, too big for clang to inline before sampling (it has
// a call), small enough to inline afterwards.
__attribute__((noinline)) static int pick(int v) { return v * 5 + 3; }

static int classify(int v) {
  if (v % 3 == 0)
    return pick(v);
  if (v % 7 == 1)
    return 1;
  return 2;
}

__attribute__((noinline)) int api(int v, int w) {
  int c = classify(v);
  if (w > 10)
    return c + 1;
  return c;
}

__attribute__((noinline)) int twice(int v) { return classify(v) + classify(v + 1); }

int out[2];

// A branch of the caller's region between the two checks: both its ways
// reach the inlined check, and nothing on them touches the countdown.
__attribute__((noinline)) int diamond(int v, int w) {
  if (w > 0)
    out[0] = v;
  else
    out[1] = w;
  return classify(v + w);
}

__attribute__((noinline)) static int heavy(int v) { return v > 100 ? v - 100 : v; }

__attribute__((noinline)) int guarded(int v) {
  if (v < 0)
    return 0;
  return heavy(v) + classify(v);
}

// A way out of the caller's region that misses the inlined check: the static
// frequencies make it rare (it calls a cold function), so the merge is worth
// it, and it runs a quarter of the time here.
__attribute__((cold, noinline)) static int rare(int v) { return -v; }

__attribute__((noinline)) int some_paths(int v) {
  if (v % 4 == 0)
    return rare(v);
  return classify(v);
}

// Each way of a branch calls a function of one region. The likely way's check
// is merged; the other's, entered only from the branch, pays classify's two
// trials less instead of a give-back before it.
static inline __attribute__((always_inline)) int heavier(int v) {
  if (v % 5 == 0)
    return pick(v);
  if (v % 11 == 2)
    return 3;
  if (v % 13 == 3)
    return 4;
  return 5;
}

__attribute__((noinline)) int either_way(int v) {
  if (__builtin_expect(v % 8 != 0, 1)) {
    out[0] = v; // (otherwise both ways begin with the countdown's load,
    return classify(v); // which SimplifyCFG hoists into the branch's block)
  }
  return heavier(v);
}

int main(void) {
  long sum = 0;
  for (int i = 0; i < 200000; i++)
    sum += api(i, i % 31 - 15) + twice(i) + guarded(i - 5) + diamond(i, i % 5 - 2) +
           some_paths(i) + either_way(i);
  printf("%ld\n", sum);
  return 0;
}

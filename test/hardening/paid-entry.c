// A callee's entry check paid by its caller's (lib/PaidEntry.h): small
// functions of one region, kept out of line, whose entry block is their check,
// called from checked regions of their callers: at once, after a branch whose
// ways join before the call, on one way of a branch (the other way gives the
// callee's trials back), after another call (no merge), and in a loop. The
// caller's check pays the callee's trials too and the call enters the callee's
// paid copy; its way to the instrumented copy gives them back, and the
// instrumented copy calls the callee itself. So every site execution owns the
// same trial as without it: with the same seed, every count equals the build
// with -fsampler-paid-entry-limit=0, at d = 3, 30 and 300; at d = 1 every
// count equals the unconditional build's, and at d = 3 every cell lies within
// 6 sigma of Binomial(n, 1/3). (A mutation that gives back one trial too few,
// or enters the paid copy after another call, fails the equality at d = 3.)
// RUN: rm -rf %t && mkdir -p %t
// RUN: %sampler-cc -O2 -S -emit-llvm %s -o - | FileCheck %s
// RUN: %sampler-cc -O2 %s -o %t/paid
// RUN: %sampler-cc -O2 -fsampler-paid-entry-limit=0 %s -o %t/unpaid
// RUN: %sampler-cc -O2 -fno-sampler-sampling %s -o %t/exact
// RUN: env SAMPLER_FILE=%t/exact.report %t/exact > %t/exact.out
// RUN: %sampler-report --all --json %t/exact.report --binary %t/exact > %t/exact.json
// RUN: env SAMPLER_SPARSITY=1 SAMPLER_FILE=%t/d1.report %t/paid > %t/d1.out
// RUN: cmp %t/exact.out %t/d1.out
// RUN: %sampler-report --all --json %t/d1.report --binary %t/paid > %t/d1.json
// RUN: python3 %S/../e2e/Inputs/stats.py equal %t/d1.json %t/exact.json
// RUN: env SAMPLER_SPARSITY=3 SAMPLER_SEED=41 SAMPLER_FILE=%t/p3.report %t/paid > %t/p3.out
// RUN: cmp %t/exact.out %t/p3.out
// RUN: %sampler-report --all --json %t/p3.report --binary %t/paid > %t/p3.json
// RUN: python3 %S/../e2e/Inputs/stats.py unbiased %t/p3.json %t/exact.json
// RUN: env SAMPLER_SPARSITY=3 SAMPLER_SEED=41 SAMPLER_FILE=%t/u3.report %t/unpaid > /dev/null
// RUN: %sampler-report --all --json %t/u3.report --binary %t/unpaid > %t/u3.json
// RUN: python3 %S/../e2e/Inputs/stats.py equal %t/p3.json %t/u3.json
// RUN: env SAMPLER_SPARSITY=30 SAMPLER_SEED=42 SAMPLER_FILE=%t/p30.report %t/paid > /dev/null
// RUN: %sampler-report --all --json %t/p30.report --binary %t/paid > %t/p30.json
// RUN: env SAMPLER_SPARSITY=30 SAMPLER_SEED=42 SAMPLER_FILE=%t/u30.report %t/unpaid > /dev/null
// RUN: %sampler-report --all --json %t/u30.report --binary %t/unpaid > %t/u30.json
// RUN: python3 %S/../e2e/Inputs/stats.py equal %t/p30.json %t/u30.json
// RUN: env SAMPLER_SPARSITY=300 SAMPLER_SEED=43 SAMPLER_FILE=%t/p300.report %t/paid > /dev/null
// RUN: %sampler-report --all --json %t/p300.report --binary %t/paid > %t/p300.json
// RUN: env SAMPLER_SPARSITY=300 SAMPLER_SEED=43 SAMPLER_FILE=%t/u300.report %t/unpaid > /dev/null
// RUN: %sampler-report --all --json %t/u300.report --binary %t/unpaid > %t/u300.json
// RUN: python3 %S/../e2e/Inputs/stats.py equal %t/p300.json %t/u300.json

#include <stdio.h>

static int hits, acc;

// The callees: one region each, a check on entry.
__attribute__((noinline)) static int classify(int x) {
  if (x > 10)
    return 1;
  if (x < 0)
    return -1;
  return 0;
}

__attribute__((noinline)) static int parity(int x) {
  if (x & 1)
    return x * 3;
  return x / 2;
}

// The call right after a branch of api's region: api's check pays
// classify's trials, the call goes to the paid copy.
// CHECK-LABEL: define {{.*}}@api(
// CHECK:         %countdown.paid = add i64 %countdown, -4
// CHECK:       sampler.merged.back:
// CHECK-NEXT:    load volatile i64
// CHECK-NEXT:    add i64 %{{.*}}, 2
// CHECK:         call {{.*}}@classify.sampler.paid(
// CHECK:       {{^}}}
__attribute__((noinline)) int api(int x) {
  if (x % 3 == 0)
    acc++;
  return classify(x) + acc;
}

// On one way of a branch: the other way gives parity's trials back.
__attribute__((noinline)) int one_way(int x) {
  if (x % 5 == 0)
    return parity(x);
  if (x > 7)
    hits++;
  return hits;
}

// After another call, which may touch the countdown: no merge for the
// second call.
// CHECK-LABEL: define {{.*}}@after_call(
// CHECK:         call {{.*}}@classify.sampler.paid(
// CHECK-NEXT:    call {{.*}}@parity(
// CHECK:       {{^}}}
__attribute__((noinline)) int after_call(int x) {
  if (x > 2)
    hits++;
  int a = classify(x);
  return a + parity(x);
}

// In a loop whose body checks on its back edge.
__attribute__((noinline)) int looped(const int *v, int n) {
  int total = 0;
  for (int i = 0; i < n; i++) {
    if (v[i] > 4)
      total++;
    total += parity(v[i]);
  }
  return total;
}

// The instrumented copies call the callees themselves, which pay their own
// checks (the trials given back):
// CHECK-LABEL: define internal {{.*}}@api.sampler.slow(
// CHECK:         call {{.*}}@classify(
// CHECK-LABEL: define internal {{.*}}@after_call.sampler.slow(
// CHECK:         call {{.*}}@classify(
int main(void) {
  int v[64];
  long sum = 0;
  for (int round = 0; round < 400; round++) {
    for (int i = 0; i < 64; i++)
      v[i] = (i * 7 + round * 13) % 23 - 3;
    for (int i = 0; i < 64; i++) {
      sum += api(v[i]);
      sum += one_way(v[i] + round);
      sum += after_call(v[i] - round % 5);
    }
    sum += looped(v, 64);
  }
  printf("%ld %d %d\n", sum, hits, acc);
  return 0;
}

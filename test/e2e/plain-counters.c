// With plain counters (-fno-sampler-atomic-counters) a single-threaded program
// counts exactly what it counts with atomic ones: the same output as the plain
// build, and the same counts at d = 1 and in the unconditional build; at d = 10
// every cell within 6 sigma of Binomial(exact, 1/10). Its assembly has no
// `lock`-prefixed update.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %clang -O2 %s -o %t/plain && %t/plain > %t/plain.out
// RUN: %sampler-cc -O2 -fsampler-schemes=branches,returns,bounds %s -o %t/atomic
// RUN: %sampler-cc -O2 -fsampler-schemes=branches,returns,bounds -fno-sampler-atomic-counters %s -o %t/single
// RUN: %sampler-cc -O2 -fsampler-schemes=branches,returns,bounds -fno-sampler-atomic-counters -fno-sampler-sampling %s -o %t/single-all
// RUN: %sampler-cc -O2 -fsampler-schemes=branches,returns,bounds -fno-sampler-atomic-counters -S %s -o - | FileCheck %s
// RUN: env SAMPLER_SPARSITY=1 SAMPLER_FILE=%t/atomic.report %t/atomic > %t/atomic.out
// RUN: env SAMPLER_SPARSITY=1 SAMPLER_FILE=%t/single.report %t/single > %t/single.out
// RUN: env SAMPLER_FILE=%t/single-all.report %t/single-all > %t/single-all.out
// RUN: env SAMPLER_SPARSITY=10 SAMPLER_SEED=3 SAMPLER_FILE=%t/d10.report %t/single > %t/d10.out
// RUN: cmp %t/plain.out %t/atomic.out && cmp %t/plain.out %t/single.out
// RUN: cmp %t/plain.out %t/single-all.out && cmp %t/plain.out %t/d10.out
// RUN: %sampler-report --all --json %t/atomic.report --binary %t/atomic > %t/atomic.json
// RUN: %sampler-report --all --json %t/single.report --binary %t/single > %t/single.json
// RUN: %sampler-report --all --json %t/single-all.report --binary %t/single-all > %t/single-all.json
// RUN: %sampler-report --all --json %t/d10.report --binary %t/single > %t/d10.json
// RUN: python3 %S/Inputs/stats.py equal %t/single.json %t/atomic.json
// RUN: python3 %S/Inputs/stats.py equal %t/single-all.json %t/atomic.json
// RUN: python3 %S/Inputs/stats.py unbiased %t/d10.json %t/atomic.json

// CHECK-LABEL: sum:
// CHECK-NOT:   lock
// CHECK:       .Lfunc_end
#include <stdio.h>

__attribute__((noinline)) int weigh(int x) { return x % 7 == 3 ? x / 3 : x + 1; }

__attribute__((noinline)) int sum(const int *a, int n) {
  int s = 0;
  for (int i = 0; i < n; i++)
    if (a[i] > 3) {
      int w = weigh(a[i]);
      s += w;
    }
  return s;
}

int main(void) {
  int a[100];
  for (int i = 0; i < 100; i++)
    a[i] = (i * 37) % 11;
  long t = 0;
  for (int r = 0; r < 1000; r++)
    t += sum(a, 100 - r % 50);
  printf("%ld\n", t);
  return 0;
}

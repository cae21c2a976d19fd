// A program compiled with sampler-cc, run at d = 1 (every site observed),
// its report decoded: the counts are the ones computed by hand below.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %sampler-cc -O2 %s -o %t/prog
// RUN: env SAMPLER_SPARSITY=1 SAMPLER_FILE=%t/run.report %t/prog > %t/out.txt
// RUN: FileCheck %s --check-prefix=OUT < %t/out.txt
// RUN: %sampler-report %t/run.report --binary %t/prog | FileCheck %s
// The unconditional build (no sampling transformation) counts the same:
// RUN: %sampler-cc -O2 -fno-sampler-sampling %s -o %t/uncond
// RUN: env SAMPLER_FILE=%t/uncond.report %t/uncond > %t/out2.txt
// RUN: %sampler-report %t/uncond.report --binary %t/uncond | FileCheck %s
// RUN: cmp %t/out.txt %t/out2.txt
// Either form of the branch and returns observations, in either build: the
// cells computed (-fno-sampler-observe-edges) or each way its own cell.
// RUN: %sampler-cc -O2 -fno-sampler-sampling -fno-sampler-observe-edges %s -o %t/cells
// RUN: env SAMPLER_FILE=%t/cells.report %t/cells > /dev/null
// RUN: %sampler-report %t/cells.report --binary %t/cells | FileCheck %s
// RUN: %sampler-cc -O2 -fsampler-observe-edges %s -o %t/edges
// RUN: env SAMPLER_SPARSITY=1 SAMPLER_FILE=%t/edges.report %t/edges > /dev/null
// RUN: %sampler-report %t/edges.report --binary %t/edges | FileCheck %s

// OUT: total 16

// CHECK: end exit 0
// i = 0..9: i < 3 is true 3 times, false 7 times; the loop test 10 + 1.
// CHECK-DAG: exact-counts.c:[[#@LINE+13]]:{{[0-9]+}} {{.*}}main {{.*}}branches {{.*}}i < 10 {{.*}}false=1 true=10
// CHECK-DAG: exact-counts.c:[[#@LINE+13]]:{{[0-9]+}} {{.*}}main {{.*}}branches {{.*}}i < 3 {{.*}}false=7 true=3
// g(i) = i - 5: negative for i = 0..4, zero for 5, positive for 6..9.
// CHECK-DAG: exact-counts.c:[[#@LINE+13]]:{{[0-9]+}} {{.*}}main {{.*}}returns {{.*}}g(...) {{.*}}<0=5 ==0=1 >0=4
// i % 3: 0 for 0,3,6,9 (case 0), 1 for 1,4,7 (case 1), 2 for 2,5,8 (default).
// CHECK-DAG: exact-counts.c:[[#@LINE+13]]:{{[0-9]+}} {{.*}}main {{.*}}branches {{.*}}i % 3; cases: 0,1 {{.*}}default=3 case 0=4 case 1=3

#include <stdio.h>

__attribute__((noinline)) int g(int x) { return x - 5; }

int main(void) {
  int total = 0;
  for (int i = 0; i < 10; i++) {
    if (i < 3)
      total += 1;
    if (g(i) == 0)
      total += 100;
    switch (i % 3) {
    case 0: total += 2; break;
    case 1: total -= 1; break;
    default: break;
    }
  }
  printf("total %d\n", total - 100 + 8);
  return 0;
}

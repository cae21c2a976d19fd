// Threads that share a unit's counters lose no count with the default
// -fsampler-atomic-counters=when-threaded (SiteTable.h): main counts alone
// first (plain adds: glibc's __libc_single_threaded is set), then four threads
// run the same loop at once (atomic adds: pthread_create cleared the flag
// before the first of them existed), then main again after joining them. At
// d = 1 and in the unconditional build the report holds the exact totals.
// With -fno-sampler-atomic-counters the same program lost counts in each of
// 10 runs on a machine of 2 cores (of the loop test's 4,002,000, 2.7M to 3.7M
// were left at d = 1, 2.3M to 3.1M unconditionally): plain adds are not
// enough here, so the test sees whether the updates switch.
// REQUIRES: x86_64
// RUN: rm -rf %t && mkdir -p %t
// RUN: %sampler-cc -O2 -pthread -fsampler-schemes=branches %s -o %t/prog
// RUN: env SAMPLER_SPARSITY=1 SAMPLER_FILE=%t/d1.report %t/prog | FileCheck %s --check-prefix=OUT
// RUN: %sampler-report %t/d1.report --binary %t/prog | FileCheck %s
// RUN: %sampler-cc -O2 -pthread -fsampler-schemes=branches -fno-sampler-sampling %s -o %t/all
// RUN: env SAMPLER_FILE=%t/all.report %t/all | FileCheck %s --check-prefix=OUT
// RUN: %sampler-report %t/all.report --binary %t/all | FileCheck %s
// An update: the test (a PC-relative `cmpb` on the linker's copy of glibc's
// flag, in an executable) and the add, whose `lock` prefix the single thread
// jumps over:
// RUN: %sampler-cc -O2 -fsampler-schemes=branches -S %s -o - | FileCheck %s --check-prefix=ASM

// OUT: hits 1000500

// CHECK: end exit 0
// Two calls of count(1000) by main, four of count(1000000) by the threads.
// CHECK-DAG: thread-counters.c:[[#@LINE+16]]:{{[0-9]+}} {{.*}}count {{.*}}branches {{.*}}i < n {{.*}}false=6 true=4002000
// CHECK-DAG: thread-counters.c:[[#@LINE+16]]:{{[0-9]+}} {{.*}}count {{.*}}branches {{.*}}(i & 3) == 0 {{.*}}false=3001500 true=1000500

// ASM:       cmpb $0, __libc_single_threaded(%rip)
// ASM-NEXT:  jne [[PLAIN:.Ltmp[0-9]+]]
// ASM-NEXT:  lock
// ASM-NEXT:  [[PLAIN]]:
// ASM-NEXT:  addq $1, (%r{{[a-z0-9]+}},%r{{[a-z0-9]+}},8)

#include <pthread.h>
#include <stdio.h>

static _Atomic long hits;

__attribute__((noinline)) static void count(int n) {
  long h = 0;
  for (int i = 0; i < n; i++)
    if ((i & 3) == 0)
      h++;
  hits += h;
}

static pthread_barrier_t start;

static void *worker(void *arg) {
  pthread_barrier_wait(&start); // the four at once
  count(*(int *)arg);
  return 0;
}

int main(void) {
  count(1000);
  int n = 1000000;
  pthread_t t[4];
  pthread_barrier_init(&start, 0, 4);
  for (int k = 0; k < 4; k++)
    if (pthread_create(&t[k], 0, worker, &n) != 0)
      return 1;
  for (int k = 0; k < 4; k++)
    pthread_join(t[k], 0);
  count(1000);
  printf("hits %ld\n", (long)hits);
  return 0;
}

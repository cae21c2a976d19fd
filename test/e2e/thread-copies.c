// An unconditional build tests glibc's thread flag once on a function's
// entry and runs one of two copies of it (ThreadCopies.h): plain adds to the
// counters' first half while the process has one thread, atomic adds to the
// second half once it has more. A frame entered single-threaded keeps its
// plain adds after it has started threads. Here that frame is main's call of
// phase(), which starts four threads and then runs the same loop as they do,
// at the same time: main's adds go plainly to the first half while the
// workers' go with the lock to the second, and no count is lost. (Plain adds
// into the cells the workers add to would lose some: thread-counters.c.)
// REQUIRES: x86_64
// RUN: rm -rf %t && mkdir -p %t
// RUN: %sampler-cc -O2 -pthread -fsampler-schemes=branches -fno-sampler-sampling %s -o %t/all
// RUN: env SAMPLER_FILE=%t/all.report %t/all | FileCheck %s --check-prefix=OUT
// RUN: %sampler-report %t/all.report --binary %t/all | FileCheck %s
// The same without the copies: the same counts.
// RUN: %sampler-cc -O2 -pthread -fsampler-schemes=branches -fno-sampler-sampling -fno-sampler-thread-copies %s -o %t/one
// RUN: env SAMPLER_FILE=%t/one.report %t/one | FileCheck %s --check-prefix=OUT
// RUN: %sampler-report %t/one.report --binary %t/one | FileCheck %s
// The report names the unit's cells and flags as before (the halves are the
// runtime's business): 14 cells, unconditional.
// RUN: FileCheck %s --check-prefix=UNIT < %t/all.report
// The code: phase's test on entry, its plain adds, and its copy's locked adds
// 14 cells (112 bytes) further on.
// RUN: %sampler-cc -O2 -fsampler-schemes=branches -fno-sampler-sampling -S %s -o - | FileCheck %s --check-prefix=ASM

// OUT: hits 2187500

// CHECK: end exit 0
// main's loop, 500,000 iterations, and four workers' of 500,000 each:
// CHECK-DAG: thread-copies.c:[[#@LINE+30]]:{{[0-9]+}} {{.*}}phase {{.*}}branches {{.*}}i < n {{.*}}false=5 true=2500000
// CHECK-DAG: thread-copies.c:[[#@LINE+30]]:{{[0-9]+}} {{.*}}phase {{.*}}branches {{.*}}(i & 7) != 3 {{.*}}false=312500 true=2187500

// UNIT: {{^}}unit	{{[0-9a-f]+}}	14	0	

// ASM-LABEL: phase:
// ASM:       cmpb $0, __libc_single_threaded(%rip)
// ASM-NEXT:  je [[COPY:\.LBB[0-9_]+]]
// ASM:       addq $1, __sampler_counters+[[#%d,CELL:]](%rip)
// ASM:       [[COPY]]:
// ASM:       lock addq $1, __sampler_counters+[[#CELL+112]](%rip)

#include <pthread.h>
#include <stdio.h>

static _Atomic long hits;
static pthread_barrier_t start;
static void *worker(void *arg);

// With spawn, starts the workers, and all five run the loop at once.
__attribute__((noinline)) static void phase(int n, int spawn) {
  pthread_t t[4];
  if (spawn) {
    pthread_barrier_init(&start, 0, 5);
    for (int k = 0; k < 4; k++)
      if (pthread_create(&t[k], 0, worker, &n) != 0)
        return;
  }
  pthread_barrier_wait(&start);
  long h = 0;
  for (int i = 0; i < n; i++)
    if ((i & 7) != 3)
      h++;
  hits += h;
  if (spawn)
    for (int k = 0; k < 4; k++)
      pthread_join(t[k], 0);
}

static void *worker(void *arg) {
  phase(*(int *)arg, 0);
  return 0;
}

int main(void) {
  phase(500000, 1);
  printf("hits %ld\n", (long)hits);
  return 0;
}

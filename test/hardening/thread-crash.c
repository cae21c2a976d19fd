// A fatal signal in a thread other than the main one is reported: a bad access, and a
// stack overflow, which needs the alternate signal stack every thread gets on its
// first sampled site. The report says "end signal 11"; the process still dies by
// SIGSEGV (status 139 in the shell), and the counts of the crashing thread are in.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %sampler-cc -O0 %s -o %t/prog -lpthread
// RUN: not --crash env SAMPLER_SPARSITY=1 SAMPLER_FILE=%t/segv.report %t/prog segv
// RUN: sh -c 'SAMPLER_SPARSITY=1 SAMPLER_FILE=%t/segv2.report %t/prog segv; echo status $?' 2>/dev/null | FileCheck %s --check-prefix=STATUS
// RUN: %sampler-report %t/segv.report --binary %t/prog | FileCheck %s --check-prefix=SEGV
// RUN: not --crash env SAMPLER_SPARSITY=1 SAMPLER_FILE=%t/overflow.report %t/prog overflow
// RUN: sh -c 'SAMPLER_SPARSITY=1 SAMPLER_FILE=%t/overflow2.report %t/prog overflow; echo status $?' 2>/dev/null | FileCheck %s --check-prefix=STATUS
// RUN: %sampler-report %t/overflow.report --binary %t/prog | FileCheck %s --check-prefix=OVERFLOW
// And at the default sparsity: the thread's first site still sets up its stack.
// RUN: not --crash env SAMPLER_FILE=%t/d100.report %t/prog overflow
// RUN: grep -x 'end.signal.11' %t/d100.report

// STATUS: status 139
// SEGV: end signal 11
// SEGV-DAG: crash {{.*}}branches {{.*}}i < 1000 {{.*}}false=1 true=1000
// SEGV-DAG: crash {{.*}}branches {{.*}}p == 0 {{.*}}false=0 true=1
// OVERFLOW: end signal 11
// OVERFLOW: recurse {{.*}}branches {{.*}}depth < 0 {{.*}}false={{[0-9]+}} true=0

#include <pthread.h>
#include <stdio.h>
#include <string.h>

static int *volatile null_pointer;

static void *crash(void *arg) {
  (void)arg;
  int sum = 0;
  for (int i = 0; i < 1000; i++)
    sum += i;
  int *p = null_pointer;
  if (p == 0)
    *p = sum; // SIGSEGV
  return NULL;
}

static int recurse(int depth) {
  volatile char frame[256];
  memset((char *)frame, depth, sizeof frame);
  if (depth < 0) // never: a site in every frame
    return 0;
  return recurse(depth + 1) + frame[depth % 256];
}

static void *overflow(void *arg) {
  (void)arg;
  return (void *)(long)recurse(0);
}

int main(int argc, char **argv) {
  int stack_overflow = argc > 1 && strcmp(argv[1], "overflow") == 0;
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, 256 * 1024); // overflows quickly
  pthread_t t;
  pthread_create(&t, &attr, stack_overflow ? overflow : crash, NULL);
  pthread_join(t, NULL);
  puts("not reached");
  return 0;
}

// A function that dispatches by computed goto (Lua's luaV_execute) is copied
// for threads too (ThreadCopies.h): the copy jumps through a copy of its
// table of block addresses, so that it stays in the copy, whose adds are
// locked. main's frame (entered alone, plain adds) and three threads (the
// copy) interpret the same program at once: every count exact.
// REQUIRES: x86_64
// RUN: rm -rf %t && mkdir -p %t
// RUN: %sampler-cc -O2 -pthread -fsampler-schemes=branches -fno-sampler-sampling %s -o %t/all
// RUN: env SAMPLER_FILE=%t/all.report %t/all | FileCheck %s --check-prefix=OUT
// RUN: %sampler-report %t/all.report --binary %t/all | FileCheck %s
// The copy of the table:
// RUN: %sampler-cc -O2 -fsampler-schemes=branches -fno-sampler-sampling -S %s -o - | FileCheck %s --check-prefix=ASM

// OUT: acc 2000000

// CHECK: end exit 0
// Four interpreters, 300,000 instructions each, two adds to one subtract:
// CHECK-DAG: thread-copies-goto.c:[[#@LINE+27]]:{{[0-9]+}} {{.*}}interpret {{.*}}branches {{.*}}pc >= n {{.*}}false=800000 true=0
// CHECK-DAG: thread-copies-goto.c:[[#@LINE+27]]:{{[0-9]+}} {{.*}}interpret {{.*}}branches {{.*}}pc >= n {{.*}}false=399996 true=4

// ASM: interpret.tab.threads:

#include <pthread.h>
#include <stdio.h>

enum { N = 300000 };
static unsigned char code[N];
static _Atomic long total;
static pthread_barrier_t start;
static void *worker(void *arg);

// With spawn, starts three workers, and all four interpret at once.
__attribute__((noinline)) static void interpret(int spawn) {
  static const void *const tab[] = {&&op_add, &&op_sub, &&op_end};
  pthread_t t[3];
  if (spawn) {
    pthread_barrier_init(&start, 0, 4);
    for (int k = 0; k < 3; k++)
      pthread_create(&t[k], 0, worker, 0);
  }
  pthread_barrier_wait(&start);
  long acc = 0;
  int pc = 0, n = N;
  goto *tab[code[pc]];
op_add: acc += 3; pc++; if (pc >= n) goto done; goto *tab[code[pc]];
op_sub: acc -= 1; pc++; if (pc >= n) goto done; goto *tab[code[pc]];
op_end: done:
  total += acc;
  if (spawn)
    for (int k = 0; k < 3; k++)
      pthread_join(t[k], 0);
}

static void *worker(void *arg) {
  interpret(0);
  return arg;
}

int main(void) {
  for (int i = 0; i < N; i++)
    code[i] = i % 3 == 2;
  interpret(1);
  printf("acc %ld\n", (long)total);
  return 0;
}

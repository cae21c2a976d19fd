// -fsampler-single-threaded: one countdown for the process, a plain global
// (__sampler_countdown_process), where it is otherwise the thread's
// (docs/sampling.md, "One countdown for the process").
// RUN: rm -rf %t && mkdir -p %t
// Its checks and draws reach the countdown relative to the instruction pointer;
// nothing goes through the thread pointer.
// RUN: %sampler-cc -O2 -fsampler-single-threaded -S %S/unbiased.c -o %t/unbiased.s
// RUN: FileCheck %s --check-prefix=ASM < %t/unbiased.s
// ASM-NOT: %fs
// ASM:     __sampler_countdown_process(%rip)
// ASM-NOT: %fs
// The counts are exact at d = 1 and unbiased at d = 10 and 100 (unbiased.c's program).
// RUN: %sampler-cc -O2 -fsampler-single-threaded %S/unbiased.c -o %t/u-sampled
// RUN: %sampler-cc -O2 -fno-sampler-sampling %S/unbiased.c -o %t/u-exact
// RUN: env SAMPLER_FILE=%t/u-exact.report %t/u-exact
// RUN: %sampler-report --all --json %t/u-exact.report --binary %t/u-exact > %t/u-exact.json
// RUN: env SAMPLER_SPARSITY=1 SAMPLER_FILE=%t/u1.report %t/u-sampled 2> %t/u1.err
// RUN: count 0 < %t/u1.err
// RUN: %sampler-report --all --json %t/u1.report --binary %t/u-sampled > %t/u1.json
// RUN: python3 %S/Inputs/stats.py equal %t/u1.json %t/u-exact.json
// RUN: env SAMPLER_SPARSITY=10 SAMPLER_SEED=42 SAMPLER_FILE=%t/u10.report %t/u-sampled
// RUN: %sampler-report --all --json %t/u10.report --binary %t/u-sampled > %t/u10.json
// RUN: python3 %S/Inputs/stats.py unbiased %t/u10.json %t/u-exact.json
// RUN: env SAMPLER_SPARSITY=100 SAMPLER_SEED=7 SAMPLER_FILE=%t/u100.report %t/u-sampled
// RUN: %sampler-report --all --json %t/u100.report --binary %t/u-sampled > %t/u100.json
// RUN: python3 %S/Inputs/stats.py unbiased %t/u100.json %t/u-exact.json
// Units of both kinds in one program: const-callees.c on the process's countdown,
// its callee unit (Inputs/const_other.c) on the thread's, calls both ways
// between their regions. Two streams of trials, each its own Bernoulli process:
// still exact at d = 1 and unbiased at d = 2, 3 and 10.
// RUN: %sampler-cc -O2 -fsampler-schemes=branches -c %S/../hardening/Inputs/const_nosites.c -o %t/nosites.o
// RUN: %sampler-cc -O2 -fsampler-single-threaded -c %S/../hardening/const-callees.c -o %t/cc.o
// RUN: %sampler-cc -O2 -c %S/../hardening/Inputs/const_other.c -o %t/other.o
// RUN: %sampler-cc -O2 %t/cc.o %t/other.o %t/nosites.o -o %t/mixed
// RUN: %sampler-cc -O2 -fno-sampler-sampling %S/../hardening/const-callees.c %S/../hardening/Inputs/const_other.c %t/nosites.o -o %t/c-exact
// RUN: env SAMPLER_FILE=%t/c-exact.report %t/c-exact > %t/c-exact.out
// RUN: %sampler-report --all --json %t/c-exact.report --binary %t/c-exact > %t/c-exact.json
// RUN: env SAMPLER_SPARSITY=1 SAMPLER_FILE=%t/c1.report %t/mixed > %t/c1.out
// RUN: cmp %t/c-exact.out %t/c1.out
// RUN: %sampler-report --all --json %t/c1.report --binary %t/mixed > %t/c1.json
// RUN: python3 %S/Inputs/stats.py equal %t/c1.json %t/c-exact.json
// RUN: env SAMPLER_SPARSITY=2 SAMPLER_SEED=61 SAMPLER_FILE=%t/c2.report %t/mixed > /dev/null
// RUN: %sampler-report --all --json %t/c2.report --binary %t/mixed > %t/c2.json
// RUN: python3 %S/Inputs/stats.py unbiased %t/c2.json %t/c-exact.json
// RUN: env SAMPLER_SPARSITY=3 SAMPLER_SEED=62 SAMPLER_FILE=%t/c3.report %t/mixed > /dev/null
// RUN: %sampler-report --all --json %t/c3.report --binary %t/mixed > %t/c3.json
// RUN: python3 %S/Inputs/stats.py unbiased %t/c3.json %t/c-exact.json
// RUN: env SAMPLER_SPARSITY=10 SAMPLER_SEED=63 SAMPLER_FILE=%t/c10.report %t/mixed > /dev/null
// RUN: %sampler-report --all --json %t/c10.report --binary %t/mixed > %t/c10.json
// RUN: python3 %S/Inputs/stats.py unbiased %t/c10.json %t/c-exact.json
// A program that breaks the promise (this file: threads that run sampled code)
// still runs and writes its whole report, with the unit's flags as in any
// sampled build (1); at exit the runtime says, once, that its threads may have shared the
// countdown. Run with one thread, it says nothing.
// RUN: %sampler-cc -O2 -fsampler-single-threaded %s -o %t/threads -lpthread
// RUN: env SAMPLER_SPARSITY=10 SAMPLER_FILE=%t/t.report %t/threads 3 > %t/t.out 2> %t/t.err
// RUN: FileCheck %s --check-prefix=OUT < %t/t.out
// RUN: FileCheck %s --check-prefix=WARN < %t/t.err
// RUN: FileCheck %s --check-prefix=REPORT < %t/t.report
// RUN: %sampler-report %t/t.report --binary %t/threads > /dev/null
// RUN: env SAMPLER_SPARSITY=10 SAMPLER_FILE=%t/t1.report %t/threads 0 > %t/t1.out 2> %t/t1.err
// RUN: count 0 < %t/t1.err
// RUN: FileCheck %s --check-prefix=REPORT < %t/t1.report
// OUT: sum 1333332
// WARN: sampler: 4 threads drew samples and code built with -fsampler-single-threaded was loaded: if they ran it, they shared its one countdown, and this run's samples may not be independent
// WARN-NOT: sampler:
// REPORT: sampler-report	1
// REPORT: unit	{{[0-9a-f]+}}	{{[0-9]+}}	1	{{.*}}single-threaded.c
// REPORT: end-of-report

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) static long work(long n) {
  long s = 0;
  for (long i = 0; i < n; i++)
    if (i % 3)
      s += 1;
  return s;
}

static void *run(void *arg) {
  (void)arg;
  return (void *)work(500000);
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 0;
  pthread_t t[8];
  long sum = work(500000);
  for (int i = 0; i < n && i < 8; i++)
    pthread_create(&t[i], NULL, run, NULL);
  for (int i = 0; i < n && i < 8; i++) {
    void *r;
    pthread_join(t[i], &r);
    sum += (long)r;
  }
  printf("sum %ld\n", sum);
  return 0;
}

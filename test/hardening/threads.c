// Threads: every thread's countdown and generator start on its first site (no
// interposition of pthread_create), and counters are updated atomically. At d = 1,
// 8 threads running the loop one thread runs give exactly 8 times its counts; at
// d = 10 every cell is within 6 sigma of Binomial(exact, 1/10).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %sampler-cc -O2 %s -o %t/prog -lpthread
// RUN: env SAMPLER_SPARSITY=1 SAMPLER_FILE=%t/one.report %t/prog 1 | FileCheck %s --check-prefix=ONE
// RUN: env SAMPLER_SPARSITY=1 SAMPLER_FILE=%t/eight.report %t/prog 8 | FileCheck %s --check-prefix=EIGHT
// RUN: %sampler-report %t/eight.report --binary %t/prog | FileCheck %s
// RUN: %sampler-report --json --all %t/one.report --binary %t/prog > %t/one.json
// RUN: %sampler-report --json --all %t/eight.report --binary %t/prog > %t/eight.json
// RUN: python3 %S/Inputs/counts.py scaled %t/eight.json %t/one.json 8 work,classify,sign
// RUN: env SAMPLER_SPARSITY=10 SAMPLER_SEED=1234 SAMPLER_FILE=%t/d10.report %t/prog 8
// RUN: %sampler-report --json --all %t/d10.report --binary %t/prog > %t/d10.json
// RUN: python3 %S/Inputs/counts.py binomial %t/d10.json %t/eight.json work,classify,sign

// ONE: sum 92916
// EIGHT: sum 743328
// One thread: i < n true 100000 times; i % 1009 is a multiple of 3 33400 times,
// i % 2003 < 1000 50000 times. Eight threads: exactly eight times that.
// CHECK: end exit 0
// CHECK-DAG: work {{.*}}branches {{.*}}i < n {{.*}}false=8 true=800000
// CHECK-DAG: work {{.*}}branches {{.*}}sign((int)(i % 2003)) < 0 {{.*}}false=400000 true=400000
// CHECK-DAG: work {{.*}}returns {{.*}}classify(...) {{[^ ]+}}=0 {{[^ ]+}}=456680 {{[^ ]+}}=343320
// CHECK-DAG: work {{.*}}returns {{.*}}sign(...) {{[^ ]+}}=400000 {{[^ ]+}}=400 {{[^ ]+}}=399600
// CHECK-DAG: classify {{.*}}branches {{.*}}v % 3 == 0 {{.*}}false=532800 true=267200
// CHECK-DAG: classify {{.*}}branches {{.*}}v % 7 == 1 {{.*}}false=685824 true=114176

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define ITERATIONS 100000

// Every path through classify crosses both branch sites: a region whose paths cross
// fewer sites than its weight is sampled with a bias (early-return-bias.c).
__attribute__((noinline)) static int classify(int v) {
  int r = 0;
  if (v % 3 == 0)
    r += 1;
  if (v % 7 == 1)
    r += 2;
  return r;
}

__attribute__((noinline)) static int sign(int v) { return v - 1000; }

static void *work(void *arg) {
  long n = (long)arg, sum = 0;
  for (long i = 0; i < n; i++) {
    int c = classify((int)(i % 1009));
    if (sign((int)(i % 2003)) < 0)
      sum += c;
    else
      sum += 2 * c;
  }
  return (void *)sum;
}

int main(int argc, char **argv) {
  int threads = argc > 1 ? atoi(argv[1]) : 1;
  pthread_t t[8];
  if (threads < 1 || threads > 8)
    return 2;
  for (int i = 0; i < threads; i++)
    pthread_create(&t[i], NULL, work, (void *)(long)ITERATIONS);
  long sum = 0;
  for (int i = 0; i < threads; i++) {
    void *r;
    pthread_join(t[i], &r);
    sum += (long)r;
  }
  printf("sum %ld\n", sum);
  return 0;
}

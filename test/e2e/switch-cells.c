// A switch's observation finds its cell by selects (up to 3 cases), by a
// table (dense values), or by a switch of its own (sparse values):
// BranchesScheme.cpp, caseIndex. Each form counts every case exactly, at
// d = 1 and unconditionally, also for values outside the table's range, on
// both sides of it, and for a table that covers every value of its type.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %sampler-cc -O2 %s -o %t/prog
// RUN: env SAMPLER_SPARSITY=1 SAMPLER_FILE=%t/d1.report %t/prog > %t/out.txt
// RUN: FileCheck %s --check-prefix=OUT < %t/out.txt
// RUN: %sampler-report %t/d1.report --binary %t/prog | FileCheck %s
// RUN: %sampler-cc -O2 -fno-sampler-sampling %s -o %t/uncond
// RUN: env SAMPLER_FILE=%t/uncond.report %t/uncond > %t/out2.txt
// RUN: %sampler-report %t/uncond.report --binary %t/uncond | FileCheck %s
// RUN: cmp %t/out.txt %t/out2.txt
// At -O0 (no optimiser after the scheme) the same counts:
// RUN: %sampler-cc -O0 %s -o %t/o0
// RUN: env SAMPLER_SPARSITY=1 SAMPLER_FILE=%t/o0.report %t/o0 > %t/out3.txt
// RUN: %sampler-report %t/o0.report --binary %t/o0 | FileCheck %s
// RUN: cmp %t/out.txt %t/out3.txt
// The forms themselves, in the -O0 build's IR (two tables, one switch):
// RUN: %sampler-cc -O0 -S -emit-llvm %s -o - | FileCheck %s --check-prefix=IR
// IR-COUNT-2: @__sampler_switch_cells{{(\.[0-9]+)?}} = private unnamed_addr constant
// IR-COUNT-1: site.case.join:

// OUT: sum 2249

// CHECK: end exit 0
// x = -20..39, and 13 three times more: every case once, 13 four times.
// CHECK-DAG: switch-cells.c:[[#@LINE+11]]:{{[0-9]+}} {{.*}}dense {{.*}}cases: 10,11,13,14,20 {{.*}}default=55 case 10=1 case 11=1 case 13=4 case 14=1 case 20=1
// Every signed char once.
// CHECK-DAG: switch-cells.c:[[#@LINE+20]]:{{[0-9]+}} {{.*}}bytes {{.*}}cases: -128,-1,0,127 {{.*}}default=252 case -128=1 case -1=1 case 0=1 case 127=1
// The values below, each as often as its place (1000000 three times).
// CHECK-DAG: switch-cells.c:[[#@LINE+28]]:{{[0-9]+}} {{.*}}sparse {{.*}}cases: -7,1,1000,100000,1000000 {{.*}}default=2 case -7=1 case 1=0 case 1000=2 case 100000=0 case 1000000=3
// And a small switch (selects): x % 4 for x = 0..9.
// CHECK-DAG: switch-cells.c:[[#@LINE+37]]:{{[0-9]+}} {{.*}}small {{.*}}cases: 0,1,2 {{.*}}default=2 case 0=3 case 1=3 case 2=2

#include <stdio.h>

__attribute__((noinline)) static int dense(int x) {
  switch (x) {
  case 10: return 1;
  case 11: return 2;
  case 13: return 3;
  case 14: return 4;
  case 20: return 5;
  default: return 0;
  }
}

__attribute__((noinline)) static int bytes(signed char c) {
  switch (c) {
  case -128: return 1;
  case -1: return 2;
  case 0: return 3;
  case 127: return 4;
  default: return 0;
  }
}

__attribute__((noinline)) static int sparse(long v) {
  switch (v) {
  case -7: return 1;
  case 1: return 2;
  case 1000: return 3;
  case 100000: return 4;
  case 1000000: return 5;
  default: return 0;
  }
}

__attribute__((noinline)) static int small(int x) {
  switch (x % 4) {
  case 0: return 1;
  case 1: return 2;
  case 2: return 3;
  default: return 0;
  }
}

int main(void) {
  volatile int lo = -20, hi = 40;
  long sum = 0;
  for (int x = lo; x < hi; x++)
    sum += dense(x);
  for (int k = 0; k < 3; k++)
    sum += dense(13);
  for (int c = -128; c < 128; c++)
    sum += bytes((signed char)c);
  volatile long vs[] = {-7, 1000, 1000, 1000000, 1000000, 1000000, 5, -1000000000000L};
  for (unsigned i = 0; i < sizeof vs / sizeof vs[0]; i++)
    sum += sparse(vs[i]) * 100;
  for (int x = 0; x < 10; x++)
    sum += small(x);
  printf("sum %ld\n", sum);
  return 0;
}

// Every scheme at once (-fsampler-schemes=all) on a program whose counts are
// worked out by hand below, at d = 1: the site descriptions (file:line, function,
// scheme, what is compared) and the exact counts or values. And the same
// program sampled at d = 10: every count within 6 sigma of Binomial(exact, 1/10).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %sampler-cc -O2 -fsampler-schemes=all %s -o %t/prog
// RUN: env SAMPLER_SPARSITY=1 SAMPLER_FILE=%t/d1.report %t/prog | FileCheck %s --check-prefix=OUT
// OUT: 6 3
// RUN: %sampler-report --all %t/d1.report --binary %t/prog | FileCheck %s
//
// scale(1.0, k) for k = 0..3:
// CHECK-DAG: value-schemes.c:[[#SCALE:]] {{.*}}scale {{.*}}function-entries {{.*}}calls=4 {{.*}}
// CHECK-DAG: value-schemes.c:[[#SCALE]] {{.*}}scale {{.*}}bounds {{.*}}k {{.*}}min=0 max=3
// CHECK-DAG: value-schemes.c:[[#SCALE]] {{.*}}scale {{.*}}float-kinds {{.*}}x {{.*}}+0=0 +denormal=0 +normal=4 +inf=0 NaN=0
//   y = x * k: +0 once (k = 0), normal three times; y = y / 0.0 once (k = 3): +inf.
// CHECK-DAG: value-schemes.c:[[#SCALE+1]]:{{[0-9]+}} {{.*}}float-kinds {{.*}}y {{.*}}+0=1 +denormal=0 +normal=3 +inf=0
// CHECK-DAG: value-schemes.c:[[#SCALE+2]]:{{[0-9]+}} {{.*}}branches {{.*}}k > 2 {{.*}}false=3 true=1
// CHECK-DAG: value-schemes.c:[[#SCALE+3]]:{{[0-9]+}} {{.*}}float-kinds {{.*}}y {{.*}}+normal=0 +inf=1 NaN=0
//
// main: a = 0, b = 3, then for i = 0..3: a = 2i; check a < 5 (fails once, a = 6).
// CHECK-DAG: value-schemes.c:[[#MAIN:]] {{.*}}main {{.*}}function-entries {{.*}}calls=1
// CHECK-DAG: value-schemes.c:[[#MAIN+2]]:{{[0-9]+}} {{.*}}main {{.*}}branches {{.*}}i < 4 {{.*}}false=1 true=4
// CHECK-DAG: value-schemes.c:[[#MAIN+1]]:14 {{.*}}scalar-pairs {{.*}}b <=> a {{.*}}less=0 equal=0 greater=1
// CHECK-DAG: value-schemes.c:[[#MAIN+1]]:14 {{.*}}bounds {{.*}}b {{.*}}min=3 max=3
//   a = 2i against b = 3: 0, 2 less; 4, 6 greater. Against i: equal once (0), then greater.
// CHECK-DAG: value-schemes.c:[[#MAIN+3]]:7 {{.*}}scalar-pairs {{.*}}a <=> b {{.*}}less=2 equal=0 greater=2
// CHECK-DAG: value-schemes.c:[[#MAIN+3]]:7 {{.*}}scalar-pairs {{.*}}a <=> i {{.*}}less=0 equal=1 greater=3
// CHECK-DAG: value-schemes.c:[[#MAIN+3]]:7 {{.*}}bounds {{.*}}a {{.*}}min=0 max=6
//   i++ makes i = 1..4 against a = 0, 2, 4, 6 and against b = 3.
// CHECK-DAG: value-schemes.c:[[#MAIN+2]]:27 {{.*}}scalar-pairs {{.*}}i <=> a {{.*}}less=2 equal=1 greater=1
// CHECK-DAG: value-schemes.c:[[#MAIN+2]]:27 {{.*}}scalar-pairs {{.*}}i <=> b {{.*}}less=2 equal=1 greater=1
// CHECK-DAG: value-schemes.c:[[#MAIN+2]]:27 {{.*}}bounds {{.*}}i {{.*}}min=1 max=4
// CHECK-DAG: value-schemes.c:[[#MAIN+4]]:5 {{.*}}checks {{.*}}a < 5 {{.*}}sampled=4 failed=1
// CHECK-DAG: value-schemes.c:[[#MAIN+7]]:3 {{.*}}returns {{.*}}printf(...) {{.*}}<0=0 ==0=0 >0=1
// The derived predicates of a three-cell site:
// CHECK-DAG: a <= b {{.*}}count 2
// CHECK-DAG: a != b {{.*}}count 4
//
// RUN: %sampler-cc -O2 -fsampler-schemes=all -fno-sampler-sampling %s -o %t/exact
// RUN: env SAMPLER_FILE=%t/exact.report %t/exact > /dev/null
// RUN: %sampler-report --all --json %t/exact.report --binary %t/exact > %t/exact.json
// RUN: %sampler-report --all --json %t/d1.report --binary %t/prog > %t/d1.json
// RUN: python3 %S/Inputs/stats.py equal %t/d1.json %t/exact.json
#include <stdio.h>
#include <sampler.h>

double scale(double x, int k) {
  double y = x * k;
  if (k > 2)
    y = y / 0.0;
  return y;
}

int main(void) {
  int a = 0, b = 3;
  for (int i = 0; i < 4; i++) {
    a = i * 2;
    sampler_check(a < 5);
    scale(1.0, i);
  }
  printf("%d %d\n", a, b);
  return 0;
}

// Two functions calling each other in tail position (SQLite's sqlite3VdbeAddOp3
// and growOp3): add() is inlined into grow_add(), whose call of itself
// TailCallElim then makes a loop, entered from the function's entry at its
// header. The header keeps grow_add's entry check: CheckMerge once merged it
// into the inlined add()'s check in the loop's body, which paid for it only
// on the back edge, so the first region's sites (grow()'s branch and return
// value) were never observed on the way in from the entry, at any density
// (at d = 1: 0 of 2,975). Every count must equal the unconditional build's at
// d = 1, the build without CheckMerge's with the same seeds at d = 3 and 30,
// and lie within 6 sigma of Binomial(n, 1/3) at d = 3.
// RUN: rm -rf %t && mkdir -p %t
// The shape: the loop, and two checks in grow_add.
// RUN: %sampler-cc -O2 -S -emit-llvm %s -o - | FileCheck %s
// CHECK-LABEL: define internal {{.*}}@grow_add(
// CHECK:       tailrecurse:
// CHECK-COUNT-2: %countdown.paid{{.*}} = add i64 %countdown{{.*}}, -
// CHECK:       {{^}}}
// RUN: %sampler-cc -O2 %s -o %t/merged
// RUN: %sampler-cc -O2 -fno-sampler-check-merge %s -o %t/separate
// RUN: %sampler-cc -O2 -fno-sampler-sampling %s -o %t/exact
// RUN: env SAMPLER_FILE=%t/exact.report %t/exact > %t/exact.out
// RUN: %sampler-report --all --json %t/exact.report --binary %t/exact > %t/exact.json
// RUN: env SAMPLER_SPARSITY=1 SAMPLER_FILE=%t/d1.report %t/merged > %t/d1.out
// RUN: cmp %t/exact.out %t/d1.out
// RUN: %sampler-report --all --json %t/d1.report --binary %t/merged > %t/d1.json
// RUN: python3 %S/../e2e/Inputs/stats.py equal %t/d1.json %t/exact.json
// The check scripts/bench.sh makes of the corpus (a site executed 100 times or more and
// never observed at d = 1), which names grow_add's three sites without the fix:
// RUN: python3 %S/../e2e/Inputs/stats.py lost %t/exact.json %t/d1.json | FileCheck %s --check-prefix=LOST
// LOST: lost: 0 of {{[0-9]+}} sites executed 100 times or more
// RUN: env SAMPLER_SPARSITY=3 SAMPLER_SEED=31 SAMPLER_FILE=%t/m3.report %t/merged > /dev/null
// RUN: %sampler-report --all --json %t/m3.report --binary %t/merged > %t/m3.json
// RUN: python3 %S/../e2e/Inputs/stats.py unbiased %t/m3.json %t/exact.json
// RUN: env SAMPLER_SPARSITY=3 SAMPLER_SEED=31 SAMPLER_FILE=%t/s3.report %t/separate > /dev/null
// RUN: %sampler-report --all --json %t/s3.report --binary %t/separate > %t/s3.json
// RUN: python3 %S/../e2e/Inputs/stats.py equal %t/m3.json %t/s3.json
// RUN: env SAMPLER_SPARSITY=30 SAMPLER_SEED=32 SAMPLER_FILE=%t/m30.report %t/merged > /dev/null
// RUN: %sampler-report --all --json %t/m30.report --binary %t/merged > %t/m30.json
// RUN: env SAMPLER_SPARSITY=30 SAMPLER_SEED=32 SAMPLER_FILE=%t/s30.report %t/separate > /dev/null
// RUN: %sampler-report --all --json %t/s30.report --binary %t/separate > %t/s30.json
// RUN: python3 %S/../e2e/Inputs/stats.py equal %t/m30.json %t/s30.json

#include <stdio.h>
#include <stdlib.h>

struct ops { int n, alloc; int *op; };

__attribute__((noinline)) static int grow(struct ops *p) {
  int alloc = p->alloc ? 2 * p->alloc : 4;
  int *op = realloc(p->op, alloc * sizeof *op);
  if (op == 0)
    return 1;
  p->op = op;
  p->alloc = alloc;
  return 0;
}

int add(struct ops *p, int op);

__attribute__((noinline)) static int grow_add(struct ops *p, int op) {
  if (grow(p))
    return 1;
  return add(p, op);
}

int add(struct ops *p, int op) {
  int i = p->n;
  if (p->alloc <= i)
    return grow_add(p, op);
  p->op[i] = op;
  p->n++;
  return i;
}

int main(void) {
  struct ops v = {0, 0, 0};
  long sum = 0;
  for (int r = 0; r < 300; r++) {
    free(v.op);
    v = (struct ops){0, 0, 0};
    for (int i = 0; i < 1000 + r; i++)
      sum += add(&v, i);
  }
  printf("%ld\n", sum);
  free(v.op);
  return 0;
}

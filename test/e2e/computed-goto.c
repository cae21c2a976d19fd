// An interpreter dispatching with computed goto (labels as values, as Lua's
// and CPython's do) is cloned like any function: each dispatch goes through a
// check. Same output as the plain build, exact counts at d = 1, and every cell
// within 6 sigma of Binomial(exact, 1/d) at d = 10.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %clang -O2 %s -o %t/plain
// RUN: %t/plain > %t/plain.out
// RUN: %sampler-cc -O2 -fsampler-clone-threshold=1 %s -o %t/sampled
// RUN: %sampler-cc -O2 -fno-sampler-sampling %s -o %t/exact
// RUN: env SAMPLER_FILE=%t/exact.report %t/exact > %t/exact.out
// RUN: cmp %t/plain.out %t/exact.out
// RUN: %sampler-report --all --json %t/exact.report --binary %t/exact > %t/exact.json
// RUN: env SAMPLER_SPARSITY=1 SAMPLER_FILE=%t/d1.report %t/sampled > %t/d1.out
// RUN: cmp %t/plain.out %t/d1.out
// RUN: %sampler-report --all --json %t/d1.report --binary %t/sampled > %t/d1.json
// RUN: python3 %S/Inputs/stats.py equal %t/d1.json %t/exact.json
// RUN: env SAMPLER_SPARSITY=10 SAMPLER_SEED=3 SAMPLER_FILE=%t/d10.report %t/sampled > %t/d10.out
// RUN: cmp %t/plain.out %t/d10.out
// RUN: %sampler-report --all --json %t/d10.report --binary %t/sampled > %t/d10.json
// RUN: python3 %S/Inputs/stats.py unbiased %t/d10.json %t/exact.json

#include <stdio.h>

enum { SET, ADD, DEC, JNZ, ODD, HALT };

// A register machine: SET r v; ADD r1 r2; DEC r; JNZ r target; ODD r1 r2
// (r1 += r2 & 1); HALT.
__attribute__((noinline)) static long run(const int *code) {
  static const void *dispatch[] = {&&set, &&add, &&dec, &&jnz, &&odd, &&halt};
  long r[4] = {0, 0, 0, 0};
  int pc = 0;
#define NEXT goto *dispatch[code[pc++]]
  NEXT;
set:
  r[code[pc]] = code[pc + 1];
  pc += 2;
  NEXT;
add:
  r[code[pc]] += r[code[pc + 1]];
  pc += 2;
  NEXT;
dec:
  if (r[code[pc]] > 0)
    r[code[pc]] -= 1;
  pc += 1;
  NEXT;
jnz:
  if (r[code[pc]] != 0)
    pc = code[pc + 1];
  else
    pc += 2;
  NEXT;
odd:
  if (r[code[pc + 1]] & 1)
    r[code[pc]] += 1;
  pc += 2;
  NEXT;
halt:
  return r[0] * 1000 + r[2];
}

int main(void) {
  // r0 = 0; r1 = 100000; loop: r0 += r1; r2 += (r1 odd); r1 -= 1; while r1 != 0
  static const int code[] = {SET, 0, 0,  SET, 1, 100000, // 0
                             /* 6: loop */ ADD, 0, 1, ODD, 2, 1, DEC, 1, JNZ, 1, 6,
                             HALT};
  printf("%ld\n", run(code));
  return 0;
}

// The same with sampling after the optimiser (-fsampler-sample-late): still
// exact at d = 1 and unbiased at d = 10.
// RUN: %sampler-cc -O2 -fsampler-sample-late %s -o %t/late
// RUN: env SAMPLER_SPARSITY=1 SAMPLER_FILE=%t/late1.report %t/late > %t/late1.out
// RUN: cmp %t/plain.out %t/late1.out
// RUN: %sampler-report --all --json %t/late1.report --binary %t/late > %t/late1.json
// RUN: python3 %S/Inputs/stats.py equal %t/late1.json %t/exact.json --merge
// RUN: env SAMPLER_SPARSITY=10 SAMPLER_SEED=4 SAMPLER_FILE=%t/late10.report %t/late > /dev/null
// RUN: %sampler-report --all --json %t/late10.report --binary %t/late > %t/late10.json
// RUN: python3 %S/Inputs/stats.py unbiased %t/late10.json %t/exact.json

// A local function called once keeps that call as its only one: the copies
// of the call that the transformation makes (in its caller's instrumented
// copy) call a copy of the function (lib/SingleCallLocals.cpp), so that the
// inliner takes it at the call as the last call to a static function, as it
// does without sampler (Lua's max_expand in match). Here run_length (a loop)
// and classify (none), each called once from scan's loop, are inlined into
// scan; without the copies, run_length stays out of line (cost 1,390).
// rare, declared cold (the inliner gives a cold callee no bonus), stays out
// of line, and its copy goes back into it at the end of the pipeline: one
// function, called from both of scan's copies. once, called once outside
// scan's loop, gets no copy (its call's cost is paid once a call of scan),
// unless -fsampler-single-call-size-limit is at least its size.
// The copies observe the same sites in the same order: with the same seed
// every count equals the build without them (-fno-sampler-single-call-copies)
// at d = 3 and 30; at d = 1 every count equals the unconditional build's, and
// at d = 3 every cell lies within 6 sigma of Binomial(n, 1/3).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %sampler-cc -O2 -S -emit-llvm %s -o - | FileCheck %s --implicit-check-not=@rare.sampler.callee --implicit-check-not=@once.sampler.callee
// RUN: %sampler-cc -O2 -fno-sampler-single-call-copies -S -emit-llvm %s -o - | FileCheck %s --check-prefix=SHARED
// RUN: %sampler-cc -O2 %s -o %t/copies
// RUN: %sampler-cc -O2 -fno-sampler-single-call-copies %s -o %t/shared
// RUN: %sampler-cc -O2 -fno-sampler-sampling %s -o %t/exact
// RUN: env SAMPLER_FILE=%t/exact.report %t/exact > %t/exact.out
// RUN: %sampler-report --all --json %t/exact.report --binary %t/exact > %t/exact.json
// RUN: env SAMPLER_SPARSITY=1 SAMPLER_FILE=%t/d1.report %t/copies > %t/d1.out
// RUN: cmp %t/exact.out %t/d1.out
// RUN: %sampler-report --all --json %t/d1.report --binary %t/copies > %t/d1.json
// RUN: python3 %S/../e2e/Inputs/stats.py equal %t/d1.json %t/exact.json
// RUN: env SAMPLER_SPARSITY=3 SAMPLER_SEED=41 SAMPLER_FILE=%t/c3.report %t/copies > %t/c3.out
// RUN: cmp %t/exact.out %t/c3.out
// RUN: %sampler-report --all --json %t/c3.report --binary %t/copies > %t/c3.json
// RUN: python3 %S/../e2e/Inputs/stats.py unbiased %t/c3.json %t/exact.json
// RUN: env SAMPLER_SPARSITY=3 SAMPLER_SEED=41 SAMPLER_FILE=%t/s3.report %t/shared > /dev/null
// RUN: %sampler-report --all --json %t/s3.report --binary %t/shared > %t/s3.json
// RUN: python3 %S/../e2e/Inputs/stats.py equal %t/c3.json %t/s3.json
// With copies for small callees outside loops too (once gets one), the same:
// RUN: %sampler-cc -O2 -fsampler-single-call-size-limit=1000 %s -o %t/small
// RUN: %sampler-cc -O2 -fsampler-single-call-size-limit=1000 -S -emit-llvm %s -o - | FileCheck %s --check-prefix=SMALL
// RUN: env SAMPLER_SPARSITY=3 SAMPLER_SEED=41 SAMPLER_FILE=%t/m3.report %t/small > /dev/null
// RUN: %sampler-report --all --json %t/m3.report --binary %t/small > %t/m3.json
// RUN: python3 %S/../e2e/Inputs/stats.py equal %t/m3.json %t/s3.json
// RUN: env SAMPLER_SPARSITY=30 SAMPLER_SEED=42 SAMPLER_FILE=%t/c30.report %t/copies > /dev/null
// RUN: %sampler-report --all --json %t/c30.report --binary %t/copies > %t/c30.json
// RUN: env SAMPLER_SPARSITY=30 SAMPLER_SEED=42 SAMPLER_FILE=%t/s30.report %t/shared > /dev/null
// RUN: %sampler-report --all --json %t/s30.report --binary %t/shared > %t/s30.json
// RUN: python3 %S/../e2e/Inputs/stats.py equal %t/c30.json %t/s30.json

// With the copies, scan's fast copy calls neither (the instrumented copy's
// calls of the copies may be inlined too); rare and once have none left:
// CHECK-LABEL: define {{.*}}@scan(
// CHECK-NOT:     call {{.*}}@run_length(
// CHECK-NOT:     call {{.*}}@classify(
// CHECK:       {{^}}}
// CHECK-NOT:   define {{.*}}@run_length(
// CHECK-NOT:   define {{.*}}@classify(
// CHECK:       define internal {{.*}}@rare(
// With a size limit above once's, scan's instrumented copy calls a copy of
// once (its fast copy inlines once):
// SMALL-LABEL: define {{.*}}@scan(
// SMALL:         call {{.*}}@once.sampler.callee(
// SMALL:       {{^}}}
// Without them, run_length stays out of line, called from both copies:
// SHARED-LABEL: define {{.*}}@scan(
// SHARED:         call {{.*}}@run_length(
// SHARED:       define internal {{.*}}@run_length(
// SHARED-NOT:   .sampler.callee
#include <stdio.h>

static unsigned char text[8192];
static int textlen = sizeof text;

// Called once, from scan's loop: the length of the run at i that matches c,
// with a matcher's branches.
static int run_length(int i, int c, int limit) {
  int n = 0;
  while (i + n < textlen && n < limit) {
    int t = text[i + n];
    if (t == c)
      n++;
    else if (c == '.' && t != '\n')
      n++;
    else if (t >= 'A' && t <= 'Z' && (t | 32) == c)
      n++;
    else if (c == '%' && n + 1 < limit && text[i + n + 1] == t)
      n += 2;
    else
      break;
  }
  if (n > 3 && limit > 8)
    n -= (n & 1);
  return n;
}

// Called once, no loop: a class of the byte and the run.
static int classify(int c, int n) {
  int k = 0;
  if (c >= 'a' && c <= 'z')
    k += 1;
  if (c >= '0' && c <= '9')
    k += 2;
  if (n > 5)
    k += 4;
  if (n == 0)
    k += 8;
  if ((c & 3) == (n & 3))
    k += 16;
  return k;
}

// Called once, declared cold (no loop: not inlined before cloning).
__attribute__((cold)) static long rare(int i, int n) {
  long r = n;
  if (text[i] == '\n')
    r += 3 * i;
  else if (text[i] == '%')
    r -= i;
  if (text[i + 1] == 'a' && text[i + 2] != 'A')
    r *= 5;
  else if (text[i + 1] == '.' || text[i + 2] == '.')
    r ^= 0x55;
  if (r > 1000 && (text[i + 3] & 1))
    r /= 3;
  else if (r < 0)
    r = -r;
  return r;
}

// Called once, outside scan's loop (no loop: not inlined before cloning).
static long once(long s, int limit) {
  long r = s;
  if (limit > 8)
    r = r * 31 + text[limit];
  else if (limit > 4)
    r = r * 17 - text[limit];
  if (r < 0)
    r = -r;
  if (text[limit + 1] == '%' && r > 100)
    r /= 7;
  return r % 1000003;
}

// A loop with sites, cloned in place, calling each once.
__attribute__((noinline)) long scan(int limit) {
  long s = 0;
  for (int i = 0; i < textlen; i++) {
    int n = run_length(i, text[i], limit);
    s += classify(text[i], n);
    if (n > 9)
      s += rare(i, n);
    if (n > 2)
      i += n / 2;
  }
  return once(s, limit);
}

int main(void) {
  unsigned x = 2024;
  for (int i = 0; i < textlen; i++) {
    x = x * 1103515245u + 12345u;
    unsigned r = (x >> 16) % 16;
    text[i] = r < 6    ? 'a'
              : r < 9  ? 'A'
              : r < 11 ? '.'
              : r < 13 ? '%'
              : r < 15 ? '1'
                       : '\n';
  }
  long sum = 0;
  for (int r = 0; r < 40; r++)
    sum += scan(4 + r % 12);
  printf("%ld\n", sum);
  return 0;
}

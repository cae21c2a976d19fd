// C++: a local function called once, where the one call is an `invoke` (in a
// try block) in a loop of its caller, and throws now and then. The copies of
// the call in scan's instrumented copy invoke a copy of it, so that the
// inliner still takes the original invoke as the last call to a static
// function (lib/SingleCallLocals.cpp; single-call-copies.c is the C test).
// The exceptions unwind through both copies: the same output as plain
// clang++-19, and, with the same seed, every count equal to the build without
// the copies (-fno-sampler-single-call-copies) at d = 3 and 30; at d = 1 every
// count equals the unconditional build's.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %clangxx -O2 %s -o %t/plain
// RUN: %t/plain > %t/plain.out
// RUN: FileCheck %s --check-prefix=THROWN < %t/plain.out
// RUN: %sampler-c++ -O2 -S -emit-llvm %s -o - | FileCheck %s
// RUN: %sampler-c++ -O2 -fno-sampler-single-call-copies -S -emit-llvm %s -o - | FileCheck %s --check-prefix=SHARED
// RUN: %sampler-c++ -O2 %s -o %t/copies
// RUN: %sampler-c++ -O2 -fno-sampler-single-call-copies %s -o %t/shared
// RUN: %sampler-c++ -O2 -fno-sampler-sampling %s -o %t/exact
// RUN: env SAMPLER_FILE=%t/exact.report %t/exact > %t/exact.out
// RUN: cmp %t/plain.out %t/exact.out
// RUN: %sampler-report --all --json %t/exact.report --binary %t/exact > %t/exact.json
// RUN: env SAMPLER_SPARSITY=1 SAMPLER_FILE=%t/d1.report %t/copies > %t/d1.out
// RUN: cmp %t/plain.out %t/d1.out
// RUN: %sampler-report --all --json %t/d1.report --binary %t/copies > %t/d1.json
// RUN: python3 %S/../e2e/Inputs/stats.py equal %t/d1.json %t/exact.json
// RUN: env SAMPLER_SPARSITY=3 SAMPLER_SEED=7 SAMPLER_FILE=%t/c3.report %t/copies > %t/c3.out
// RUN: cmp %t/plain.out %t/c3.out
// RUN: %sampler-report --all --json %t/c3.report --binary %t/copies > %t/c3.json
// RUN: env SAMPLER_SPARSITY=3 SAMPLER_SEED=7 SAMPLER_FILE=%t/s3.report %t/shared > %t/s3.out
// RUN: cmp %t/plain.out %t/s3.out
// RUN: %sampler-report --all --json %t/s3.report --binary %t/shared > %t/s3.json
// RUN: python3 %S/../e2e/Inputs/stats.py equal %t/c3.json %t/s3.json
// RUN: env SAMPLER_SPARSITY=30 SAMPLER_SEED=8 SAMPLER_FILE=%t/c30.report %t/copies > /dev/null
// RUN: %sampler-report --all --json %t/c30.report --binary %t/copies > %t/c30.json
// RUN: env SAMPLER_SPARSITY=30 SAMPLER_SEED=8 SAMPLER_FILE=%t/s30.report %t/shared > /dev/null
// RUN: %sampler-report --all --json %t/s30.report --binary %t/shared > %t/s30.json
// RUN: python3 %S/../e2e/Inputs/stats.py equal %t/c30.json %t/s30.json

// With the copies, scan's fast copy neither calls nor invokes measure: the
// original invoke was inlined. The instrumented copy invokes the copy:
// CHECK-LABEL: define {{.*}}@_Z4scani(
// CHECK-NOT:     @_ZN12_GLOBAL__N_17measureEii(
// CHECK:         invoke {{.*}}@_ZN12_GLOBAL__N_17measureEii.sampler.callee(
// CHECK:       {{^}}}
// CHECK-NOT:   define {{.*}}@_ZN12_GLOBAL__N_17measureEii(
// The workload throws: the sum, then how many throws were caught (not 0).
// THROWN: {{^[0-9]+ [1-9][0-9]*$}}
// Without them, both copies invoke measure, out of line:
// SHARED-LABEL: define {{.*}}@_Z4scani(
// SHARED:         invoke {{.*}}@_ZN12_GLOBAL__N_17measureEii(
// SHARED:         invoke {{.*}}@_ZN12_GLOBAL__N_17measureEii(
// SHARED:       {{^}}}
// SHARED-NOT:   .sampler.callee
#include <cstdio>
#include <stdexcept>

static unsigned char text[4096];
static long caught;

namespace {

struct Malformed : std::runtime_error {
  int at;
  explicit Malformed(int at) : std::runtime_error("malformed"), at(at) {}
};

// Called once, from scan's loop: the length of the run at i, with a
// matcher's branches; throws on a run of '!' longer than limit.
int measure(int i, int limit) {
  int n = 0;
  unsigned char c = text[i];
  while (i + n < (int)sizeof text && n < 2 * limit) {
    unsigned char t = text[i + n];
    if (t == c)
      n++;
    else if (c == '.' && t != '\n')
      n++;
    else if (t >= 'A' && t <= 'Z' && (t | 32) == c)
      n++;
    else
      break;
  }
  if (c == '!' && n > limit)
    throw Malformed(i);
  if (n > 3 && limit > 8)
    n -= (n & 1);
  return n;
}

} // namespace

// A loop with sites, cloned in place, invoking measure once an iteration.
__attribute__((noinline)) long scan(int limit) {
  long s = 0, errors = 0;
  for (int i = 0; i < (int)sizeof text; i++) {
    int n;
    try {
      n = measure(i, limit);
    } catch (const Malformed &e) {
      errors += e.at & 7;
      caught++;
      n = 1;
    }
    s += n > 4 ? n * 3 : n;
    if (n > 2)
      i += n / 2;
  }
  return s * 1000 + errors;
}

int main() {
  unsigned x = 77;
  for (unsigned i = 0; i < sizeof text; i++) {
    x = x * 1103515245u + 12345u;
    unsigned r = (x >> 16) % 16;
    text[i] = r < 6 ? 'a' : r < 9 ? 'A' : r < 11 ? '.' : r < 14 ? '!' : '\n';
  }
  long sum = 0;
  for (int r = 0; r < 30; r++)
    sum += scan(1 + r % 6);
  std::printf("%ld %ld\n", sum, caught);
  return 0;
}

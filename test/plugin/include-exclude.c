// Choosing what is instrumented: include/exclude globs on function names,
// file: globs on source files, the per-function attribute, and bad patterns.
// RUN: %clang -fplugin=%plugin -fplugin-arg-sampler-exclude=helper_* -O0 -S -emit-llvm %s -o - | FileCheck %s --check-prefix=EXCLUDE
// RUN: %clang -fplugin=%plugin -fplugin-arg-sampler-include=helper_one,main_work -O0 -S -emit-llvm %s -o - | FileCheck %s --check-prefix=INCLUDE
// RUN: %clang -fplugin=%plugin -fplugin-arg-sampler-exclude=file:include-exclude.c -O0 -S -emit-llvm %s -o - | FileCheck %s --check-prefix=NOFILE
// RUN: not %clang -fplugin=%plugin "-fplugin-arg-sampler-include=[x" -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=BAD

// (A function's name is the field between TABs; a call's description ends the line.)
// EXCLUDE: c"SAMPLER-SITES 1
// EXCLUDE-NOT: {{\\09helper_(one|two)\\09|\\09skipped\\09}}
// EXCLUDE-SAME: \09main_work\09
// EXCLUDE-NOT: {{\\09helper_(one|two)\\09|\\09skipped\\09}}

// INCLUDE: c"SAMPLER-SITES 1
// INCLUDE-SAME: \09helper_one\09
// INCLUDE-NOT: \09helper_two\09
// INCLUDE-SAME: \09main_work\09

// NOFILE-NOT: SAMPLER-SITES
// NOFILE-NOT: __sampler

// BAD: sampler: bad pattern '[x' in option 'include'

int helper_one(int x) { return x > 0 ? x : -x; }
int helper_two(int x) { if (x) return 1; return 0; }
__attribute__((annotate("sampler_skip"))) int skipped(int x) { if (x) return 2; return 3; }
int main_work(int n) {
  int s = 0;
  for (int i = 0; i < n; i++)
    s += helper_one(i) + helper_two(i) + skipped(i);
  return s;
}

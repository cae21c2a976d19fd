// The source can declare functions weightless (so calls to them do not split
// regions) or skip them (no sites): by pragma or by attribute. Functions
// declared in system headers are weightless, except those that take callbacks.
// RUN: %clang -fplugin=%plugin -fplugin-arg-sampler-clone-threshold=1 -O0 -S -emit-llvm %s -o - | FileCheck %s

#include <stdlib.h>
#include <string.h>

#pragma sampler weightless(by_pragma)
void by_pragma(void);
__attribute__((annotate("sampler_weightless"))) void by_attribute(void);
void unknown(void);
__attribute__((annotate("sampler_skip"))) int skipped(int x) { return x ? 1 : 2; }

static int cmp(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }

// CHECK-LABEL: define {{.*}}i32 @skipped(
// CHECK-NOT:   __sampler
// CHECK:       ret i32

// CHECK-LABEL: define {{.*}}void @user(
// Weightless: no export around them.
// CHECK:       call void @by_pragma()
// CHECK-NEXT:  call void @by_attribute()
// CHECK-NOT:   __sampler_countdown
// CHECK:       call i64 @strlen(
// Weighty: an unknown function and qsort (it calls cmp back).
// CHECK:       store i64 {{.*}}, ptr @__sampler_countdown
// CHECK-NEXT:  call void @unknown()
// CHECK:       store i64 {{.*}}, ptr @__sampler_countdown
// CHECK-NEXT:  call void @qsort(
void user(int *v, int n, const char *s) {
  if (n > 1) {
    by_pragma();
    by_attribute();
    n += strlen(s);
    unknown();
    qsort(v, n, sizeof *v, cmp);
  }
}

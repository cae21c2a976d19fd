// The source can declare functions weightless (so calls to them do not split
// regions) or skip them (no sites): by pragma or by attribute. Functions
// declared in system headers are weightless, except those that take callbacks.
// RUN: %clang -fplugin=%plugin -fplugin-arg-sampler-clone-threshold=1 -O0 -fno-discard-value-names -S -emit-llvm %s -o - | FileCheck %s

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
// Weightless: the region goes on across them (no check after the calls).
// CHECK:       call void @by_pragma()
// CHECK-NEXT:  call void @by_attribute()
// CHECK-NEXT:  load ptr
// CHECK-NEXT:  %call = call i64 @strlen(
// CHECK-NEXT:  br label %site.cont
// Weighty: an unknown function and qsort (it calls cmp back): each ends the
// region, and the next one begins with a threshold check of its own.
// CHECK:       call void @unknown()
// CHECK-NEXT:  br label %[[CHECK1:sampler.check[0-9]*]]
// CHECK:       [[CHECK1]]:
// CHECK-NEXT:  load i64, ptr @__sampler_countdown
// CHECK-NEXT:  sub i64 %{{.*}}, 1
// CHECK:       call void @qsort(
// CHECK-NEXT:  br label %[[CHECK2:sampler.check[0-9]*]]
// CHECK:       [[CHECK2]]:
// CHECK-NEXT:  load i64, ptr @__sampler_countdown
// CHECK-NEXT:  sub i64 %{{.*}}, 1
void user(int *v, int n, const char *s) {
  if (n > 1) {
    by_pragma();
    by_attribute();
    n += strlen(s);
    unknown();
    if (n > 2)
      v[0] = 1;
    qsort(v, n, sizeof *v, cmp);
    if (n > 3)
      v[1] = 1;
  }
}

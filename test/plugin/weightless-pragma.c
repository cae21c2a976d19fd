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
// Calls do not end regions: one check for the function's four sites.
// CHECK:       sub i64 %{{.*}}, 4
// CHECK:       call void @user.sampler.slow(
// CHECK-NOT:   __sampler_countdown
// CHECK:       call void @by_pragma()
// CHECK-NEXT:  call void @by_attribute()
// CHECK-NOT:   __sampler_countdown
// CHECK:       call void @unknown()
// CHECK-NOT:   __sampler_countdown
// CHECK:       call void @qsort(
// CHECK-NOT:   __sampler_countdown
// CHECK:       ret void
// In the instrumented copy, the site after the weightless calls (strlen's
// value) still keeps the thread-local countdown up to date (its draw stores it,
// the assembly's memory operand); the sites after the weighty ones (an unknown
// function, and qsort, which calls cmp back) keep their region's countdown in a
// local only; the last of them (key -1), owning the success, is sampled
// without a draw (cmpq $-1; je), since nobody reads that draw.
// CHECK-LABEL: define internal void @user.sampler.slow(
// CHECK:       call void @by_pragma()
// CHECK-NEXT:  call void @by_attribute()
// CHECK:       %call = call i64 @strlen(
// CHECK:       call { i64, i8 } asm sideeffect "btq $$62, $0\0A\09jnc 1f\0A\09leaq 3($0), %rax{{.*}}movq $0, $2{{.*}}", "=r,={@ccnc},=*m,0,{{.*}}"(ptr elementtype(i64) %countdown.addr,
// CHECK:       call void @unknown()
// CHECK:       call { i64, i8 } asm sideeffect "btq $$62, $0\0A\09jnc 1f\0A\09leaq 2($0), %rax{{.*}}", "=r,={@ccnc},0,{{.*}}"(i64
// CHECK-NOT:   store i64 {{.*}}, ptr {{%countdown.addr[0-9]*|@__sampler_countdown}}
// CHECK:       call void @qsort(
// CHECK:       call { i64, i8 } asm sideeffect "btq $$62, $0\0A\09jnc 1f\0A\09cmpq $$-1, $0\0A\09je 1f\0A\09leaq 1($0), %rax{{.*}}", "=r,={@ccnc},0,{{.*}}"(i64
// CHECK-NOT:   store i64 {{.*}}, ptr {{%countdown.addr[0-9]*|@__sampler_countdown}}
// CHECK:       ret void
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

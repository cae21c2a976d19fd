; checks: sampler.h's `sampler_check(c)` expands to
;   if (__sampler_check_begin(ID, "c")) __sampler_check_end(ID, c ? 1 : 0);
; The begin becomes a site with cells [sampled, failed] whose value is 1 where
; the site was observed and 0 elsewhere; the end adds !ok to the failed cell.
; Without the scheme, the check runs every time (begin is 1).
; RUN: %opt-sampler -passes=sampler -sampler-schemes=checks -sampler-sampling=off -S %s | FileCheck %s
; RUN: %opt-sampler -passes=sampler -sampler-schemes=checks -S %s | FileCheck %s --check-prefix=SAMPLED
; RUN: %opt-sampler -passes=sampler -sampler-schemes=branches -S %s | FileCheck %s --check-prefix=OFF

; CHECK: site 0\092\09checks\09checks.c\090\090\09f\09p != 0\0Aend
; CHECK-LABEL: define void @f(
; CHECK:     site.observe:
; CHECK-NEXT:  atomicrmw add ptr @__sampler_counters, i64 1 monotonic
; CHECK:     site.cont:
; In the unconditional build every execution is observed: the begin is 1.
; CHECK-NEXT:  %on = icmp ne i32 1, 0
; CHECK-NEXT:  br i1 %on, label %check, label %done
; CHECK:     check:
; CHECK:       [[OK:%.*]] = icmp ne i32 %ok, 0
; CHECK-NEXT:  [[FAILED:%.*]] = xor i1 [[OK]], true
; CHECK-NEXT:  [[ADD:%.*]] = zext i1 [[FAILED]] to i64
; CHECK-NEXT:  atomicrmw add ptr getelementptr inbounds (i64, ptr @__sampler_counters, i64 1), i64 [[ADD]] monotonic
; CHECK-NOT: __sampler_check_

; In the sampled build the check's block is reached only from the
; instrumented copy, after the runtime said "sample".
; SAMPLED-LABEL: define void @f(
; SAMPLED:     site.sampled:
; SAMPLED:       atomicrmw add ptr @__sampler_counters
; SAMPLED-NOT: __sampler_check_

; OFF-LABEL: define void @f(
; OFF:         %on = icmp ne i32 1, 0
; OFF-NOT:   __sampler_check_

source_filename = "checks.c"

@.str = private constant [7 x i8] c"p != 0\00"

declare i32 @__sampler_check_begin(i32, ptr)
declare void @__sampler_check_end(i32, i32)

define void @f(ptr %p) {
entry:
  %b = call i32 @__sampler_check_begin(i32 0, ptr @.str)
  %on = icmp ne i32 %b, 0
  br i1 %on, label %check, label %done
check:
  %nn = icmp ne ptr %p, null
  %ok = zext i1 %nn to i32
  call void @__sampler_check_end(i32 0, i32 %ok)
  br label %done
done:
  ret void
}

; bounds: at an assignment of an integer, 2 cells holding the smallest and the
; largest value assigned (signed 64-bit), starting at INT64_MAX and INT64_MIN.
; RUN: %opt-sampler -passes=sampler -sampler-schemes=bounds -sampler-sampling=off -S %s | FileCheck %s

; CHECK: @__sampler_counters = internal global [4 x i64] [i64 9223372036854775807, i64 -9223372036854775808, i64 9223372036854775807, i64 -9223372036854775808]
; CHECK: site 0\092\09bounds\09bounds.c\090\090\09f\09n\0Asite 2\092\09bounds\09bounds.c\090\090\09f\09small\0Aend
; CHECK-LABEL: define void @f(
; CHECK:     site.observe:
; CHECK-NEXT:  [[V:%.*]] = sext i32 %n to i64
; CHECK-NEXT:  atomicrmw min ptr @__sampler_counters, i64 [[V]] monotonic
; CHECK-NEXT:  atomicrmw max ptr getelementptr inbounds (i64, ptr @__sampler_counters, i64 1), i64 [[V]] monotonic
; CHECK:       sext i8 %c to i64
; CHECK:       atomicrmw min ptr getelementptr inbounds (i64, ptr @__sampler_counters, i64 2)

source_filename = "bounds.c"

define void @f(i32 %n, i8 %c, i1 %b) {
entry:
  %n.addr = alloca i32
  %small = alloca i8
  %flag = alloca i1
  store i32 %n, ptr %n.addr
  store i8 %c, ptr %small
  store i1 %b, ptr %flag
  ret void
}

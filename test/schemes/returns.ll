; The returns scheme: after each call returning an integer or a pointer, a site
; with cells [<0, ==0, >0]. Integers compare signed: cell = (v > 0) + (v >= 0);
; pointers and bools are never < 0. Intrinsics and void calls are not sites; an
; invoke is observed on its normal edge.
; RUN: %opt-sampler -passes=sampler -sampler-schemes=returns -sampler-sampling=off -S %s | FileCheck %s

; CHECK: site 0\093\09returns\09returns.c\090\090\09use\09get(...)
; CHECK-SAME: site 3\093\09returns\09returns.c\090\090\09use\09find(...)
; CHECK-SAME: site 6\093\09returns\09returns.c\090\090\09use\09(*fp)(...)
; CHECK-SAME: site 9\093\09returns\09returns.c\090\090\09use\09get(...)\0Aend

; CHECK-LABEL: define i32 @use(
; CHECK:       %v = call i32 @get()
; CHECK-NEXT:  br label %site.observe
; CHECK:     site.observe:
; CHECK-NEXT:  [[GT:%.*]] = icmp sgt i32 %v, 0
; CHECK-NEXT:  [[GTX:%.*]] = zext i1 [[GT]] to i64
; CHECK-NEXT:  [[GE:%.*]] = icmp sge i32 %v, 0
; CHECK-NEXT:  [[GEX:%.*]] = zext i1 [[GE]] to i64
; CHECK-NEXT:  [[IDX:%.*]] = add i64 [[GTX]], [[GEX]]
; CHECK-NEXT:  add i64 [[IDX]], 0
; CHECK:       %p = call ptr @find(i32 %v)
; CHECK:       [[NN:%.*]] = icmp ne ptr %p, null
; CHECK-NEXT:  select i1 [[NN]], i64 2, i64 1
; CHECK:       %q = call ptr %fp()
; CHECK:       call void @llvm.donothing()
; CHECK-NEXT:  call void @nothing()
; CHECK-NEXT:  %w = invoke i32 @get()
; CHECK-NEXT:    to label %[[EDGE:.*]] unwind label %lpad
; CHECK:     [[EDGE]]:
; CHECK-NEXT:  br label %site.observe
; CHECK:       icmp sgt i32 %w, 0

source_filename = "returns.c"

declare i32 @get()
declare ptr @find(i32)
declare void @nothing()
declare void @llvm.donothing()
declare i32 @__gxx_personality_v0(...)

define i32 @use(ptr %fp) personality ptr @__gxx_personality_v0 {
entry:
  %v = call i32 @get()
  %p = call ptr @find(i32 %v)
  %q = call ptr %fp()
  call void @llvm.donothing()
  call void @nothing()
  %w = invoke i32 @get() to label %ok unwind label %lpad
ok:
  ret i32 %w
lpad:
  %lp = landingpad { ptr, i32 } cleanup
  ret i32 0
}

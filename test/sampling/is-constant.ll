; llvm.is.constant (__builtin_constant_p, which glibc's ctype and string macros
; use at -O1 and above) is a convergent intrinsic, but either of its answers is
; correct, so a function that calls it still gets its fast and instrumented
; copies (it used to be lowered in place, a decrement per site on its fast path).
; RUN: %opt-sampler -passes=sampler,verify -sampler-schemes=branches -S %s | FileCheck %s

; CHECK-LABEL: define i32 @lower(
; CHECK:         sub i64 %{{.*}}, 1
; CHECK:         call i32 @lower.sampler.slow(i32 %c)
; CHECK-NOT:     __sampler_countdown
; CHECK:         call i1 @llvm.is.constant.i32(i32 %c)
; CHECK-LABEL: define internal i32 @lower.sampler.slow(
; CHECK:         call i1 @llvm.is.constant.i32(i32 %c)

declare i1 @llvm.is.constant.i32(i32) convergent nounwind

define i32 @lower(i32 %c) nounwind {
entry:
  %k = call i1 @llvm.is.constant.i32(i32 %c)
  br i1 %k, label %a, label %b
a:
  ret i32 0
b:
  ret i32 %c
}

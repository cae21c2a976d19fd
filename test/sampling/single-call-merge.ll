; At the end of the pipeline, a copy that SingleCallLocals made of a local
; function called once (for the calls in its caller's instrumented copy) goes
; back into the original where the inliner did not take the original's call:
; two copies of the same code would serve nothing
; (lib/SingleCallLocals.cpp, SamplerSingleCallMergePass).
; RUN: %opt-sampler -passes=sampler-single-call-merge -S %s | FileCheck %s

; @kept's original was inlined and is gone: the copy stays, without its tag.
; CHECK-LABEL: define i32 @caller(
; CHECK-NEXT:    %a = call i32 @again(i32 %x)
; CHECK-NEXT:    %b = call i32 @again(i32 %x)
; CHECK-NEXT:    %c = call i32 @kept.sampler.callee(i32 %x)
; CHECK-NEXT:    %d = call i32 @zapped.sampler.callee(i32 %x)
; CHECK-NEXT:    %e = call fastcc i32 @other.cc.sampler.callee(i32 %x)
; CHECK:       define internal i32 @again(
; CHECK-NOT:   define internal i32 @again.sampler.callee(
; CHECK:       define internal i32 @kept.sampler.callee(i32 %x) {
; IPSCCP made @zapped return undef, the constant it returns put at its own
; call only: the copy's call must keep its copy.
; CHECK:       define internal i32 @zapped.sampler.callee(
; CHECK:       define internal fastcc i32 @other.cc.sampler.callee(
; CHECK-NOT:   sampler-callee-copy-of

define i32 @caller(i32 %x) {
  %a = call i32 @again(i32 %x)
  %b = call i32 @again.sampler.callee(i32 %x)
  %c = call i32 @kept.sampler.callee(i32 %x)
  %d = call i32 @zapped.sampler.callee(i32 %x)
  %e = call fastcc i32 @other.cc.sampler.callee(i32 %x)
  %f = call i32 @zapped(i32 %x)
  %g = call i32 @other.cc(i32 %x)
  %s1 = add i32 %a, %b
  %s2 = add i32 %s1, %c
  %s3 = add i32 %s2, %d
  %s4 = add i32 %s3, %e
  ret i32 %s4
}

define internal i32 @again(i32 %x) {
  %y = mul i32 %x, 3
  ret i32 %y
}

define internal i32 @again.sampler.callee(i32 %x) #0 {
  %y = mul i32 %x, 3
  ret i32 %y
}

define internal i32 @kept.sampler.callee(i32 %x) #1 {
  %y = add i32 %x, 7
  ret i32 %y
}

define internal i32 @zapped(i32 %x) {
  ret i32 undef
}

define internal i32 @zapped.sampler.callee(i32 %x) #2 {
  ret i32 5
}

define internal i32 @other.cc(i32 %x) {
  ret i32 %x
}

define internal fastcc i32 @other.cc.sampler.callee(i32 %x) #3 {
  ret i32 %x
}

attributes #0 = { "sampler-callee-copy-of"="again" }
attributes #1 = { "sampler-callee-copy-of"="kept" }
attributes #2 = { "sampler-callee-copy-of"="zapped" }
attributes #3 = { "sampler-callee-copy-of"="other.cc" }

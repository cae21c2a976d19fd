; Unwinding: the countdown lives in the thread-local variable, always up to
; date, so nothing is exported before an invoke or a resume. An invoke, like a
; call, stays inside its region, on both of its edges: each copy unwinds to its
; own landing pad and goes on in that copy, with no new check (the callee's
; trials, thrown or not, come after the region's). In the instrumented copy,
; the sites after a weighty invoke, on either edge, keep their countdown in a
; local.
; RUN: %opt-sampler -sampler-clone-threshold=1 -passes=sampler -sampler-schemes=branches -S %s | FileCheck %s

; CHECK-LABEL: define void @catcher(
; One check, for the region of weight 2 (a site before the invoke, one on
; either edge after it).
; CHECK:         sub i64 %{{.*}}, 2
; CHECK:         call void @catcher.sampler.slow(i1 %c)
; CHECK:       {{^}}b:
; CHECK-NEXT:    invoke void @may_throw()
; CHECK-NEXT:      to label %ok unwind label %lpad
; CHECK:       {{^}}lpad:
; CHECK-NEXT:    %lp = landingpad { ptr, i32 }
; CHECK-NEXT:      cleanup
; CHECK-NOT:     __sampler
; CHECK:         resume { ptr, i32 } %lp

; CHECK-LABEL: define internal void @catcher.sampler.slow(
; CHECK:       {{^}}b:
; CHECK-NEXT:    invoke void @may_throw()
; CHECK-NEXT:      to label %ok unwind label %lpad
; CHECK:       {{^}}ok:
; CHECK-NEXT:    icmp slt i64 [[LOCAL:%sampler.cd.[0-9]+]], 0
; CHECK:         sub i64 -1, [[LOCAL]]
; CHECK-NEXT:    call i64 @__sampler_fire(
; CHECK:         br label %site.drawn
; CHECK:       {{^}}lpad:
; CHECK-NEXT:    %lp = landingpad { ptr, i32 }
; CHECK-NEXT:      cleanup
; CHECK-NEXT:    icmp slt i64 [[LOCAL]], 0
; CHECK:         sub i64 -1, [[LOCAL]]
; CHECK-NEXT:    call i64 @__sampler_fire(
; CHECK:         br label %site.drawn
; CHECK:         resume { ptr, i32 } %lp

source_filename = "invoke.cpp"

declare void @may_throw()
declare i32 @__gxx_personality_v0(...)

define void @catcher(i1 %c) personality ptr @__gxx_personality_v0 {
entry:
  br i1 %c, label %a, label %b
a:
  br label %b
b:
  invoke void @may_throw() to label %ok unwind label %lpad
ok:
  br i1 %c, label %x, label %y
x:
  ret void
y:
  ret void
lpad:
  %lp = landingpad { ptr, i32 } cleanup
  br i1 %c, label %r1, label %r2
r1:
  br label %r2
r2:
  resume { ptr, i32 } %lp
}

; Regression: the value of a weighty invoke used after it, in both copies
; (found building C++ with push_back, when invokes began regions).
; RUN: %opt-sampler -sampler-clone-threshold=1 -passes='sampler,verify' -sampler-schemes=branches -S %s | FileCheck %s --check-prefix=VALUE
; VALUE-LABEL: define void @value_used_after(
; VALUE:         %call = invoke i32 @g2(i32 1)
; VALUE:         store i32 %call, ptr %p
; VALUE-LABEL: define internal void @value_used_after.sampler.slow(
; VALUE:         %call = invoke i32 @g2(i32 1)
; VALUE:         store i32 %call, ptr %p

declare i32 @g(i32) nounwind

define void @value_used_after(i1 %c, ptr %p) personality ptr @__gxx_personality_v0 {
entry:
  br i1 %c, label %a, label %b
a:
  br label %b
b:
  %call = invoke i32 @g2(i32 1) to label %cont unwind label %lpad
cont:
  store i32 %call, ptr %p
  ret void
lpad:
  %lp = landingpad { ptr, i32 } cleanup
  resume { ptr, i32 } %lp
}
declare i32 @g2(i32)

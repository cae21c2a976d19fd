; Unwinding keeps the countdown consistent: it lives in the thread-local
; variable, always up to date, so nothing is exported before an invoke or a
; resume; the normal edge of a weighty invoke re-checks; a landing pad
; re-checks (the callee may have spent trials before throwing).
; RUN: %opt-sampler -sampler-clone-threshold=1 -passes=sampler -sampler-schemes=branches -S %s | FileCheck %s

; CHECK-LABEL: define void @catcher(
; Fast copy:
; CHECK:       {{^}}b:
; CHECK-NEXT:  invoke void @may_throw()
; CHECK-NEXT:    to label %sampler.invoke.cont unwind label %lpad
; The normal edge first lands in a block of its own copy (where the invoke's
; value would be saved), then meets the other copy at the check.
; CHECK:     sampler.invoke.cont:
; CHECK-NEXT:  br label %[[NORMAL:sampler.check[0-9]+]]
; CHECK:     [[NORMAL]]:
; CHECK-SAME:  preds = %sampler.invoke.cont.slow, %sampler.invoke.cont
; CHECK-NEXT:  load i64, ptr @__sampler_countdown
; CHECK:     {{^}}lpad:
; CHECK-NEXT:  %lp = landingpad { ptr, i32 }
; CHECK-NEXT:    cleanup
; CHECK-NEXT:  br label %[[PAD:sampler.check[0-9]+]]
; CHECK:     [[PAD]]:
; CHECK-NEXT:  phi { ptr, i32 } [ %lp, %lpad ], [ %lp.slow, %lpad.slow ]
; CHECK-NEXT:  load i64, ptr @__sampler_countdown
; CHECK:     sampler.after.pad:
; CHECK:       resume { ptr, i32 }
; Instrumented copy: its invoke unwinds to its own landing pad, which re-checks
; through the same check block.
; CHECK:     {{^}}lpad.slow:
; CHECK-NEXT:  %lp.slow = landingpad { ptr, i32 }
; CHECK-NEXT:    cleanup
; CHECK-NEXT:  br label %[[PAD]]

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

; Regression: the value of a weighty invoke used after the check. It must be
; saved in the landing block of each copy and merged at the check, not used
; from the fast copy only (found building C++ with push_back).
; RUN: %opt-sampler -sampler-clone-threshold=1 -passes='sampler,verify' -sampler-schemes=branches -S %s | FileCheck %s --check-prefix=VALUE
; VALUE-LABEL: define void @value_used_after(
; VALUE:       {{^}}sampler.check{{[0-9]+}}:
; VALUE-NEXT:    [[MERGED:%.*]] = phi i32 [ %call, %sampler.invoke.cont ], [ %call.slow, %sampler.invoke.cont.slow ]
; VALUE:       {{^}}cont:
; VALUE-NEXT:    store i32 [[MERGED]], ptr %p

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

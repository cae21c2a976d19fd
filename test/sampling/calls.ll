; A call to a weightless function does not split a region; a call to a weighty
; one does: after it, a new check decides the copy for the rest of the function.
; The countdown lives in the thread-local variable, so nothing is exported or
; imported around the call.
; RUN: %opt-sampler -sampler-clone-threshold=1 -passes=sampler -sampler-schemes=branches -S %s | FileCheck %s

; CHECK-LABEL: define void @caller(
; Region from entry: the branch on %a, then the call to @weighty: weight 1.
; CHECK:     sampler.check:
; CHECK-NEXT:  [[CD:%countdown[0-9]*]] = load i64, ptr @__sampler_countdown
; CHECK-NEXT:  [[PAID:%.*]] = sub i64 [[CD]], 1
; CHECK-NEXT:  store i64 [[PAID]], ptr @__sampler_countdown
; CHECK-NEXT:  icmp sge i64 [[PAID]], 0
; Fast copy: neither call touches the countdown; the weighty one is followed
; by a new check.
; CHECK:     {{^}}y:
; CHECK-NEXT:  call void @pure()
; CHECK-NEXT:  call void @weighty()
; CHECK-NEXT:  br label %[[AFTER:sampler.check[0-9]*]]
; CHECK:     [[AFTER]]:
; CHECK-NEXT:  [[CD2:%countdown[0-9]+]] = load i64, ptr @__sampler_countdown
; CHECK-NEXT:  %countdown.paid{{[0-9]+}} = sub i64 [[CD2]], 1
; CHECK-NEXT:  store i64 %countdown.paid{{[0-9]+}}, ptr @__sampler_countdown
; CHECK-NEXT:  %countdown.enough{{[0-9]+}} = icmp sge i64 %countdown.paid{{[0-9]+}}, 0

source_filename = "calls.c"

declare void @weighty()

define void @pure() nounwind {
  ret void
}

define void @caller(i1 %a, i1 %b) nounwind {
entry:
  br i1 %a, label %x, label %y
x:
  br label %y
y:
  call void @pure()
  call void @weighty()
  br i1 %b, label %z, label %w
z:
  ret void
w:
  ret void
}

; A call to a weightless function does not split a region; a call to a weighty
; one does: the local countdown is exported before it, imported after it, and a
; new check decides the copy for the rest of the function.
; RUN: %opt-sampler -sampler-clone-threshold=1 -passes=sampler -sampler-schemes=branches -S %s | FileCheck %s

; CHECK-LABEL: define void @caller(
; CHECK:       %countdown.import = load i64, ptr @__sampler_countdown
; Region from entry: the branch on %a, then the call to @weighty: weight 1.
; CHECK:     sampler.check:
; CHECK-NEXT:  [[PAID:%.*]] = sub i64 %countdown.import, 1
; CHECK-NEXT:  icmp sge i64 [[PAID]], 0
; Fast copy: the weightless call passes without countdown traffic; the weighty
; one is bracketed by an export and a re-check with import.
; CHECK:     {{^}}y:
; CHECK-NEXT:  call void @pure()
; CHECK-NEXT:  store i64 [[PAID]], ptr @__sampler_countdown
; CHECK-NEXT:  call void @weighty()
; CHECK-NEXT:  br label %[[AFTER:sampler.check[0-9]*]]
; CHECK:     [[AFTER]]:
; CHECK-NEXT:  %countdown.import{{[0-9]+}} = load i64, ptr @__sampler_countdown
; CHECK-NEXT:  %countdown.paid{{[0-9]+}} = sub i64 %countdown.import{{[0-9]+}}, 1
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

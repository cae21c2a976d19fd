; A function that cannot be cloned (here: indirectbr, whose targets are block
; addresses) keeps one copy, and each site works on the thread-local countdown
; directly: slower, equally fair.
; RUN: %opt-sampler -passes=sampler -sampler-schemes=branches -S %s | FileCheck %s

; CHECK-LABEL: define i32 @dispatch(
; CHECK-NOT:   .slow
; CHECK:       %countdown = load i64, ptr @__sampler_countdown
; CHECK-NEXT:  %countdown.dec = sub i64 %countdown, 1
; CHECK-NEXT:  store i64 %countdown.dec, ptr @__sampler_countdown
; CHECK-NEXT:  %countdown.zero = icmp sle i64 %countdown.dec, 0
; CHECK:       call i64 @__sampler_next_countdown()
; CHECK:       indirectbr ptr %t, [label %one, label %two]

define i32 @dispatch(i1 %c, ptr %t) {
entry:
  br i1 %c, label %go, label %one
go:
  indirectbr ptr %t, [label %one, label %two]
one:
  ret i32 1
two:
  ret i32 2
}

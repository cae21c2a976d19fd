; The cost model: a function is cloned only when some region has at least
; `clone-threshold` sites (1 by default: every function). Lighter functions
; keep one copy in which each site works on the thread-local countdown in
; place, with nothing around calls (no import, export, check).
; RUN: %opt-sampler -sampler-clone-threshold=3 -passes=sampler -sampler-schemes=branches -S %s | FileCheck %s
; RUN: %opt-sampler -passes=sampler -sampler-schemes=branches -S %s | FileCheck %s --check-prefix=DEFAULT

; Two sites on every path: one copy.
; CHECK-LABEL: define i32 @light(
; CHECK-NOT:   .slow
; CHECK:       %countdown.dec = add i64 %countdown, -1
; CHECK-NOT:   .slow
; CHECK-LABEL: define i32 @heavy(
; Three sites in the loop body: cloned, with a back-edge check.
; CHECK:       sampler.check
; CHECK:       .slow:

; DEFAULT-LABEL: define i32 @light(
; DEFAULT:       sampler.check
; DEFAULT:       .slow:

target triple = "x86_64-pc-linux-gnu"

define i32 @light(i32 %a, i32 %b) nounwind {
entry:
  %c1 = icmp sgt i32 %a, 0
  br i1 %c1, label %x, label %y
x:
  %c2 = icmp sgt i32 %b, 0
  br i1 %c2, label %y, label %z
y:
  ret i32 1
z:
  ret i32 2
}

define i32 @heavy(i32 %n) nounwind {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %latch ]
  %a = icmp sgt i32 %i, 5
  br i1 %a, label %b1, label %b1
b1:
  %b = icmp sgt i32 %i, 7
  br i1 %b, label %latch, label %latch
latch:
  %i1 = add i32 %i, 1
  %c = icmp slt i32 %i1, %n
  br i1 %c, label %loop, label %out
out:
  ret i32 %i
}

; A function that cannot be cloned (here: asm goto, whose targets the asm
; names) keeps one copy, and each site works on the thread-local countdown
; directly (a volatile load, add, then < 0: the countdown counts the failures
; before the next success; below -1 the success is unknown and the runtime is
; told so: `unknown` = -1 - countdown). The cold way reads the countdown again,
; so that the hot way folds to `decq mem; js` (light-in-place.ll).
; RUN: %opt-sampler -passes=sampler -sampler-clone-threshold=1 -sampler-schemes=branches -S %s | FileCheck %s

; CHECK-LABEL: define i32 @dispatch(
; CHECK-NOT:   .slow
; CHECK:       %countdown = load volatile i64, ptr %countdown.addr
; CHECK-NEXT:  %countdown.dec = add i64 %countdown, -1
; CHECK-NEXT:  store i64 %countdown.dec, ptr %countdown.addr
; CHECK-NEXT:  %countdown.fire = icmp slt i64 %countdown.dec, 0
; CHECK:       %countdown.again = load volatile i64, ptr %countdown.addr
; CHECK:       %countdown.unknown = sub i64 -1, %countdown.again
; CHECK-NEXT:  %countdown.fired = call i64 @__sampler_fire(i64 %countdown.unknown)
; CHECK-NEXT:  [[GAP:%.*]] = lshr i64 %countdown.fired, 1
; CHECK-NEXT:  %countdown.next = add i64 -1, [[GAP]]
; CHECK-NEXT:  %sample = trunc i64 %countdown.fired to i1
; CHECK-NEXT:  store i64 %countdown.next, ptr %countdown.addr
; CHECK:       callbr void asm "", "!i"()
; CHECK-NEXT:    to label %one [label %two]

define i32 @dispatch(i1 %c) {
entry:
  br i1 %c, label %go, label %one
go:
  callbr void asm "", "!i"() to label %one [label %two]
one:
  ret i32 1
two:
  ret i32 2
}

; CheckMerge (lib/CheckMerge.h), the pass alone, on checks in the shape the
; sampling transformation leaves them after inlining. A check is paid by the
; check before it when the blocks between are entered only from that check's
; fast edge and touch no countdown; the first pays W1 + W2 and gives W2 back
; on its way to its instrumented copy, and on every way out that misses the
; second check.
; RUN: %opt-sampler -passes=sampler-check-merge -S %s | FileCheck %s
; With the give-back percentage 0, only checks that every path reaches:
; RUN: %opt-sampler -passes=sampler-check-merge -sampler-check-merge-give-back=0 -S %s | FileCheck %s --check-prefix=ALLPATHS

@__sampler_countdown = external thread_local global i64
@out = global i32 0

declare void @slow1()
declare void @slow2()

; Every path from the first check's fast edge reaches the second: one check.
; CHECK-LABEL: define void @straight(
; CHECK:         %p1 = add i64 %c1, -7
; CHECK:         br i1 %ok1, label %fast1, label %sampler.merged.back
; CHECK:       fast1:
; CHECK-NEXT:    store i32 1, ptr @out
; CHECK-NEXT:    br label %fast2
; CHECK:       sampler.merged.back:
; CHECK-NEXT:    %countdown = load volatile i64, ptr @__sampler_countdown
; CHECK-NEXT:    %countdown.back = add i64 %countdown, 4
; CHECK-NEXT:    store i64 %countdown.back, ptr @__sampler_countdown
; CHECK-NEXT:    br label %s1
; CHECK-NOT:     add i64 %c2, -4
; ALLPATHS-LABEL: define void @straight(
; ALLPATHS:         %p1 = add i64 %c1, -7
define void @straight() {
entry:
  %c1 = load volatile i64, ptr @__sampler_countdown
  %p1 = add i64 %c1, -3
  store i64 %p1, ptr @__sampler_countdown
  %ok1 = icmp sgt i64 %p1, -1
  br i1 %ok1, label %fast1, label %s1

fast1:
  store i32 1, ptr @out
  %c2 = load volatile i64, ptr @__sampler_countdown
  %p2 = add i64 %c2, -4
  store i64 %p2, ptr @__sampler_countdown
  %ok2 = icmp sgt i64 %p2, -1
  br i1 %ok2, label %fast2, label %s2

fast2:
  store i32 2, ptr @out
  ret void

s1:
  call void @slow1()
  ret void

s2:
  call void @slow2()
  ret void
}

; The second check is reached on one way of a branch that the profile says is
; taken 1 time in 100: the first check pays for both, and the rare way gives
; the second's 4 trials back on its edge (critical: a block of its own).
; CHECK-LABEL: define void @one_way(
; CHECK:         %p1 = add i64 %c1, -7
; CHECK:         br i1 %ok1, label %fast1, label %sampler.merged.back
; CHECK:       fast1:
; CHECK-NEXT:    br i1 %rare, label %sampler.merged.giveback, label %callee
; CHECK:       sampler.merged.giveback:
; CHECK-NEXT:    %countdown1 = load volatile i64, ptr @__sampler_countdown
; CHECK-NEXT:    %countdown.back2 = add i64 %countdown1, 4
; CHECK-NEXT:    store i64 %countdown.back2, ptr @__sampler_countdown
; CHECK-NEXT:    br label %done
; CHECK:       callee:
; CHECK-NEXT:    store i32 2, ptr @out
; CHECK-NEXT:    br label %fast2
; Without give-backs the two checks stay:
; ALLPATHS-LABEL: define void @one_way(
; ALLPATHS:         %p1 = add i64 %c1, -3
; ALLPATHS:         %p2 = add i64 %c2, -4
define void @one_way(i1 %rare) {
entry:
  %c1 = load volatile i64, ptr @__sampler_countdown
  %p1 = add i64 %c1, -3
  store i64 %p1, ptr @__sampler_countdown
  %ok1 = icmp sgt i64 %p1, -1
  br i1 %ok1, label %fast1, label %s1

fast1:
  br i1 %rare, label %done, label %callee, !prof !0

callee:
  store i32 2, ptr @out
  %c2 = load volatile i64, ptr @__sampler_countdown
  %p2 = add i64 %c2, -4
  store i64 %p2, ptr @__sampler_countdown
  %ok2 = icmp sgt i64 %p2, -1
  br i1 %ok2, label %fast2, label %s2

fast2:
  store i32 3, ptr @out
  br label %done

done:
  ret void

s1:
  call void @slow1()
  ret void

s2:
  call void @slow2()
  ret void
}

; The same with the branch's ways even: the way that misses the check would
; run as often as the check, more than 50%: both checks stay.
; CHECK-LABEL: define void @even(
; CHECK:         %p1 = add i64 %c1, -3
; CHECK:         %p2 = add i64 %c2, -4
; CHECK-NOT:   sampler.merged
; CHECK:       {{^}}}
define void @even(i1 %either) {
entry:
  %c1 = load volatile i64, ptr @__sampler_countdown
  %p1 = add i64 %c1, -3
  store i64 %p1, ptr @__sampler_countdown
  %ok1 = icmp sgt i64 %p1, -1
  br i1 %ok1, label %fast1, label %s1

fast1:
  br i1 %either, label %done, label %callee

callee:
  %c2 = load volatile i64, ptr @__sampler_countdown
  %p2 = add i64 %c2, -4
  store i64 %p2, ptr @__sampler_countdown
  %ok2 = icmp sgt i64 %p2, -1
  br i1 %ok2, label %fast2, label %s2

fast2:
  store i32 3, ptr @out
  br label %done

done:
  ret void

s1:
  call void @slow1()
  ret void

s2:
  call void @slow2()
  ret void
}

; Each way of a branch has a check; the likely one's is merged, and the other
; way's check, entered only from that branch and paying more, pays 4 less
; instead of a give-back before it (the same countdown after it, tested the
; same way).
; CHECK-LABEL: define void @either_way(
; CHECK:         %p1 = add i64 %c1, -7
; CHECK:       fast1:
; CHECK-NEXT:    br i1 %left, label %a, label %b
; CHECK:       a:
; CHECK-NEXT:    store i32 2, ptr @out
; CHECK-NEXT:    br label %fast2
; CHECK:       b:
; CHECK-NEXT:    %c3 = load volatile i64, ptr @__sampler_countdown
; CHECK-NEXT:    %p3 = add i64 %c3, -2
; CHECK-NOT:   sampler.merged.giveback
; CHECK:       {{^}}}
define void @either_way(i1 %left) {
entry:
  %c1 = load volatile i64, ptr @__sampler_countdown
  %p1 = add i64 %c1, -3
  store i64 %p1, ptr @__sampler_countdown
  %ok1 = icmp sgt i64 %p1, -1
  br i1 %ok1, label %fast1, label %s1

fast1:
  br i1 %left, label %a, label %b, !prof !1

a:
  store i32 2, ptr @out
  %c2 = load volatile i64, ptr @__sampler_countdown
  %p2 = add i64 %c2, -4
  store i64 %p2, ptr @__sampler_countdown
  %ok2 = icmp sgt i64 %p2, -1
  br i1 %ok2, label %fast2, label %s2

b:
  %c3 = load volatile i64, ptr @__sampler_countdown
  %p3 = add i64 %c3, -6
  store i64 %p3, ptr @__sampler_countdown
  %ok3 = icmp sgt i64 %p3, -1
  br i1 %ok3, label %fast2, label %s2

fast2:
  ret void

s1:
  call void @slow1()
  ret void

s2:
  call void @slow2()
  ret void
}

; Another way into the blocks between (here from the function's entry,
; around the first check): the second check must stay.
; CHECK-LABEL: define void @entered_elsewhere(
; CHECK:         %p1 = add i64 %c1, -3
; CHECK:         %p2 = add i64 %c2, -4
; CHECK-NOT:   sampler.merged
; CHECK:       {{^}}}
define void @entered_elsewhere(i1 %skip) {
entry:
  br i1 %skip, label %callee, label %check

check:
  %c1 = load volatile i64, ptr @__sampler_countdown
  %p1 = add i64 %c1, -3
  store i64 %p1, ptr @__sampler_countdown
  %ok1 = icmp sgt i64 %p1, -1
  br i1 %ok1, label %callee, label %s1

callee:
  %c2 = load volatile i64, ptr @__sampler_countdown
  %p2 = add i64 %c2, -4
  store i64 %p2, ptr @__sampler_countdown
  %ok2 = icmp sgt i64 %p2, -1
  br i1 %ok2, label %fast2, label %s2

fast2:
  ret void

s1:
  call void @slow1()
  ret void

s2:
  call void @slow2()
  ret void
}

!0 = !{!"branch_weights", i32 1, i32 99}
!1 = !{!"branch_weights", i32 90, i32 10}

; A check whose blocks between are also entered from where the first check
; does not pay: here the function's entry, which enters the loop at its
; header (what TailCallElim leaves of a function that called itself through
; an inlined callee: SQLite's growOp3). The header's check pays for the
; trials of the loop's first region on the way in from the entry: merged into
; the check in the body, it paid only on the back edge, and the first region's
; sites were never observed on the first iteration. Both checks stay.
; CHECK-LABEL: define i32 @tail_loop(
; CHECK:       head:
; CHECK-NEXT:    %c1 = load volatile i64, ptr @__sampler_countdown
; CHECK-NEXT:    %p1 = add i64 %c1, -3
; CHECK:       check2:
; CHECK-NEXT:    %c2 = load volatile i64, ptr @__sampler_countdown
; CHECK-NEXT:    %p2 = add i64 %c2, -2
; CHECK-NOT:   sampler.merged
; CHECK:       {{^}}}
define i32 @tail_loop() {
entry:
  br label %head

head:
  %c1 = load volatile i64, ptr @__sampler_countdown
  %p1 = add i64 %c1, -3
  store i64 %p1, ptr @__sampler_countdown
  %ok1 = icmp sgt i64 %p1, -1
  br i1 %ok1, label %body, label %s1, !prof !0

body:
  call void @work()
  %x = load volatile i32, ptr @out
  %done = icmp eq i32 %x, 0
  br i1 %done, label %check2, label %exit

check2:
  %c2 = load volatile i64, ptr @__sampler_countdown
  %p2 = add i64 %c2, -2
  store i64 %p2, ptr @__sampler_countdown
  %ok2 = icmp sgt i64 %p2, -1
  br i1 %ok2, label %fast2, label %s2, !prof !0

fast2:
  %y = load volatile i32, ptr @out
  %again = icmp sgt i32 %y, 5
  br i1 %again, label %head, label %exit, !prof !1

exit:
  ret i32 0

s1:
  call void @slow1()
  ret i32 1

s2:
  call void @slow2()
  ret i32 2
}

; A block between that the second check's block enters (a loop through it):
; the way round from the second check to itself would pay nothing once its
; check is gone. Both checks stay.
; CHECK-LABEL: define void @round_next(
; CHECK:         %p1 = add i64 %c1, -3
; CHECK:         %p2 = add i64 %c2, -4
; CHECK-NOT:   sampler.merged
; CHECK:       {{^}}}
define void @round_next() {
entry:
  %c1 = load volatile i64, ptr @__sampler_countdown
  %p1 = add i64 %c1, -3
  store i64 %p1, ptr @__sampler_countdown
  %ok1 = icmp sgt i64 %p1, -1
  br i1 %ok1, label %fast1, label %s1, !prof !0

fast1:
  br label %join

join:
  %x = load volatile i32, ptr @out
  %go = icmp eq i32 %x, 0
  br i1 %go, label %next, label %out

next:
  %c2 = load volatile i64, ptr @__sampler_countdown
  %p2 = add i64 %c2, -4
  store i64 %p2, ptr @__sampler_countdown
  %ok2 = icmp sgt i64 %p2, -1
  br i1 %ok2, label %join, label %s2, !prof !0

out:
  ret void

s1:
  call void @slow1()
  ret void

s2:
  call void @slow2()
  ret void
}

declare void @work()

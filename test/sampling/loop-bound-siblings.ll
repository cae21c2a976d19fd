; Two tagged loops, each exiting into the other (the shape the instrumented
; copy's returns and inlining leave: ccrypt's xShiftSubst inlined into
; xrijndaelDecrypt). Putting loop @x in loop-simplify form gives it a
; dedicated exit block on its edge into loop @y's preheader, so @y's ways in
; must be recorded after every loop of the round is in that form: recorded
; before, @y's test was put on an edge that no longer existed (a crash in
; versionLoop).
; RUN: %opt-sampler -passes=sampler-loop-bound,verify -pass-remarks=sampler-loop-bound -S %s 2>%t.remarks | FileCheck %s
; RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
; REMARK-DAG: loop in siblings tests its countdown checks once on entry (trials per back edge: 5) on 2 of 2 ways in
; REMARK-DAG: loop in siblings tests its countdown checks once on entry (trials per back edge: 6) on 2 of 2 ways in

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@__sampler_countdown = external thread_local(initialexec) global i64

; Each loop's two ways in get a test in front of its preheader: @y's from the
; entry and from @x's dedicated exit block, @x's from the entry and from @y's.
; The copies' exits join the originals' (@y.ph's PHI receives @x's value
; through the exit block and both tests).
; CHECK-LABEL: define void @siblings(
; CHECK:       entry:
; CHECK-NEXT:    %countdown.addr =
; CHECK:         br i1 %c, label %[[YTEST1:sampler.loop.test[0-9]*]], label %[[XTEST1:sampler.loop.test[0-9]*]]
; CHECK:       x.loopexit:
; CHECK-SAME:    preds = %y.bounded, %y
; CHECK:         br label %[[XTEST2:sampler.loop.test[0-9]*]]
; CHECK:       [[XTEST1]]:
; CHECK:         br i1 %sampler.loop.affordable{{[0-9]*}}, label %sampler.loop.enough{{[0-9]*}}, label %x.preheader
; CHECK:       [[XTEST2]]:
; CHECK:         br i1 %sampler.loop.affordable{{[0-9]*}}, label %sampler.loop.enough{{[0-9]*}}, label %x.preheader
; CHECK:       y.ph.loopexit:
; CHECK-SAME:    preds = %x.bounded, %x
; CHECK:         br label %[[YTEST2:sampler.loop.test[0-9]*]]
; CHECK:       [[YTEST2]]:
; CHECK:         br i1 %sampler.loop.affordable{{[0-9]*}}, label %sampler.loop.enough{{[0-9]*}}, label %y.ph
; CHECK:       [[YTEST1]]:
; CHECK:         br i1 %sampler.loop.affordable{{[0-9]*}}, label %sampler.loop.enough{{[0-9]*}}, label %y.ph
; CHECK:       y.ph:
; CHECK-NEXT:    %base = phi i64 [ 0, %[[YTEST1]] ], [ %i.next.lcssa, %[[YTEST2]] ]
define void @siblings(ptr %p, i64 %n, i64 %m, i1 %c) {
entry:
  %countdown.addr = call ptr @llvm.threadlocal.address.p0(ptr @__sampler_countdown)
  br i1 %c, label %y.ph, label %x

x:
  %i = phi i64 [ 0, %entry ], [ %i.next, %x.latch ], [ 0, %y ]
  %i.next = add nuw i64 %i, 1
  %x.done = icmp uge i64 %i.next, %m
  br i1 %x.done, label %y.ph, label %x.latch

x.latch:
  %cd.x = load volatile i64, ptr %countdown.addr
  %paid.x = add i64 %cd.x, -6
  store i64 %paid.x, ptr %countdown.addr
  %enough.x = icmp sgt i64 %paid.x, -1
  br i1 %enough.x, label %x, label %toslow, !sampler.backedge.check !0

y.ph:
  %base = phi i64 [ 0, %entry ], [ %i.next, %x ]
  br label %y

y:
  %j = phi i64 [ 0, %y.ph ], [ %j.next, %y.latch ]
  %gep = getelementptr inbounds i64, ptr %p, i64 %j
  store i64 %base, ptr %gep
  %j.next = add nuw i64 %j, 1
  %y.done = icmp eq i64 %j.next, %n
  br i1 %y.done, label %x, label %y.latch

y.latch:
  %cd.y = load volatile i64, ptr %countdown.addr
  %paid.y = add i64 %cd.y, -5
  store i64 %paid.y, ptr %countdown.addr
  %enough.y = icmp sgt i64 %paid.y, -1
  br i1 %enough.y, label %y, label %toslow, !sampler.backedge.check !1

toslow:
  call void @slow()
  ret void
}

declare void @slow()
declare ptr @llvm.threadlocal.address.p0(ptr)

!0 = !{i64 6}
!1 = !{i64 5}

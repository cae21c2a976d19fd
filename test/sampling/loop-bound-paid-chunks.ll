; Chunks of a loop that pays on entry (lib/LoopBoundCheck.cpp, with
; -fsampler-loop-chunks, on by default). bc's digit loops in small: a counted
; loop whose header is its way out, exactly N = len + 1 back edges (one way
; out), W = 2 trials each, so that a countdown that covers all N·W
; pays them on entry (test/sampling/loop-bound.ll, @fill). Where it does not
; and covers k = countdown / W >= 4 back edges, a third copy pays k·W and runs
; without checks; its header's exit becomes `i == i0 + k`, and leaves for the
; header of the loop as it was, whose next check is the first that fails.
; The way back from the instrumented copy (%slow.latch) would compute an smax
; of a difference, above the budget: it goes on into the loop as it was.
; RUN: %opt-sampler -passes=sampler-loop-bound-chunks,verify -S %s | FileCheck %s
; RUN: %opt-sampler -passes=sampler-loop-bound-chunks -pass-remarks=sampler-loop-bound -disable-output %s 2>&1 | FileCheck %s --check-prefix=REMARK
; Without chunks, the same test, and no chunks' copy:
; RUN: %opt-sampler -passes=sampler-loop-bound-reserve -S %s | FileCheck %s --check-prefix=NOCHUNK

; REMARK: loop in digits tests its countdown checks once on entry (trials per back edge: 2) on 1 of 2 ways in, and pays for them there, in chunks where the countdown covers fewer
; NOCHUNK-LABEL: define void @digits(
; NOCHUNK-NOT: {{sampler\.chunk|\.chunk}}

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@__sampler_countdown = external thread_local(initialexec) global i64

; The test on entry: the whole loop if the countdown covers it, else a chunk
; of k = countdown / 2 back edges if k >= 4, paid now; the chunk ends where the
; counter is i0 + k (i0 = 0 here).
; CHECK-LABEL: define void @digits(
; CHECK:       {{^}}sampler.loop.test:
; CHECK-NEXT:    %countdown = load i64, ptr %countdown.addr
; CHECK-NEXT:    %sampler.loop.trials = mul nuw nsw i64 %smax, 2
; CHECK-NEXT:    %countdown.paid.on.entry = sub i64 %countdown, %sampler.loop.trials
; CHECK-NEXT:    %sampler.loop.affordable = icmp sge i64 %countdown, %sampler.loop.trials
; CHECK-NEXT:    br i1 %sampler.loop.affordable, label %sampler.loop.enough, label %sampler.loop.chunk.test
; CHECK:       {{^}}sampler.loop.chunk.test:
; CHECK-NEXT:    %sampler.chunk.some = icmp sge i64 %countdown, 8
; CHECK-NEXT:    br i1 %sampler.chunk.some, label %sampler.loop.chunk, label %ph
; The loop as it was is also entered from the chunk's header, with its values.
; CHECK:       {{^}}header:
; CHECK-NEXT:    %i = phi i32 [ %i.start, %ph ], [ %i.next, %latch ], [ %i.chunk, %header.chunk ]
; CHECK-NEXT:    %q = phi ptr [ %q.start, %ph ], [ %q.next, %latch ], [ %q.chunk, %header.chunk ]
; CHECK:       {{^}}latch:
; CHECK:         br i1 %enough, label %header, label %slow.header
; CHECK:       {{^}}sampler.loop.chunk:
; CHECK-NEXT:    %sampler.chunk.backedges = udiv i64 %countdown, 2
; CHECK-NEXT:    [[PAY:%.*]] = mul nuw nsw i64 %sampler.chunk.backedges, 2
; CHECK-NEXT:    %countdown.paid.chunk = sub i64 %countdown, [[PAY]]
; CHECK-NEXT:    store i64 %countdown.paid.chunk, ptr %countdown.addr, align 8, !sampler.loop.paid
; CHECK-NEXT:    [[K:%.*]] = trunc i64 %sampler.chunk.backedges to i32
; CHECK-NEXT:    [[LAST:%sampler.chunk.last[0-9]*]] = add i32 0, [[K]]
; CHECK-NEXT:    br label %ph.chunk
; The chunks' copy: no check; its header leaves after k back edges, for the
; loop as it was (the loop's own exit is no longer among its ways out).
; CHECK:       {{^}}header.chunk:
; CHECK-NEXT:    %i.chunk = phi i32 [ 0, %ph.chunk ], [ %i.next.chunk, %latch.chunk ]
; CHECK-NEXT:    %q.chunk = phi ptr [ %r, %ph.chunk ], [ %q.next.chunk, %latch.chunk ]
; CHECK-NEXT:    %sampler.chunk.end = icmp eq i32 %i.chunk, [[LAST]]
; CHECK-NEXT:    br i1 %sampler.chunk.end, label %header, label %body.chunk, !prof ![[UNLIKELY:[0-9]+]]
; CHECK:       {{^}}latch.chunk:
; CHECK-NEXT:    br label %header.chunk
; CHECK:       ![[UNLIKELY]] = !{!"branch_weights", i32 1, i32 1048575}
define void @digits(ptr %r, ptr %a, i32 %len) {
entry:
  %countdown.addr = call ptr @llvm.threadlocal.address.p0(ptr @__sampler_countdown)
  %cd0 = load volatile i64, ptr %countdown.addr
  %paid0 = add i64 %cd0, -2
  store i64 %paid0, ptr %countdown.addr
  %enough0 = icmp sgt i64 %paid0, -1
  br i1 %enough0, label %ph, label %slow.header, !prof !1, !sampler.check !0
ph:
  %i.start = phi i32 [ 0, %entry ], [ %slow.i.next, %slow.latch ]
  %q.start = phi ptr [ %r, %entry ], [ %slow.q.next, %slow.latch ]
  br label %header
header:
  %i = phi i32 [ %i.start, %ph ], [ %i.next, %latch ]
  %q = phi ptr [ %q.start, %ph ], [ %q.next, %latch ]
  %over = icmp sgt i32 %i, %len
  br i1 %over, label %exit, label %body
body:
  %gep = getelementptr inbounds i8, ptr %a, i32 %i
  %d = load i8, ptr %gep
  store i8 %d, ptr %q
  %q.next = getelementptr inbounds i8, ptr %q, i64 1
  %i.next = add nsw i32 %i, 1
  br label %latch
latch:
  %cd = load volatile i64, ptr %countdown.addr
  %paid = add i64 %cd, -2
  store i64 %paid, ptr %countdown.addr
  %enough = icmp sgt i64 %paid, -1
  br i1 %enough, label %header, label %slow.header, !prof !1, !sampler.backedge.check !0
; The instrumented copy, in small: the entry's check and the fast loop's
; lead to it by unlikely branches, and its loop's check goes back to the fast
; loop's preheader with its counter.
slow.header:
  %slow.i = phi i32 [ 0, %entry ], [ %i.next, %latch ], [ %slow.i.next, %slow.latch ]
  %slow.q = phi ptr [ %r, %entry ], [ %q.next, %latch ], [ %slow.q.next, %slow.latch ]
  %slow.over = icmp sgt i32 %slow.i, %len
  br i1 %slow.over, label %exit, label %slow.body
slow.body:
  call void @observe(i32 %slow.i)
  %slow.q.next = getelementptr inbounds i8, ptr %slow.q, i64 1
  %slow.i.next = add nsw i32 %slow.i, 1
  br label %slow.latch
slow.latch:
  %slow.cd = load volatile i64, ptr %countdown.addr
  %slow.paid = add i64 %slow.cd, -2
  store i64 %slow.paid, ptr %countdown.addr
  %slow.enough = icmp sgt i64 %slow.paid, -1
  br i1 %slow.enough, label %ph, label %slow.header, !prof !2, !sampler.check !0
exit:
  ret void
}

declare void @observe(i32)
declare ptr @llvm.threadlocal.address.p0(ptr)

!0 = !{i64 2}
!1 = !{!"branch_weights", i32 1048575, i32 1}
!2 = !{!"branch_weights", i32 1048575, i32 1}

; A loop without checks (a bounded loop's copy) still pays for its trials,
; `countdown -= K` an iteration; carried in a register (sampler-loop-promote)
; that is an induction variable nothing in the loop reads. The loop counts its
; iterations anyway: the countdown is computed on the way out from that
; counter, and the payments go (lib/LoopExitPayment.cpp). The input is what
; LoopBoundCheck's copies look like: the countdown's loads and stores without
; a check.
; RUN: %opt-sampler -passes=sampler-loop-promote,sampler-loop-exit-pay,verify -S %s | FileCheck %s
; Off, the payments stay in the loop:
; RUN: %opt-sampler -passes=sampler-loop-promote,verify -S %s | FileCheck %s --check-prefix=OFF

; Two ways out: one before the iteration's payment, one after it. The
; countdown leaving is c0 - 3·i plus what the exiting block had paid; c0 is
; loaded again there (nothing in the loop stores the countdown), so that no
; register holds it round the loop.
; CHECK-LABEL: define void @two_exits(
; CHECK:       body:
; CHECK-NOT:     countdown
; CHECK:       latch:
; CHECK-NOT:     add i64 %countdown
; CHECK:         br i1 %more, label %body, label %exit
; CHECK:       exit:
; CHECK-NEXT:    %countdown.offset = phi i64 [ -3, %latch ], [ 0, %body ]
; CHECK-NEXT:    %i.lcssa = phi i64 [ %i, %latch ], [ %i, %body ]
; CHECK-NEXT:    %countdown.paid = mul i64 %i.lcssa, -3
; CHECK-NEXT:    %countdown.entry = load i64, ptr %countdown.addr
; CHECK-NEXT:    %countdown.exit = add i64 %countdown.entry, %countdown.paid
; CHECK-NEXT:    [[V:%.*]] = add i64 %countdown.exit, %countdown.offset
; CHECK-NEXT:    store i64 [[V]], ptr %countdown.addr
; OFF-LABEL:   define void @two_exits(
; OFF:         latch:
; OFF-NEXT:      %paid = add i64 %countdown.reg, -3

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@__sampler_countdown = external thread_local(initialexec) global i64

define void @two_exits(ptr %p, i64 %n) {
entry:
  %countdown.addr = call ptr @llvm.threadlocal.address.p0(ptr @__sampler_countdown)
  br label %body
body:
  %i = phi i64 [ 0, %entry ], [ %i.next, %latch ]
  %gep = getelementptr inbounds i32, ptr %p, i64 %i
  %x = load i32, ptr %gep
  %zero = icmp eq i32 %x, 0
  br i1 %zero, label %exit, label %latch
latch:
  %cd = load i64, ptr %countdown.addr
  %paid = add i64 %cd, -3
  store i64 %paid, ptr %countdown.addr
  %i.next = add nuw nsw i64 %i, 1
  %more = icmp ult i64 %i.next, %n
  br i1 %more, label %body, label %exit
exit:
  ret void
}

; A 32-bit counter that steps by 2 and cannot wrap (nsw): widened by sign
; extension, the steps are (i - start), the payment -4 per step of 2.
; CHECK-LABEL: define void @narrow(
; CHECK:       exit:
; CHECK-NEXT:    %i.lcssa = phi i32 [ %i, %body ]
; CHECK-NEXT:    [[W:%.*]] = sext i32 %i.lcssa to i64
; CHECK-NEXT:    [[S:%.*]] = sext i32 %start to i64
; CHECK-NEXT:    %loop.steps = sub i64 [[W]], [[S]]
; CHECK-NEXT:    %countdown.paid = mul i64 %loop.steps, -2
; CHECK-NEXT:    %countdown.entry = load i64, ptr %countdown.addr
; CHECK-NEXT:    %countdown.exit = add i64 %countdown.entry, %countdown.paid
; CHECK-NEXT:    [[V:%.*]] = add i64 %countdown.exit, -4
; CHECK-NEXT:    store i64 [[V]], ptr %countdown.addr

define void @narrow(ptr %p, i32 %start, i32 %n) {
entry:
  %countdown.addr = call ptr @llvm.threadlocal.address.p0(ptr @__sampler_countdown)
  br label %body
body:
  %i = phi i32 [ %start, %entry ], [ %i.next, %body ]
  %gep = getelementptr inbounds i32, ptr %p, i32 %i
  store i32 %i, ptr %gep
  %cd = load i64, ptr %countdown.addr
  %paid = add i64 %cd, -4
  store i64 %paid, ptr %countdown.addr
  %i.next = add nsw i32 %i, 2
  %more = icmp slt i32 %i.next, %n
  br i1 %more, label %body, label %exit
exit:
  ret void
}

; An 8-bit counter that may wrap (the loop can run past 256 iterations): its
; value on exit does not tell how many iterations ran, so the loop keeps its
; payments.
; CHECK-LABEL: define void @wraps(
; CHECK:       body:
; CHECK:         %paid = add i64 %countdown.reg, -1
; CHECK:       exit:
; CHECK-NEXT:    %paid.lcssa = phi i64 [ %paid, %body ]
; CHECK-NEXT:    store i64 %paid.lcssa, ptr %countdown.addr

define void @wraps(ptr %p) {
entry:
  %countdown.addr = call ptr @llvm.threadlocal.address.p0(ptr @__sampler_countdown)
  br label %body
body:
  %i = phi i8 [ 0, %entry ], [ %i.next, %body ]
  %q = phi ptr [ %p, %entry ], [ %q.next, %body ]
  %cd = load i64, ptr %countdown.addr
  %paid = add i64 %cd, -1
  store i64 %paid, ptr %countdown.addr
  %i.next = add i8 %i, 1
  %q.next = getelementptr inbounds i8, ptr %q, i64 1
  %x = load i8, ptr %q
  %more = icmp ne i8 %x, %i
  br i1 %more, label %body, label %exit
exit:
  ret void
}

; Two of the recurrence's values read after the loop, in one exit block (a site
; lowered in place after the loop reads the countdown the iteration paid down
; to, and the exit stores it): each exit PHI becomes the countdown computed on
; the way out plus its offset, both after that computation. (Before 2026-11-30
; the second was inserted at the top of the block, before the value it adds
; to: a module the verifier rejects, which crashed clang-19's register
; coalescer on SQLite's sqlite3WalFindFrame.)
; CHECK-LABEL: define void @two_reads(
; CHECK:       exit:
; CHECK-NEXT:    %i.lcssa = phi i64 [ %i, %body ]
; CHECK-NEXT:    %countdown.paid = mul i64 %i.lcssa, -2
; CHECK-NEXT:    %countdown.entry = load i64, ptr %countdown.addr
; CHECK-NEXT:    %countdown.exit = add i64 %countdown.entry, %countdown.paid
; CHECK-NEXT:    [[PAID:%.*]] = add i64 %countdown.exit, -2
; CHECK-NEXT:    store i64 [[PAID]], ptr %countdown.addr
; CHECK-NEXT:    store volatile i64 %countdown.exit, ptr %out

define void @two_reads(ptr %p, ptr %out, i64 %n) {
entry:
  %countdown.addr = call ptr @llvm.threadlocal.address.p0(ptr @__sampler_countdown)
  br label %body
body:
  %i = phi i64 [ 0, %entry ], [ %i.next, %body ]
  %gep = getelementptr inbounds i32, ptr %p, i64 %i
  store i32 0, ptr %gep
  %cd = load i64, ptr %countdown.addr
  %paid = add i64 %cd, -2
  store i64 %paid, ptr %countdown.addr
  %i.next = add nuw nsw i64 %i, 1
  %more = icmp ult i64 %i.next, %n
  br i1 %more, label %body, label %exit
exit:
  store volatile i64 %cd, ptr %out
  ret void
}

; A loop with a check reads the countdown every iteration: left alone.
; CHECK-LABEL: define void @checked(
; CHECK:       latch:
; CHECK-NEXT:    %paid = add i64 %countdown.reg, -3
; CHECK-NEXT:    %enough = icmp sgt i64 %paid, -1

define void @checked(ptr %p, i32 %n) {
entry:
  %countdown.addr = call ptr @llvm.threadlocal.address.p0(ptr @__sampler_countdown)
  br label %body
body:
  %i = phi i32 [ 0, %entry ], [ %i.next, %latch ]
  %gep = getelementptr inbounds i32, ptr %p, i32 %i
  store i32 %i, ptr %gep
  %i.next = add nuw nsw i32 %i, 1
  %done = icmp eq i32 %i.next, %n
  br i1 %done, label %exit, label %latch
latch:
  %cd = load volatile i64, ptr %countdown.addr
  %paid = add i64 %cd, -3
  store i64 %paid, ptr %countdown.addr
  %enough = icmp sgt i64 %paid, -1
  br i1 %enough, label %body, label %toslow
toslow:
  call void @slow()
  br label %exit
exit:
  ret void
}

declare void @slow()
declare ptr @llvm.threadlocal.address.p0(ptr)

; A function whose fast copy may return before it touches the countdown again
; (two compares, then a region behind a check of its own) gets a twin: its
; entry check's slow way becomes a tail call to a private copy entered with
; the first region paid for, and its early returns get a return block of
; their own (lib/EntryTwin.cpp). The backend can then save the callee-saved
; registers after the early returns. The input is what the pipeline leaves:
; the entry check, the fast copy (no sites), the instrumented copy (a site).
; RUN: %opt-sampler -passes=sampler-entry-twin,verify -S %s | FileCheck %s
; Off (limit 0), and a function above the limit, stay as they are:
; RUN: %opt-sampler -passes=sampler-entry-twin,verify -sampler-entry-twin-limit=0 -S %s | FileCheck %s --check-prefix=OFF
; RUN: %opt-sampler -passes=sampler-entry-twin,verify -sampler-entry-twin-limit=10 -S %s | FileCheck %s --check-prefix=OFF
; A function that calls another, even only in its loop, gets no twin: what the
; call needs across it takes callee-saved registers from the entry on, so the
; early returns would save them anyway.
; RUN: %opt-sampler -passes=sampler-entry-twin,verify -S %s | FileCheck %s --check-prefix=CALLS

; F: the check pays and tests as before; its slow way forwards the arguments.
; CHECK-LABEL: define i32 @gt(i32 noundef %a, i32 noundef %b, ptr %p)
; CHECK:         %countdown.paid = add i64 %countdown, -3
; CHECK-NEXT:    store i64 %countdown.paid, ptr %countdown.addr
; CHECK:         br i1 %countdown.enough, label %body, label %sampler.twin
; CHECK:       sampler.twin:
; CHECK-NEXT:    %[[R:.*]] = musttail call i32 @gt.sampler.twin(i32 noundef %a, i32 noundef %b, ptr %p)
; CHECK-NEXT:    ret i32 %[[R]]
; The instrumented copy of the first region is gone from F:
; CHECK-NOT:   slow.first:
; The early returns have their own return block; the long way keeps the other.
; CHECK:       common.ret.early:
; CHECK-NEXT:    %r.early = phi i32 [ 1, %second ], [ 0, %body ]
; CHECK-NEXT:    ret i32 %r.early
; CHECK:       common.ret:
; CHECK-NEXT:    %r = phi i32 [ %v, %long ], [ %v.slow, %long.slow ]
; CHECK-NEXT:    ret i32 %r
; CHECK:       {{^}}}
; The twin: no payment and no test on entry, straight to the slow way; its
; fast copy of the first region is gone, the rest of F is there.
; CHECK-LABEL: define internal i32 @gt.sampler.twin(i32 noundef %a, i32 noundef %b, ptr %p)
; CHECK-SAME:    #[[ATTRS:[0-9]+]]
; CHECK-NEXT:  entry:
; CHECK-NEXT:    %countdown.addr = call ptr @llvm.threadlocal.address.p0(ptr @__sampler_countdown)
; CHECK-NEXT:    br label %slow.first
; CHECK-NOT:   {{^}}body:
; CHECK:       slow.first:
; CHECK:       long.slow:
; CHECK:       attributes #[[ATTRS]] = { noinline "sampler-instrumented-copy" }
; OFF-NOT:     sampler.twin

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@__sampler_countdown = external thread_local(initialexec) global i64

define i32 @gt(i32 noundef %a, i32 noundef %b, ptr %p) {
entry:
  %countdown.addr = call ptr @llvm.threadlocal.address.p0(ptr @__sampler_countdown)
  %countdown = load volatile i64, ptr %countdown.addr
  %countdown.paid = add i64 %countdown, -3
  store i64 %countdown.paid, ptr %countdown.addr
  %countdown.enough = icmp sgt i64 %countdown.paid, -1
  br i1 %countdown.enough, label %body, label %slow.first

; The fast copy: two early returns, then a region behind its own check.
body:
  %lt = icmp slt i32 %a, %b
  br i1 %lt, label %common.ret, label %second
second:
  %eq = icmp eq i32 %a, %b
  br i1 %eq, label %common.ret, label %check2
check2:
  %c2 = load volatile i64, ptr %countdown.addr
  %c2.paid = add i64 %c2, -2
  store i64 %c2.paid, ptr %countdown.addr
  %c2.enough = icmp sgt i64 %c2.paid, -1
  br i1 %c2.enough, label %long, label %long.slow
long:
  %v = load i32, ptr %p
  br label %common.ret

; The instrumented copy (one site, its draw left out).
slow.first:
  %cd = load volatile i64, ptr %countdown.addr
  %fire = icmp slt i64 %cd, -2
  %lt.slow = icmp slt i32 %a, %b
  br i1 %lt.slow, label %common.ret, label %long.slow
long.slow:
  %v.slow = load i32, ptr %p
  br label %common.ret

common.ret:
  %r = phi i32 [ 0, %body ], [ 1, %second ], [ %v, %long ], [ 0, %slow.first ], [ %v.slow, %long.slow ]
  ret i32 %r
}

; CALLS-LABEL: define i32 @gt_calls(i32 noundef %a, i32 noundef %b, ptr %p)
; CALLS-NOT:     musttail
; CALLS:         br i1 %countdown.enough, label %body, label %slow.first
; CALLS:       {{^}}}
; CALLS-NOT:   @gt_calls.sampler.twin
define i32 @gt_calls(i32 noundef %a, i32 noundef %b, ptr %p) {
entry:
  %countdown.addr = call ptr @llvm.threadlocal.address.p0(ptr @__sampler_countdown)
  %countdown = load volatile i64, ptr %countdown.addr
  %countdown.paid = add i64 %countdown, -3
  store i64 %countdown.paid, ptr %countdown.addr
  %countdown.enough = icmp sgt i64 %countdown.paid, -1
  br i1 %countdown.enough, label %body, label %slow.first

; The same early returns; the long way calls @work in a loop.
body:
  %lt = icmp slt i32 %a, %b
  br i1 %lt, label %common.ret, label %second
second:
  %eq = icmp eq i32 %a, %b
  br i1 %eq, label %common.ret, label %check2
check2:
  %c2 = load volatile i64, ptr %countdown.addr
  %c2.paid = add i64 %c2, -2
  store i64 %c2.paid, ptr %countdown.addr
  %c2.enough = icmp sgt i64 %c2.paid, -1
  br i1 %c2.enough, label %long, label %long.slow
long:
  %v = call i32 @work(ptr %p)
  %more = icmp ne i32 %v, 0
  br i1 %more, label %long, label %common.ret

slow.first:
  %cd = load volatile i64, ptr %countdown.addr
  %fire = icmp slt i64 %cd, -2
  %lt.slow = icmp slt i32 %a, %b
  br i1 %lt.slow, label %common.ret, label %long.slow
long.slow:
  %v.slow = call i32 @work(ptr %p)
  %more.slow = icmp ne i32 %v.slow, 0
  br i1 %more.slow, label %long.slow, label %common.ret

common.ret:
  %r = phi i32 [ 0, %body ], [ 1, %second ], [ %v, %long ], [ 0, %slow.first ], [ %v.slow, %long.slow ]
  ret i32 %r
}

declare i32 @work(ptr)

declare ptr @llvm.threadlocal.address.p0(ptr)

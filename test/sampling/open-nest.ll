; A nest that calls a local function the inliner will take at its one call
; (@work: internal, one call, in a loop: lib/SingleCallLocals.h), and that
; has a loop of its own (a long outer iteration), stays open: it gets no
; tail (lib/LoopTails.h), and the instrumented copy goes back to fast code
; at its inner loop's header directly, as without natural nests. The fast
; outer loop is then entered there too, and only the inner loop is a loop.
; A nest without such a call (@plain) keeps its tail, and its fast outer
; loop stays natural; so does a nest whose callee has no loop (@short calls
; @step: its outer iterations stay short, and so does a tail's run). (-sampler-preinline-limit=0: @work
; is not inlined before the copies, as a callee above that limit would not.)
; RUN: %opt-sampler -sampler-clone-threshold=1 -sampler-outline-limit=0 -sampler-preinline-limit=0 -sampler-schemes=branches -passes='sampler,verify,print<loops>' -disable-output %s 2>&1 | FileCheck %s --check-prefix=LOOPS
; RUN: %opt-sampler -sampler-clone-threshold=1 -sampler-outline-limit=0 -sampler-preinline-limit=0 -sampler-schemes=branches -passes=sampler -S %s | FileCheck %s
; -Rpass=sampler-open-nest (-pass-remarks) names each open nest's call, and
; only @calls's:
; RUN: %opt-sampler -sampler-clone-threshold=1 -sampler-outline-limit=0 -sampler-preinline-limit=0 -sampler-schemes=branches -passes=sampler -disable-output %s -pass-remarks=sampler-open-nest 2>&1 | FileCheck %s --check-prefix=REMARK
; REMARK: remark: <unknown>:0:0: a nest of 2 loops calls work, a function with a loop inlined at its one call: no tails
; REMARK-NOT: remark
; With -sampler-open-nests=0 (-fno-sampler-open-nests) @calls gets a tail too:
; RUN: %opt-sampler -sampler-clone-threshold=1 -sampler-outline-limit=0 -sampler-preinline-limit=0 -sampler-schemes=branches -sampler-open-nests=0 -passes=sampler -S %s | FileCheck %s --check-prefix=CLOSED

; LOOPS-LABEL: Loop info for function 'calls':
; LOOPS-NOT:     %outer<header>
; LOOPS:         Loop at depth 1 containing: %inner<header>,
; LOOPS-NOT:     %outer<header>
; LOOPS-LABEL: Loop info for function 'short':
; LOOPS:         Loop at depth 1 containing: %outer<header>,%inner,
; LOOPS-NEXT:        Loop at depth 2 containing: %inner<header>,
; LOOPS-LABEL: Loop info for function 'plain':
; LOOPS:         Loop at depth 1 containing: %outer<header>,%inner,
; LOOPS-NEXT:        Loop at depth 2 containing: %inner<header>,

; CHECK-LABEL: define void @calls(
; CHECK-NOT:   .tail
; The instrumented inner loop's latch check enters the fast inner loop:
; CHECK:       sampler.check{{[0-9]+}}:{{.*}}preds = %site.cont.slow{{$}}
; CHECK:         br i1 %countdown.enough{{[0-9]+}}, label %inner, label %sampler.to.slow
; CHECK-NOT:   .tail
; CHECK-LABEL: define void @short(
; CHECK:       sampler.check{{[0-9]+}}:{{.*}}preds = %site.cont.slow{{$}}
; CHECK:         br i1 %countdown.enough{{[0-9]+}}, label %inner.tail, label %sampler.to.slow
; CHECK-LABEL: define void @plain(
; CHECK:       sampler.check{{[0-9]+}}:{{.*}}preds = %site.cont.slow{{$}}
; CHECK:         br i1 %countdown.enough{{[0-9]+}}, label %inner.tail, label %sampler.to.slow

; CLOSED-LABEL: define void @calls(
; CLOSED:       sampler.check{{[0-9]+}}:{{.*}}preds = %site.cont.slow{{$}}
; CLOSED:         br i1 %countdown.enough{{[0-9]+}}, label %inner.tail, label %sampler.to.slow

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define void @calls(ptr %p, i32 %n) {
entry:
  br label %outer
outer:
  %i = phi i32 [ 0, %entry ], [ %i.next, %outer.latch ]
  br label %inner
inner:
  %j = phi i32 [ 0, %outer ], [ %j.next, %inner ]
  %gep = getelementptr inbounds i32, ptr %p, i32 %j
  store i32 %i, ptr %gep
  %j.next = add nsw i32 %j, 1
  %more.j = icmp slt i32 %j.next, %n
  br i1 %more.j, label %inner, label %outer.latch
outer.latch:
  call void @work(ptr %p, i32 %i)
  %i.next = add nsw i32 %i, 1
  %more.i = icmp slt i32 %i.next, %n
  br i1 %more.i, label %outer, label %exit
exit:
  ret void
}

define void @short(ptr %p, i32 %n) {
entry:
  br label %outer
outer:
  %i = phi i32 [ 0, %entry ], [ %i.next, %outer.latch ]
  br label %inner
inner:
  %j = phi i32 [ 0, %outer ], [ %j.next, %inner ]
  %gep = getelementptr inbounds i32, ptr %p, i32 %j
  store i32 %i, ptr %gep
  %j.next = add nsw i32 %j, 1
  %more.j = icmp slt i32 %j.next, %n
  br i1 %more.j, label %inner, label %outer.latch
outer.latch:
  call void @step(ptr %p, i32 %i)
  %i.next = add nsw i32 %i, 1
  %more.i = icmp slt i32 %i.next, %n
  br i1 %more.i, label %outer, label %exit
exit:
  ret void
}

define void @plain(ptr %p, i32 %n) {
entry:
  br label %outer
outer:
  %i = phi i32 [ 0, %entry ], [ %i.next, %outer.latch ]
  br label %inner
inner:
  %j = phi i32 [ 0, %outer ], [ %j.next, %inner ]
  %gep = getelementptr inbounds i32, ptr %p, i32 %j
  store i32 %i, ptr %gep
  %j.next = add nsw i32 %j, 1
  %more.j = icmp slt i32 %j.next, %n
  br i1 %more.j, label %inner, label %outer.latch
outer.latch:
  %i.next = add nsw i32 %i, 1
  %more.i = icmp slt i32 %i.next, %n
  br i1 %more.i, label %outer, label %exit
exit:
  ret void
}

define internal void @work(ptr %p, i32 %k) {
entry:
  br label %scan
scan:
  %m = phi i32 [ 0, %entry ], [ %m.next, %scan ]
  %gep = getelementptr inbounds i32, ptr %p, i32 %m
  store i32 %k, ptr %gep
  %m.next = add nsw i32 %m, 1
  %more = icmp slt i32 %m.next, %k
  br i1 %more, label %scan, label %done
done:
  ret void
}

define internal void @step(ptr %p, i32 %k) {
entry:
  %neg = icmp slt i32 %k, 0
  br i1 %neg, label %set, label %done
set:
  store i32 0, ptr %p
  br label %done
done:
  ret void
}

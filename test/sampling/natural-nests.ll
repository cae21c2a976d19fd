; Where the instrumented copy goes back to the fast copy. Without natural
; nests (-sampler-natural-nests=0) it may return at any loop header, the inner
; loop's included: the fast outer loop is then entered at its inner loop's
; header too, an irreducible cycle that LoopInfo does not report (only the
; inner loops are loops). With them (the default) it returns at the header of
; an inner loop through a tail (lib/LoopTails.h): a copy of the outer loop's fast code whose inner loop
; is entered at its header, and whose way to the outer loop's next iteration
; is an entry of the fast outer loop, at its header. The fast outer loop is a
; natural loop then, with the inner one inside it; so is the tail's inner loop.
; RUN: %opt-sampler -sampler-clone-threshold=1 -sampler-outline-limit=0 -sampler-schemes=branches -sampler-natural-nests=0 -passes='sampler,print<loops>' -disable-output %s 2>&1 | FileCheck %s --check-prefix=OLD
; RUN: %opt-sampler -sampler-clone-threshold=1 -sampler-outline-limit=0 -sampler-schemes=branches -passes='sampler,verify,print<loops>' -disable-output %s 2>&1 | FileCheck %s --check-prefix=NATURAL
; RUN: %opt-sampler -sampler-clone-threshold=1 -sampler-outline-limit=0 -sampler-schemes=branches -passes=sampler -S %s | FileCheck %s --check-prefix=TAIL
; Without tails (the instrumented copy outlined, -sampler-outline-limit), it
; returns at outermost headers only, and pays for the inner loop's regions
; until then (`sampler.pay`):
; RUN: %opt-sampler -sampler-clone-threshold=1 -sampler-outline-limit=1000 -sampler-schemes=branches -passes=sampler -S %s | FileCheck %s --check-prefix=STAY

; OLD-LABEL: Loop info for function 'nest':
; OLD-NOT:     %outer<header>
; OLD:         Loop at depth 1 containing: %inner<header>,
; OLD-LABEL: Loop info for function 'sampler.register_unit':

; NATURAL-LABEL: Loop info for function 'nest':
; NATURAL:         Loop at depth 1 containing: %outer<header>,%inner,
; NATURAL-NEXT:        Loop at depth 2 containing: %inner<header>,
; NATURAL-LABEL: Loop info for function 'sampler.register_unit':

; TAIL-LABEL: define void @nest(
; The fast outer loop's latch check goes back to its header:
; TAIL:       [[FASTBACK:sampler.check[0-9]+]]:{{.*}}preds = %site.cont1{{$}}
; TAIL:         br i1 %countdown.enough{{[0-9]+}}, label %outer, label %sampler.to.slow{{[0-9]+}}, {{.*}}!sampler.backedge.check
; The entry check of the outer loop, shared by the instrumented copy's latch
; and the tail's:
; TAIL:       [[OUTERENTRY:sampler.check[0-9]+]]:{{.*}}preds = %site.cont1.tail, %site.cont1.slow{{$}}
; TAIL:         br i1 %countdown.enough{{[0-9]+}}, label %outer, label %sampler.to.slow{{[0-9]+}}, {{.*}}!sampler.check
; TAIL:       outer:{{.*}}preds = %[[OUTERENTRY]], %[[FASTBACK]], %sampler.body{{$}}
; The instrumented inner loop's latch check goes on in the tail:
; TAIL:       sampler.check{{[0-9]+}}:{{.*}}preds = %site.cont.slow{{$}}
; TAIL-NEXT:    load volatile
; TAIL:         br i1 %countdown.enough{{[0-9]+}}, label %inner.tail, label %sampler.to.slow
; TAIL:       sampler.check{{[0-9]+}}:{{.*}}preds = %site.cont.tail{{$}}
; TAIL:         br i1 %countdown.enough{{[0-9]+}}, label %inner.tail, label %sampler.to.slow{{[0-9]+}}, {{.*}}!sampler.backedge.check
; TAIL:       site.cont1.tail:
; TAIL-NEXT:    br i1 %more.i.tail, label %[[OUTERENTRY]], label %exit

; STAY-LABEL: define void @nest(
; STAY:       [[TOSLOW:sampler.to.slow[0-9]+]]:{{.*}}preds = %sampler.pay{{$}}
; STAY:       sampler.pay:
; STAY-NEXT:    [[CD:%countdown[0-9]+]] = load volatile i64, ptr %countdown.addr
; STAY-NEXT:    [[PAID:%countdown.paid[0-9]+]] = sub i64 [[CD]], 2
; STAY-NEXT:    store i64 [[PAID]], ptr %countdown.addr
; STAY-NEXT:    br label %[[TOSLOW]]

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define void @nest(ptr %p, i32 %n) {
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

; The way back to fast code from inside an irreducible cycle. The loop %outer
; holds a cycle of %first and %last that is entered at both (a `goto` into a
; loop's body makes one: bzip2's unRLE_obuf_to_output_FAST), so its back edge
; %last -> %first leads to a block that heads no loop. The instrumented copy
; may not go back to the fast copy there: %first is inside the fast %outer,
; which would then have a second entry. Until this, that back edge paid for
; its region and stayed instrumented (`sampler.pay`) until %outer's next
; iteration, which the cycle may never reach: a sample taken in it ran
; instrumented to the function's end. Now %outer gets a tail
; (lib/LoopTails.h), entered at %first, and the instrumented copy's back edge
; goes there through a check like any way back to fast code; in the tail the
; cycle, entered at %first only, is a natural loop. The fast %outer stays a
; natural loop.
; RUN: %opt-sampler -sampler-clone-threshold=1 -sampler-outline-limit=0 -sampler-schemes=branches -passes='sampler,verify,print<loops>' -disable-output %s 2>&1 | FileCheck %s --check-prefix=LOOPS
; RUN: %opt-sampler -sampler-clone-threshold=1 -sampler-outline-limit=0 -sampler-schemes=branches -passes=sampler -S %s | FileCheck %s --check-prefix=TAIL
; Without natural nests (or without tails: the instrumented copy outlined) it
; stays instrumented, as before:
; RUN: %opt-sampler -sampler-clone-threshold=1 -sampler-outline-limit=0 -sampler-schemes=branches -sampler-natural-nests=0 -passes=sampler -S %s | FileCheck %s --check-prefix=STAY
; RUN: %opt-sampler -sampler-clone-threshold=1 -sampler-outline-limit=1000 -sampler-schemes=branches -passes=sampler -S %s | FileCheck %s --check-prefix=STAY

; LOOPS-LABEL: Loop info for function 'runs':
; LOOPS-DAG:   Loop at depth 1 containing: %first.tail<header>,%last.tail,
; LOOPS-DAG:   Loop at depth 1 containing: %outer<header>,
; LOOPS-LABEL: Loop info for function 'sampler.register_unit':

; TAIL-LABEL: define void @runs(
; The instrumented copy's back edge: its region's trials paid, then the tail.
; TAIL:       [[SLOWBACK:sampler.check[0-9]+]]:{{.*}}preds = %site.cont1.slow{{$}}
; TAIL-NEXT:    load volatile i64
; TAIL-NEXT:    [[PAID:%countdown.paid[0-9]+]] = sub i64 %{{.*}}, 2
; TAIL-NEXT:    store i64 [[PAID]]
; TAIL-NEXT:    [[ENOUGH:%countdown.enough[0-9]+]] = icmp sge i64 [[PAID]], 0
; TAIL-NEXT:    br i1 [[ENOUGH]], label %first.tail, label %sampler.to.slow{{[0-9]+}}, {{.*}}!sampler.check
; The tail's own back edge, the latch of its loop:
; TAIL:       [[TAILBACK:sampler.check[0-9]+]]:{{.*}}preds = %site.cont1.tail{{$}}
; TAIL:         br i1 %countdown.enough{{[0-9]+}}, label %first.tail, label %sampler.to.slow{{[0-9]+}}, {{.*}}!sampler.backedge.check
; TAIL:       first.tail:{{.*}}preds = %[[TAILBACK]], %[[SLOWBACK]]{{$}}
; The tail leaves for %outer's next iteration through %outer's entry check:
; TAIL:       site.cont4.tail:
; TAIL-NEXT:    br i1 %more.i.tail, label %sampler.check{{[0-9]+}}, label %exit

; STAY-LABEL: define void @runs(
; STAY-NOT:   .tail:
; STAY:       sampler.pay:
; STAY-NEXT:    [[CD:%countdown[0-9]+]] = load volatile i64, ptr %countdown.addr
; STAY-NEXT:    [[PAID:%countdown.paid[0-9]+]] = sub i64 [[CD]], 2
; STAY-NEXT:    store i64 [[PAID]], ptr %countdown.addr
; STAY-NEXT:    br label %sampler.to.slow
; STAY-NOT:   .tail:

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define void @runs(ptr %p, i32 %n) {
entry:
  br label %outer
outer:
  %i = phi i32 [ 0, %entry ], [ %i.next, %latch ]
  %long = icmp sgt i32 %i, 3
  br i1 %long, label %first, label %last
first:
  %x = phi i32 [ %i, %outer ], [ %y.next, %last ]
  %gep = getelementptr inbounds i32, ptr %p, i32 %x
  store i32 %i, ptr %gep
  %x.next = add nsw i32 %x, 1
  br label %last
last:
  %y = phi i32 [ %i, %outer ], [ %x.next, %first ]
  %y.next = add nsw i32 %y, 2
  %more.y = icmp slt i32 %y.next, %n
  br i1 %more.y, label %first, label %latch
latch:
  %i.next = add nsw i32 %i, 1
  %more.i = icmp slt i32 %i.next, %n
  br i1 %more.i, label %outer, label %exit
exit:
  ret void
}

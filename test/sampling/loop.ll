; A loop gets a threshold check on its back edge. The entry region runs to the
; first check: the loop test (1 site) and, on the way out, the test after the
; loop (1 site): weight 2. The back-edge region is the loop test again, or the
; test after the loop: weight 2 as well. Each copy's latch has a check of its
; own, so that both copies' loops are natural loops (one entry: the header),
; which LoopInfo, LICM and the vectoriser see; a check shared by both latches
; made the fast loop a cycle entered at its latch from the instrumented copy.
; RUN: %opt-sampler -sampler-clone-threshold=1 -sampler-outline-limit=0 -passes=sampler -sampler-schemes=branches -S %s | FileCheck %s
; RUN: %opt-sampler -sampler-clone-threshold=1 -sampler-outline-limit=0 -passes='sampler,print<loops>' -sampler-schemes=branches -disable-output %s 2>&1 | FileCheck %s --check-prefix=LOOPS

; LOOPS-LABEL: Loop info for function 'count':
; LOOPS-DAG: Loop at depth 1 containing: %head.slow<header>,
; LOOPS-DAG: Loop at depth 1 containing: %head<header>,%site.cont<exiting>,%latch,%[[FASTCHECK:sampler.check[0-9]+]]<latch><exiting>{{$}}
; LOOPS-LABEL: Loop info for function 'sampler.register_unit':

; CHECK-LABEL: define i32 @count(
; CHECK:     sampler.check:
; CHECK-NEXT:  [[CD:%countdown[0-9]*]] = load volatile i64, ptr %countdown.addr
; CHECK-NEXT:  %countdown.paid = sub i64 [[CD]], 2
; CHECK-NEXT:  store i64 %countdown.paid, ptr %countdown.addr
; CHECK-NEXT:  %countdown.enough = icmp sge i64 %countdown.paid, 0
; The fast latch's check, tagged for the bounded-loop pass with its weight:
; CHECK:     [[BACKEDGE:sampler.check[0-9]+]]:
; CHECK-SAME:  preds = %latch{{$}}
; CHECK:       [[CD2:%countdown[0-9]+]] = load volatile i64, ptr %countdown.addr
; CHECK-NEXT:  %countdown.paid{{[0-9]+}} = sub i64 [[CD2]], 2
; CHECK-NEXT:  store i64 %countdown.paid{{[0-9]+}}, ptr %countdown.addr
; CHECK-NEXT:  %countdown.enough{{[0-9]+}} = icmp sge i64 %countdown.paid{{[0-9]+}}, 0
; CHECK-NEXT:  br i1 %countdown.enough{{[0-9]+}}, label %head, label %[[TOSLOW:sampler.to.slow[0-9]*]], !prof ![[LIKELY:[0-9]+]], !sampler.backedge.check ![[W2:[0-9]+]]
; The way to the instrumented copy reads the countdown again (volatile), draws a
; fresh one if it was unknown before the check, and enters the copy with it.
; CHECK:     [[TOSLOW]]:
; CHECK-NEXT:  load volatile i64, ptr %countdown.addr
; CHECK:       call i64 @__sampler_next_countdown(i64 -9223372036854775808)
; CHECK:       br label %head.slow
; The instrumented latch's check (the one the fast copy's entry edges would
; share, were the loop's entry a check edge) returns to the fast copy at its
; header, or goes round the instrumented loop again (the tag of a check that is
; not a back edge's):
; CHECK:     [[SLOWBACK:sampler.check[0-9]+]]:
; CHECK-SAME:  preds = %latch.slow{{$}}
; CHECK:       sub i64 %{{.*}}, 2
; CHECK:       br i1 %countdown.enough{{[0-9]+}}, label %head, label %sampler.to.slow{{[0-9]+}}, !prof ![[LIKELY]], !sampler.check ![[W2]]{{$}}
; CHECK:       br label %head.slow
; The fast copy's loop test is the original code (its trial was paid at the check):
; CHECK:     {{^}}head:
; CHECK:       %more = icmp slt i32
; CHECK-NEXT:  br label %site.cont
; CHECK:     site.cont:
; CHECK-NEXT:  br i1 %more, label %latch, label %exit
; CHECK:     {{^}}latch:
; CHECK:       br label %[[BACKEDGE]]
; CHECK:     latch.slow:
; CHECK:       br label %[[SLOWBACK]]
; CHECK: ![[W2]] = !{i64 2}

source_filename = "loop.c"

define i32 @count(i32 %n) {
entry:
  br label %head
head:
  %i = phi i32 [ 0, %entry ], [ %i.next, %latch ]
  %more = icmp slt i32 %i, %n
  br i1 %more, label %latch, label %exit
latch:
  %i.next = add i32 %i, 1
  br label %head
exit:
  %big = icmp sgt i32 %i, 100
  br i1 %big, label %yes, label %no
yes:
  ret i32 1
no:
  ret i32 0
}

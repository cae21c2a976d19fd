; With -sampler-outline-limit=N (off by default), a function cloned in place of
; at most N instructions keeps only its fast copy and checks; the instrumented
; copy becomes @F.sampler.slow(args..., ptr %sampler.state) (lib/SlowCopyOutliner.h).
; The same loop as loop.ll: entry check (weight 2), the latch's check, and the
; check at the header where the instrumented copy returns to the fast one.
;   * each way into the instrumented copy is a call block of its own: the entry's
;     index and the slots live into it go into the state record, the call, then
;     the slots live at its exits come back and a switch picks the exit (or the
;     function returns the call's value);
;   * the outlined copy reads the record, switches to its entry, and on a way out
;     writes the record and returns.
; RUN: %opt-sampler -sampler-outline-limit=200 -passes=sampler,verify -sampler-schemes=branches -S %s | FileCheck %s
; RUN: %opt-sampler -sampler-outline-limit=200 -passes='sampler,print<loops>' -sampler-schemes=branches -disable-output %s 2>&1 | FileCheck %s --check-prefix=LOOPS
; Over the limit (or 0, the default): cloned in place, as loop.ll shows.
; RUN: %opt-sampler -sampler-outline-limit=5 -passes=sampler -sampler-schemes=branches -S %s | FileCheck %s --check-prefix=INPLACE
; RUN: %opt-sampler -passes=sampler -sampler-schemes=branches -S %s | FileCheck %s --check-prefix=INPLACE

; The fast loop stays a natural loop: the call blocks are not in it.
; LOOPS-LABEL: Loop info for function 'count':
; LOOPS-NEXT:  Loop at depth 1 containing: %head<header>,%site.cont<exiting>,%latch,%[[LATCH:sampler.check[0-9]+]]<latch><exiting>{{$}}
; LOOPS-NEXT:  Loop info for function 'sampler.register_unit':

; CHECK: %count.sampler.state = type { i32, i32, i32, i1, i1, i64 }
; CHECK-LABEL: define i32 @count(
; CHECK:       %sampler.state = alloca %count.sampler.state
; CHECK:     sampler.check:
; CHECK:       %countdown.paid = sub i64 %{{.*}}, 2
; CHECK:       br label %[[CALL0:sampler.call.slow]]
; The latch's way to the instrumented copy enters it at the header (index 1):
; CHECK:     [[BACK:sampler.check[0-9]+]]:
; CHECK-SAME:  preds = %latch
; CHECK:       br i1 %countdown.enough{{[0-9]+}}, label %head, label %sampler.to.slow{{[0-9]+}}, {{.*}}!sampler.backedge.check
; CHECK:       br label %[[CALL1:sampler.call.slow[0-9]+]]
; The check where the instrumented copy comes back (the header's), with the
; loop counter it hands back:
; CHECK:     [[RETURN:sampler.check[0-9]+]]:
; CHECK-SAME:  preds = %[[CALL1]], %[[CALL0]]
; CHECK-NEXT:  %i.reg2mem.0 = phi i32
; CHECK:     [[CALL0]]:
; CHECK:       store i32 0, ptr
; CHECK:       %[[R0:[0-9]+]] = call i32 @count.sampler.slow(i32 %n, ptr noalias nocapture noundef %sampler.state)
; CHECK:       %sampler.exit = load i32
; CHECK-NEXT:  %cond = icmp eq i32 %sampler.exit, 1
; CHECK-NEXT:  br i1 %cond, label %[[RETURN]], label %[[RET0:sampler.slow.returned]]
; CHECK:     [[RET0]]:
; CHECK-NEXT:  ret i32 %[[R0]]
; CHECK:     [[CALL1]]:
; CHECK:       store i32 1, ptr
; CHECK:       call i32 @count.sampler.slow(i32 %n, ptr noalias nocapture noundef %sampler.state)

; CHECK:       define internal i32 @count.sampler.slow(i32 %n, ptr noalias nocapture noundef %sampler.state) unnamed_addr #[[ATTRS:[0-9]+]]
; CHECK:       %sampler.entry = load i32
; CHECK-NEXT:  %cond = icmp eq i32 %sampler.entry, 1
; CHECK-NEXT:  br i1 %cond, label %head.slow, label %sampler.body.slow
; CHECK:     head.slow:
; CHECK:       call i64 @__sampler_next_countdown
; CHECK:     latch.slow:
; CHECK-NEXT:  %i.next.slow = add i32
; CHECK-NEXT:  br label %sampler.back
; The way out writes the counter and the exit's index:
; CHECK:     sampler.back:
; CHECK-NEXT:  getelementptr inbounds %count.sampler.state, ptr %sampler.state, i32 0, i32 1
; CHECK-NEXT:  store i32 %i.next.slow, ptr
; CHECK-NEXT:  getelementptr inbounds %count.sampler.state, ptr %sampler.state, i32 0, i32 0
; CHECK-NEXT:  store i32 1, ptr
; CHECK-NEXT:  ret i32 poison
; CHECK: attributes #[[ATTRS]] = { cold noinline "sampler-instrumented-copy" }

; INPLACE-NOT: sampler.slow(
; INPLACE:     head.slow:
; INPLACE-NOT: sampler.slow(

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

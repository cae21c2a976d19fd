; With -sampler-outline-limit=N (off by default), a function cloned in place of
; at most N instructions keeps only its fast copy and its checks; the instrumented
; copy, with the checks' ways into it (the re-read, the fresh draw), becomes
; @F.sampler.slow (lib/SlowCopyOutliner.h). The same loop as loop.ll: the entry
; check (weight 2), the latch's check, and the header's check where the
; instrumented copy returns to the fast one.
;   * a failed check calls the copy with F's arguments, the entry's index and the
;     slots live into that entry (here the loop counter, or poison where it is
;     not live); the call returns {exit index, F's value, slots live at exits};
;     a switch goes on at the exit, or F returns the call's value; a target's
;     entry and back-edge checks share their call;
;   * the outlined copy switches to its entry and, on a way out, returns the
;     exit's index with the slots.
; RUN: %opt-sampler -sampler-outline-limit=200 -passes=sampler,verify -sampler-schemes=branches -S %s | FileCheck %s
; RUN: %opt-sampler -sampler-outline-limit=200 -passes='sampler,print<loops>' -sampler-schemes=branches -disable-output %s 2>&1 | FileCheck %s --check-prefix=LOOPS
; Over the limit (or 0, the default): cloned in place, as loop.ll shows.
; RUN: %opt-sampler -sampler-outline-limit=5 -passes=sampler -sampler-schemes=branches -S %s | FileCheck %s --check-prefix=INPLACE
; RUN: %opt-sampler -passes=sampler -sampler-schemes=branches -S %s | FileCheck %s --check-prefix=INPLACE

; The fast loop stays a natural loop: the call blocks are not in it.
; LOOPS-LABEL: Loop info for function 'count':
; LOOPS-NEXT:  Loop at depth 1 containing: %head<header>,%site.cont<exiting>,%latch,%[[LATCH:sampler.check[0-9]+]]<latch><exiting>{{$}}
; LOOPS-NEXT:  Loop info for function 'sampler.register_unit':

; CHECK-LABEL: define i32 @count(
; CHECK:     sampler.check:
; CHECK:       %countdown.paid = sub i64 %{{.*}}, 2
; CHECK:       br i1 %countdown.enough, label %sampler.body, label %[[CALL0:sampler.call.slow]], !prof
; The latch's check enters the copy at the header (index 1) with the counter:
; CHECK:     [[BACK:sampler.check[0-9]+]]:
; CHECK-SAME:  preds = %latch
; CHECK:       br i1 %countdown.enough{{[0-9]+}}, label %head, label %[[CALL1:sampler.call.slow[0-9]+]], {{.*}}!sampler.backedge.check
; The check where the copy comes back (the header's), with the counter it hands
; back; it enters the copy at the header too, through the same call:
; CHECK:     [[RETURN:sampler.check[0-9]+]]:
; CHECK-SAME:  preds = %[[CALL1]], %[[CALL0]]
; CHECK-NEXT:  %i.reg2mem.0 = phi i32
; CHECK:       br i1 %countdown.enough{{[0-9]+}}, label %head, label %[[CALL1]], {{.*}}!sampler.check
; CHECK:     [[CALL0]]:
; CHECK-NEXT:  [[R0:%[0-9]+]] = call { i32, i32, i32 } @count.sampler.slow(i32 %n, i32 0, i32 poison)
; CHECK-NEXT:  extractvalue { i32, i32, i32 } [[R0]], 2
; CHECK-NEXT:  %sampler.exit = extractvalue { i32, i32, i32 } [[R0]], 0
; CHECK-NEXT:  %cond = icmp eq i32 %sampler.exit, 1
; CHECK-NEXT:  br i1 %cond, label %[[RETURN]], label %[[RET0:sampler.slow.returned]]
; CHECK:     [[RET0]]:
; CHECK-NEXT:  [[V:%[0-9]+]] = extractvalue { i32, i32, i32 } [[R0]], 1
; CHECK-NEXT:  ret i32 [[V]]
; CHECK:     [[CALL1]]:
; CHECK-SAME:  preds = %[[RETURN]], %[[BACK]]
; CHECK-NEXT:  %[[I:.*]] = phi i32 [ %i.next, %[[BACK]] ], [ %i.reg2mem.0, %[[RETURN]] ]
; CHECK-NEXT:  call { i32, i32, i32 } @count.sampler.slow(i32 %n, i32 1, i32 %[[I]])

; CHECK:       define internal { i32, i32, i32 } @count.sampler.slow(i32 %n, i32 %sampler.entry, i32 %i.reg2mem{{[0-9]*}}) unnamed_addr #[[ATTRS:[0-9]+]]
; CHECK-NEXT:  entry:
; CHECK-NEXT:    %countdown.addr = call ptr @llvm.threadlocal.address.p0(ptr @__sampler_countdown)
; CHECK-NEXT:  %cond = icmp eq i32 %sampler.entry, 1
; CHECK-NEXT:  br i1 %cond, label %sampler.to.slow{{[0-9]+}}, label %sampler.to.slow
; The way in reads the countdown again and draws afresh if it was unknown:
; CHECK:     sampler.to.slow:
; CHECK-NEXT:  load volatile i64, ptr %countdown.addr
; CHECK:     sampler.fresh:
; CHECK-NEXT:  call i64 @__sampler_next_countdown(i64 -9223372036854775808)
; CHECK:     head.slow:
; CHECK:       call i64 @__sampler_fire(
; A return of F returns index 0 and F's value:
; CHECK:       ret { i32, i32, i32 } { i32 0, i32 0, i32 poison }
; The way out returns the exit's index and the counter:
; CHECK:     sampler.back:
; CHECK-SAME:  preds = %latch.slow
; CHECK-NEXT:  %[[B:[0-9]+]] = insertvalue { i32, i32, i32 } { i32 1, i32 poison, i32 poison }, i32 %i.next.slow, 2
; CHECK-NEXT:  ret { i32, i32, i32 } %[[B]]
; CHECK: attributes #[[ATTRS]] = { cold noinline optsize "sampler-instrumented-copy" }

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

; The fast copy's checks work on the thread-local countdown in memory (one
; `subq $W, %fs:...` each). In a loop whose calls cannot reach instrumented
; code, the countdown is loaded in the preheader, carried in a register by the
; checks and stored on every exit (lib/LoopCountdownPromotion.cpp). The input
; is what the fast copy looks like mid-pipeline: checks with volatile loads.
; RUN: %opt-sampler -passes=sampler-loop-promote,verify -S %s | FileCheck %s
; RUN: %opt-sampler -passes=sampler-loop-promote-one-by-one,verify -S %s | FileCheck %s --check-prefix=ONEBYONE

; One check on the back edge: loaded once before the loop, a PHI round it, a
; store on each of the two exits (LCSSA PHIs feed them).
; CHECK-LABEL: define void @fill(
; CHECK:       entry:
; CHECK-NEXT:    %countdown.addr = call ptr @llvm.threadlocal.address.p0(ptr @__sampler_countdown)
; CHECK-NEXT:    %countdown.promoted = load i64, ptr %countdown.addr
; CHECK:       body:
; CHECK-NEXT:    %countdown.reg = phi i64 [ %countdown.promoted, %entry ], [ %paid, %latch ]
; CHECK:       latch:
; CHECK-NEXT:    %paid = add i64 %countdown.reg, -3
; CHECK-NEXT:    %enough = icmp sgt i64 %paid, -1
; CHECK-NEXT:    br i1 %enough, label %body, label %toslow
; CHECK:       toslow:
; CHECK:         store i64 %paid.lcssa, ptr %countdown.addr
; CHECK-NEXT:    call void @slow(
; CHECK:       exit.loopexit:
; CHECK-NEXT:    %countdown.reg.lcssa = phi i64 [ %countdown.reg, %body ]
; CHECK-NEXT:    store i64 %countdown.reg.lcssa, ptr %countdown.addr
; CHECK-NOT:   load volatile

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@__sampler_countdown = external thread_local(initialexec) global i64

define void @fill(ptr %p, i32 %n) {
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
  call void @slow(ptr %p, i32 %i.next)
  br label %exit
exit:
  ret void
}

; The way to the instrumented copy (inside the loop: the copy returns to the
; header) reads the countdown again, volatile: it stays, after a store of the
; carried value, so that the value before the payment is not kept alive beside
; the paid one. The runtime's draw is no obstacle (it does not touch the
; countdown), nor is a call that accesses no memory.
; CHECK-LABEL: define void @reread(
; CHECK:       latch:
; CHECK-NEXT:    %paid = add i64 %countdown.reg, -3
; CHECK:       toslow:
; CHECK-NEXT:    store i64 %paid, ptr %countdown.addr
; CHECK-NEXT:    %again = load volatile i64, ptr %countdown.addr
; CHECK:       fresh:
; CHECK-NOT:     store
; CHECK:         br label %slowbody
; CHECK:       exit:
; CHECK-NEXT:    %countdown.reg.lcssa = phi i64
; CHECK-NEXT:    store i64 %countdown.reg.lcssa, ptr %countdown.addr

define void @reread(ptr %p, i32 %n) {
entry:
  %countdown.addr = call ptr @llvm.threadlocal.address.p0(ptr @__sampler_countdown)
  br label %body
body:
  %i = phi i32 [ 0, %entry ], [ %i.next, %latch ], [ %i.next, %slowbody ]
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
  %again = load volatile i64, ptr %countdown.addr
  %before = add i64 %again, 3
  %unknown = icmp slt i64 %before, 0
  br i1 %unknown, label %fresh, label %slowbody
fresh:
  %next = call preserve_mostcc i64 @__sampler_next_countdown_preserve_most(i64 -9223372036854775808)
  %fresh.paid = add i64 %next, -3
  store i64 %fresh.paid, ptr %countdown.addr
  br label %slowbody
slowbody:
  %slowcd = phi i64 [ %again, %toslow ], [ %fresh.paid, %fresh ]
  call void @observe(i64 %slowcd) memory(none)
  br label %body
exit:
  ret void
}

; A call that may reach instrumented code (which reads and stores the
; countdown): the loop is left as it was.
; CHECK-LABEL: define void @calls(
; CHECK-NOT:   countdown.promoted
; CHECK:       latch:
; CHECK-NEXT:    %cd = load volatile i64, ptr %countdown.addr
; CHECK-NEXT:    %paid = add i64 %cd, -3
; CHECK-NEXT:    store i64 %paid, ptr %countdown.addr

define void @calls(ptr %p, i32 %n) {
entry:
  %countdown.addr = call ptr @llvm.threadlocal.address.p0(ptr @__sampler_countdown)
  br label %body
body:
  %i = phi i32 [ 0, %entry ], [ %i.next, %latch ]
  call void @other()
  %i.next = add nuw nsw i32 %i, 1
  %done = icmp eq i32 %i.next, %n
  br i1 %done, label %exit, label %latch
latch:
  %cd = load volatile i64, ptr %countdown.addr
  %paid = add i64 %cd, -3
  store i64 %paid, ptr %countdown.addr
  %enough = icmp sgt i64 %paid, -1
  br i1 %enough, label %body, label %exit
exit:
  ret void
}

; Calls that access no memory, or only their arguments' (the program never
; has the countdown's address), and intrinsics: promoted.
; CHECK-LABEL: define void @pure_calls(
; CHECK:         %countdown.promoted = load i64, ptr %countdown.addr
; CHECK:       latch:
; CHECK-NEXT:    %paid = add i64 %countdown.reg, -3
; CHECK:       exit:
; CHECK-NEXT:    %countdown.reg1 = phi i64 [ %paid, %latch ], [ %countdown.reg, %body ]
; CHECK-NEXT:    store i64 %countdown.reg1, ptr %countdown.addr

define void @pure_calls(ptr %p, i32 %n) {
entry:
  %countdown.addr = call ptr @llvm.threadlocal.address.p0(ptr @__sampler_countdown)
  br label %body
body:
  %i = phi i32 [ 0, %entry ], [ %i.next, %latch ]
  %sq = call i32 @square(i32 %i)
  %gep = getelementptr inbounds i32, ptr %p, i32 %i
  store i32 %sq, ptr %gep
  %len = call i64 @strlen(ptr %p)
  call void @llvm.memcpy.p0.p0.i64(ptr %p, ptr %gep, i64 4, i1 false)
  %i.next = add nuw nsw i32 %i, 1
  %done = icmp eq i32 %i.next, %n
  br i1 %done, label %exit, label %latch
latch:
  %cd = load volatile i64, ptr %countdown.addr
  %paid = add i64 %cd, -3
  store i64 %paid, ptr %countdown.addr
  %enough = icmp sgt i64 %paid, -1
  br i1 %enough, label %body, label %exit
exit:
  ret void
}

; A call to memory the module cannot see (malloc as LLVM knows it) may run a
; program's own, instrumented, allocator: not promoted.
; CHECK-LABEL: define void @alloc(
; CHECK-NOT:   countdown.promoted
; CHECK:       latch:
; CHECK-NEXT:    %cd = load volatile i64, ptr %countdown.addr
define void @alloc(ptr %p, i32 %n) {
entry:
  %countdown.addr = call ptr @llvm.threadlocal.address.p0(ptr @__sampler_countdown)
  br label %body
body:
  %i = phi i32 [ 0, %entry ], [ %i.next, %latch ]
  %m = call ptr @malloc(i64 16)
  store ptr %m, ptr %p
  %i.next = add nuw nsw i32 %i, 1
  %done = icmp eq i32 %i.next, %n
  br i1 %done, label %exit, label %latch
latch:
  %cd = load volatile i64, ptr %countdown.addr
  %paid = add i64 %cd, -3
  store i64 %paid, ptr %countdown.addr
  %enough = icmp sgt i64 %paid, -1
  br i1 %enough, label %body, label %exit
exit:
  ret void
}

; A site's draw that stores the countdown itself (the assembly's memory operand,
; on the draw's way only) counts as a store of it: the loop is promoted, the
; countdown the draw leaves (its first result) is carried on from there, and
; its own store to memory stays (harmless: the exits store the value carried).
; CHECK-LABEL: define void @storing_draw(
; CHECK:         %countdown.promoted = load i64, ptr %countdown.addr
; CHECK:       observe:
; CHECK-NEXT:    %fired = call { i64, i8 } asm sideeffect {{.*}}(ptr elementtype(i64) %countdown.addr, i64 %dec)
; CHECK-NEXT:    %countdown.left = extractvalue { i64, i8 } %fired, 0
; CHECK-NEXT:    br label %latch
; CHECK:       latch:
; CHECK-NEXT:    %countdown.reg{{[0-9]*}} = phi i64 [ %countdown.left, %observe ], [ %dec, %body ]
; CHECK:       exit:
; CHECK-NEXT:    %countdown.reg{{[0-9]*}}.lcssa = phi i64
; CHECK-NEXT:    store i64 %countdown.reg{{[0-9]*}}.lcssa, ptr %countdown.addr

define void @storing_draw(ptr %p, i32 %n) {
entry:
  %countdown.addr = call ptr @llvm.threadlocal.address.p0(ptr @__sampler_countdown)
  br label %body
body:
  %i = phi i32 [ 0, %entry ], [ %i.next, %latch ]
  %cd = load i64, ptr %countdown.addr
  %dec = add nsw i64 %cd, -1
  store i64 %dec, ptr %countdown.addr
  %fire = icmp slt i64 %dec, 0
  br i1 %fire, label %observe, label %latch
observe:
  %fired = call { i64, i8 } asm sideeffect "btq $$62, $0\0A\09jnc 1f\0A\09leaq 1($0), %rax\0A\09call __sampler_fire_rax_all\0A\09leaq -1(%rax), $0\0A\09movq $0, $2\0A\09cmc\0A1:", "=r,={@ccnc},=*m,0,~{rax},~{r11},~{flags}"(ptr elementtype(i64) %countdown.addr, i64 %dec) memory(argmem: readwrite, inaccessiblemem: readwrite)
  br label %latch
latch:
  %gep = getelementptr inbounds i32, ptr %p, i32 %i
  store i32 %i, ptr %gep
  %i.next = add nuw nsw i32 %i, 1
  %done = icmp eq i32 %i.next, %n
  br i1 %done, label %exit, label %body
exit:
  ret void
}

; A check's fresh countdown (freshAsm: inline assembly that stores the countdown
; on its draw's way only) in a loop: its input, the way's volatile reread, stays a
; reread of memory, with the value carried stored just before it; what the
; assembly leaves is carried on from there.
; CHECK-LABEL: define void @fresh_draw(
; CHECK:       body.backedge:
; CHECK-NEXT:    %countdown.reg1 = phi i64 [ %paid, %latch ], [ %start, %to.slow ]
; CHECK:       to.slow:
; CHECK-NEXT:    store i64 %paid, ptr %countdown.addr
; CHECK-NEXT:    %rel = load volatile i64, ptr %countdown.addr
; CHECK-NEXT:    %start = call i64 asm sideeffect {{.*}}__sampler_fresh_rax_all{{.*}}(ptr elementtype(i64) %countdown.addr, i64 %rel)
; CHECK-NEXT:    call void @use(i64 %start)

define void @fresh_draw(ptr %p, i32 %n) {
entry:
  %countdown.addr = call ptr @llvm.threadlocal.address.p0(ptr @__sampler_countdown)
  br label %body
body:
  %i = phi i32 [ 0, %entry ], [ %i.next, %latch ], [ %i.next, %to.slow ]
  %gep = getelementptr inbounds i32, ptr %p, i32 %i
  store i32 %i, ptr %gep
  %i.next = add nuw nsw i32 %i, 1
  %done = icmp eq i32 %i.next, %n
  br i1 %done, label %exit, label %latch
latch:
  %cd = load volatile i64, ptr %countdown.addr
  %paid = add i64 %cd, -2
  store i64 %paid, ptr %countdown.addr
  %enough = icmp sgt i64 %paid, -1
  br i1 %enough, label %body, label %to.slow
to.slow:
  %rel = load volatile i64, ptr %countdown.addr
  %start = call i64 asm sideeffect "cmpq $$-2, $0\0A\09jge 1f\0A\09leaq 2($0), %rax\0A\09btq $$62, %rax\0A\09jnc 1f\0A\09call __sampler_fresh_rax_all\0A\09leaq -2(%rax), $0\0A\09movq $0, $1\0A1:", "=r,=*m,0,~{rax},~{r11},~{flags}"(ptr elementtype(i64) %countdown.addr, i64 %rel) memory(argmem: readwrite, inaccessiblemem: readwrite)
  call void @use(i64 %start)
  br label %body
exit:
  ret void
}
; Outermost loops first; an outer loop with a call leaves its inner loop to
; be promoted on its own: loaded after the call, stored on the inner loop's
; exit.
; CHECK-LABEL: define void @nest(
; CHECK:       outer:
; CHECK:         call void @other()
; CHECK-NEXT:    %countdown.promoted = load i64, ptr %countdown.addr
; CHECK:       ilatch:
; CHECK-NEXT:    %paid = add i64 %countdown.reg, -2
; CHECK:       olatch:
; CHECK-NEXT:    %countdown.reg1 = phi i64
; CHECK-NEXT:    store i64 %countdown.reg1, ptr %countdown.addr

define void @nest(ptr %p, i32 %n) {
entry:
  %countdown.addr = call ptr @llvm.threadlocal.address.p0(ptr @__sampler_countdown)
  br label %outer
outer:
  %j = phi i32 [ 0, %entry ], [ %j.next, %olatch ]
  call void @other()
  br label %inner
inner:
  %i = phi i32 [ 0, %outer ], [ %i.next, %ilatch ]
  %i.next = add nuw nsw i32 %i, 1
  %idone = icmp eq i32 %i.next, %n
  br i1 %idone, label %olatch, label %ilatch
ilatch:
  %cd = load volatile i64, ptr %countdown.addr
  %paid = add i64 %cd, -2
  store i64 %paid, ptr %countdown.addr
  %enough = icmp sgt i64 %paid, -1
  br i1 %enough, label %inner, label %olatch
olatch:
  %j.next = add nuw nsw i32 %j, 1
  %jdone = icmp eq i32 %j.next, %n
  br i1 %jdone, label %exit, label %outer
exit:
  ret void
}

; A nest without calls whose inner loop checks every iteration (ccrypt's
; rounds and their rotation loops): the whole nest carries the countdown, loaded
; once before it. What the inner loop leaves goes through an empty inline asm
; (its output tied to its input) that ScalarEvolution cannot see into, so that
; IndVarSimplify does not recompute it from the trip count after the loop.
; CHECK-LABEL: define void @rounds(
; CHECK:       entry:
; CHECK-NEXT:    %countdown.addr = call ptr @llvm.threadlocal.address.p0(ptr @__sampler_countdown)
; CHECK-NEXT:    %countdown.promoted = load i64, ptr %countdown.addr
; CHECK:       ilatch:
; CHECK-NEXT:    %paid = add i64 %countdown.reg{{[0-9]*}}, -2
; CHECK:       olatch:
; CHECK-NEXT:    %countdown.reg{{[0-9]*}}.lcssa = phi i64
; CHECK-NEXT:    %countdown.hidden = call i64 asm "", "=r,0"(i64 %countdown.reg{{[0-9]*}}.lcssa)
; CHECK-NEXT:    %opaid = add i64 %countdown.hidden, -3
; CHECK-NOT:     load volatile
; One by one (-passes=sampler-loop-promote-one-by-one, what
; -fno-sampler-nest-promote gives): the outer loop, whose inner loop has
; checks, keeps its own check in memory, and the inner loop carries the
; countdown from its preheader to its exits.
; ONEBYONE-LABEL: define void @rounds(
; ONEBYONE:       outer:
; ONEBYONE:         %countdown.promoted = load i64, ptr %countdown.addr
; ONEBYONE:       olatch:
; ONEBYONE-NEXT:    %countdown.reg.lcssa = phi i64
; ONEBYONE-NEXT:    store i64 %countdown.reg.lcssa, ptr %countdown.addr
; ONEBYONE:         %ocd = load volatile i64, ptr %countdown.addr
; ONEBYONE-NOT:     asm ""

define void @rounds(ptr %p, i32 %n) {
entry:
  %countdown.addr = call ptr @llvm.threadlocal.address.p0(ptr @__sampler_countdown)
  br label %outer
outer:
  %j = phi i32 [ 0, %entry ], [ %j.next, %olatch2 ]
  br label %inner
inner:
  %i = phi i32 [ 0, %outer ], [ %i.next, %ilatch ]
  %gep = getelementptr inbounds i8, ptr %p, i32 %i
  store i8 1, ptr %gep
  %i.next = add nuw nsw i32 %i, 1
  %idone = icmp eq i32 %i.next, %n
  br i1 %idone, label %olatch, label %ilatch
ilatch:
  %cd = load volatile i64, ptr %countdown.addr
  %paid = add i64 %cd, -2
  store i64 %paid, ptr %countdown.addr
  %enough = icmp sgt i64 %paid, -1
  br i1 %enough, label %inner, label %toslow
olatch:
  %ocd = load volatile i64, ptr %countdown.addr
  %opaid = add i64 %ocd, -3
  store i64 %opaid, ptr %countdown.addr
  %oenough = icmp sgt i64 %opaid, -1
  br i1 %oenough, label %olatch2, label %toslow
olatch2:
  %j.next = add nuw nsw i32 %j, 1
  %jdone = icmp eq i32 %j.next, 3
  br i1 %jdone, label %exit, label %outer
toslow:
  call void @slow(ptr %p, i32 %j)
  br label %exit
exit:
  ret void
}

; A loop with two checks of its own keeps them in memory, where CheckMerge can
; pay both with one payment, and its inner loop carries the countdown alone.
; CHECK-LABEL: define void @two_checks(
; CHECK:       outer:
; CHECK:         %countdown.promoted = load i64, ptr %countdown.addr
; CHECK:       olatch:
; CHECK:         %ocd = load volatile i64, ptr %countdown.addr
; CHECK:       olatch2:
; CHECK-NEXT:    %ocd2 = load volatile i64, ptr %countdown.addr
; CHECK-NOT:     asm ""
; CHECK-LABEL: define void @checks_apart(

define void @two_checks(ptr %p, i32 %n) {
entry:
  %countdown.addr = call ptr @llvm.threadlocal.address.p0(ptr @__sampler_countdown)
  br label %outer
outer:
  %j = phi i32 [ 0, %entry ], [ %j.next, %olatch3 ]
  br label %inner
inner:
  %i = phi i32 [ 0, %outer ], [ %i.next, %ilatch ]
  %gep = getelementptr inbounds i8, ptr %p, i32 %i
  store i8 1, ptr %gep
  %i.next = add nuw nsw i32 %i, 1
  %idone = icmp eq i32 %i.next, %n
  br i1 %idone, label %olatch, label %ilatch
ilatch:
  %cd = load volatile i64, ptr %countdown.addr
  %paid = add i64 %cd, -2
  store i64 %paid, ptr %countdown.addr
  %enough = icmp sgt i64 %paid, -1
  br i1 %enough, label %inner, label %toslow
olatch:
  %ocd = load volatile i64, ptr %countdown.addr
  %opaid = add i64 %ocd, -3
  store i64 %opaid, ptr %countdown.addr
  %oenough = icmp sgt i64 %opaid, -1
  br i1 %oenough, label %olatch2, label %toslow
olatch2:
  %ocd2 = load volatile i64, ptr %countdown.addr
  %opaid2 = add i64 %ocd2, -5
  store i64 %opaid2, ptr %countdown.addr
  %oenough2 = icmp sgt i64 %opaid2, -1
  br i1 %oenough2, label %olatch3, label %toslow
olatch3:
  %j.next = add nuw nsw i32 %j, 1
  %jdone = icmp eq i32 %j.next, 3
  br i1 %jdone, label %exit, label %outer
toslow:
  call void @slow(ptr %p, i32 %j)
  br label %exit
exit:
  ret void
}

; Two checks of its own that an inner loop keeps apart (a check on the way out
; of the first inner loop, as the cold-heavy rule places one, and the back
; edge's after the second) are no pair CheckMerge could pay together: the
; nest carries the countdown whole (ccrypt's rounds under a profile, whose
; countdown had stayed in memory round the nest).
; CHECK:       entry:
; CHECK-NEXT:    %countdown.addr = call ptr @llvm.threadlocal.address.p0(ptr @__sampler_countdown)
; CHECK-NEXT:    %countdown.promoted = load i64, ptr %countdown.addr
; CHECK:       oexit:
; CHECK:         %countdown.hidden{{[0-9]*}} = call i64 asm "", "=r,0"
; CHECK-NEXT:    %epaid = add i64 %countdown.hidden{{[0-9]*}}, -4
; CHECK:       olatch:
; CHECK:         %countdown.hidden{{[0-9]*}} = call i64 asm "", "=r,0"
; CHECK-NEXT:    %opaid = add i64 %countdown.hidden{{[0-9]*}}, -3
; CHECK-NOT:     load volatile
; CHECK-LABEL: define void @checks_apart_cold(
; The same nest where it runs less often than its function is entered (the
; instrumented copy's loops: the way in is unlikely) keeps the rule, as
; @two_checks: promoted inner loop by inner loop, its own checks in memory.
; CHECK:         %ecd = load volatile i64, ptr %countdown.addr
; CHECK:         %ocd = load volatile i64, ptr %countdown.addr
; CHECK-NOT:     asm ""
; CHECK-LABEL: declare void @slow(

define void @checks_apart(ptr %p, i32 %n) {
entry:
  %countdown.addr = call ptr @llvm.threadlocal.address.p0(ptr @__sampler_countdown)
  br label %outer
outer:
  %j = phi i32 [ 0, %entry ], [ %j.next, %olatch2 ]
  br label %inner
inner:
  %i = phi i32 [ 0, %outer ], [ %i.next, %ilatch ]
  %gep = getelementptr inbounds i8, ptr %p, i32 %i
  store i8 1, ptr %gep
  %i.next = add nuw nsw i32 %i, 1
  %idone = icmp eq i32 %i.next, %n
  br i1 %idone, label %oexit, label %ilatch
ilatch:
  %cd = load volatile i64, ptr %countdown.addr
  %paid = add i64 %cd, -2
  store i64 %paid, ptr %countdown.addr
  %enough = icmp sgt i64 %paid, -1
  br i1 %enough, label %inner, label %toslow
oexit:
  %ecd = load volatile i64, ptr %countdown.addr
  %epaid = add i64 %ecd, -4
  store i64 %epaid, ptr %countdown.addr
  %eenough = icmp sgt i64 %epaid, -1
  br i1 %eenough, label %inner2, label %toslow
inner2:
  %k = phi i32 [ 0, %oexit ], [ %k.next, %ilatch2 ]
  %gep2 = getelementptr inbounds i8, ptr %p, i32 %k
  store i8 2, ptr %gep2
  %k.next = add nuw nsw i32 %k, 1
  %kdone = icmp eq i32 %k.next, %n
  br i1 %kdone, label %olatch, label %ilatch2
ilatch2:
  %cd2 = load volatile i64, ptr %countdown.addr
  %paid2 = add i64 %cd2, -1
  store i64 %paid2, ptr %countdown.addr
  %enough2 = icmp sgt i64 %paid2, -1
  br i1 %enough2, label %inner2, label %toslow
olatch:
  %ocd = load volatile i64, ptr %countdown.addr
  %opaid = add i64 %ocd, -3
  store i64 %opaid, ptr %countdown.addr
  %oenough = icmp sgt i64 %opaid, -1
  br i1 %oenough, label %olatch2, label %toslow
olatch2:
  %j.next = add nuw nsw i32 %j, 1
  %jdone = icmp eq i32 %j.next, 3
  br i1 %jdone, label %exit, label %outer
toslow:
  call void @slow(ptr %p, i32 %j)
  br label %exit
exit:
  ret void
}

define void @checks_apart_cold(ptr %p, i32 %n, i1 %rare) {
entry:
  %countdown.addr = call ptr @llvm.threadlocal.address.p0(ptr @__sampler_countdown)
  br i1 %rare, label %outer, label %exit, !prof !0
outer:
  %j = phi i32 [ 0, %entry ], [ %j.next, %olatch2 ]
  br label %inner
inner:
  %i = phi i32 [ 0, %outer ], [ %i.next, %ilatch ]
  %gep = getelementptr inbounds i8, ptr %p, i32 %i
  store i8 1, ptr %gep
  %i.next = add nuw nsw i32 %i, 1
  %idone = icmp eq i32 %i.next, %n
  br i1 %idone, label %oexit, label %ilatch
ilatch:
  %cd = load volatile i64, ptr %countdown.addr
  %paid = add i64 %cd, -2
  store i64 %paid, ptr %countdown.addr
  %enough = icmp sgt i64 %paid, -1
  br i1 %enough, label %inner, label %toslow
oexit:
  %ecd = load volatile i64, ptr %countdown.addr
  %epaid = add i64 %ecd, -4
  store i64 %epaid, ptr %countdown.addr
  %eenough = icmp sgt i64 %epaid, -1
  br i1 %eenough, label %inner2, label %toslow
inner2:
  %k = phi i32 [ 0, %oexit ], [ %k.next, %ilatch2 ]
  %gep2 = getelementptr inbounds i8, ptr %p, i32 %k
  store i8 2, ptr %gep2
  %k.next = add nuw nsw i32 %k, 1
  %kdone = icmp eq i32 %k.next, %n
  br i1 %kdone, label %olatch, label %ilatch2
ilatch2:
  %cd2 = load volatile i64, ptr %countdown.addr
  %paid2 = add i64 %cd2, -1
  store i64 %paid2, ptr %countdown.addr
  %enough2 = icmp sgt i64 %paid2, -1
  br i1 %enough2, label %inner2, label %toslow
olatch:
  %ocd = load volatile i64, ptr %countdown.addr
  %opaid = add i64 %ocd, -3
  store i64 %opaid, ptr %countdown.addr
  %oenough = icmp sgt i64 %opaid, -1
  br i1 %oenough, label %olatch2, label %toslow
olatch2:
  %j.next = add nuw nsw i32 %j, 1
  %jdone = icmp eq i32 %j.next, 3
  br i1 %jdone, label %exit, label %outer
toslow:
  call void @slow(ptr %p, i32 %j)
  br label %exit
exit:
  ret void
}

declare void @slow(ptr, i32)
declare void @other()
declare void @observe(i64)
declare i32 @square(i32) memory(none) nounwind
declare i64 @strlen(ptr) memory(argmem: read) nounwind
declare ptr @malloc(i64) memory(inaccessiblemem: readwrite) nounwind
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)
declare preserve_mostcc i64 @__sampler_next_countdown_preserve_most(i64)

declare ptr @llvm.threadlocal.address.p0(ptr)
declare void @use(i64) memory(none)

!0 = !{!"branch_weights", i32 1, i32 2000}

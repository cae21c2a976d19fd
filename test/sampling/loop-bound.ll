; A loop whose number of back edges ScalarEvolution bounds on entry tests its
; back-edge checks once (lib/LoopBoundCheck.cpp): if the countdown covers N x W
; trials (N = the bound, W = the back edge's region), none of the checks can
; fail, and a copy of the loop runs whose checks still pay, exactly as the
; loop's would, but no longer test; otherwise the loop as it was. So the copy
; takes the same trials as the loop (paying the bound at once instead was
; biased where the loop may leave before it: test/hardening/bounded-loop-exits.c).
; Where it cannot (one way out, whose exact count is N, and only the latch
; checks: @fill), the test pays N x W at once and the copy neither tests nor
; pays. The input is what the fast copy
; looks like mid-pipeline: the latch is the back edge's check, tagged with its
; weight (its load is volatile as the sampler emits it in @fill; plain
; elsewhere, as in IR from older builds: both are recognised, and the copy's
; loads are plain, so that LoopCountdownPromotion carries the countdown in a
; register).
; The CHECK lines are those of the pass with reserves (the default; @nest,
; the other loops are the same without them, -sampler-loop-reserve=0):
; RUN: %opt-sampler -passes=sampler-loop-bound-reserve,verify -S %s | FileCheck %s
; Each tagged loop says whether it was bounded, and if not why
; (-Rpass=sampler-loop-bound and -Rpass-missed=sampler-loop-bound with clang):
; RUN: %opt-sampler -passes=sampler-loop-bound-reserve -pass-remarks=sampler-loop-bound -pass-remarks-missed=sampler-loop-bound -disable-output %s 2>&1 | FileCheck %s --check-prefix=REMARK
; Without reserves, the nest's outer loop keeps its check:
; RUN: %opt-sampler -passes=sampler-loop-bound -pass-remarks=sampler-loop-bound -pass-remarks-missed=sampler-loop-bound -disable-output %s 2>&1 | FileCheck %s --check-prefix=NORESERVE
; NORESERVE: loop in nest tests its countdown checks once on entry (trials per back edge: 1)
; NORESERVE: loop in nest keeps its back edge's countdown check: its inner loops take trials of their own (-fsampler-loop-reserve would reserve its back edges' trials on entry)
; REMARK: loop in fill tests its countdown checks once on entry (trials per back edge: 3) on 1 of 1 ways in, and pays for them there
; REMARK: loop in two_exits tests its countdown checks once on entry (trials per back edge: 3) on 1 of 1 ways in{{ *$}}
; REMARK: loop in promoted tests its countdown checks once on entry (trials per back edge: 2) on 1 of 1 ways in{{ *$}}
; REMARK: loop in split tests its countdown checks once on entry (trials per back edge: 7)
; REMARK: loop in unbounded keeps its back edge's countdown check: no exit has a computable maximum trip count
; REMARK: loop in wrong_weight keeps its back edge's countdown check: the countdown update of a check was not recognised
; REMARK-NOT: loop in untagged
; REMARK: loop in nest tests its countdown checks once on entry (trials per back edge: 1)
; REMARK: loop in nest reserves its back edges' trials on entry (trials per back edge: 2), its inner loops checking against the rest, on 1 of 1 ways in
; REMARK: loop in always tests its countdown checks once on entry (trials per back edge: 1)
; REMARK: loop in always keeps its back edge's countdown check: every iteration runs an inner loop, whose checks cost more than the latch's: a reserve would not pay
; REMARK: loop in costly keeps its back edge's countdown check: of its 1 ways in, 1 would compute the bound at too high a cost, 0 bound it below 4, 0 cannot compute it there
; REMARK: loop in costly_paid tests its countdown checks once on entry (trials per back edge: 2) on 1 of 1 ways in, and pays for them there
; REMARK: loop in short keeps its back edge's countdown check: of its 1 ways in, 0 would compute the bound at too high a cost, 1 bound it below 4, 0 cannot compute it there
; REMARK-NOT: remark
; The pass runs in the O2 pipeline (VectorizerStart), and the copy, whose
; checks pay but no longer test, is vectorised:
; (The countdown's address as the loop passes leave it: -sampler-indirect-tls=0, whose
; x86 form indirect-tls.ll shows.)
; RUN: %opt-sampler -passes='sampler,default<O2>' -sampler-schemes=branches -sampler-indirect-tls=0 -S %s | FileCheck %s --check-prefix=PIPELINE
; RUN: %opt-sampler -passes='sampler,default<O2>' -sampler-schemes=branches -sampler-loop-bounds=0 -sampler-loop-promote=0 -sampler-indirect-tls=0 -S %s | FileCheck %s --check-prefix=OFF
; Without this pass, the countdown carried in a register round the loop
; (LoopCountdownPromotion.h) lets the vectoriser itself bound the iterations
; by the countdown:
; RUN: %opt-sampler -passes='sampler,default<O2>' -sampler-schemes=branches -sampler-loop-bounds=0 -sampler-indirect-tls=0 -S %s | FileCheck %s --check-prefix=PROMOTE

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@__sampler_countdown = external thread_local(initialexec) global i64

; n - 1 back edges exactly, 3 trials each. The test stands on the way into
; the preheader (each way in gets its own, where the bound is cheap to compute
; with the preheader's PHIs replaced by what that way brings): one comparison
; (the product cannot overflow), then a copy of the preheader and the loop. The
; loop leaves only where i + 1 = n, after n - 1 back edges: the test's own
; subtraction pays them all (beside the compare, so that the backend tests its
; flags), and the copy's latch goes straight back without touching the
; countdown (no payment on its way out either, LoopExitPayment.h). The copy's
; exits join the original's.
; CHECK-LABEL: define void @fill(
; CHECK:       entry:
; CHECK:         [[NM1:%.*]] = add i32 %n, -1
; CHECK:         br i1 %nonzero, label %sampler.loop.test, label %exit
; CHECK:       sampler.loop.test:
; CHECK-NEXT:    %sampler.backedges = zext i32 [[NM1]] to i64
; CHECK-NEXT:    %countdown = load i64, ptr %countdown.addr
; CHECK-NEXT:    %sampler.loop.trials = mul nuw nsw i64 %sampler.backedges, 3
; CHECK-NEXT:    %countdown.paid.on.entry = sub i64 %countdown, %sampler.loop.trials
; CHECK-NEXT:    %sampler.loop.affordable = icmp sge i64 %countdown, %sampler.loop.trials
; CHECK-NEXT:    br i1 %sampler.loop.affordable, label %sampler.loop.enough, label %ph, !prof ![[LIKELY:[0-9]+]]
; The original keeps its check, without the tag (so that copies made of it
; later, as part of an outer loop's, are not versioned again):
; CHECK:       latch:
; CHECK:         br i1 %enough, label %body, label %toslow{{$}}
; CHECK:       exit.loopexit:
; CHECK-SAME:    preds = %body.bounded, %body
; CHECK:       sampler.loop.enough:
; CHECK-NEXT:    store i64 %countdown.paid.on.entry, ptr %countdown.addr
; CHECK-NEXT:    br label %ph.bounded
; CHECK:       ph.bounded:
; CHECK-NEXT:    br label %body.bounded
; CHECK:       body.bounded:
; CHECK-NOT:     countdown
; CHECK:       latch.bounded:
; CHECK-NEXT:    br label %body.bounded
define void @fill(ptr %p, i32 %n) {
entry:
  %countdown.addr = call ptr @llvm.threadlocal.address.p0(ptr @__sampler_countdown)
  %nonzero = icmp sgt i32 %n, 0
  br i1 %nonzero, label %ph, label %exit
ph:
  br label %body
body:
  %i = phi i32 [ 0, %ph ], [ %i.next, %latch ]
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
  br i1 %enough, label %body, label %toslow, !sampler.backedge.check !0
toslow:
  call void @slow(ptr %p, i32 %i.next)
  br label %exit
exit:
  ret void
}

; @fill with a second way out (a zero in p): the loop may take fewer back
; edges than its bound, so the test only tests, and the copy's latch pays its
; 3 trials as the loop's does.
; CHECK-LABEL: define void @two_exits(
; CHECK:       sampler.loop.test:
; CHECK-NOT:     sub i64
; CHECK:         %sampler.loop.affordable = icmp sge i64 %countdown, %sampler.loop.trials
; CHECK:       sampler.loop.enough:
; CHECK-NEXT:    br label %ph.bounded
; CHECK:       latch.bounded:
; CHECK-NEXT:    %cd.bounded = load i64, ptr %countdown.addr
; CHECK-NEXT:    %paid.bounded = add i64 %cd.bounded, -3
; CHECK-NEXT:    store i64 %paid.bounded, ptr %countdown.addr
; CHECK-NEXT:    br label %body.bounded
define void @two_exits(ptr %p, i32 %n) {
entry:
  %countdown.addr = call ptr @llvm.threadlocal.address.p0(ptr @__sampler_countdown)
  %nonzero = icmp sgt i32 %n, 0
  br i1 %nonzero, label %ph, label %exit
ph:
  br label %body
body:
  %i = phi i32 [ 0, %ph ], [ %i.next, %latch ]
  %gep = getelementptr inbounds i32, ptr %p, i32 %i
  %v = load i32, ptr %gep
  %zero = icmp eq i32 %v, 0
  br i1 %zero, label %exit, label %next
next:
  %i.next = add nuw nsw i32 %i, 1
  %done = icmp eq i32 %i.next, %n
  br i1 %done, label %exit, label %latch
latch:
  %cd = load volatile i64, ptr %countdown.addr
  %paid = add i64 %cd, -3
  store i64 %paid, ptr %countdown.addr
  %enough = icmp sgt i64 %paid, -1
  br i1 %enough, label %body, label %toslow, !sampler.backedge.check !0
toslow:
  call void @slow(ptr %p, i32 %i.next)
  br label %exit
exit:
  ret void
}

; The countdown promoted to a register (a header PHI carries it round): the
; copy carries it round as the loop does, paying at its latch, and the value
; that leaves the loop is the copy's.
; CHECK-LABEL: define i64 @promoted(
; CHECK:       exit.loopexit:
; CHECK-NEXT:    %cd.lcssa = phi i64 [ %cd, %body ], [ %cd.bounded, %body.bounded ]
; CHECK:       body.bounded:
; CHECK-NEXT:    %i.bounded = phi i32
; CHECK-NEXT:    %cd.bounded = phi i64 [ %cd0, %ph.bounded ], [ %paid.bounded, %latch.bounded ]
; CHECK:       latch.bounded:
; CHECK-NEXT:    %paid.bounded = add i64 %cd.bounded, -2
; CHECK-NEXT:    store i64 %paid.bounded, ptr %countdown.addr
; CHECK-NEXT:    br label %body.bounded
define i64 @promoted(ptr %p, i32 %n) {
entry:
  %countdown.addr = call ptr @llvm.threadlocal.address.p0(ptr @__sampler_countdown)
  %nonzero = icmp sgt i32 %n, 0
  %cd0 = load i64, ptr %countdown.addr
  br i1 %nonzero, label %ph, label %exit
ph:
  br label %body
body:
  %i = phi i32 [ 0, %ph ], [ %i.next, %latch ]
  %cd = phi i64 [ %cd0, %ph ], [ %paid, %latch ]
  %gep = getelementptr inbounds i32, ptr %p, i32 %i
  store i32 %i, ptr %gep
  %i.next = add nuw nsw i32 %i, 1
  %done = icmp eq i32 %i.next, %n
  br i1 %done, label %exit, label %latch
latch:
  %paid = add i64 %cd, -2
  store i64 %paid, ptr %countdown.addr
  %enough = icmp sgt i64 %paid, -1
  br i1 %enough, label %body, label %toslow, !sampler.backedge.check !1
toslow:
  call void @slow(ptr %p, i32 %i.next)
  br label %exit
exit:
  %left = phi i64 [ 0, %entry ], [ %cd, %body ], [ 0, %toslow ]
  ret i64 %left
}

; A check in the loop's body (a split of a heavy region, 4 trials) runs at most
; once an iteration: N back edges cost at most N * (3 + 4) + 4 trials, and the
; copy drops that check's test too (it still pays).
; CHECK-LABEL: define void @split(
; CHECK:         %sampler.loop.trials = mul nuw nsw i64 %sampler.backedges, 7
; CHECK-NEXT:    %sampler.loop.trials{{[0-9]+}} = add nuw nsw i64 %sampler.loop.trials, 4
; CHECK:       mid.bounded:
; CHECK-NEXT:    %cd1.bounded = load i64, ptr %countdown.addr
; CHECK-NEXT:    %paid1.bounded = add i64 %cd1.bounded, -4
; CHECK-NEXT:    store i64 %paid1.bounded, ptr %countdown.addr
; CHECK-NEXT:    br label %second.bounded
; CHECK:       latch.bounded:
; CHECK:         add i64 %cd.bounded, -3
; CHECK:         br label %body.bounded
define void @split(ptr %p, i32 %n) {
entry:
  %countdown.addr = call ptr @llvm.threadlocal.address.p0(ptr @__sampler_countdown)
  %nonzero = icmp sgt i32 %n, 0
  br i1 %nonzero, label %ph, label %exit
ph:
  br label %body
body:
  %i = phi i32 [ 0, %ph ], [ %i.next, %latch ]
  %gep = getelementptr inbounds i32, ptr %p, i32 %i
  store i32 %i, ptr %gep
  br label %mid
mid:
  %cd1 = load i64, ptr %countdown.addr
  %paid1 = add i64 %cd1, -4
  store i64 %paid1, ptr %countdown.addr
  %enough1 = icmp sgt i64 %paid1, -1
  br i1 %enough1, label %second, label %toslow, !sampler.check !3
second:
  %i.next = add nuw nsw i32 %i, 1
  %done = icmp eq i32 %i.next, %n
  br i1 %done, label %exit, label %latch
latch:
  %cd = load i64, ptr %countdown.addr
  %paid = add i64 %cd, -3
  store i64 %paid, ptr %countdown.addr
  %enough = icmp sgt i64 %paid, -1
  br i1 %enough, label %body, label %toslow, !sampler.backedge.check !0
toslow:
  call void @slow(ptr %p, i32 0)
  br label %exit
exit:
  ret void
}

; No bound (the loop ends on data), a payment that is not the tag's weight, a
; latch without the tag: each loop keeps its per-iteration check, untouched.
; CHECK-LABEL: define void @unbounded(
; CHECK-NOT:   sampler.loop
; CHECK-LABEL: define void @wrong_weight(
; CHECK-NOT:   sampler.loop
; CHECK-LABEL: define void @untagged(
; CHECK-NOT:   sampler.loop
define void @unbounded(ptr %p) {
entry:
  %countdown.addr = call ptr @llvm.threadlocal.address.p0(ptr @__sampler_countdown)
  br label %body
body:
  %q = phi ptr [ %p, %entry ], [ %q.next, %latch ]
  %v = load i8, ptr %q
  %q.next = getelementptr inbounds i8, ptr %q, i64 1
  %end = icmp eq i8 %v, 0
  br i1 %end, label %exit, label %latch
latch:
  %cd = load i64, ptr %countdown.addr
  %paid = add i64 %cd, -1
  store i64 %paid, ptr %countdown.addr
  %enough = icmp sgt i64 %paid, -1
  br i1 %enough, label %body, label %toslow, !sampler.backedge.check !2
toslow:
  call void @slow(ptr %p, i32 0)
  br label %exit
exit:
  ret void
}

define void @wrong_weight(ptr %p, i32 %n) {
entry:
  %countdown.addr = call ptr @llvm.threadlocal.address.p0(ptr @__sampler_countdown)
  br label %body
body:
  %i = phi i32 [ 0, %entry ], [ %i.next, %latch ]
  %i.next = add nuw nsw i32 %i, 1
  %done = icmp uge i32 %i.next, %n
  br i1 %done, label %exit, label %latch
latch:
  %cd = load i64, ptr %countdown.addr
  %paid = add i64 %cd, -5
  store i64 %paid, ptr %countdown.addr
  %enough = icmp sgt i64 %paid, -1
  br i1 %enough, label %body, label %toslow, !sampler.backedge.check !0
toslow:
  call void @slow(ptr %p, i32 %i.next)
  br label %exit
exit:
  ret void
}

define void @untagged(ptr %p, i32 %n) {
entry:
  %countdown.addr = call ptr @llvm.threadlocal.address.p0(ptr @__sampler_countdown)
  br label %body
body:
  %i = phi i32 [ 0, %entry ], [ %i.next, %latch ]
  %i.next = add nuw nsw i32 %i, 1
  %done = icmp uge i32 %i.next, %n
  br i1 %done, label %exit, label %latch
latch:
  %cd = load i64, ptr %countdown.addr
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

; A loop nest, one round per depth: the inner loop (7 back edges, 1 trial
; each) first. Then the outer one (n - 1 back edges, 2 trials each), whose
; iterations with p[i] == 0 skip the inner loop (zlib's longest_match walks
; its hash chain and compares strings on few links): the
; inner loop takes trials of its own between the outer loop's, so testing
; N x 2 at once and dropping the outer checks' payments would not be exact.
; Instead it reserves them: on entry, if the countdown covers N x 2, the copy
; runs with the countdown lowered by that much; its latch neither tests nor
; pays; the inner loop's checks and tests (and its copy's payments) stay, and
; work on the lowered countdown, so they fail no later than in the loop as it
; was (a stricter test: leaving early for the instrumented copy is always
; allowed); every way out of the copy gives back (N - b) x 2, b the back
; edges taken (the counter i), so the countdown is what the loop would have
; left. The inner loop's preheader was the outer loop's header: it gets a
; block of its own, so that the copy of it is not a second way into the outer
; loop.
; CHECK-LABEL: define void @nest(
; CHECK:       {{^}}sampler.loop.test[[OUT:[0-9]+]]:
; CHECK:         %sampler.backedges = zext i32 %0 to i64
; CHECK-NEXT:    [[CD:%countdown[0-9]+]] = load i64, ptr %countdown.addr
; CHECK-NEXT:    %sampler.loop.trials = mul nuw nsw i64 %sampler.backedges, 2
; CHECK-NEXT:    %sampler.loop.affordable{{[0-9]+}} = icmp sge i64 [[CD]], %sampler.loop.trials
; CHECK:       {{^}}outer:
; CHECK:       {{^}}sampler.loop.test:
; CHECK-SAME:    preds = %outer
; CHECK:         %sampler.loop.affordable = icmp sge i64 %countdown, 7
; The ways out of the copy: to the instrumented copy from the inner loop's
; check, and the loop's exit, each giving back the rest of the reserve.
; The back edges left are N - i = (n - 1) - i: N + j0 (the base, j0 = 0 the
; counter's start) less the counter, which passes through an empty asm that
; ScalarEvolution cannot see into (so that strength reduction does not turn
; the expression into an induction variable paid every iteration).
; CHECK:       {{^}}toslow.loopexit.reserve.back:
; CHECK-NEXT:    %sampler.counter = call i32 asm "", "=r,0"(i32 %i.bounded)
; CHECK-NEXT:    [[T:%[0-9]+]] = sub i32 %0, %sampler.counter
; CHECK-NEXT:    %sampler.backedges.left = zext i32 [[T]] to i64
; CHECK-NEXT:    %sampler.reserve.left = mul i64 %sampler.backedges.left, 2
; CHECK-NEXT:    [[C:%countdown[0-9]+]] = load i64, ptr %countdown.addr
; CHECK-NEXT:    %countdown.given.back = add i64 [[C]], %sampler.reserve.left
; CHECK-NEXT:    store i64 %countdown.given.back, ptr %countdown.addr
; CHECK:       {{^}}exit.loopexit.reserve.back:
; CHECK:         store i64 %countdown.given.back{{[0-9]+}}, ptr %countdown.addr
; CHECK:       {{^}}sampler.loop.enough{{[0-9]+}}:
; CHECK-NEXT:    %countdown.reserved = sub i64 [[CD]], %sampler.loop.trials
; CHECK-NEXT:    store i64 %countdown.reserved, ptr %countdown.addr
; The inner loop's original, checked, inside the copy: its failure leaves.
; CHECK:       {{^}}ilatch.bounded{{[0-9]+}}:
; CHECK:         br i1 %enough.bounded, label %inner.bounded{{[0-9]+}}, label %toslow.loopexit.reserve.back
; The copy's latch goes straight back: no load, no payment.
; CHECK:       {{^}}olatch.bounded:
; CHECK-NEXT:    br label %outer.bounded
define void @nest(ptr %p, i32 %n) {
entry:
  %countdown.addr = call ptr @llvm.threadlocal.address.p0(ptr @__sampler_countdown)
  %go = icmp sgt i32 %n, 0
  br i1 %go, label %outer, label %exit
outer:
  %i = phi i32 [ 0, %entry ], [ %i.next, %olatch ]
  %gepi = getelementptr inbounds i32, ptr %p, i32 %i
  %vi = load i32, ptr %gepi
  %skip = icmp eq i32 %vi, 0
  br i1 %skip, label %iexit, label %inner
inner:
  %j = phi i32 [ 0, %outer ], [ %j.next, %ilatch ]
  %idx = add i32 %i, %j
  %gep = getelementptr inbounds i32, ptr %p, i32 %idx
  store i32 %j, ptr %gep
  %j.next = add nuw nsw i32 %j, 1
  %jdone = icmp eq i32 %j.next, 8
  br i1 %jdone, label %iexit, label %ilatch
ilatch:
  %cd = load i64, ptr %countdown.addr
  %paid = add i64 %cd, -1
  store i64 %paid, ptr %countdown.addr
  %enough = icmp sgt i64 %paid, -1
  br i1 %enough, label %inner, label %toslow, !sampler.backedge.check !2
iexit:
  %i.next = add nuw nsw i32 %i, 1
  %idone = icmp eq i32 %i.next, %n
  br i1 %idone, label %exit, label %olatch
olatch:
  %cd2 = load i64, ptr %countdown.addr
  %paid2 = add i64 %cd2, -2
  store i64 %paid2, ptr %countdown.addr
  %enough2 = icmp sgt i64 %paid2, -1
  br i1 %enough2, label %outer, label %toslow, !sampler.backedge.check !1
toslow:
  call void @slow(ptr %p, i32 0)
  br label %exit
exit:
  ret void
}
; The same nest where every iteration runs the inner loop: its checks and its
; bounded copy's test cost more than the outer latch's check, so a reserve,
; which saves only that check and costs a test and a give-back on each entry,
; would not pay (ccrypt's rounds). The outer loop keeps its check (REMARK).
; CHECK-LABEL: define void @always(
; CHECK:       {{^}}olatch:
; CHECK-NEXT:    %cd2 = load i64, ptr %countdown.addr
; CHECK-NEXT:    %paid2 = add i64 %cd2, -2
; CHECK-NOT:   sampler.reserve
; CHECK-LABEL: define void @costly(
define void @always(ptr %p, i32 %n) {
entry:
  %countdown.addr = call ptr @llvm.threadlocal.address.p0(ptr @__sampler_countdown)
  %go = icmp sgt i32 %n, 0
  br i1 %go, label %outer, label %exit
outer:
  %i = phi i32 [ 0, %entry ], [ %i.next, %olatch ]
  br label %inner
inner:
  %j = phi i32 [ 0, %outer ], [ %j.next, %ilatch ]
  %idx = add i32 %i, %j
  %gep = getelementptr inbounds i32, ptr %p, i32 %idx
  store i32 %j, ptr %gep
  %j.next = add nuw nsw i32 %j, 1
  %jdone = icmp eq i32 %j.next, 8
  br i1 %jdone, label %iexit, label %ilatch
ilatch:
  %cd = load i64, ptr %countdown.addr
  %paid = add i64 %cd, -1
  store i64 %paid, ptr %countdown.addr
  %enough = icmp sgt i64 %paid, -1
  br i1 %enough, label %inner, label %toslow, !sampler.backedge.check !2
iexit:
  %i.next = add nuw nsw i32 %i, 1
  %idone = icmp eq i32 %i.next, %n
  br i1 %idone, label %exit, label %olatch
olatch:
  %cd2 = load i64, ptr %countdown.addr
  %paid2 = add i64 %cd2, -2
  store i64 %paid2, ptr %countdown.addr
  %enough2 = icmp sgt i64 %paid2, -1
  br i1 %enough2, label %outer, label %toslow, !sampler.backedge.check !1
toslow:
  call void @slow(ptr %p, i32 0)
  br label %exit
exit:
  ret void
}

; Bounds the test would not pay for: a counted loop from a - b to c that may
; leave early (a zero in p), whose bound smax(c, a - b) - (a - b) costs more
; to compute on entry than the budget (3); and a loop of three iterations (two
; back edges, fewer than the test saves). Both keep their checks, and say why
; (REMARK). The same count without the early way out pays on entry, which
; saves the payment on its way out: its budget is 5, and it is bounded.
; CHECK-NOT:   sampler.loop
; CHECK-LABEL: define void @costly_paid(
; CHECK:       sampler.loop.enough:
; CHECK-NEXT:    store i64 %countdown.paid.on.entry, ptr %countdown.addr
; CHECK-LABEL: define void @short(
; CHECK-NOT:   sampler.loop
; CHECK-LABEL: declare void @slow(
; CHECK:       ![[LIKELY]] = !{!"branch_weights", i32 1048575, i32 1}
define void @costly(ptr %p, i32 %a, i32 %b, i32 %c) {
entry:
  %countdown.addr = call ptr @llvm.threadlocal.address.p0(ptr @__sampler_countdown)
  %start = sub nsw i32 %a, %b
  br label %head
head:
  %j = phi i32 [ %start, %entry ], [ %j.next, %latch ]
  %more = icmp slt i32 %j, %c
  br i1 %more, label %body, label %exit
body:
  %gep = getelementptr inbounds i32, ptr %p, i32 %j
  %v = load i32, ptr %gep
  %zero = icmp eq i32 %v, 0
  br i1 %zero, label %exit, label %store
store:
  store i32 %j, ptr %gep
  %j.next = add nsw i32 %j, 1
  br label %latch
latch:
  %cd = load volatile i64, ptr %countdown.addr
  %paid = add i64 %cd, -2
  store i64 %paid, ptr %countdown.addr
  %enough = icmp sgt i64 %paid, -1
  br i1 %enough, label %head, label %toslow, !sampler.backedge.check !1
toslow:
  call void @slow(ptr %p, i32 %j.next)
  br label %exit
exit:
  ret void
}

define void @costly_paid(ptr %p, i32 %a, i32 %b, i32 %c) {
entry:
  %countdown.addr = call ptr @llvm.threadlocal.address.p0(ptr @__sampler_countdown)
  %start = sub nsw i32 %a, %b
  br label %head
head:
  %j = phi i32 [ %start, %entry ], [ %j.next, %latch ]
  %more = icmp slt i32 %j, %c
  br i1 %more, label %body, label %exit
body:
  %gep = getelementptr inbounds i32, ptr %p, i32 %j
  store i32 %j, ptr %gep
  %j.next = add nsw i32 %j, 1
  br label %latch
latch:
  %cd = load volatile i64, ptr %countdown.addr
  %paid = add i64 %cd, -2
  store i64 %paid, ptr %countdown.addr
  %enough = icmp sgt i64 %paid, -1
  br i1 %enough, label %head, label %toslow, !sampler.backedge.check !1
toslow:
  call void @slow(ptr %p, i32 %j.next)
  br label %exit
exit:
  ret void
}

define void @short(ptr %p) {
entry:
  %countdown.addr = call ptr @llvm.threadlocal.address.p0(ptr @__sampler_countdown)
  br label %body
body:
  %i = phi i32 [ 0, %entry ], [ %i.next, %latch ]
  %gep = getelementptr inbounds i32, ptr %p, i32 %i
  store i32 %i, ptr %gep
  %i.next = add nuw nsw i32 %i, 1
  %done = icmp eq i32 %i.next, 3
  br i1 %done, label %exit, label %latch
latch:
  %cd = load volatile i64, ptr %countdown.addr
  %paid = add i64 %cd, -1
  store i64 %paid, ptr %countdown.addr
  %enough = icmp sgt i64 %paid, -1
  br i1 %enough, label %body, label %toslow, !sampler.backedge.check !2
toslow:
  call void @slow(ptr %p, i32 %i.next)
  br label %exit
exit:
  ret void
}

declare void @slow(ptr, i32)

; From the sampler pass through the O2 pipeline: zlib's slide_hash, a loop of n
; iterations with a site (the clamp) in each. The copy whose checks no longer
; test is vectorised (the countdown it pays is an induction variable, carried in
; a register by LoopCountdownPromotion); with -sampler-loop-bounds=0 -sampler-loop-promote=0 nothing is
; (the check is an early exit on memory); with the countdown in a register the
; vectoriser takes the smaller of the two exit counts.
; PIPELINE-LABEL: define void @slide(
; PIPELINE:       %sampler.loop.affordable
; PIPELINE:       <8 x i16>
; PROMOTE-LABEL:  define void @slide(
; PROMOTE-NOT:    sampler.loop
; PROMOTE:        %countdown.addr{{[0-9]*}} = tail call align 8 ptr @llvm.threadlocal.address.p0(ptr @__sampler_countdown)
; PROMOTE:        %countdown.promoted = load i64, ptr %countdown.addr{{[0-9]*}}
; PROMOTE:        <8 x i16>
; PROMOTE:        ret void
; OFF-LABEL:      define void @slide(
; OFF-NOT:        sampler.loop
; OFF-NOT:        <8 x i16>
; OFF:            ret void
define void @slide(ptr %head, i32 %n, i32 %wsize) {
entry:
  %countdown.addr = call ptr @llvm.threadlocal.address.p0(ptr @__sampler_countdown)
  %idx = zext i32 %n to i64
  %end = getelementptr inbounds i16, ptr %head, i64 %idx
  br label %body
body:
  %p = phi ptr [ %end, %entry ], [ %p.next, %next ]
  %k = phi i32 [ %n, %entry ], [ %k.next, %next ]
  %p.next = getelementptr inbounds i16, ptr %p, i64 -1
  %m16 = load i16, ptr %p.next
  %m = zext i16 %m16 to i32
  %ge = icmp uge i32 %m, %wsize
  br i1 %ge, label %sub, label %zero
sub:
  %d = sub i32 %m, %wsize
  br label %next
zero:
  br label %next
next:
  %v = phi i32 [ %d, %sub ], [ 0, %zero ]
  %v16 = trunc i32 %v to i16
  store i16 %v16, ptr %p.next
  %k.next = add i32 %k, -1
  %more = icmp ne i32 %k.next, 0
  br i1 %more, label %body, label %done
done:
  ret void
}

!0 = !{i64 3}
!1 = !{i64 2}
!2 = !{i64 1}
!3 = !{i64 4}

declare ptr @llvm.threadlocal.address.p0(ptr)

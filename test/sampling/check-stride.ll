; A loop of the fast copy with no bound on entry keeps a check on its back
; edge, `paid = c - W; if (paid < 0) goto instrumented copy`, two
; instructions an iteration. sampler-check-stride<K> unrolls it K times and
; makes the first copy's check test K - 1 iterations ahead
; (`paid - (K-1)·W`); the other copies' checks then always pass and lose
; their tests. Where the test ahead fails, the original test chooses between
; a fallback, the loop as it was with a check every iteration, and the
; instrumented copy. Every copy still pays W, so the countdown is what it was
; at every point: exact (test/hardening/check-stride.c compares the counts
; seed for seed). The loops below are in the shape LoopCountdownPromotion
; leaves, the countdown a register {c0,+,-W}, and the check tagged as
; LoopBoundCheck leaves a loop it found no bound for.
; RUN: %opt-sampler -passes='sampler-check-stride<4>' -S %s | FileCheck %s
; RUN: %opt-sampler -passes='sampler-check-stride<1>' -S %s | FileCheck %s --check-prefix=ONE
; RUN: not %opt-sampler -passes='sampler-check-stride<0>' -S %s 2>&1 | FileCheck %s --check-prefix=BAD

@__sampler_countdown = external thread_local global i64

; A list walk: its way out (a null pointer) is not countable.
; CHECK-LABEL: define i32 @walk(
; The first copy: the strengthened test, three iterations of W = 3 ahead.
; CHECK:       {{^}}latch:
; CHECK-NEXT:    %paid = add i64 %c, -3
; CHECK-NEXT:    %enough = icmp sgt i64 %paid, -1
; CHECK-NEXT:    %countdown.ahead = add i64 %paid, -9
; CHECK-NEXT:    %countdown.stride = icmp sgt i64 %countdown.ahead, -1
; CHECK-NEXT:    br i1 %countdown.stride, label %body.1, label %countdown.fallback
; The second, third and fourth copies pay (UnrollLoop folds the payments
; into c - 2W, c - 3W, c - 4W), and pass.
; CHECK:       {{^}}latch.1:
; CHECK-NEXT:    %paid.1 = add i64 %c, -6
; CHECK:         br i1 true, label %body.2, label %slow
; CHECK:       {{^}}latch.2:
; CHECK-NEXT:    %paid.2 = add i64 %c, -9
; CHECK:         br i1 true, label %body.3, label %slow
; CHECK:       {{^}}latch.3:
; CHECK-NEXT:    %paid.3 = add i64 %c, -12
; CHECK:         br i1 true, label %body, label %slow, !llvm.loop [[DONE:![0-9]+]]
; The ways out take the fallback's values too.
; CHECK:       {{^}}slow:
; CHECK-NEXT:    %paid.lcssa = phi i64 [ %paid, %countdown.fallback ], {{.*}}[ %paid.fallback, %latch.fallback ]
; CHECK:       {{^}}done.loopexit:
; CHECK-NEXT:    %c.lcssa = phi i64 {{.*}}[ %c.fallback, %body.fallback ]
; The test ahead failed: this iteration's own test decides.
; CHECK:       {{^}}countdown.fallback:
; CHECK-NEXT:    br i1 %enough, label %body.fallback, label %slow
; The fallback starts from what the first copy hands on, without the flags
; UnrollLoop inferred for the first copy, and checks every iteration.
; CHECK:       {{^}}body.fallback:
; CHECK-NEXT:    %c.fallback = phi i64 [ %paid, %countdown.fallback ], [ %paid.fallback, %latch.fallback ]
; CHECK-NEXT:    %p.fallback = phi ptr [ %next, %countdown.fallback ], [ %next.fallback, %latch.fallback ]
; CHECK-NEXT:    %k.fallback = phi i32 [ %k1, %countdown.fallback ], [ %k1.fallback, %latch.fallback ]
; CHECK:         %k1.fallback = add i32 %k.fallback, 1
; CHECK:         br i1 %end.fallback, label %done.loopexit, label %latch.fallback
; CHECK:       {{^}}latch.fallback:
; CHECK-NEXT:    %paid.fallback = add i64 %c.fallback, -3
; CHECK-NEXT:    %enough.fallback = icmp sgt i64 %paid.fallback, -1
; CHECK-NEXT:    br i1 %enough.fallback, label %body.fallback, label %slow, !llvm.loop [[FALLBACK:![0-9]+]]
; CHECK-NOT:   sampler.backedge
; ONE-LABEL:   define i32 @walk(
; ONE-NOT:       body.1
; ONE:           br i1 %enough, label %body, label %slow{{$}}
; ONE-NOT:     sampler.backedge
define i32 @walk(ptr %head) {
entry:
  %addr = call ptr @llvm.threadlocal.address.p0(ptr @__sampler_countdown)
  %c0 = load i64, ptr %addr
  %none = icmp eq ptr %head, null
  br i1 %none, label %done, label %body
body:
  %c = phi i64 [ %c0, %entry ], [ %paid, %latch ]
  %p = phi ptr [ %head, %entry ], [ %next, %latch ]
  %k = phi i32 [ 0, %entry ], [ %k1, %latch ]
  %next = load ptr, ptr %p
  %k1 = add i32 %k, 1
  %end = icmp eq ptr %next, null
  br i1 %end, label %done, label %latch
latch:
  %paid = add i64 %c, -3
  %enough = icmp sgt i64 %paid, -1
  br i1 %enough, label %body, label %slow, !sampler.backedge.unbounded !0
slow:
  store i64 %paid, ptr %addr
  %r = call i32 @instrumented(ptr %next, i32 %k1)
  ret i32 %r
done:
  %cd = phi i64 [ %c0, %entry ], [ %c, %body ]
  %n = phi i32 [ 0, %entry ], [ %k1, %body ]
  store i64 %cd, ptr %addr
  ret i32 %n
}

; A loop whose every way out is counted (i < n, and the countdown's own):
; left to the vectoriser and LLVM's unroller, its tag dropped.
; CHECK-LABEL: define void @counted(
; CHECK-NOT:     body.1
; CHECK:         br i1 %enough, label %body, label %slow{{$}}
define void @counted(ptr %a, i64 %n) {
entry:
  %addr = call ptr @llvm.threadlocal.address.p0(ptr @__sampler_countdown)
  %c0 = load i64, ptr %addr
  br label %body
body:
  %c = phi i64 [ %c0, %entry ], [ %paid, %latch ]
  %i = phi i64 [ 0, %entry ], [ %i1, %latch ]
  %q = getelementptr i32, ptr %a, i64 %i
  store i32 0, ptr %q
  %i1 = add i64 %i, 1
  %end = icmp eq i64 %i1, %n
  br i1 %end, label %done, label %latch
latch:
  %paid = add i64 %c, -2
  %enough = icmp sgt i64 %paid, -1
  br i1 %enough, label %body, label %slow, !sampler.backedge.unbounded !1
slow:
  store i64 %paid, ptr %addr
  call void @instrumented_counted(ptr %a, i64 %i1, i64 %n)
  ret void
done:
  store i64 %c, ptr %addr
  ret void
}

; A loop that calls code which may take trials: its checks are on the
; countdown in memory, not a recurrence of the loop. Left alone.
; CHECK-LABEL: define void @calls(
; CHECK-NOT:     body.1
; CHECK:         br i1 %enough, label %body, label %slow{{$}}
define void @calls(ptr %head) {
entry:
  %addr = call ptr @llvm.threadlocal.address.p0(ptr @__sampler_countdown)
  br label %body
body:
  %p = phi ptr [ %head, %entry ], [ %next, %latch ]
  call void @visit(ptr %p)
  %next = load ptr, ptr %p
  %end = icmp eq ptr %next, null
  br i1 %end, label %done, label %latch
latch:
  %c = load volatile i64, ptr %addr
  %paid = add i64 %c, -2
  store i64 %paid, ptr %addr
  %enough = icmp sgt i64 %paid, -1
  br i1 %enough, label %body, label %slow, !sampler.backedge.unbounded !1
slow:
  call void @instrumented_calls(ptr %next)
  ret void
done:
  ret void
}

; The user asked for no unrolling (#pragma nounroll): left alone.
; CHECK-LABEL: define void @nounroll(
; CHECK-NOT:     body.1
; CHECK:         br i1 %enough, label %body, label %slow, !llvm.loop
define void @nounroll(ptr %head) {
entry:
  %addr = call ptr @llvm.threadlocal.address.p0(ptr @__sampler_countdown)
  %c0 = load i64, ptr %addr
  br label %body
body:
  %c = phi i64 [ %c0, %entry ], [ %paid, %latch ]
  %p = phi ptr [ %head, %entry ], [ %next, %latch ]
  %next = load ptr, ptr %p
  %end = icmp eq ptr %next, null
  br i1 %end, label %done, label %latch
latch:
  %paid = add i64 %c, -2
  %enough = icmp sgt i64 %paid, -1
  br i1 %enough, label %body, label %slow, !sampler.backedge.unbounded !1, !llvm.loop !2
slow:
  store i64 %paid, ptr %addr
  ret void
done:
  store i64 %c, ptr %addr
  ret void
}

; A branch of the program's own with the same shape but no tag: never touched.
; CHECK-LABEL: define i64 @untagged(
; CHECK-NOT:     body.1
; CHECK:         br i1 %enough, label %body, label %out{{$}}
define i64 @untagged(ptr %head, i64 %c0) {
entry:
  br label %body
body:
  %c = phi i64 [ %c0, %entry ], [ %paid, %latch ]
  %p = phi ptr [ %head, %entry ], [ %next, %latch ]
  %next = load ptr, ptr %p
  %end = icmp eq ptr %next, null
  br i1 %end, label %out, label %latch
latch:
  %paid = add i64 %c, -2
  %enough = icmp sgt i64 %paid, -1
  br i1 %enough, label %body, label %out
out:
  %r = phi i64 [ %c, %body ], [ %paid, %latch ]
  ret i64 %r
}

; Two ways out besides the check (a search that also stops at an end): each
; copy would compute its countdown for both, and hold their registers.
; CHECK-LABEL: define i32 @threeways(
; CHECK-NOT:     body.1
; CHECK:         br i1 %enough, label %body, label %slow{{$}}
define i32 @threeways(ptr %a, i32 %x) {
entry:
  %addr = call ptr @llvm.threadlocal.address.p0(ptr @__sampler_countdown)
  %c0 = load i64, ptr %addr
  br label %body
body:
  %c = phi i64 [ %c0, %entry ], [ %paid, %latch ]
  %p = phi ptr [ %a, %entry ], [ %q, %latch ]
  %v = load i32, ptr %p
  %zero = icmp eq i32 %v, 0
  br i1 %zero, label %done, label %test
test:
  %hit = icmp eq i32 %v, %x
  br i1 %hit, label %done, label %latch
latch:
  %q = getelementptr i32, ptr %p, i64 1
  %paid = add i64 %c, -2
  %enough = icmp sgt i64 %paid, -1
  br i1 %enough, label %body, label %slow, !sampler.backedge.unbounded !1
slow:
  store i64 %paid, ptr %addr
  ret i32 -1
done:
  store i64 %c, ptr %addr
  ret i32 %v
}

; A way out that tests an induction variable of the loop (here i·i < n,
; which ScalarEvolution does not count): each copy would compute its own
; value of it, costing what the checks save.
; CHECK-LABEL: define i64 @isqrt(
; CHECK-NOT:     body.1
; CHECK:         br i1 %enough, label %body, label %slow{{$}}
define i64 @isqrt(i64 %n) {
entry:
  %addr = call ptr @llvm.threadlocal.address.p0(ptr @__sampler_countdown)
  %c0 = load i64, ptr %addr
  br label %body
body:
  %c = phi i64 [ %c0, %entry ], [ %paid, %latch ]
  %i = phi i64 [ 0, %entry ], [ %i1, %latch ]
  %i1 = add i64 %i, 1
  %sq = mul i64 %i1, %i1
  %more = icmp ult i64 %sq, %n
  br i1 %more, label %latch, label %done
latch:
  %paid = add i64 %c, -2
  %enough = icmp sgt i64 %paid, -1
  br i1 %enough, label %body, label %slow, !sampler.backedge.unbounded !1
slow:
  store i64 %paid, ptr %addr
  ret i64 -1
done:
  store i64 %c, ptr %addr
  ret i64 %i
}

; A loop that runs far less often than its function's hottest (the inner loop
; of the nest after it, by the static estimate): unrolling it would change
; the registers of the hot loop for checks saved where little runs.
; CHECK-LABEL: define void @cold(
; CHECK-NOT:     first.1
; CHECK:         br i1 %enough, label %first, label %slow{{$}}
define void @cold(ptr %head, ptr %m, i64 %n) {
entry:
  %addr = call ptr @llvm.threadlocal.address.p0(ptr @__sampler_countdown)
  %c0 = load i64, ptr %addr
  br label %first
first:
  %c = phi i64 [ %c0, %entry ], [ %paid, %latch ]
  %p = phi ptr [ %head, %entry ], [ %next, %latch ]
  %next = load ptr, ptr %p
  %end = icmp eq ptr %next, null
  br i1 %end, label %outer, label %latch
latch:
  %paid = add i64 %c, -2
  %enough = icmp sgt i64 %paid, -1
  br i1 %enough, label %first, label %slow, !sampler.backedge.unbounded !1
outer:
  %i = phi i64 [ 0, %first ], [ %i1, %outer.latch ]
  br label %inner
inner:
  %j = phi i64 [ 0, %outer ], [ %j1, %inner ]
  %ij = add i64 %i, %j
  %e = getelementptr i8, ptr %m, i64 %ij
  store i8 0, ptr %e
  %j1 = add i64 %j, 1
  %jdone = icmp eq i64 %j1, %n
  br i1 %jdone, label %outer.latch, label %inner
outer.latch:
  %i1 = add i64 %i, 1
  %idone = icmp eq i64 %i1, %n
  br i1 %idone, label %done, label %outer
slow:
  store i64 %paid, ptr %addr
  ret void
done:
  store i64 %c, ptr %addr
  ret void
}

; The unrolled loop and the fallback are marked so that LLVM's unroller
; leaves them.
; CHECK: [[DONE]] = distinct !{[[DONE]], [[DISABLE:![0-9]+]]}
; CHECK: [[DISABLE]] = !{!"llvm.loop.unroll.disable"}
; CHECK: [[FALLBACK]] = distinct !{[[FALLBACK]], [[DISABLE]]}

; BAD: unknown pass name 'sampler-check-stride<0>'

declare ptr @llvm.threadlocal.address.p0(ptr)
declare i32 @instrumented(ptr, i32)
declare void @instrumented_counted(ptr, i64, i64)
declare void @instrumented_calls(ptr)
declare void @visit(ptr)

!0 = !{i64 3}
!1 = !{i64 2}
!2 = distinct !{!2, !3}
!3 = !{!"llvm.loop.unroll.disable"}

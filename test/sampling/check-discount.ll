; A function of one region keeps its body behind its entry check, and its
; instrumented copy is a function of its own that the check calls. The
; inliner would count that check and that call like the function's own code:
; a getter the build without sampler inlines (here at a cold call site, where
; the threshold is 45: cost -20 without sampler) would cost 45 and stay out of
; line, one call, one return and one check more wherever it is used (SQLite's
; sqlite3BtreePayloadFetch in sqlite3VdbeExec's loop). The instrumented copy
; carries attributes that the inliner reads where a function it weighs calls
; it: the call costs nothing, and the threshold rises by what the check's five
; instructions cost (5 each). The getter is inlined as it is without sampler,
; with its check (lib/SamplingTransform.cpp, chargeNothingForTheCheck).
; RUN: %opt-sampler -passes='sampler,cgscc(inline)' -sampler-schemes=branches -sampler-skip=user -S %s | FileCheck %s --check-prefixes=CHECK,DISCOUNT
; -fno-sampler-check-discount: the inliner counts them, and the call stays.
; RUN: %opt-sampler -passes='sampler,cgscc(inline)' -sampler-schemes=branches -sampler-skip=user -sampler-check-discount=false -S %s | FileCheck %s --check-prefixes=CHECK,FULL

; CHECK-LABEL: define i32 @user(
; CHECK:       cold:
; DISCOUNT-NEXT: %countdown.addr.i = call ptr @llvm.threadlocal.address.p0(ptr @__sampler_countdown)
; DISCOUNT-NEXT: [[CD:%.*]] = load volatile i64, ptr %countdown.addr.i
; DISCOUNT-NEXT: [[PAID:%.*]] = sub i64 [[CD]], 1
; DISCOUNT-NEXT: store i64 [[PAID]], ptr %countdown.addr.i
; DISCOUNT-NEXT: [[FAST:%.*]] = icmp sge i64 [[PAID]], 0
; DISCOUNT-NEXT: br i1 [[FAST]], label %sampler.body.i, label %sampler.to.slow.i
; DISCOUNT:    sampler.to.slow.i:
; DISCOUNT-NEXT: call i32 @get.sampler.slow(ptr %p)
; DISCOUNT:    sampler.body.i:
; DISCOUNT-NEXT: load i32, ptr %p
; DISCOUNT-NOT:  call i32 @get(
; FULL-NEXT:     %x = call i32 @get(ptr %p)
; CHECK:       {{^}}}

; CHECK: define internal i32 @get.sampler.slow(ptr %p) unnamed_addr #[[SLOW:[0-9]+]]
; DISCOUNT: attributes #[[SLOW]] = { cold noinline nounwind optsize "call-inline-cost"="0" "call-threshold-bonus"="25" "sampler-instrumented-copy" }
; FULL: attributes #[[SLOW]] = { cold noinline nounwind optsize "sampler-instrumented-copy" }

source_filename = "check-discount.c"

define i32 @get(ptr %p) nounwind {
entry:
  %v = load i32, ptr %p
  %neg = icmp slt i32 %v, 0
  br i1 %neg, label %zero, label %done

zero:
  br label %done

done:
  %r = phi i32 [ 0, %zero ], [ %v, %entry ]
  ret i32 %r
}

define i32 @user(ptr %p, i32 %n) nounwind {
entry:
  %rare = icmp eq i32 %n, 12345
  br i1 %rare, label %cold, label %hot, !prof !0

cold:
  %x = call i32 @get(ptr %p)
  br label %hot

hot:
  %r = phi i32 [ %x, %cold ], [ 0, %entry ]
  ret i32 %r
}

; Taken once in 100,001 runs: the call site is cold.
!0 = !{!"branch_weights", i32 1, i32 100000}

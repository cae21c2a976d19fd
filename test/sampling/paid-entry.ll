; PaidEntry (lib/PaidEntry.h) with CheckMerge: a small function whose entry
; block is only its check gets a copy F.sampler.paid entered with that check
; paid; a direct call that a check before it can pay for (every path from its
; fast edge reaches the call, nothing touching the countdown on the way, or
; the ways that miss it give W back) goes to the copy, and that check pays W
; more and gives W back on its way to its instrumented copy. Copies no call
; took go.
; RUN: %opt-sampler -passes='sampler-paid-entry,function(sampler-check-merge),sampler-paid-entry-cleanup' -S %s | FileCheck %s
; Off (limit 0), and with a limit below @leaf's size: calls keep paying.
; RUN: %opt-sampler -passes='sampler-paid-entry,function(sampler-check-merge),sampler-paid-entry-cleanup' -sampler-paid-entry-limit=0 -S %s | FileCheck %s --check-prefix=OFF
; RUN: %opt-sampler -passes='sampler-paid-entry,function(sampler-check-merge),sampler-paid-entry-cleanup' -sampler-paid-entry-limit=8 -S %s | FileCheck %s --check-prefix=OFF

@__sampler_countdown = external thread_local global i64
@out = global i32 0

declare void @slow()
declare void @leaf.slow(i32)
declare void @other()

; The callee: its entry is its check of weight 2 (its sites' cold code is in
; @leaf.slow, as SamplingTransform outlines a function of one region).
; CHECK-LABEL: define void @leaf(i32 %x)
; CHECK:         add i64 %c, -2
define void @leaf(i32 %x) {
entry:
  %c = load volatile i64, ptr @__sampler_countdown
  %p = add i64 %c, -2
  store i64 %p, ptr @__sampler_countdown
  %ok = icmp sgt i64 %p, -1
  br i1 %ok, label %fast, label %slowway

fast:
  %y = add i32 %x, 1
  store i32 %y, ptr @out
  ret void

slowway:
  call void @leaf.slow(i32 %x)
  ret void
}

; The caller's check pays 3 + 2, the call enters the paid copy, and the way to
; the instrumented copy gives 2 back.
; CHECK-LABEL: define void @caller(i32 %x)
; CHECK:         %p = add i64 %c, -5
; CHECK:         br i1 %ok, label %fast, label %sampler.merged.back
; CHECK:       fast:
; CHECK-NEXT:    call void @leaf.sampler.paid(i32 %x)
; CHECK:       sampler.merged.back:
; CHECK-NEXT:    %countdown = load volatile i64, ptr @__sampler_countdown
; CHECK-NEXT:    %countdown.back = add i64 %countdown, 2
; CHECK-NEXT:    store i64 %countdown.back, ptr @__sampler_countdown
; CHECK-NEXT:    br label %slowway
; CHECK:       slowway:
; CHECK-NEXT:    call void @slow()
; CHECK-NEXT:    call void @leaf(i32 %x)
; OFF-LABEL: define void @caller(i32 %x)
; OFF:         %p = add i64 %c, -3
; OFF:         call void @leaf(i32 %x)
; OFF-NOT:     sampler.paid
define void @caller(i32 %x) {
entry:
  %c = load volatile i64, ptr @__sampler_countdown
  %p = add i64 %c, -3
  store i64 %p, ptr @__sampler_countdown
  %ok = icmp sgt i64 %p, -1
  br i1 %ok, label %fast, label %slowway

fast:
  call void @leaf(i32 %x)
  ret void

slowway:
  call void @slow()
  call void @leaf(i32 %x)
  ret void
}

; A call that another call precedes keeps paying its callee's check: the
; other call may touch the countdown.
; CHECK-LABEL: define void @after_other(i32 %x)
; CHECK:         %p = add i64 %c, -3
; CHECK:         call void @other()
; CHECK-NEXT:    call void @leaf(i32 %x)
define void @after_other(i32 %x) {
entry:
  %c = load volatile i64, ptr @__sampler_countdown
  %p = add i64 %c, -3
  store i64 %p, ptr @__sampler_countdown
  %ok = icmp sgt i64 %p, -1
  br i1 %ok, label %fast, label %slowway

fast:
  call void @other()
  call void @leaf(i32 %x)
  ret void

slowway:
  call void @slow()
  ret void
}

; The paid copy: straight to the fast code, no check, no slow way.
; CHECK-LABEL: define internal void @leaf.sampler.paid(i32 %x)
; CHECK-NEXT:  entry:
; CHECK-NEXT:    br label %fast
; CHECK:       fast:
; CHECK-NEXT:    %y = add i32 %x, 1
; CHECK-NEXT:    store i32 %y, ptr @out
; CHECK-NEXT:    ret void
; CHECK-NEXT:  }
; No attribute is left for the backend.
; CHECK-NOT:   sampler-paid

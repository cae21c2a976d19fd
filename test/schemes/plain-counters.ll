; Counters updated with plain loads and stores (-fno-sampler-atomic-counters,
; -sampler-atomic-counters=0), as clang's -fprofile-update=single counts: no
; `lock`-prefixed instruction, which on x86 is most of the time at d = 1 and in
; the unconditional build (docs/benchmarks.md, "Atomic counters"), but counts
; that threads sharing the unit's counters may lose. By default every update
; is a relaxed atomic read-modify-write (branches.ll, bounds.ll, checks.ll).
; Branch sites compute their cell (-sampler-observe-edges=0) as in the sampled
; build; branches.ll shows the unconditional build's edges.
; RUN: %opt-sampler -passes=sampler -sampler-schemes=branches,bounds -sampler-sampling=off -sampler-observe-edges=0 -S %s | FileCheck %s --check-prefix=ATOMIC
; RUN: %opt-sampler -passes=sampler -sampler-schemes=branches,bounds -sampler-sampling=off -sampler-observe-edges=0 -sampler-atomic-counters=0 -S %s | FileCheck %s --check-prefix=PLAIN
; RUN: %opt-sampler -passes=sampler -sampler-schemes=branches,bounds -sampler-atomic-counters=0 -S %s | FileCheck %s --check-prefix=PLAIN

; ATOMIC-LABEL: define i32 @f(
; ATOMIC:       atomicrmw add ptr
; ATOMIC:       atomicrmw min ptr getelementptr inbounds (i64, ptr @__sampler_counters, i64 2)
; ATOMIC:       atomicrmw max ptr getelementptr inbounds (i64, ptr @__sampler_counters, i64 3)
; PLAIN-LABEL:  define i32 @f(
; PLAIN-NOT:    atomicrmw
; A branch's outcome: its cell, loaded, incremented and stored.
; PLAIN:        [[BPTR:%.*]] = getelementptr inbounds i64, ptr @__sampler_counters, i64
; PLAIN-NEXT:   [[BOLD:%.*]] = load i64, ptr [[BPTR]], align 8
; PLAIN-NEXT:   [[BNEW:%.*]] = add i64 [[BOLD]], 1
; PLAIN-NEXT:   store i64 [[BNEW]], ptr [[BPTR]], align 8
; PLAIN-NOT:    atomicrmw
; An assignment's bounds: the smaller and the larger value kept.
; PLAIN:        [[V:%.*]] = sext i32 %n to i64
; PLAIN-NEXT:   [[MIN:%.*]] = load i64, ptr getelementptr inbounds (i64, ptr @__sampler_counters, i64 2), align 8
; PLAIN-NEXT:   [[LT:%.*]] = icmp slt i64 [[V]], [[MIN]]
; PLAIN-NEXT:   [[NEWMIN:%.*]] = select i1 [[LT]], i64 [[V]], i64 [[MIN]]
; PLAIN-NEXT:   store i64 [[NEWMIN]], ptr getelementptr inbounds (i64, ptr @__sampler_counters, i64 2), align 8
; PLAIN-NEXT:   [[MAX:%.*]] = load i64, ptr getelementptr inbounds (i64, ptr @__sampler_counters, i64 3), align 8
; PLAIN-NEXT:   [[GT:%.*]] = icmp sgt i64 [[V]], [[MAX]]
; PLAIN-NEXT:   [[NEWMAX:%.*]] = select i1 [[GT]], i64 [[V]], i64 [[MAX]]
; PLAIN-NEXT:   store i64 [[NEWMAX]], ptr getelementptr inbounds (i64, ptr @__sampler_counters, i64 3), align 8
; PLAIN-NOT:    atomicrmw

source_filename = "plain.c"

define i32 @f(i32 %n) {
entry:
  %n.addr = alloca i32
  %c = icmp sgt i32 %n, 3
  br i1 %c, label %big, label %small

big:
  store i32 %n, ptr %n.addr
  ret i32 1

small:
  ret i32 0
}

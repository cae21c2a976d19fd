; The returns scheme: after each call returning an integer or a pointer, a site
; with cells [<0, ==0, >0]. Integers compare signed; pointers and bools are
; never < 0. Intrinsics and void calls are not sites; an invoke is observed on
; its normal edge.
;
; Sampled build (and -sampler-observe-edges=0): the cell is computed,
; (v > 0) + (v >= 0), and one add takes it.
; RUN: %opt-sampler -passes=sampler -sampler-schemes=returns -sampler-sampling=off -sampler-observe-edges=0 -S %s | FileCheck %s --check-prefixes=CHECK,CELL
;
; Unconditional build (-sampler-observe-edges=auto, the default): the sign is
; tested by branches, each way adding 1 to a constant cell, so that the
; program's own tests of the value (`if (!p)`, `if (r < 0)`) are threaded
; through them (docs/schemes.md).
; RUN: %opt-sampler -passes=sampler -sampler-schemes=returns -sampler-sampling=off -S %s | FileCheck %s --check-prefixes=CHECK,EDGES

; CHECK: site 0\093\09returns\09returns.c\090\090\09use\09get(...)
; CHECK-SAME: site 3\093\09returns\09returns.c\090\090\09use\09find(...)
; CHECK-SAME: site 6\093\09returns\09returns.c\090\090\09use\09(*fp)(...)
; CHECK-SAME: site 9\093\09returns\09returns.c\090\090\09use\09get(...)\0Aend

; CHECK-LABEL: define i32 @use(
; CHECK:       %v = call i32 @get()
; CHECK-NEXT:  br label %site.observe
; CHECK:     site.observe:
; CELL-NEXT:   [[GT:%.*]] = icmp sgt i32 %v, 0
; CELL-NEXT:   [[GTX:%.*]] = zext i1 [[GT]] to i64
; CELL-NEXT:   [[GE:%.*]] = icmp sge i32 %v, 0
; CELL-NEXT:   [[GEX:%.*]] = zext i1 [[GE]] to i64
; CELL-NEXT:   [[IDX:%.*]] = add i64 [[GTX]], [[GEX]]
; CELL-NEXT:   add i64 [[IDX]], 0
; Zero first: most programs test a returned value against 0.
; EDGES-NEXT:  [[ZERO:%.*]] = icmp eq i32 %v, 0
; EDGES-NEXT:  br i1 [[ZERO]], label %site.ret1, label %site.else
; EDGES:     site.ret1:
; EDGES-NEXT:  atomicrmw add ptr getelementptr inbounds (i64, ptr @__sampler_counters, i64 1), i64 1
; EDGES:     site.else:
; EDGES-NEXT:  [[NEG:%.*]] = icmp slt i32 %v, 0
; EDGES-NEXT:  br i1 [[NEG]], label %site.ret0, label %[[RET2:site.ret2.*]]
; EDGES:     site.ret0:
; EDGES-NEXT:  atomicrmw add ptr @__sampler_counters, i64 1
; EDGES:     [[RET2]]:
; EDGES-NEXT:  atomicrmw add ptr getelementptr inbounds (i64, ptr @__sampler_counters, i64 2), i64 1
; CHECK:       %p = call ptr @find(i32 %v)
; CHECK:       [[NN:%.*]] = icmp ne ptr %p, null
; CELL-NEXT:   select i1 [[NN]], i64 2, i64 1
; EDGES-NEXT:  br i1 [[NN]], label %[[PRET2:site.ret2.*]], label %[[PRET1:site.ret1.*]]
; EDGES:     [[PRET2]]:
; EDGES-NEXT:  atomicrmw add ptr getelementptr inbounds (i64, ptr @__sampler_counters, i64 5), i64 1
; EDGES:     [[PRET1]]:
; EDGES-NEXT:  atomicrmw add ptr getelementptr inbounds (i64, ptr @__sampler_counters, i64 4), i64 1
; CHECK:       %q = call ptr %fp()
; CHECK:       call void @llvm.donothing()
; CHECK-NEXT:  call void @nothing()
; CHECK-NEXT:  %w = invoke i32 @get()
; CHECK-NEXT:    to label %[[EDGE:.*]] unwind label %lpad
; CHECK:     [[EDGE]]:
; CHECK-NEXT:  br label %site.observe
; CELL:        icmp sgt i32 %w, 0
; EDGES:       icmp eq i32 %w, 0

source_filename = "returns.c"

declare i32 @get()
declare ptr @find(i32)
declare void @nothing()
declare void @llvm.donothing()
declare i32 @__gxx_personality_v0(...)

define i32 @use(ptr %fp) personality ptr @__gxx_personality_v0 {
entry:
  %v = call i32 @get()
  %p = call ptr @find(i32 %v)
  %q = call ptr %fp()
  call void @llvm.donothing()
  call void @nothing()
  %w = invoke i32 @get() to label %ok unwind label %lpad
ok:
  ret i32 %w
lpad:
  %lp = landingpad { ptr, i32 } cleanup
  ret i32 0
}

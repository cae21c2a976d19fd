; float-kinds: at an assignment of a float or double, 9 cells
; [-inf, -normal, -denormal, -0, +0, +denormal, +normal, +inf, NaN], chosen
; from the bits: exponent all ones (inf or NaN), zero (zero or denormal), else
; normal; the sign bit picks the side.
; RUN: %opt-sampler -passes=sampler -sampler-schemes=float-kinds -sampler-sampling=off -S %s | FileCheck %s

; CHECK: site 0\099\09float-kinds\09kinds.c\090\090\09f\09x\0Asite 9\099\09float-kinds\09kinds.c\090\090\09f\09d\0Aend
; CHECK-LABEL: define void @f(
; CHECK:     site.observe:
; CHECK-NEXT:  [[RAW:%.*]] = bitcast double %v to i64
; CHECK-NEXT:  [[NEG:%.*]] = icmp slt i64 [[RAW]], 0
; CHECK-NEXT:  [[SH:%.*]] = lshr i64 [[RAW]], 52
; CHECK-NEXT:  [[EXP:%.*]] = and i64 [[SH]], 2047
; CHECK-NEXT:  [[MANT:%.*]] = and i64 [[RAW]], 4503599627370495
; CHECK-NEXT:  [[EMAX:%.*]] = icmp eq i64 [[EXP]], 2047
; CHECK:     site.observe{{[0-9]+}}:
; CHECK-NEXT:  bitcast float %w to i32
; CHECK:       lshr i32 {{.*}}, 23
; CHECK-NEXT:  and i32 {{.*}}, 255

source_filename = "kinds.c"

define void @f(double %v, float %w) {
entry:
  %x = alloca double
  %d = alloca float
  store double %v, ptr %x
  store float %w, ptr %d
  ret void
}

; A switch is one site with a cell for the default and one per case, in IR
; order; the description lists the case values.
; RUN: %opt-sampler -passes=sampler -sampler-schemes=branches -sampler-sampling=off -S %s | FileCheck %s

; CHECK: c"SAMPLER-SITES 1\0Aunit {{[0-9a-f]+}} 4 0\0Asource switch.c\0Asite 0\094\09branches\09switch.c\090\090\09classify\09k; cases: 1,5,-2\0Aend\0A\00"
; CHECK-LABEL: define i32 @classify(
; CHECK:     site.observe:
; CHECK-NEXT:  [[C3:%.*]] = icmp eq i32 %k, -2
; CHECK-NEXT:  [[S3:%.*]] = select i1 [[C3]], i64 3, i64 0
; CHECK-NEXT:  [[C2:%.*]] = icmp eq i32 %k, 5
; CHECK-NEXT:  [[S2:%.*]] = select i1 [[C2]], i64 2, i64 [[S3]]
; CHECK-NEXT:  [[C1:%.*]] = icmp eq i32 %k, 1
; CHECK-NEXT:  [[S1:%.*]] = select i1 [[C1]], i64 1, i64 [[S2]]
; CHECK-NEXT:  add i64 [[S1]], 0
; CHECK:     site.cont:
; CHECK-NEXT:  switch i32 %k, label %other [

source_filename = "switch.c"

define i32 @classify(i32 %k) {
entry:
  switch i32 %k, label %other [
    i32 1, label %one
    i32 5, label %five
    i32 -2, label %minus
  ]
one:
  ret i32 10
five:
  ret i32 50
minus:
  ret i32 -20
other:
  ret i32 0
}

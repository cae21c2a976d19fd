; A switch's observation finds its cell (0: the default; case k in IR order: k)
; at a cost that does not grow with its cases (BranchesScheme.cpp, caseIndex):
; up to 3 cases by selects (switch.ll); values in a dense range by a constant
; table, indexed by the value less the smallest, with one entry more (0) for
; the values outside it; a range of every value of the type without that test;
; sparse values by a switch of its own, whose cases give their cell to a phi.
; RUN: %opt-sampler -passes=sampler -sampler-schemes=branches -sampler-sampling=off -S %s | FileCheck %s

; 10..20: 11 entries and the default's; 13 is case 3, 20 case 5.
; CHECK: @__sampler_switch_cells = private unnamed_addr constant [12 x i8] c"\01\02\00\03\04\00\00\00\00\00\05\00"
; -128..127 with its four cases at 0, 127, 128 and 255: every value in range.
; CHECK: @__sampler_switch_cells.1 = private unnamed_addr constant [256 x i8] c"{{\\01(\\00){126}\\02\\03(\\00){126}\\04}}"

; CHECK-LABEL: define i32 @dense(
; CHECK:      site.observe:
; CHECK-NEXT:   [[OFF:%.*]] = sub i32 %k, 10
; CHECK-NEXT:   [[WIDE:%.*]] = zext i32 [[OFF]] to i64
; CHECK-NEXT:   [[IN:%.*]] = icmp ule i32 [[OFF]], 10
; CHECK-NEXT:   [[SLOT:%.*]] = select i1 [[IN]], i64 [[WIDE]], i64 11
; CHECK-NEXT:   [[AT:%.*]] = getelementptr inbounds [12 x i8], ptr @__sampler_switch_cells, i64 0, i64 [[SLOT]]
; CHECK-NEXT:   [[E:%.*]] = load i8, ptr [[AT]]
; CHECK-NEXT:   [[CELL:%.*]] = zext i8 [[E]] to i64
; CHECK-NEXT:   add i64 [[CELL]], 0
; CHECK-NOT:    select
; CHECK:      site.cont:

; CHECK-LABEL: define i32 @bytes(
; CHECK:      site.observe:
; CHECK-NEXT:   [[OFF:%.*]] = sub i8 %c, -128
; CHECK-NEXT:   [[SLOT:%.*]] = zext i8 [[OFF]] to i64
; CHECK-NEXT:   [[AT:%.*]] = getelementptr inbounds [256 x i8], ptr @__sampler_switch_cells.1, i64 0, i64 [[SLOT]]
; CHECK-NEXT:   [[E:%.*]] = load i8, ptr [[AT]]
; CHECK-NEXT:   [[CELL:%.*]] = zext i8 [[E]] to i64
; CHECK-NEXT:   add i64 [[CELL]], 6

; CHECK-LABEL: define i32 @sparse(
; CHECK:      site.observe:
; CHECK-NEXT:   switch i64 %v, label %site.case.join [
; CHECK-NEXT:     i64 -7, label %[[C1:.*]]
; CHECK-NEXT:     i64 1, label %[[C2:.*]]
; CHECK-NEXT:     i64 1000, label %[[C3:.*]]
; CHECK-NEXT:     i64 100000, label %[[C4:.*]]
; CHECK-NEXT:   ]
; CHECK:      site.case.join:
; CHECK-NEXT:   [[CELL:%.*]] = phi i64 [ 0, %site.observe ], [ 1, %[[C1]] ], [ 2, %[[C2]] ], [ 3, %[[C3]] ], [ 4, %[[C4]] ]
; CHECK-NEXT:   add i64 [[CELL]], 11
; CHECK:        br label %site.cont

source_filename = "switch-cells.c"

define i32 @dense(i32 %k) {
entry:
  switch i32 %k, label %other [
    i32 10, label %a
    i32 11, label %b
    i32 13, label %a
    i32 14, label %b
    i32 20, label %a
  ]
a:
  ret i32 1
b:
  ret i32 2
other:
  ret i32 0
}

define i32 @bytes(i8 %c) {
entry:
  switch i8 %c, label %other [
    i8 -128, label %a
    i8 -1, label %b
    i8 0, label %a
    i8 127, label %b
  ]
a:
  ret i32 1
b:
  ret i32 2
other:
  ret i32 0
}

define i32 @sparse(i64 %v) {
entry:
  switch i64 %v, label %other [
    i64 -7, label %a
    i64 1, label %b
    i64 1000, label %a
    i64 100000, label %b
  ]
a:
  ret i32 1
b:
  ret i32 2
other:
  ret i32 0
}

; Wider than 64 bits: no table (its index would not fit), the switch's form.
; CHECK-LABEL: define i32 @wide(
; CHECK:      site.observe:
; CHECK-NEXT:   switch i128 %w, label %site.case.join [
; CHECK:      site.case.join:
; CHECK-NEXT:   phi i64 [ 0, %site.observe ], [ 1, %{{.*}} ], [ 2, %{{.*}} ], [ 3, %{{.*}} ], [ 4, %{{.*}} ]
define i32 @wide(i128 %w) {
entry:
  switch i128 %w, label %other [
    i128 0, label %a
    i128 1, label %b
    i128 2, label %a
    i128 3, label %b
  ]
a:
  ret i32 1
b:
  ret i32 2
other:
  ret i32 0
}

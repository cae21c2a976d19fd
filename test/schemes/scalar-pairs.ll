; scalar-pairs: at an assignment `x = v` to an integer or pointer variable, one
; site per other same-typed variable that holds a value there (a local with a
; dominating store, a parameter, a global the function uses), and pointers also
; against NULL: cells [<, ==, >], cell = (v > y) + (v >= y). The other value is
; frozen (it may be undefined on this path).
; RUN: %opt-sampler -passes=sampler -sampler-schemes=scalar-pairs -sampler-sampling=off -S %s | FileCheck %s

; Sites, in order: n's parameter spill compared with the global limit; then
; i = n compared with n (initialised above) and limit; `uninit` is never
; stored before, so it is not compared; the pointer p with NULL.
; CHECK: site 0\093\09scalar-pairs\09pairs.c\090\090\09f\09n <=> limit\0A
; CHECK-SAME: site 3\093\09scalar-pairs\09pairs.c\090\090\09f\09i <=> n\0A
; CHECK-SAME: site 6\093\09scalar-pairs\09pairs.c\090\090\09f\09i <=> limit\0A
; CHECK-SAME: site 9\093\09scalar-pairs\09pairs.c\090\090\09f\09p <=> NULL\0Aend

; CHECK-LABEL: define void @f(
; CHECK:       store i32 %v, ptr %i, align 4
; CHECK-NEXT:  br label %site.observe
; CHECK:     site.observe{{[0-9]+}}:
; CHECK-NEXT:  [[N:%.*]] = load i32, ptr %n.addr
; CHECK-NEXT:  [[NF:%.*]] = freeze i32 [[N]]
; CHECK-NEXT:  [[GT:%.*]] = icmp sgt i32 %v, [[NF]]
; CHECK-NEXT:  [[GTX:%.*]] = zext i1 [[GT]] to i64
; CHECK-NEXT:  [[GE:%.*]] = icmp sge i32 %v, [[NF]]
; CHECK-NEXT:  [[GEX:%.*]] = zext i1 [[GE]] to i64
; CHECK-NEXT:  [[IDX:%.*]] = add i64 [[GTX]], [[GEX]]
; CHECK-NEXT:  add i64 [[IDX]], 3
; CHECK:       store ptr %q, ptr %p
; CHECK:       icmp ugt ptr %q, null

source_filename = "pairs.c"

@limit = global i32 10

define void @f(i32 %n, i32 %v, ptr %q) {
entry:
  %n.addr = alloca i32
  %i = alloca i32
  %uninit = alloca i32
  %p = alloca ptr
  store i32 %n, ptr %n.addr
  %l = load i32, ptr @limit
  store i32 %v, ptr %i
  store ptr %q, ptr %p
  ret void
}

; Callees paid by their callers (-sampler-paid-callee-weight=N, off by
; default). @leaf is a leaf of one region (two sites): its check pays for 2
; trials whatever path it takes. @caller's region pays for them as for two
; sites of its own: its check takes 1 + 2 + 2 = 5 trials, and its fast copy
; calls @leaf's body, a copy without sites or check. Its instrumented copy
; calls @leaf itself, with the thread-local countdown set to where @leaf's
; trials lie in the region (the local countdown, relative to the region's end,
; plus the trials after them and the 2 of @leaf), and takes back what @leaf
; leaves (minus the trials after). Before the weighty call, the thread-local
; then gets the region's countdown again; after it, what the weighty callee
; left there. Not paid: a callee that may be replaced at link time (weak), one
; that calls a function with sites, and a call that would make its region
; heavier than 8.
; RUN: %opt-sampler -passes=sampler -sampler-schemes=branches -sampler-paid-callee-weight=8 -S %s | FileCheck %s
; RUN: %opt-sampler -passes=sampler -sampler-schemes=branches -sampler-paid-callee-weight=1 -S %s | FileCheck %s --check-prefix=LIGHT
; RUN: %opt-sampler -passes=sampler -sampler-schemes=branches -S %s | FileCheck %s --check-prefix=OFF

; CHECK-LABEL: define i32 @caller(
; CHECK:         %countdown.paid = sub i64 %countdown, 5
; CHECK:       {{^}}y:
; CHECK-NEXT:    %l1 = call i32 @leaf.sampler.body(i1 %a, i1 %b)
; CHECK-NEXT:    call void @weighty()
; CHECK-NEXT:    %l2 = call i32 @leaf.sampler.body(i1 %b, i1 %a)
; CHECK:       {{^}}}

; Not paid: the caller's check takes its own trial, the callees their own.
; @pure_leaf is declared to write no memory (C's `pure`; widened to the
; countdown's memory, lib/WeightyEffects.h, but paid callees leave such
; functions out). @calls_const calls a function with sites declared `const`,
; which is weighty all the same.
; CHECK-LABEL: define i32 @caller2(
; CHECK:         %countdown.paid = sub i64 %countdown, 1
; CHECK:         call i32 @weak_leaf(i1 %a)
; CHECK-NEXT:    call i32 @not_a_leaf(i1 %a)
; CHECK-NEXT:    call i32 @pure_leaf(i1 %a)
; CHECK-NEXT:    call i32 @calls_const(i1 %a)
; CHECK:       {{^}}}

; Three calls of @leaf after 3 sites: the first two fit (3 + 2 + 2 = 7), the
; third would make 9.
; CHECK-LABEL: define i32 @crowded(
; CHECK:         %countdown.paid = sub i64 %countdown, 7
; CHECK:         call i32 @leaf.sampler.body(
; CHECK-NEXT:    call i32 @leaf.sampler.body(
; CHECK-NEXT:    call i32 @leaf(
; CHECK:       {{^}}}

; The body: no countdown, marked for the sampler's later passes.
; CHECK-LABEL: define internal i32 @leaf.sampler.body(
; CHECK-SAME:    i1 %a, i1 %b) unnamed_addr #[[BODY:[0-9]+]] {
; CHECK-NOT:     __sampler
; CHECK:       {{^}}}

; @caller's instrumented copy. Its site (trial 1 of 5, key -5) may have drawn;
; @leaf's trials are 2 and 3, with 2 after them: the thread-local gets the
; local plus 2 + 2. After the call the local is what @leaf left minus 2, and
; the thread-local the same (no weighty call yet). The second call's trials
; are 4 and 5, none after: plus 0 + 2, then the thread-local gets back what
; @weighty had left in it.
; CHECK-LABEL: define internal i32 @caller.sampler.slow(
; CHECK:         [[IN1:%.*]] = add i64 %sampler.cd.{{[0-9]+}}, 4
; CHECK-NEXT:    store i64 [[IN1]], ptr %countdown.addr
; CHECK-NEXT:    %l1 = call i32 @leaf(i1 %a, i1 %b)
; CHECK-NEXT:    [[LEFT1:%.*]] = load i64, ptr %countdown.addr
; CHECK-NEXT:    [[BACK1:%.*]] = sub i64 [[LEFT1]], 2
; CHECK-NEXT:    store i64 [[BACK1]], ptr %countdown.addr
; CHECK-NEXT:    call void @weighty()
; CHECK-NEXT:    [[SAVED:%.*]] = load i64, ptr %countdown.addr
; CHECK-NEXT:    [[IN2:%.*]] = add i64 [[BACK1]], 2
; CHECK-NEXT:    store i64 [[IN2]], ptr %countdown.addr
; CHECK-NEXT:    %l2 = call i32 @leaf(i1 %b, i1 %a)
; CHECK-NEXT:    load i64, ptr %countdown.addr
; CHECK-NEXT:    sub i64 %{{.*}}, 0
; CHECK-NEXT:    store i64 [[SAVED]], ptr %countdown.addr
; CHECK:       {{^}}}
; CHECK: attributes #[[BODY]] = { nounwind "sampler-paid-body" }

; @leaf weighs 2, more than 1: nothing is paid.
; LIGHT-LABEL: define i32 @caller(
; LIGHT:         %countdown.paid = sub i64 %countdown, 1
; LIGHT:         call i32 @leaf(i1 %a, i1 %b)
; LIGHT-NOT:   @leaf.sampler.body
; OFF-NOT:     @leaf.sampler.body

source_filename = "paid.c"

declare void @weighty()

define internal i32 @leaf(i1 %a, i1 %b) nounwind {
entry:
  br i1 %a, label %x, label %y
x:
  br label %y
y:
  %r = phi i32 [ 1, %x ], [ 0, %entry ]
  br i1 %b, label %z, label %w
z:
  ret i32 %r
w:
  ret i32 2
}

define i32 @caller(i1 %a, i1 %b, i1 %c) nounwind {
entry:
  br i1 %c, label %x, label %y
x:
  br label %y
y:
  %l1 = call i32 @leaf(i1 %a, i1 %b)
  call void @weighty()
  %l2 = call i32 @leaf(i1 %b, i1 %a)
  %s = add i32 %l1, %l2
  ret i32 %s
}

define weak i32 @weak_leaf(i1 %a) nounwind {
entry:
  br i1 %a, label %x, label %y
x:
  ret i32 1
y:
  ret i32 0
}

define i32 @not_a_leaf(i1 %a) nounwind {
entry:
  br i1 %a, label %x, label %y
x:
  call void @weighty()
  ret i32 1
y:
  ret i32 0
}

define internal i32 @pure_leaf(i1 %a) nounwind memory(read) {
entry:
  br i1 %a, label %x, label %y
x:
  ret i32 1
y:
  ret i32 0
}

define internal i32 @const_callee(i1 %a) nounwind memory(none) {
entry:
  br i1 %a, label %x, label %y
x:
  ret i32 1
y:
  ret i32 0
}

define internal i32 @calls_const(i1 %a) nounwind {
entry:
  br i1 %a, label %x, label %y
x:
  %c = call i32 @const_callee(i1 %a)
  ret i32 %c
y:
  ret i32 0
}

define i32 @caller2(i1 %a) nounwind {
entry:
  br i1 %a, label %x, label %y
x:
  br label %y
y:
  %u = call i32 @weak_leaf(i1 %a)
  %v = call i32 @not_a_leaf(i1 %a)
  %w = call i32 @pure_leaf(i1 %a)
  %k = call i32 @calls_const(i1 %a)
  %c = call i32 @const_callee(i1 %a)
  %s1 = add i32 %u, %v
  %s2 = add i32 %w, %k
  %s3 = add i32 %s1, %s2
  %s = add i32 %s3, %c
  ret i32 %s
}

define i32 @crowded(i1 %a, i1 %b, i1 %c) nounwind {
entry:
  br i1 %a, label %x, label %y
x:
  br label %y
y:
  br i1 %b, label %z, label %w
z:
  br label %w
w:
  br i1 %c, label %u, label %v
u:
  br label %v
v:
  %l1 = call i32 @leaf(i1 %a, i1 %b)
  %l2 = call i32 @leaf(i1 %b, i1 %c)
  %l3 = call i32 @leaf(i1 %c, i1 %a)
  %s1 = add i32 %l1, %l2
  %s2 = add i32 %s1, %l3
  ret i32 %s2
}

; Checks on the cold heavy ways of unbalanced branches (lib/SamplingTransform.cpp,
; checksOnColdHeavyEdges): where a profile's branch weights say that the way
; leading to 3 or more sites beyond the other's is taken at most 20% of the time
; (-sampler-cold-heavy-percent), that edge gets a check of its own, so that the
; light ways' region weighs less. Without weights, or with a hot heavy way,
; nothing changes.
; RUN: %opt-sampler -sampler-clone-threshold=1 -sampler-outline-limit=0 -passes=sampler,verify -sampler-schemes=branches -S %s -pass-remarks=sampler-cold-heavy 2>%t.remarks | FileCheck %s
; RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
; RUN: %opt-sampler -sampler-clone-threshold=1 -sampler-outline-limit=0 -passes=sampler,verify -sampler-schemes=branches -sampler-cold-heavy-percent=0 -S %s | FileCheck %s --check-prefix=OFF
; RUN: not %opt-sampler -passes=sampler -sampler-cold-heavy-percent=101 -S %s 2>&1 | FileCheck %s --check-prefix=BAD

; A loop whose usual way leaves its body after one test (a chain walk that
; rarely matches): the heavy way, three more tests, is taken 5% of the time.
; The back edge pays 2 (the first test and the loop's own), the cold way 4.
; CHECK-LABEL: define i32 @cold_heavy(
; CHECK:       {{^}}sampler.check{{[0-9]+}}: {{.*}}; preds = %site.cont10{{$}}
; CHECK-NEXT:    load volatile i64, ptr %countdown.addr
; CHECK-NEXT:    sub i64 %{{.*}}, 2
; CHECK:         br i1 %{{.*}}, label %head, label %{{.*}}, !sampler.backedge.check
; CHECK:       {{^}}[[HEAVY:sampler.check[0-9]+]]: {{.*}}; preds = %site.cont{{$}}
; CHECK-NEXT:    load volatile i64, ptr %countdown.addr
; CHECK-NEXT:    sub i64 %{{.*}}, 4
; CHECK:         br i1 %{{.*}}, label %t1, label
; CHECK:       {{^}}t1:
; CHECK-SAME:    preds = %[[HEAVY]]{{$}}
; OFF-LABEL:   define i32 @cold_heavy(
; OFF:           sub i64 %{{.*}}, 5
; OFF:           br i1 %{{.*}}, label %head, label %{{.*}}, !sampler.backedge.check
; OFF-NOT:       sub i64 %{{.*}}, 4
; REMARK: remark: <unknown>:0:0: a branch's way of 3 sites more, taken 5% of the time, gets a check of its own
; REMARK-NOT: remark
; BAD: option 'cold-heavy-percent' expects a percentage from 0 to 100, got '101'
define i32 @cold_heavy(ptr %p, i32 %n) {
entry:
  br label %head
head:
  %i = phi i32 [ 0, %entry ], [ %i1, %latch ]
  %v0 = load volatile i32, ptr %p
  %c0 = icmp eq i32 %v0, 0
  br i1 %c0, label %latch, label %t1, !prof !0
t1:
  %v1 = load volatile i32, ptr %p
  %c1 = icmp eq i32 %v1, 1
  br i1 %c1, label %latch, label %t2
t2:
  %v2 = load volatile i32, ptr %p
  %c2 = icmp eq i32 %v2, 2
  br i1 %c2, label %latch, label %t3
t3:
  %v3 = load volatile i32, ptr %p
  %c3 = icmp eq i32 %v3, 3
  br i1 %c3, label %latch, label %hit
hit:
  store volatile i32 7, ptr %p
  br label %latch
latch:
  %i1 = add i32 %i, 1
  %more = icmp slt i32 %i1, %n
  br i1 %more, label %head, label %exit
exit:
  ret i32 %i1
}

; The same loop, its heavy way taken 60% of the time: no check there.
; CHECK-LABEL: define i32 @hot_heavy(
; CHECK:         sub i64 %{{.*}}, 5
; CHECK-NOT:     sub i64 %{{.*}}, 4
; CHECK-LABEL: define i32 @no_weights(
define i32 @hot_heavy(ptr %p, i32 %n) {
entry:
  br label %head
head:
  %i = phi i32 [ 0, %entry ], [ %i1, %latch ]
  %v0 = load volatile i32, ptr %p
  %c0 = icmp eq i32 %v0, 0
  br i1 %c0, label %latch, label %t1, !prof !1
t1:
  %v1 = load volatile i32, ptr %p
  %c1 = icmp eq i32 %v1, 1
  br i1 %c1, label %latch, label %t2
t2:
  %v2 = load volatile i32, ptr %p
  %c2 = icmp eq i32 %v2, 2
  br i1 %c2, label %latch, label %t3
t3:
  %v3 = load volatile i32, ptr %p
  %c3 = icmp eq i32 %v3, 3
  br i1 %c3, label %latch, label %hit
hit:
  store volatile i32 7, ptr %p
  br label %latch
latch:
  %i1 = add i32 %i, 1
  %more = icmp slt i32 %i1, %n
  br i1 %more, label %head, label %exit
exit:
  ret i32 %i1
}

; And without weights (no profile): no check there either.
; CHECK:         sub i64 %{{.*}}, 5
; CHECK-NOT:     sub i64 %{{.*}}, 4
; CHECK:       {{^}}}
define i32 @no_weights(ptr %p, i32 %n) {
entry:
  br label %head
head:
  %i = phi i32 [ 0, %entry ], [ %i1, %latch ]
  %v0 = load volatile i32, ptr %p
  %c0 = icmp eq i32 %v0, 0
  br i1 %c0, label %latch, label %t1
t1:
  %v1 = load volatile i32, ptr %p
  %c1 = icmp eq i32 %v1, 1
  br i1 %c1, label %latch, label %t2
t2:
  %v2 = load volatile i32, ptr %p
  %c2 = icmp eq i32 %v2, 2
  br i1 %c2, label %latch, label %t3
t3:
  %v3 = load volatile i32, ptr %p
  %c3 = icmp eq i32 %v3, 3
  br i1 %c3, label %latch, label %hit
hit:
  store volatile i32 7, ptr %p
  br label %latch
latch:
  %i1 = add i32 %i, 1
  %more = icmp slt i32 %i1, %n
  br i1 %more, label %head, label %exit
exit:
  ret i32 %i1
}

!0 = !{!"branch_weights", i32 95, i32 5}
!1 = !{!"branch_weights", i32 40, i32 60}

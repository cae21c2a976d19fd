; Where checks go besides function entries and back edges (lib/SamplingTransform.cpp):
; * the entry of a loop whose region weighs 8 sites or more gets a check too, so
;   that the code before the loop does not pay for the loop's first iteration;
; * no region weighs more than 8 sites where a check can split it: a long chain
;   of sites (tests with early returns, as in bzip2's mainGtU) gets a check after
;   every 8, never between a site and its observation.
; RUN: %opt-sampler -sampler-clone-threshold=1 -sampler-outline-limit=0 -passes=sampler,verify -sampler-schemes=branches -S %s | FileCheck %s

; Ten tests in a row, each of which may return: two regions, of 8 and 2 sites
; (and so not a function of one region with an instrumented copy of its own).
; Outside loops, both copies share the check (the instrumented copy may return
; to the fast one there).
; CHECK-LABEL: define i32 @chain(
; CHECK:         sub i64 %{{.*}}, 8
; CHECK:       {{^}}site.cont19:
; CHECK-NEXT:    br i1 %c7, label %ret, label %[[SPLIT:sampler.check[0-9]+]]
; CHECK:       [[SPLIT]]:
; CHECK-SAME:    preds = %site.cont19.slow, %site.cont19{{$}}
; CHECK-NEXT:    load volatile i64, ptr %countdown.addr
; CHECK-NEXT:    sub i64 %{{.*}}, 2
; CHECK-NOT:   define {{.*}}@chain.sampler.slow

; A loop of nine sites per iteration after one site: the entry region stops at
; the loop (weight 1); the loop's header has two checks of 8: the fast copy's
; back edge (its latch, tagged), and one for the fast copy's entry and the
; instrumented copy's entry and back edge (which may return to the fast
; header). The nine sites are split 8 + 1; in the instrumented copy the split
; pays for its region and stays there (a way into the fast loop anywhere but
; its header would make that loop irreducible).
; CHECK-LABEL: define i32 @heavy_loop(
; CHECK:         sub i64 %{{.*}}, 1
; CHECK:       [[BACK:sampler.check[0-9]+]]:
; CHECK-SAME:    preds = %site.cont25{{$}}
; CHECK:         sub i64 %{{.*}}, 8
; CHECK:         br i1 %{{.*}}, label %head, label %{{.*}}, !sampler.backedge.check
; CHECK:       [[ENTRY:sampler.check[0-9]+]]:
; CHECK-SAME:    preds = %site.cont.slow, %site.cont, %site.cont25.slow{{$}}
; CHECK:         sub i64 %{{.*}}, 8
; CHECK:         br i1 %{{.*}}, label %head, label %{{.*}}, !prof !{{[0-9]+}}, !sampler.check !{{[0-9]+$}}
; CHECK:       {{^}}head:
; CHECK-SAME:    preds = %[[ENTRY]], %[[BACK]]
; CHECK:       {{^}}site.cont22:
; CHECK-NEXT:    br label %[[SPLIT2:sampler.check[0-9]+]]
; CHECK:       [[SPLIT2]]:
; CHECK:         sub i64 %{{.*}}, 1
; CHECK:         br i1 %{{.*}}, label %latch, label
; CHECK:       sampler.pay:
; CHECK-SAME:    preds = %site.cont22.slow
; CHECK:         sub i64 %{{.*}}, 1
; CHECK-NEXT:    store
; CHECK-NEXT:    br label %sampler.to.slow{{[0-9]+}}
; CHECK:       latch.slow:

define i32 @chain(ptr %p) {
entry:
  br label %t0
t0:
  %v0 = load volatile i32, ptr %p
  %c0 = icmp eq i32 %v0, 0
  br i1 %c0, label %ret, label %t1
t1:
  %v1 = load volatile i32, ptr %p
  %c1 = icmp eq i32 %v1, 1
  br i1 %c1, label %ret, label %t2
t2:
  %v2 = load volatile i32, ptr %p
  %c2 = icmp eq i32 %v2, 2
  br i1 %c2, label %ret, label %t3
t3:
  %v3 = load volatile i32, ptr %p
  %c3 = icmp eq i32 %v3, 3
  br i1 %c3, label %ret, label %t4
t4:
  %v4 = load volatile i32, ptr %p
  %c4 = icmp eq i32 %v4, 4
  br i1 %c4, label %ret, label %t5
t5:
  %v5 = load volatile i32, ptr %p
  %c5 = icmp eq i32 %v5, 5
  br i1 %c5, label %ret, label %t6
t6:
  %v6 = load volatile i32, ptr %p
  %c6 = icmp eq i32 %v6, 6
  br i1 %c6, label %ret, label %t7
t7:
  %v7 = load volatile i32, ptr %p
  %c7 = icmp eq i32 %v7, 7
  br i1 %c7, label %ret, label %t8
t8:
  %v8 = load volatile i32, ptr %p
  %c8 = icmp eq i32 %v8, 8
  br i1 %c8, label %ret, label %t9
t9:
  %v9 = load volatile i32, ptr %p
  %c9 = icmp eq i32 %v9, 9
  br i1 %c9, label %ret, label %ret
ret:
  ret i32 0
}

define i32 @heavy_loop(ptr %p, i32 %n) {
entry:
  %c = icmp sgt i32 %n, 0
  br i1 %c, label %head, label %out
head:
  %i = phi i32 [ 0, %entry ], [ %i.next, %latch ]
  %a0 = load volatile i32, ptr %p
  %b0 = icmp eq i32 %a0, 0
  br i1 %b0, label %s1, label %s1
s1:
  %a1 = load volatile i32, ptr %p
  %b1 = icmp eq i32 %a1, 1
  br i1 %b1, label %s2, label %s2
s2:
  %a2 = load volatile i32, ptr %p
  %b2 = icmp eq i32 %a2, 2
  br i1 %b2, label %s3, label %s3
s3:
  %a3 = load volatile i32, ptr %p
  %b3 = icmp eq i32 %a3, 3
  br i1 %b3, label %s4, label %s4
s4:
  %a4 = load volatile i32, ptr %p
  %b4 = icmp eq i32 %a4, 4
  br i1 %b4, label %s5, label %s5
s5:
  %a5 = load volatile i32, ptr %p
  %b5 = icmp eq i32 %a5, 5
  br i1 %b5, label %s6, label %s6
s6:
  %a6 = load volatile i32, ptr %p
  %b6 = icmp eq i32 %a6, 6
  br i1 %b6, label %s7, label %s7
s7:
  %a7 = load volatile i32, ptr %p
  %b7 = icmp eq i32 %a7, 7
  br i1 %b7, label %latch, label %latch
latch:
  %i.next = add i32 %i, 1
  %more = icmp slt i32 %i.next, %n
  br i1 %more, label %head, label %out
out:
  ret i32 0
}

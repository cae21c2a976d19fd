; The two phases can run apart: sites inserted before optimisation survive
; -O2 as marker calls (the optimiser keeps them: they write memory only they
; can see), and the sampling transformation lowers them afterwards, with its
; own cleanup. Nothing of the markers is left, and the checks are there.
; RUN: %opt-sampler -passes='sampler-instrument,default<O2>' -sampler-schemes=branches -S %s | FileCheck %s --check-prefix=MIDDLE
; RUN: %opt-sampler -passes='sampler-instrument,default<O2>,sampler-lower,verify' -sampler-schemes=branches -S %s | FileCheck %s

; MIDDLE: call i1 @__sampler_site(i32 0)
; MIDDLE: declare i1 @__sampler_site(i32) {{.*}}#[[ATTRS:[0-9]+]]
; MIDDLE: attributes #[[ATTRS]] = { {{.*}}nounwind willreturn memory(inaccessiblemem: readwrite) }

; CHECK-LABEL: define {{.*}}i32 @count(
; CHECK:       %countdown.enough = icmp sgt i64 %countdown.paid, -1
; CHECK:       call {{.*}}i64 @__sampler_next_countdown(i64 -9223372036854775808)
; CHECK:       call {{.*}}i64 @__sampler_fire(i64
; CHECK-NOT:   __sampler_site(
; CHECK:       !{i32 7, !"sampler.lowered", i32 1}

define i32 @count(i32 %n) {
entry:
  br label %head
head:
  %i = phi i32 [ 0, %entry ], [ %i.next, %latch ]
  %s = phi i32 [ 0, %entry ], [ %s.next, %latch ]
  %more = icmp slt i32 %i, %n
  br i1 %more, label %body, label %exit
body:
  %odd = and i32 %i, 1
  %isodd = icmp ne i32 %odd, 0
  br i1 %isodd, label %add, label %latch
add:
  %s1 = add i32 %s, %i
  br label %latch
latch:
  %s.next = phi i32 [ %s, %body ], [ %s1, %add ]
  %i.next = add i32 %i, 1
  br label %head
exit:
  ret i32 %s
}

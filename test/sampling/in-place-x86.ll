; A site lowered in place, on x86-64 after the optimiser: its hot way is one
; read-modify-write of the thread-local countdown and a jump on its sign,
; `decq; js`, because its cold way reads the countdown again (a volatile load)
; instead of keeping the decremented value live; with that value live it took
; a load, a lea, the store, a test and the jump. Its load is tagged as a
; site's (sampler.inplace.site), so the passes that look for checks by their
; shape (CheckShape.h) leave it alone: no entry twin is made of @light, whose
; site would otherwise pass for an entry check of weight 1 (a twin doubles the
; function for nothing: the site's cold way needs no frame).
; -sampler-clone-threshold=2: functions whose regions have at most one site
; keep one copy (by default only functions that cannot be cloned, and with
; feedback the cold ones, are lowered in place).
; RUN: %opt-sampler -mtriple=x86_64-unknown-linux-gnu -sampler-clone-threshold=2 -passes='sampler,default<O2>' -sampler-schemes=branches %s -S | FileCheck %s --check-prefix=IR
; RUN: %opt-sampler -mtriple=x86_64-unknown-linux-gnu -sampler-clone-threshold=2 -passes='sampler,default<O2>' -sampler-schemes=branches %s | llc -O2 | FileCheck %s

; IR-LABEL: define {{.*}}i32 @light(
; IR:       load volatile i64, ptr {{.*}}, !sampler.inplace.site
; IR:       site.observe:
; IR-NEXT:  load volatile i64
; IR-NOT:   define {{.*}} @light.sampler.twin(

; CHECK-LABEL: light:
; CHECK-NOT:   light.sampler.twin
; Its only other access is on the cold way, so the countdown's address is not
; held in a register (IndirectTLS.h): the thread pointer, and the offset folded
; into the decrement.
; CHECK:       movq %fs:0, %[[TP:r[a-z0-9]+]]
; CHECK-NEXT:  decq __sampler_countdown@TPOFF(%[[TP]])
; CHECK-NEXT:  js
; CHECK-NOT:   light.sampler.twin
; CHECK:       .size light,

define i32 @light(i32 %x) {
entry:
  %c = icmp sgt i32 %x, 5
  br i1 %c, label %big, label %small
big:
  %m = mul i32 %x, 3
  ret i32 %m
small:
  %a = add i32 %x, 1
  ret i32 %a
}

; Weightless analysis is a least fixpoint over the module:
;   @leaf has sites; @mid calls @leaf; @top calls @mid: all three are weighty.
;   @rec_a and @rec_b call each other and nothing else: weightless (recursion
;   without sites cannot reach a site). @via_rec calls @rec_a: weightless.
;   @indirect makes an indirect call: weighty.
; Calls do not end regions; what the analysis decides is how a site of the
; instrumented copy keeps its countdown: a site that only weightless calls can
; precede in its region also stores its new countdown in the thread-local; a
; site after a weighty call keeps it in a local (the callee has moved the
; thread-local countdown on).
; RUN: %opt-sampler -sampler-clone-threshold=1 -passes=sampler -sampler-schemes=branches -S %s | FileCheck %s

; CHECK-LABEL: define internal void @user.sampler.slow(
; The site on %c: trial 1 of 3.
; CHECK:       call i64 @__sampler_fire(
; CHECK-NEXT:  lshr
; CHECK-NEXT:  [[N1:%.*]] = add i64 -3,
; CHECK-NEXT:  trunc
; CHECK-NEXT:  store i64 [[N1]], ptr %countdown.addr
; After weightless calls only: trial 2, still stored.
; CHECK:       call void @via_rec()
; CHECK-NEXT:  call void @rec_a()
; CHECK:       call i64 @__sampler_fire(
; CHECK-NEXT:  lshr
; CHECK-NEXT:  [[N2:%.*]] = add i64 -2,
; CHECK-NEXT:  trunc
; CHECK-NEXT:  store i64 [[N2]], ptr %countdown.addr
; After @top (weighty through @mid and @leaf): trial 3, in the local only.
; CHECK:       call void @top()
; CHECK:       sub i64 -1,
; CHECK-NEXT:  call i64 @__sampler_fire(
; CHECK-NOT:   store {{.*}} @__sampler_countdown
; CHECK:       ret void

; CHECK-LABEL: define internal void @user2.sampler.slow(
; CHECK:       call void @indirect(ptr %f)
; CHECK:       sub i64 -1,
; CHECK-NEXT:  call i64 @__sampler_fire(
; CHECK-NOT:   store {{.*}} @__sampler_countdown
; CHECK:       ret void

source_filename = "fixpoint.c"

define void @leaf(i1 %c) nounwind {
  br i1 %c, label %a, label %b
a:
  ret void
b:
  ret void
}
define void @mid() nounwind {
  call void @leaf(i1 true)
  ret void
}
define void @top() nounwind {
  call void @mid()
  ret void
}
define void @rec_a() nounwind {
  call void @rec_b()
  ret void
}
define void @rec_b() nounwind {
  call void @rec_a()
  ret void
}
define void @via_rec() nounwind {
  call void @rec_a()
  ret void
}
define void @indirect(ptr %f) nounwind {
  call void %f()
  ret void
}

define void @user(i1 %c, i1 %d) nounwind {
entry:
  br i1 %c, label %body, label %out
body:
  call void @via_rec()
  call void @rec_a()
  br i1 %d, label %s, label %s2
s:
  br label %join
s2:
  br label %join
join:
  call void @top()
  br i1 %d, label %out, label %out2
out:
  ret void
out2:
  ret void
}

define void @user2(i1 %c, ptr %f) nounwind {
entry:
  call void @indirect(ptr %f)
  br i1 %c, label %out, label %out2
out:
  ret void
out2:
  ret void
}

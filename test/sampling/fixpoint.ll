; Weightless analysis is a least fixpoint over the module:
;   @leaf has sites; @mid calls @leaf; @top calls @mid: all three are weighty.
;   @rec_a and @rec_b call each other and nothing else: weightless (recursion
;   without sites cannot reach a site). @via_rec calls @rec_a: weightless.
;   @indirect makes an indirect call: weighty.
; In @user (which has sites) only calls to weighty functions split regions.
; RUN: %opt-sampler -sampler-clone-threshold=1 -passes=sampler -sampler-schemes=branches -S %s | FileCheck %s

; CHECK-LABEL: define void @user(
; CHECK:       {{^}}body:
; CHECK-NEXT:  call void @via_rec()
; CHECK-NEXT:  call void @rec_a()
; CHECK-NEXT:  call void @top()
; CHECK-NEXT:  br label %[[C1:sampler.check[0-9]+]]
; The region after @top has no site: its check is a plain branch.
; CHECK:     [[C1]]:
; CHECK-NEXT:  br label %sampler.after.call
; CHECK:       {{^}}sampler.after.call:
; CHECK-NEXT:  call void @indirect(ptr %f)
; CHECK-NEXT:  br label %[[C2:sampler.check[0-9]+]]
; CHECK:     [[C2]]:
; CHECK-NEXT:  load i64, ptr @__sampler_countdown

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

define void @user(i1 %c, ptr %f) nounwind {
entry:
  br i1 %c, label %body, label %out
body:
  call void @via_rec()
  call void @rec_a()
  call void @top()
  call void @indirect(ptr %f)
  br i1 %c, label %out, label %out2
out:
  ret void
out2:
  ret void
}

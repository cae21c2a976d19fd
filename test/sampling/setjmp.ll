; setjmp returns twice; the second return comes from a longjmp, whose caller
; had spent trials. So setjmp is weighty: a new check after it. (The countdown
; is the thread-local variable itself, always up to date: nothing to export
; before longjmp.)
; RUN: %opt-sampler -sampler-clone-threshold=1 -passes=sampler -sampler-schemes=branches -S %s | FileCheck %s

; CHECK-LABEL: define i32 @guarded(
; CHECK:       %r = call i32 @_setjmp(ptr %env)
; CHECK-NEXT:  br label %[[AFTER:sampler.check[0-9]*]]
; CHECK:     [[AFTER]]:
; CHECK-NEXT:  [[CD:%countdown[0-9]*]] = load volatile i64, ptr %countdown.addr
; CHECK-NEXT:  %countdown.paid{{[0-9]*}} = sub i64 [[CD]], 1
; CHECK-NEXT:  store i64 %countdown.paid{{[0-9]*}}, ptr %countdown.addr
; CHECK-NEXT:  %countdown.enough{{[0-9]*}} = icmp sge i64 %countdown.paid{{[0-9]*}}, 0
; CHECK-LABEL: define void @jumper(
; CHECK:       call void @longjmp(ptr %env, i32 1)
; CHECK-NEXT:  unreachable

source_filename = "setjmp.c"

declare i32 @_setjmp(ptr) returns_twice nounwind
declare void @longjmp(ptr, i32) noreturn nounwind

define i32 @guarded(ptr %env) nounwind {
entry:
  %r = call i32 @_setjmp(ptr %env)
  %z = icmp eq i32 %r, 0
  br i1 %z, label %first, label %second
first:
  ret i32 0
second:
  ret i32 1
}

define void @jumper(ptr %env, i1 %c) nounwind {
entry:
  br i1 %c, label %jump, label %done
jump:
  call void @longjmp(ptr %env, i32 1)
  unreachable
done:
  ret void
}

; Two sites in one block: one region of weight 2 and one check `countdown > 2`.
; In the fast copy each site is a decrement of the local countdown (the check
; guarantees it stays above zero), which the optimiser folds into one subtract;
; the instrumented copy decrements per site and asks the runtime when it hits 0.
; strlen and atoi are C library functions: weightless, so they split nothing.
; RUN: %opt-sampler -sampler-clone-threshold=1 -passes=sampler -sampler-schemes=returns -S %s | FileCheck %s
; RUN: %opt-sampler -sampler-clone-threshold=1 -passes='sampler,default<O2>' -sampler-schemes=returns -S %s | FileCheck %s --check-prefix=O2

; CHECK-LABEL: define i64 @two(
; CHECK:       %countdown.import = load i64, ptr @__sampler_countdown
; CHECK-NEXT:  br label %sampler.check
; CHECK:     sampler.check:
; CHECK-NEXT:  %countdown.enough = icmp sgt i64 %countdown.import, 2
; CHECK-NEXT:  br i1 %countdown.enough, label %sampler.body, label %sampler.body.slow, !prof [[LIKELY:![0-9]+]]
; The fast copy: the calls, a decrement per site, no observation.
; CHECK:     sampler.body:
; CHECK-NEXT:  %n = call i64 @strlen(ptr %s)
; CHECK-NEXT:  [[D1:%.*]] = add nsw i64 %countdown.import, -1
; CHECK-NEXT:  br label %site.cont
; CHECK:     site.cont:
; CHECK-NEXT:  %k = call i32 @atoi(ptr %s)
; CHECK-NEXT:  [[D2:%.*]] = add nsw i64 [[D1]], -1
; CHECK-NEXT:  br label %site.cont1
; CHECK:     site.cont1:
; CHECK-NEXT:  %k64 = sext i32 %k to i64
; CHECK-NEXT:  %r = add i64 %n, %k64
; CHECK-NEXT:  store i64 [[D2]], ptr @__sampler_countdown
; CHECK-NEXT:  ret i64 %r
; The instrumented copy.
; CHECK:     sampler.body.slow:
; CHECK-NEXT:  %n.slow = call i64 @strlen(ptr %s)
; CHECK-NEXT:  [[S1:%countdown.dec[0-9]*]] = add nsw i64 %countdown.import, -1
; CHECK-NEXT:  %countdown.zero = icmp slt i64 [[S1]], 1
; CHECK-NEXT:  br i1 %countdown.zero, label %site.observe.slow, label %site.cont.slow, !prof [[UNLIKELY:![0-9]+]]
; CHECK:     site.observe.slow:
; CHECK-NEXT:  %countdown.next = call i64 @__sampler_next_countdown()
; CHECK-NEXT:  %sample = icmp sgt i64 %countdown.next, 0
; CHECK-NEXT:  [[NEG:%.*]] = sub i64 0, %countdown.next
; CHECK-NEXT:  [[NEW:%.*]] = select i1 %sample, i64 %countdown.next, i64 [[NEG]]
; CHECK-NEXT:  br i1 %sample, label %site.sampled, label %site.cont.slow
; CHECK:     site.sampled:
; CHECK:       atomicrmw add ptr {{.*}}, i64 1 monotonic
; CHECK:       %k.slow = call i32 @atoi(ptr %s)
; CHECK:       add nsw i64 {{.*}}, -1
; CHECK:       call i64 @__sampler_next_countdown()
; CHECK: declare i64 @__sampler_next_countdown() #[[COLD:[0-9]+]]
; CHECK: attributes #[[COLD]] = { cold nounwind }
; CHECK: [[LIKELY]] = !{!"branch_weights", i32 {{[0-9][0-9][0-9][0-9]+}}, i32 1}
; CHECK: [[UNLIKELY]] = !{!"branch_weights", i32 1, i32 {{[0-9][0-9][0-9][0-9]+}}}

; After -O2, the fast path of a straight-line region with k sites is one
; compare and one subtract.
; O2-LABEL: define i64 @two(
; O2-NEXT:   entry:
; O2-NEXT:     %countdown.import = load i64, ptr @__sampler_countdown
; O2-NEXT:     %countdown.enough = icmp sgt i64 %countdown.import, 2
; O2-NEXT:     %n = tail call i64 @strlen(
; O2-NEXT:     br i1 %countdown.enough, label %sampler.body, label %sampler.body.slow
; O2:        sampler.body:
; O2-NEXT:     %k = tail call i32 @atoi(
; O2-NEXT:     [[SUB:%.*]] = add nsw i64 %countdown.import, -2
; O2-NEXT:     br label %common.ret
; O2:        common.ret:
; O2:          [[OUT:%.*]] = phi i64 [ [[SUB]], %sampler.body ]
; O2:          store i64 [[OUT]], ptr @__sampler_countdown
; O2-NEXT:     ret i64

source_filename = "two.c"

declare i64 @strlen(ptr) nounwind
declare i32 @atoi(ptr) nounwind

define i64 @two(ptr %s) nounwind {
entry:
  %n = call i64 @strlen(ptr %s)
  %k = call i32 @atoi(ptr %s)
  %k64 = sext i32 %k to i64
  %r = add i64 %n, %k64
  ret i64 %r
}

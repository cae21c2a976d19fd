; Two sites in one block: one region of weight 2 and one check. The check pays
; for the region's two trials at once (`countdown - 2`, kept in the local as the
; countdown relative to the region's end) and goes to the fast copy if none of
; them succeeds (the countdown counts the failures before the next success: it
; stays >= 0): the fast copy is the original code. In the instrumented copy the
; first site owns the region's trial 1 (it fires when the relative countdown is
; -2), the second trial 2 (-1); a site below its trial's value is a fresh trial
; (the runtime is told so: `unknown` > 0).
; strlen and atoi are C library functions: weightless, so they split nothing.
; RUN: %opt-sampler -sampler-clone-threshold=1 -passes=sampler -sampler-schemes=returns -S %s | FileCheck %s
; RUN: %opt-sampler -sampler-clone-threshold=1 -passes='sampler,default<O2>' -sampler-schemes=returns -S %s | FileCheck %s --check-prefix=O2

; CHECK-LABEL: define i64 @two(
; CHECK:       %countdown.import = load i64, ptr @__sampler_countdown
; CHECK-NEXT:  br label %sampler.check
; CHECK:     sampler.check:
; CHECK-NEXT:  %countdown.paid = sub i64 %countdown.import, 2
; CHECK-NEXT:  %countdown.enough = icmp sge i64 %countdown.paid, 0
; CHECK-NEXT:  br i1 %countdown.enough, label %sampler.body, label %sampler.to.slow, !prof [[LIKELY:![0-9]+]]
; The instrumented copy starts from a frozen countdown (keeps InstCombine from
; reviving the value before the subtraction: `sub; js` stays two instructions).
; CHECK:     sampler.to.slow:
; CHECK-NEXT:  %countdown.slow = freeze i64 %countdown.paid
; CHECK-NEXT:  br label %sampler.body.slow
; The fast copy: the original code, then the export.
; CHECK:     sampler.body:
; CHECK-NEXT:  %n = call i64 @strlen(ptr %s)
; CHECK-NEXT:  br label %site.cont
; CHECK:     site.cont:
; CHECK-NEXT:  %k = call i32 @atoi(ptr %s)
; CHECK-NEXT:  br label %site.cont1
; CHECK:     site.cont1:
; CHECK-NEXT:  %k64 = sext i32 %k to i64
; CHECK-NEXT:  %r = add i64 %n, %k64
; CHECK-NEXT:  store i64 %countdown.paid, ptr @__sampler_countdown
; CHECK-NEXT:  ret i64 %r
; The instrumented copy.
; CHECK:     sampler.body.slow:
; CHECK-NEXT:  %n.slow = call i64 @strlen(ptr %s)
; CHECK-NEXT:  %countdown.fire = icmp slt i64 %countdown.slow, -1
; CHECK-NEXT:  br i1 %countdown.fire, label %site.observe.slow, label %site.cont.slow, !prof [[UNLIKELY:![0-9]+]]
; CHECK:     site.observe.slow:
; CHECK-NEXT:  %countdown.unknown = sub i64 -2, %countdown.slow
; CHECK-NEXT:  %countdown.next = call i64 @__sampler_next_countdown(i64 %countdown.unknown)
; CHECK-NEXT:  %sample = icmp sgt i64 %countdown.next, 0
; CHECK-NEXT:  [[NEG:%.*]] = sub i64 0, %countdown.next
; CHECK-NEXT:  [[ABS:%.*]] = select i1 %sample, i64 %countdown.next, i64 [[NEG]]
; CHECK-NEXT:  [[NEW:%.*]] = add i64 -2, [[ABS]]
; CHECK-NEXT:  br i1 %sample, label %site.sampled, label %site.cont.slow
; CHECK:     site.sampled:
; CHECK:       atomicrmw add ptr {{.*}}, i64 1 monotonic
; CHECK:     site.cont.slow:
; CHECK-NEXT:  [[CD:%.*]] = phi i64 [ [[NEW]], %site.sampled ], [ [[NEW]], %site.observe.slow ], [ %countdown.slow, %sampler.body.slow ]
; CHECK-NEXT:  %k.slow = call i32 @atoi(ptr %s)
; CHECK-NEXT:  icmp slt i64 [[CD]], 0
; CHECK:       sub i64 -1, [[CD]]
; CHECK-NEXT:  call i64 @__sampler_next_countdown(i64
; CHECK: declare i64 @__sampler_next_countdown(i64) #[[COLD:[0-9]+]]
; CHECK: attributes #[[COLD]] = { cold nounwind }
; CHECK: [[LIKELY]] = !{!"branch_weights", i32 {{[0-9][0-9][0-9][0-9]+}}, i32 1}
; CHECK: [[UNLIKELY]] = !{!"branch_weights", i32 1, i32 {{[0-9][0-9][0-9][0-9]+}}}

; After -O2, the fast path of a region is one subtract and one compare, and the
; fast copy is the original code.
; O2-LABEL: define i64 @two(
; O2-NEXT:   entry:
; O2-NEXT:     %countdown.import = load i64, ptr @__sampler_countdown
; O2-NEXT:     %countdown.import.fr = freeze i64 %countdown.import
; O2-NEXT:     %countdown.paid = add i64 %countdown.import.fr, -2
; O2-NEXT:     %countdown.enough = icmp sgt i64 %countdown.paid, -1
; O2-NEXT:     %n = tail call i64 @strlen(
; O2-NEXT:     br i1 %countdown.enough, label %sampler.body, label %sampler.to.slow
; O2:        sampler.body:
; O2-NEXT:     %k = tail call i32 @atoi(
; O2-NEXT:     br label %common.ret
; O2:        common.ret:
; O2:          [[OUT:%.*]] = phi i64 [ %countdown.paid, %sampler.body ]
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

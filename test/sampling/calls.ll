; Calls, weighty or not, stay inside their region: the check pays for the
; region's trials before anything runs, and what the callees consume comes
; after them. A function of one region has its instrumented copy in a function
; of its own, which the check calls; the original stays small, as the
; inliner knows it. In the instrumented copy a site before any weighty call
; keeps the thread-local countdown up to date; one after a weighty call works
; on the region's countdown in a local only (the callee has moved the
; thread-local one on). Where no site can follow it in its region either (its
; key is -1), nobody reads the gap a draw would give: owning the success, it is
; sampled without calling the runtime.
; RUN: %opt-sampler -sampler-clone-threshold=1 -passes=sampler -sampler-schemes=branches -S %s | FileCheck %s
; RUN: %opt-sampler -mtriple=x86_64-unknown-linux-gnu -sampler-clone-threshold=1 -passes=sampler -sampler-schemes=branches -S %s | FileCheck %s --check-prefix=X86
; RUN: %opt-sampler -sampler-clone-threshold=1 -passes=sampler -sampler-schemes=branches -sampler-slow-optsize=0 -S %s | FileCheck %s --check-prefix=SPEED

; Fast copy: the function itself, one check for both sites, no check after
; either call.
; CHECK-LABEL: define void @caller(
; CHECK-NEXT:  entry:
; CHECK-NEXT:    %countdown.addr = call ptr @llvm.threadlocal.address.p0(ptr @__sampler_countdown)
; CHECK-NEXT:    [[CD:%countdown[0-9]*]] = load volatile i64, ptr %countdown.addr
; CHECK-NEXT:    [[PAID:%.*]] = sub i64 [[CD]], 2
; CHECK-NEXT:    store i64 [[PAID]], ptr %countdown.addr
; CHECK-NEXT:    [[FAST:%.*]] = icmp sge i64 [[PAID]], 0
; CHECK-NEXT:    br i1 [[FAST]], label %sampler.body, label %sampler.to.slow
; CHECK:       sampler.to.slow:
; CHECK-NEXT:    call void @caller.sampler.slow(i1 %a, i1 %b)
; CHECK-NEXT:    ret void
; CHECK:       {{^}}y:
; CHECK-NEXT:    call void @pure()
; CHECK-NEXT:    call void @weighty()
; CHECK-NEXT:    br label
; CHECK-NOT:   __sampler
; CHECK:       {{^}}}

; Instrumented copy: the first site owns trial 1 of 2 (relative countdown -2),
; and stores its new countdown in the thread-local too; the second owns
; trial 2 (-1), after @weighty, and keeps it in the local only.
; Its entry resolves an unknown countdown (a success passed that no site
; owned, -2^62 <= countdown < 0; below, d = 1, nothing to ask): the runtime
; draws a fresh one (argument INT64_MIN).
; CHECK-LABEL: define internal void @caller.sampler.slow(
; CHECK:       sampler.resolve:
; CHECK-NEXT:    [[REL:%.*]] = load i64, ptr %countdown.addr
; CHECK-NEXT:    [[BEFORE:%.*]] = add i64 [[REL]], 2
; CHECK-NEXT:    [[UNK:%.*]] = icmp slt i64 [[BEFORE]], 0
; CHECK-NEXT:    br i1 [[UNK]], label %sampler.unknown, label %sampler.slow.region
; CHECK:       sampler.unknown:
; CHECK-NEXT:    [[BIT:%.*]] = and i64 [[BEFORE]], 4611686018427387904
; CHECK-NEXT:    [[ASK:%.*]] = icmp ne i64 [[BIT]], 0
; CHECK-NEXT:    br i1 [[ASK]], label %sampler.fresh, label %sampler.slow.region
; CHECK:       sampler.fresh:
; CHECK-NEXT:    [[DRAWN:%.*]] = call i64 @__sampler_next_countdown(i64 -9223372036854775808)
; CHECK-NEXT:    [[PAID:%.*]] = sub i64 [[DRAWN]], 2
; CHECK-NEXT:    store i64 [[PAID]], ptr %countdown.addr
; CHECK:       sampler.slow.region:
; CHECK-NEXT:    [[REGION:%.*]] = phi i64 [ [[REL]], %sampler.resolve ], [ [[REL]], %sampler.unknown ], [ [[PAID]], %sampler.fresh ]
; CHECK:         icmp slt i64 [[REGION]], -1
; CHECK:         [[UNK1:%.*]] = sub i64 -2, [[REGION]]
; CHECK-NEXT:    [[F1:%countdown.fired[0-9]*]] = call i64 @__sampler_fire(i64 [[UNK1]])
; CHECK-NEXT:    [[GAP1:%.*]] = lshr i64 [[F1]], 1
; CHECK-NEXT:    [[NEW1:%.*]] = add i64 -2, [[GAP1]]
; CHECK-NEXT:    %sample = trunc i64 [[F1]] to i1
; CHECK-NEXT:    store i64 [[NEW1]], ptr %countdown.addr
; CHECK:         [[DRAWN1:%.*]] = phi i64 [ [[NEW1]], %site.draw ], [ [[REGION]], %site.observe ]
; CHECK:         [[LOCAL:%.*]] = phi i64 [ [[DRAWN1]], {{.*}} ], [ [[DRAWN1]], {{.*}} ], [ [[REGION]], %sampler.slow.body ]
; The second site owns trial 2 of 2 (key -1): at -1 it is sampled without a
; draw; below it, the success passed unowned and it is a fresh trial, drawn.
; Both come after the d = 1 test (bit 62 clear: sampled, nothing asked).
; CHECK:         call void @weighty()
; CHECK-NEXT:    [[MAY:%.*]] = icmp slt i64 [[LOCAL]], 0
; CHECK-NEXT:    br i1 [[MAY]], label %[[OBS:.*]], label %[[CONT:[^,]*]]
; CHECK:       [[OBS]]:
; CHECK-NEXT:    [[BIT2:%.*]] = and i64 [[LOCAL]], 4611686018427387904
; CHECK-NEXT:    [[ASK2:%.*]] = icmp ne i64 [[BIT2]], 0
; CHECK-NEXT:    br i1 [[ASK2]], label %[[DRAW:site.draw[0-9]*]], label %[[DRAWN:site.drawn[0-9]*]]
; CHECK:       [[DRAW]]:
; CHECK-NEXT:    [[PASSED:%.*]] = icmp ne i64 [[LOCAL]], -1
; CHECK-NEXT:    br i1 [[PASSED]], label %site.unowned, label %[[DRAWN]]
; CHECK:       site.unowned:
; CHECK-NEXT:    sub i64 -1, [[LOCAL]]
; CHECK-NEXT:    [[F2:%.*]] = call i64 @__sampler_fire(i64
; CHECK-NOT:     store i64 {{.*}} @__sampler_countdown
; CHECK:       [[DRAWN]]:
; CHECK-NEXT:    [[TAKE:%.*]] = phi i1 [ true, %[[OBS]] ], [ true, %[[DRAW]] ], [ %{{.*}}, %site.unowned ]
; CHECK-NEXT:    br i1 [[TAKE]], label %site.sampled{{[0-9]*}}, label %[[CONT]]
; CHECK:         ret void
; On x86-64, the same in the site's one statement of assembly: after the d = 1
; test, `cmpq $-1; je` leaves the carry flag clear, which says "sampled".
; The first site (key -2, before the call) draws as every site does.
; X86-LABEL: define internal void @caller.sampler.slow(
; X86:         asm sideeffect "btq $$62, $0\0A\09jnc 1f\0A\09leaq 2($0), %rax\0A\09call __sampler_fire_rax_all\0A\09leaq -2(%rax), $0\0A\09movq $0, $2\0A\09cmc\0A1:"
; X86:         call void @weighty()
; X86:         asm sideeffect "btq $$62, $0\0A\09jnc 1f\0A\09cmpq $$-1, $0\0A\09je 1f\0A\09leaq 1($0), %rax\0A\09call __sampler_fire_rax_all\0A\09leaq -1(%rax), $0\0A\09cmc\0A1:", "=r,={@ccnc},0,~{rax},~{r11},~{flags}"
; The copy is cold and never inlined, and the inliner charges nothing for
; calling it nor for the check (check-discount.ll). It runs only when a
; sample falls in its region: optimised for size (optsize), unless
; -sampler-slow-optsize=0.
; CHECK: attributes #[[#]] = { cold noinline nounwind optsize "call-inline-cost"="0" "call-threshold-bonus"="25" "sampler-instrumented-copy" }
; SPEED: define internal void @caller.sampler.slow(i1 %a, i1 %b) unnamed_addr #[[SLOW:[0-9]+]]
; SPEED: attributes #[[SLOW]] = { cold noinline nounwind "call-inline-cost"="0" "call-threshold-bonus"="25" "sampler-instrumented-copy" }

source_filename = "calls.c"

declare void @weighty()

define void @pure() nounwind {
  ret void
}

define void @caller(i1 %a, i1 %b) nounwind {
entry:
  br i1 %a, label %x, label %y
x:
  br label %y
y:
  call void @pure()
  call void @weighty()
  br i1 %b, label %z, label %w
z:
  ret void
w:
  ret void
}

; -sampler-single-threaded (sampler-cc -fsampler-single-threaded): the program
; runs one thread, so the countdown is one plain global for the process,
; @__sampler_countdown_process, in place of the thread-local @__sampler_countdown:
; no llvm.threadlocal.address, nothing for IndirectTLS to hold (no
; "indirect-tls-seg-refs"), and a check is `addq $-W,
; __sampler_countdown_process(%rip)` (here W = 1: `decq`). dso_local where the
; thread's would be local-exec (an executable, PIE or no PIC); through the GOT in
; code that may go into a shared library or that links the shared runtime
; (-sampler-tls-model=initial-exec, which sampler-cc -fsampler-runtime=shared
; passes). The unit's
; descriptor carries flag 4 (abi::FlagProcessCountdown) for the runtime, which
; warns at exit if several threads drew; the site table's record keeps flag 1.
; RUN: %opt-sampler -passes='sampler,sampler-indirect-tls' -sampler-schemes=branches -sampler-single-threaded -S %s | FileCheck %s --check-prefixes=CHECK,PIE
; RUN: sed -e '/PIE Level/d' -e 's/!0, !1}/!0}/' %s | %opt-sampler -passes='sampler,sampler-indirect-tls' -sampler-schemes=branches -sampler-single-threaded -S | FileCheck %s --check-prefixes=CHECK,PIC
; RUN: %opt-sampler -passes='sampler,sampler-indirect-tls' -sampler-schemes=branches -sampler-single-threaded -sampler-tls-model=initial-exec -S %s | FileCheck %s --check-prefixes=CHECK,PIC
; RUN: %opt-sampler -passes='sampler,default<O2>,sampler-indirect-tls' -sampler-schemes=branches -sampler-single-threaded %s | llc -O2 | FileCheck %s --check-prefix=ASM
; The passes after the transformation find the process's countdown as they find
; the thread's (countdownIn(), SamplingTransform.h): loop-promote.ll's input with
; the process's countdown in place of the thread's gets its loop's countdown
; carried in a register all the same.
; RUN: sed -e '/threadlocal.address.p0(ptr @__sampler_countdown)/d' -e 's/ptr\( elementtype(i64)\)\? %%countdown.addr/ptr\1 @__sampler_countdown_process/g' -e 's/@__sampler_countdown = external thread_local(initialexec) global i64/@__sampler_countdown_process = external global i64/' %S/loop-promote.ll | %opt-sampler -passes=sampler-loop-promote,verify -S | FileCheck %s --check-prefix=PROMOTE
; PROMOTE-LABEL: define void @fill(
; PROMOTE:       entry:
; PROMOTE-NEXT:    %countdown.promoted = load i64, ptr @__sampler_countdown_process
; PROMOTE:       body:
; PROMOTE-NEXT:    %countdown.reg = phi i64 [ %countdown.promoted, %entry ], [ %paid, %latch ]
; PROMOTE:       latch:
; PROMOTE-NEXT:    %paid = add i64 %countdown.reg, -3
; PROMOTE-NOT:   load
; PROMOTE:       toslow:
; PROMOTE:         store i64 %paid.lcssa, ptr @__sampler_countdown_process

; The default, for contrast: the thread's countdown, reached through the thread pointer.
; RUN: %opt-sampler -passes='sampler,sampler-indirect-tls' -sampler-schemes=branches -S %s | FileCheck %s --check-prefix=THREAD
; An unconditional build counts nothing down: no flag 4 (2 is its counters' halves).
; RUN: %opt-sampler -passes=sampler -sampler-schemes=branches -sampler-sampling=0 -sampler-single-threaded -S %s | FileCheck %s --check-prefix=UNCOND

; CHECK: @__sampler_site_table = {{.*}}c"SAMPLER-SITES 1\0Aunit {{[0-9a-f]+}} 2 1\0A
; CHECK: @__sampler_unit = internal global { i32, i32, i64, [16 x i8], ptr, ptr, ptr } { i32 9, i32 5,
; PIE:   @__sampler_countdown_process = external dso_local global i64
; PIC:   @__sampler_countdown_process = external global i64
; CHECK-NOT: @__sampler_countdown =
; CHECK-NOT: threadlocal
; CHECK: define i32 @f(i32 %x) #[[F:[0-9]+]]
; CHECK: load volatile i64, ptr @__sampler_countdown_process
; CHECK: store i64 %countdown.paid, ptr @__sampler_countdown_process
; CHECK: define internal i32 @f.sampler.slow(
; CHECK: load i64, ptr @__sampler_countdown_process
; CHECK-NOT: threadlocal
; CHECK: attributes #[[F]] = {
; CHECK-NOT: indirect-tls-seg-refs
; CHECK-SAME: }

; ASM-LABEL: f:
; ASM:       decq __sampler_countdown_process(%rip)
; ASM:       js f.sampler.slow
; ASM-NOT:   %fs
; ASM-LABEL: f.sampler.slow:
; ASM:       movq __sampler_countdown_process(%rip), %rcx
; ASM-NOT:   %fs
; ASM:       movq %rcx, __sampler_countdown_process(%rip)
; ASM-NOT:   %fs

; THREAD: @__sampler_unit = internal global { i32, i32, i64, [16 x i8], ptr, ptr, ptr } { i32 9, i32 1,
; THREAD: @__sampler_countdown = external dso_local thread_local(localexec) global i64
; THREAD-NOT: @__sampler_countdown_process
; THREAD: call ptr @llvm.threadlocal.address.p0(ptr @__sampler_countdown)

; UNCOND: @__sampler_unit = internal global { i32, i32, i64, [16 x i8], ptr, ptr, ptr } { i32 9, i32 {{[02]}},

target triple = "x86_64-unknown-linux-gnu"

define i32 @f(i32 %x) {
entry:
  %c = icmp sgt i32 %x, 0
  br i1 %c, label %a, label %b
a:
  ret i32 1
b:
  ret i32 2
}

!llvm.module.flags = !{!0, !1}
!0 = !{i32 8, !"PIC Level", i32 2}
!1 = !{i32 7, !"PIE Level", i32 2}

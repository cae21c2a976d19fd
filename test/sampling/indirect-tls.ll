; How x86 code reaches the countdown: through the thread pointer, loaded from
; %fs:0, not through the segment register. A check is a read-modify-write of
; the countdown, and each check depends on the one before it through memory;
; cores that rename memory (a store's value handed to the load that reads it
; back) do it for an ordinary base register, not for a segment base, so the
; segment form makes every check a store-to-load forwarding on one long chain
; (IndirectTLS.h; docs/benchmarks.md, "The countdown's chain through the
; segment register"). The pass marks each function that touches the countdown
; with "indirect-tls-seg-refs" (what clang's -mno-tls-direct-seg-refs sets),
; after the inliner, at OptimizerLastEP; other functions keep their own
; thread-locals as they were.
; RUN: %opt-sampler -passes=sampler-indirect-tls -S %s | FileCheck %s --check-prefixes=CHECK,PASS
; RUN: %opt-sampler -passes=sampler-indirect-tls %s | llc -O2 | FileCheck %s --check-prefix=ASM
; Where the countdown is initial-exec (position-independent code), its offset
; from the thread pointer is in the GOT: the address itself is held.
; RUN: sed -e '/@__sampler_countdown = /s/localexec/initialexec/' %s | %opt-sampler -passes=sampler-indirect-tls -S | FileCheck %s --check-prefix=ADDR
; RUN: sed -e '/@__sampler_countdown = /s/localexec/initialexec/' %s | %opt-sampler -passes=sampler-indirect-tls | llc -O2 -relocation-model=pic | FileCheck %s --check-prefix=ADDRASM
; So it is in a module for LTO (clang's EnableSplitLTOUnit flag), whose IR the
; link optimises again, which undoes the fold:
; RUN: sed -e 's/^!0 = /!llvm.module.flags = !{!9}\n!9 = !{i32 1, !"EnableSplitLTOUnit", i32 0}\n!0 = /' %s | %opt-sampler -passes=sampler-indirect-tls -S | FileCheck %s --check-prefix=ADDR
; -sampler-hold-percent=0: held wherever two blocks touch the countdown.
; RUN: %opt-sampler -passes=sampler-indirect-tls -sampler-hold-percent=0 -S %s | FileCheck %s --check-prefix=HOLDALL
; Without it, the segment form:
; RUN: llc -O2 %s -o - | FileCheck %s --check-prefix=SEG
; In the pipeline, unless the option turns it off:
; RUN: %opt-sampler -passes='default<O2>' -S %s | FileCheck %s
; RUN: %opt-sampler -passes='default<O2>' -sampler-indirect-tls=0 -S %s | FileCheck %s --check-prefix=NONE
; Other targets have no segment register to avoid:
; RUN: sed -e 's/x86_64-pc-linux-gnu/aarch64-unknown-linux-gnu/' -e '/datalayout/d' %s | %opt-sampler -passes=sampler-indirect-tls -S | FileCheck %s --check-prefix=NONE

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@__sampler_countdown = external dso_local thread_local(localexec) global i64
@own = dso_local thread_local(localexec) global i32 0

; A check, through the function's llvm.threadlocal.address call.
; CHECK: define void @check(){{.*}} [[CHECKATTR:#[0-9]+]]
; ASM-LABEL: check:
; ASM:       movq %fs:0, %rax
; ASM-NEXT:  addq $-3, __sampler_countdown@TPOFF(%rax)
; ASM-NEXT:  js
; SEG-LABEL: check:
; SEG:       addq $-3, %fs:__sampler_countdown@TPOFF
; SEG-NEXT:  js
define void @check() {
entry:
  %addr = call ptr @llvm.threadlocal.address.p0(ptr @__sampler_countdown)
  %cd = load volatile i64, ptr %addr, align 8
  %paid = add i64 %cd, -3
  store i64 %paid, ptr %addr, align 8
  %enough = icmp sgt i64 %paid, -1
  br i1 %enough, label %fast, label %slow

fast:
  ret void

slow:
  call void @slow()
  ret void
}

; Two blocks touch the countdown, but the second is the check's cold way (a
; merged check's way back gives its trials back before the instrumented copy):
; the blocks run about once a call, under the 150% from which the address is
; held, so each block reaches it from the thread pointer it loads, the offset
; folded into the access, and the hot way has no `leaq` of the address.
; CHECK-LABEL: define void @cold_ways(
; CHECK-NOT:   countdown.held
; CHECK:       ret void
; HOLDALL-LABEL: define void @cold_ways(
; HOLDALL:       %countdown.tp = load ptr, ptr addrspace(257) null
; ASM-LABEL: cold_ways:
; ASM:       movq %fs:0, %rax
; ASM-NEXT:  addq $-5, __sampler_countdown@TPOFF(%rax)
; ASM-NEXT:  js
; ASM-NOT:   leaq __sampler_countdown@TPOFF
; ASM:       .size cold_ways,
define void @cold_ways() {
entry:
  %addr = call ptr @llvm.threadlocal.address.p0(ptr @__sampler_countdown)
  %cd = load volatile i64, ptr %addr, align 8
  %paid = add i64 %cd, -5
  store i64 %paid, ptr %addr, align 8
  %enough = icmp sgt i64 %paid, -1
  br i1 %enough, label %fast, label %back, !prof !0

fast:
  ret void

back:
  %cd2 = load volatile i64, ptr %addr, align 8
  %given = add i64 %cd2, 2
  store i64 %given, ptr %addr, align 8
  call void @slow()
  ret void
}

; The same in code optimised for size (an instrumented copy, a cold function):
; held, since each block's load of the thread pointer and 4-byte offset cost
; bytes, which is what such code is optimised for.
; CHECK-LABEL: define void @cold_ways_small(
; CHECK:       %countdown.held = freeze ptr
define void @cold_ways_small() optsize {
entry:
  %addr = call ptr @llvm.threadlocal.address.p0(ptr @__sampler_countdown)
  %cd = load volatile i64, ptr %addr, align 8
  %paid = add i64 %cd, -5
  store i64 %paid, ptr %addr, align 8
  %enough = icmp sgt i64 %paid, -1
  br i1 %enough, label %fast, label %back, !prof !0

fast:
  ret void

back:
  %cd2 = load volatile i64, ptr %addr, align 8
  %given = add i64 %cd2, 2
  store i64 %given, ptr %addr, align 8
  call void @slow()
  ret void
}

; A loop's back edge checks as often as the loop runs: the thread pointer is
; loaded once, on entry, and held in a register; each block adds the
; countdown's offset to it, which is the thread-local's address less the
; thread pointer loaded again in that block: the instruction selector lowers
; the address as that same load plus the offset, so the two loads are one
; node, the difference folds to the offset, and the access is
; `addq $-2, __sampler_countdown@TPOFF(%reg)`, without the `leaq` of the
; address that holding it would cost every call.
; CHECK-LABEL: define void @loop(
; CHECK:       %countdown.tp = load ptr, ptr addrspace(257) null
; PASS:        latch:
; PASS-NEXT:     %countdown.tp.here = load ptr, ptr addrspace(257) null
; PASS-NEXT:     %[[AH:countdown.addr.here[0-9]*]] = call ptr @llvm.threadlocal.address.p0(ptr @__sampler_countdown)
; PASS-NEXT:     [[A:%[0-9]+]] = ptrtoint ptr %[[AH]] to i64
; PASS-NEXT:     [[T:%[0-9]+]] = ptrtoint ptr %countdown.tp.here to i64
; PASS-NEXT:     %[[OFF:countdown.tpoff[0-9]*]] = sub i64 [[A]], [[T]]
; PASS-NEXT:     %[[H:countdown.held[0-9]*]] = getelementptr i8, ptr %countdown.tp, i64 %[[OFF]]
; PASS-NEXT:     %cd3 = load volatile i64, ptr %[[H]]
; ASM-LABEL: loop:
; ASM:       movq %fs:0, %[[R:[a-z0-9]+]]
; ASM-NEXT:  decq __sampler_countdown@TPOFF(%[[R]])
; ASM-NOT:   %fs:0
; ASM-NOT:   leaq __sampler_countdown
; ASM:       addq $-2, __sampler_countdown@TPOFF(%[[R]])
; ASM:       .size loop,
; Held as an address, computed once on entry:
; ADDR-LABEL: define void @loop(
; ADDR:       %countdown.held = freeze ptr %addr
; ADDR:       latch:
; ADDR-NEXT:    %cd3 = load volatile i64, ptr %countdown.held
; ADDRASM-LABEL: loop:
; ADDRASM:       movq %fs:0, %[[R:[a-z0-9]+]]
; ADDRASM-NEXT:  addq __sampler_countdown@GOTTPOFF(%rip), %[[R]]
; ADDRASM:       addq $-2, (%[[R]])
; ADDRASM:       .size loop,
define void @loop(i64 %n) {
entry:
  %addr = call ptr @llvm.threadlocal.address.p0(ptr @__sampler_countdown)
  %cd = load volatile i64, ptr %addr, align 8
  %paid = add i64 %cd, -1
  store i64 %paid, ptr %addr, align 8
  %enough = icmp sgt i64 %paid, -1
  br i1 %enough, label %body, label %slow, !prof !0

body:
  %i = phi i64 [ 0, %entry ], [ %next, %latch ]
  call void @work(i64 %i)
  %next = add i64 %i, 1
  %more = icmp ult i64 %next, %n
  br i1 %more, label %latch, label %done

latch:
  %cd3 = load volatile i64, ptr %addr, align 8
  %paid3 = add i64 %cd3, -2
  store i64 %paid3, ptr %addr, align 8
  %again = icmp sgt i64 %paid3, -1
  br i1 %again, label %body, label %slow, !prof !0

slow:
  call void @slow()
  ret void

done:
  ret void
}

; A loop most calls never reach (bzip2's mainGtU: a check on entry, then byte
; compares, most calls returning after the first). Held as an address, it is
; held from the block before the loop on, so that the `leaq` runs only on the
; calls that go there; the entry's check and its cold way, which the freeze
; does not dominate, reach the countdown from the thread pointer each.
; ADDR-LABEL: define void @late_loop(
; ADDR:       entry:
; ADDR-NEXT:    %addr = call ptr @llvm.threadlocal.address.p0(ptr @__sampler_countdown)
; ADDR-NEXT:    %cd = load volatile i64, ptr %addr
; ADDR:         store i64 %paid, ptr %addr
; ADDR:       back:
; ADDR-NEXT:    %cd2 = load volatile i64, ptr %addr
; ADDR:       pre:
; ADDR-NEXT:    %countdown.held = freeze ptr %addr
; ADDR:       latch:
; ADDR-NEXT:    %cd3 = load volatile i64, ptr %countdown.held
; ADDR:         store i64 %paid3, ptr %countdown.held
; The thread pointer costs nothing to hold from the entry, whose check loads it
; anyway (no loop runs before the held part, through which its register would
; be live): every block reaches the countdown from it.
; PASS-LABEL: define void @late_loop(
; PASS:       entry:
; PASS-NEXT:    %addr = call ptr @llvm.threadlocal.address.p0(ptr @__sampler_countdown)
; PASS-NEXT:    %countdown.tp = load ptr, ptr addrspace(257) null
; PASS:       back:
; PASS-NEXT:    %countdown.tp.here = load ptr, ptr addrspace(257) null
; PASS:         getelementptr i8, ptr %countdown.tp,
; PASS:       pre:
; PASS-NOT:     addrspace(257)
; PASS:       latch:
; PASS-NEXT:    %countdown.tp.here{{[0-9]+}} = load ptr, ptr addrspace(257) null
; PASS:         getelementptr i8, ptr %countdown.tp,
; ASM-LABEL: late_loop:
; ASM:       movq %fs:0, %[[R:[a-z0-9]+]]
; ASM-NEXT:  addq $-5, __sampler_countdown@TPOFF(%[[R]])
; ASM-NEXT:  js
; ASM-NOT:   %fs:0
; ASM-NOT:   leaq __sampler_countdown
; ASM:       addq $-2, __sampler_countdown@TPOFF(%[[R]])
; ASM:       .size late_loop,
define void @late_loop(i64 %n, i1 %go) {
entry:
  %addr = call ptr @llvm.threadlocal.address.p0(ptr @__sampler_countdown)
  %cd = load volatile i64, ptr %addr, align 8
  %paid = add i64 %cd, -5
  store i64 %paid, ptr %addr, align 8
  %enough = icmp sgt i64 %paid, -1
  br i1 %enough, label %fast, label %back, !prof !0

fast:
  br i1 %go, label %pre, label %done

back:
  %cd2 = load volatile i64, ptr %addr, align 8
  %given = add i64 %cd2, 2
  store i64 %given, ptr %addr, align 8
  call void @slow()
  ret void

pre:
  call void @work(i64 -1)
  br label %body

body:
  %i = phi i64 [ 0, %pre ], [ %next, %latch ]
  call void @work(i64 %i)
  %next = add i64 %i, 1
  %more = icmp ult i64 %next, %n
  br i1 %more, label %latch, label %done

latch:
  %cd3 = load volatile i64, ptr %addr, align 8
  %paid3 = add i64 %cd3, -2
  store i64 %paid3, ptr %addr, align 8
  %again = icmp sgt i64 %paid3, -1
  br i1 %again, label %body, label %slow, !prof !0

slow:
  %cd4 = load volatile i64, ptr %addr, align 8
  %given4 = add i64 %cd4, 1
  store i64 %given4, ptr %addr, align 8
  call void @slow()
  ret void

done:
  ret void
}

; The same with an instrumented copy behind the entry's check whose three
; blocks touch the countdown: loading the thread pointer in each would cost
; bytes, so the copy holds the address too, from a freeze of its own where it
; starts (a cold block, not dominated by the loop's). With the thread pointer
; held from the entry, every block reaches the countdown from it.
; ADDR-LABEL: define void @late_loop_cold_copy(
; ADDR:       entry:
; ADDR-NEXT:    %addr = call ptr @llvm.threadlocal.address.p0(ptr @__sampler_countdown)
; ADDR-NEXT:    %cd = load volatile i64, ptr %addr
; ADDR:       copy:
; ADDR-NEXT:    %[[COLD:countdown.held[0-9]*]] = freeze ptr %addr
; ADDR-NEXT:    %c1 = load volatile i64, ptr %[[COLD]],
; ADDR:       copy2:
; ADDR-NEXT:    %c2 = load volatile i64, ptr %[[COLD]],
; ADDR:       copy3:
; ADDR-NEXT:    %c3 = load volatile i64, ptr %[[COLD]],
; ADDR:       pre:
; ADDR-NEXT:    %[[LOOP:countdown.held[0-9]*]] = freeze ptr %addr
; ADDR:       latch:
; ADDR-NEXT:    %cd3 = load volatile i64, ptr %[[LOOP]],
; PASS-LABEL: define void @late_loop_cold_copy(
; PASS:       entry:
; PASS-NEXT:    %addr = call ptr @llvm.threadlocal.address.p0(ptr @__sampler_countdown)
; PASS-NEXT:    %countdown.tp = load ptr, ptr addrspace(257) null
; PASS-NOT:   %countdown.tp = load
; PASS:       }
define void @late_loop_cold_copy(i64 %n, i1 %go, i1 %a) {
entry:
  %addr = call ptr @llvm.threadlocal.address.p0(ptr @__sampler_countdown)
  %cd = load volatile i64, ptr %addr, align 8
  %paid = add i64 %cd, -5
  store i64 %paid, ptr %addr, align 8
  %enough = icmp sgt i64 %paid, -1
  br i1 %enough, label %fast, label %copy, !prof !0

fast:
  br i1 %go, label %pre, label %done

copy:
  %c1 = load volatile i64, ptr %addr, align 8
  store i64 %c1, ptr %addr, align 8
  br i1 %a, label %copy2, label %copy3

copy2:
  %c2 = load volatile i64, ptr %addr, align 8
  store i64 %c2, ptr %addr, align 8
  br label %copy3

copy3:
  %c3 = load volatile i64, ptr %addr, align 8
  store i64 %c3, ptr %addr, align 8
  call void @slow()
  ret void

pre:
  call void @work(i64 -1)
  br label %body

body:
  %i = phi i64 [ 0, %pre ], [ %next, %latch ]
  call void @work(i64 %i)
  %next = add i64 %i, 1
  %more = icmp ult i64 %next, %n
  br i1 %more, label %latch, label %done

latch:
  %cd3 = load volatile i64, ptr %addr, align 8
  %paid3 = add i64 %cd3, -2
  store i64 %paid3, ptr %addr, align 8
  %again = icmp sgt i64 %paid3, -1
  br i1 %again, label %body, label %done, !prof !0

done:
  ret void
}

; The global itself (as a presplit coroutine reaches it).
; CHECK: define void @direct(){{.*}} [[DIRECTATTR:#[0-9]+]]
define void @direct() #1 {
  %cd = load volatile i64, ptr @__sampler_countdown, align 8
  %paid = add i64 %cd, -1
  store i64 %paid, ptr @__sampler_countdown, align 8
  ret void
}

; A function that does not touch the countdown keeps the segment form for the
; program's own thread-local.
; CHECK: define{{.*}} i32 @program(){{.*}} [[PROGRAMATTR:#[0-9]+]]
; ASM-LABEL: program:
; ASM:       movl %fs:own@TPOFF, %eax
define i32 @program() #0 {
  %a = call ptr @llvm.threadlocal.address.p0(ptr @own)
  %v = load i32, ptr %a, align 4
  ret i32 %v
}

; CHECK-DAG: attributes [[CHECKATTR]] = {{{.*}}"indirect-tls-seg-refs"
; CHECK-DAG: attributes [[DIRECTATTR]] = {{{.*}}"indirect-tls-seg-refs"
; CHECK-DAG: attributes [[PROGRAMATTR]] = { {{[^"]*}} }
; NONE-NOT: indirect-tls-seg-refs

declare void @slow()
declare void @work(i64)
declare ptr @llvm.threadlocal.address.p0(ptr)

attributes #0 = { nounwind }
attributes #1 = { noinline }

!0 = !{!"branch_weights", i32 2000, i32 1}

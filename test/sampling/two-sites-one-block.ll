; Two sites in one block: one region of weight 2 and one check. Both copies work
; on the thread-local countdown itself, which counts the failures before the next
; success. The check pays for the region's two trials at once (`countdown -= 2`:
; the countdown becomes relative to the region's end) and goes to the fast copy
; if none of them succeeds (it stays >= 0): the fast copy is the original code,
; with nothing to import or export. The function is one region, so its
; instrumented copy is a function of its own, which the check calls. There the
; first site owns the region's trial 1 (it fires when the countdown is -2), the
; second trial 2 (-1); a site below its trial's value is a fresh trial (the
; runtime is told so: `unknown` > 0).
; strlen and atoi are C library functions: weightless, so both sites keep the
; thread-local countdown up to date.
; RUN: %opt-sampler -sampler-clone-threshold=1 -sampler-outline-limit=0 -passes=sampler -sampler-schemes=returns -S %s | FileCheck %s
; RUN: %opt-sampler -sampler-clone-threshold=1 -sampler-outline-limit=0 -passes='sampler,default<O2>' -sampler-schemes=returns -S %s | FileCheck %s --check-prefix=O2
;
; On x86-64 a site asks and draws in one statement of inline assembly. `btq $62`
; tells the d = 1 answer (bit 62 clear: sampled, nothing to ask, the countdown
; kept) from an ordinary countdown, for which it calls the runtime (ABI 7) with
; its argument, the countdown less the site's key, in rax, computed with one lea;
; the answer in rax (the distance to the next sample) and the carry flag (this
; one sampled). The new countdown is one lea more, which keeps the flags; the
; assembly stores it in the thread-local itself (its memory operand, with the
; countdown's TBAA tag), so that the d = 1 answer, which keeps the countdown,
; stores nothing. `cmc` makes both ways agree: no carry, sampled, and the site's
; branch is one jump on the flag. One block a site, not three: the backend's
; time grows with the blocks and the PHIs at their joins. The runtime keeps
; every other register but r11 and the flags, the vector registers too (the
; assembly names none of them among its clobbers), so the function stays as it
; was around the rare call; the call pushes below the stack pointer, so the
; function keeps nothing in a red zone (noredzone, as every function that calls).
; RUN: %opt-sampler -mtriple=x86_64-unknown-linux-gnu -sampler-clone-threshold=1 -sampler-outline-limit=0 -passes=sampler -sampler-schemes=returns -S %s | FileCheck %s --check-prefix=X86
; RUN: %opt-sampler -mtriple=x86_64-unknown-linux-gnu -sampler-clone-threshold=1 -sampler-outline-limit=0 -passes='sampler,default<O2>' -sampler-schemes=returns %s | llc -O2 | FileCheck %s --check-prefix=ASM
; X86:       define i64 @two(ptr %s) #[[ATTRS:[0-9]+]]
; The instrumented copy's entry: the countdown the check left, and, if it was unknown
; before the check (below -2 after paying 2) and is not the d = 1 answer (bit 62 set),
; a fresh one from the runtime (ABI 8), paid for and stored: one statement, one edge
; into the copy.
; X86:       sampler.resolve:
; X86-NEXT:    %countdown.region = load i64, ptr %countdown.addr, align 8
; X86-NEXT:    %countdown.region1 = call i64 asm sideeffect "cmpq $$-2, $0\0A\09jge 1f\0A\09leaq 2($0), %rax\0A\09btq $$62, %rax\0A\09jnc 1f\0A\09call __sampler_fresh_rax_all\0A\09leaq -2(%rax), $0\0A\09movq $0, $1\0A1:", "=r,=*m,0,~{rax},~{r11},~{flags}"(ptr elementtype(i64) %countdown.addr, i64 %countdown.region) #[[DRAW:[0-9]+]], !tbaa [[XTBAA:![0-9]+]]
; X86-NEXT:    br label %sampler.slow.body
; X86:       site.observe:
; X86-NEXT:    %countdown.fired = call { i64, i8 } asm sideeffect "btq $$62, $0\0A\09jnc 1f\0A\09leaq 2($0), %rax\0A\09call __sampler_fire_rax_all\0A\09leaq -2(%rax), $0\0A\09movq $0, $2\0A\09cmc\0A1:", "=r,={@ccnc},=*m,0,~{rax},~{r11},~{flags}"(ptr elementtype(i64) %countdown.addr, i64 %countdown.region{{[0-9]*}}) #[[DRAW]], !tbaa [[XTBAA]]
; X86-NEXT:    [[CF:%[0-9]+]] = extractvalue { i64, i8 } %countdown.fired, 1
; X86-NEXT:    %sample = trunc i8 [[CF]] to i1
; X86-NEXT:    %[[NEXT:countdown.next[0-9]*]] = extractvalue { i64, i8 } %countdown.fired, 0
; X86-NEXT:    br i1 %sample, label %site.sampled, label %site.cont
; X86:       attributes #[[ATTRS]] = { noredzone nounwind }
; X86:       attributes #[[DRAW]] = { nounwind memory(argmem: readwrite, inaccessiblemem: readwrite) }
; X86:       [[XTBAA]] = !{[[XTY:![0-9]+]], [[XTY]], i64 0}
; X86:       [[XTY]] = !{!"__sampler_countdown",
; The countdown is reached through the thread pointer, its address held in a
; register (IndirectTLS.h):
; ASM-LABEL: two.sampler.slow:
; ASM:         movq %fs:0, [[TP:%r[a-z0-9]+]]
; ASM-NEXT:    leaq __sampler_countdown@TPOFF([[TP]]), [[ADDR:%r[a-z0-9]+]]
; ASM-NEXT:    movq ([[ADDR]]), [[LOCAL:%r[a-z0-9]+]]
; ASM-NEXT:    #APP
; ASM-NEXT:    cmpq $-2, [[LOCAL]]
; ASM-NEXT:    jge [[KNOWN:.Ltmp[0-9]+]]
; ASM-NEXT:    leaq 2([[LOCAL]]), %rax
; ASM-NEXT:    btq $62, %rax
; ASM-NEXT:    jae [[KNOWN]]
; ASM-NEXT:    callq __sampler_fresh_rax_all
; ASM-NEXT:    leaq -2(%rax), [[LOCAL]]
; ASM-NEXT:    movq [[LOCAL]], ([[ADDR]])
; ASM-NEXT:  [[KNOWN]]:
; ASM-NEXT:    #NO_APP
; ASM:         # %site.observe
; ASM-NEXT:    #APP
; ASM-NEXT:    btq $62, [[LOCAL]]
; ASM-NEXT:    jae [[DONE:.Ltmp[0-9]+]]
; ASM-NEXT:    leaq 2([[LOCAL]]), %rax
; ASM-NEXT:    callq __sampler_fire_rax_all
; ASM-NEXT:    leaq -2(%rax), [[LOCAL]]
; ASM-NEXT:    movq [[LOCAL]], ([[ADDR]])
; ASM-NEXT:    cmc
; ASM-NEXT:  [[DONE]]:
; ASM-NEXT:    #NO_APP
; ASM-NEXT:    jb

; CHECK-LABEL: define i64 @two(
; CHECK-NEXT:  entry:
; CHECK-NEXT:    %countdown.addr = call ptr @llvm.threadlocal.address.p0(ptr @__sampler_countdown)
; CHECK-NEXT:    %[[CD:countdown[0-9]*]] = load volatile i64, ptr %countdown.addr, align 4, !tbaa [[TBAA:![0-9]+]]
; CHECK-NEXT:    %countdown.paid = sub i64 %[[CD]], 2
; CHECK-NEXT:    store i64 %countdown.paid, ptr %countdown.addr, align 4, !tbaa [[TBAA]]
; CHECK-NEXT:    %countdown.enough = icmp sge i64 %countdown.paid, 0
; CHECK-NEXT:    br i1 %countdown.enough, label %sampler.body, label %sampler.to.slow, !prof [[LIKELY:![0-9]+]]
; CHECK:       sampler.to.slow:
; CHECK-NEXT:    [[R:%.*]] = call i64 @two.sampler.slow(ptr %s)
; CHECK-NEXT:    ret i64 [[R]]
; The fast copy: the original code.
; CHECK:       sampler.body:
; CHECK-NEXT:    %n = call i64 @strlen(ptr %s)
; CHECK-NEXT:    br label %site.cont
; CHECK:       site.cont:
; CHECK-NEXT:    %k = call i32 @atoi(ptr %s)
; CHECK-NEXT:    br label %site.cont1
; CHECK:       site.cont1:
; CHECK-NEXT:    %k64 = sext i32 %k to i64
; CHECK-NEXT:    %r = add i64 %n, %k64
; CHECK-NEXT:    ret i64 %r
; CHECK: declare i64 @__sampler_fire(i64) #[[COLD:[0-9]+]]
; The instrumented copy: it starts from the countdown the check left.
; CHECK-LABEL: define internal i64 @two.sampler.slow(
; CHECK-SAME:    ptr %s) unnamed_addr #[[SLOW:[0-9]+]]
; CHECK:       sampler.slow.region:
; CHECK-NEXT:    %countdown.region{{[0-9]*}} = phi i64
; CHECK:       sampler.slow.body:
; CHECK-NEXT:    %n = call i64 @strlen(ptr %s)
; CHECK-NEXT:    %countdown.fire = icmp slt i64 %countdown.region{{[0-9]*}}, -1
; CHECK-NEXT:    br i1 %countdown.fire, label %site.observe, label %site.cont, !prof [[UNLIKELY:![0-9]+]]
; At d = 1 the countdown is below -2^62 (bit 62 clear, the countdown being
; negative here) and the site is sampled without a draw.
; CHECK:       site.observe:
; CHECK-NEXT:    [[BIT:%.*]] = and i64 %countdown.region{{[0-9]*}}, 4611686018427387904
; CHECK-NEXT:    %countdown.drawn = icmp ne i64 [[BIT]], 0
; CHECK-NEXT:    br i1 %countdown.drawn, label %site.draw, label %site.drawn
; The runtime draws for the site, told `unknown` = -2 - L (0 when this
; execution owns the success, > 0 when it is a fresh trial), and answers r in one
; word: |r| shifted left by one, and whether r > 0 (bit 0). The copy's new
; countdown is -2 + |r|.
; CHECK:       site.draw:
; CHECK-NEXT:    [[UNK:%countdown.unknown[0-9]*]] = sub i64 -2, %countdown.region{{[0-9]*}}
; CHECK-NEXT:    [[F:%countdown.fired[0-9]*]] = call i64 @__sampler_fire(i64 [[UNK]])
; CHECK-NEXT:    [[GAP:%.*]] = lshr i64 [[F]], 1
; CHECK-NEXT:    [[NEW:%countdown.next[0-9]*]] = add i64 -2, [[GAP]]
; CHECK-NEXT:    %sample = trunc i64 [[F]] to i1
; CHECK-NEXT:    store i64 [[NEW]], ptr %countdown.addr
; CHECK-NEXT:    br label %site.drawn
; CHECK:       site.drawn:
; CHECK-NEXT:    [[CD1:%.*]] = phi i64 [ [[NEW]], %site.draw ], [ %countdown.region{{[0-9]*}}, %site.observe ]
; CHECK-NEXT:    %site.take = phi i1 [ true, %site.observe ], [ %sample, %site.draw ]
; CHECK-NEXT:    br i1 %site.take, label %site.sampled, label %site.cont
; CHECK:       site.sampled:
; CHECK:         atomicrmw add ptr {{.*}}, i64 1 monotonic
; CHECK:       site.cont:
; CHECK-NEXT:    [[CD2:%.*]] = phi i64 [ [[CD1]], %site.sampled ], [ [[CD1]], %site.drawn ], [ %countdown.region{{[0-9]*}}, %sampler.slow.body ]
; CHECK-NEXT:    %k = call i32 @atoi(ptr %s)
; CHECK-NEXT:    icmp slt i64 [[CD2]], 0
; CHECK:         sub i64 -1, [[CD2]]
; CHECK-NEXT:    call i64 @__sampler_fire(i64
; CHECK-DAG: attributes #[[SLOW]] = { cold noinline nounwind optsize "call-inline-cost"="0" "call-threshold-bonus"="25" "sampler-instrumented-copy" }
; CHECK-DAG: attributes #[[COLD]] = { cold nounwind }
; The countdown's own TBAA type, under C/C++'s root: typed program accesses do
; not alias it.
; CHECK: [[TBAA]] = !{[[TY:![0-9]+]], [[TY]], i64 0}
; CHECK: [[TY]] = !{!"__sampler_countdown", [[CHAR:![0-9]+]], i64 0}
; CHECK: [[CHAR]] = !{!"omnipotent char", [[ROOT:![0-9]+]], i64 0}
; CHECK: [[ROOT]] = !{!"Simple C/C++ TBAA"}
; CHECK: [[LIKELY]] = !{!"branch_weights", i32 {{[0-9][0-9][0-9][0-9]+}}, i32 1}
; CHECK: [[UNLIKELY]] = !{!"branch_weights", i32 1, i32 {{[0-9][0-9][0-9][0-9]+}}}

; After -O2, the fast path is the check (load, subtract, store, sign test: one
; `subq $2, %fs:...; js` on x86) and the original code. The load is volatile so
; that no pass carries the countdown in a register from one check to the next
; (which would cost a register and unfold the check into three instructions).
; O2-LABEL: define i64 @two(
; O2-NEXT:   entry:
; O2-NEXT:     %countdown.addr = tail call align 4 ptr @llvm.threadlocal.address.p0(ptr @__sampler_countdown)
; O2-NEXT:     %[[CD:countdown[0-9]*]] = load volatile i64, ptr %countdown.addr
; O2-NEXT:     %countdown.paid = add i64 %[[CD]], -2
; O2-NEXT:     store i64 %countdown.paid, ptr %countdown.addr
; O2-NEXT:     %countdown.enough = icmp sgt i64 %countdown.paid, -1
; O2-NEXT:     br i1 %countdown.enough, label %sampler.body, label %sampler.to.slow
; O2:          tail call fastcc i64 @two.sampler.slow(ptr %s)
; O2:        sampler.body:
; O2-NEXT:     %n = tail call i64 @strlen(
; O2-NEXT:     %k = tail call i32 @atoi(
; O2-NOT:      __sampler_countdown
; O2-LABEL: define internal fastcc i64 @two.sampler.slow(

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

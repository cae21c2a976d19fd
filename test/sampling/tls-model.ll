; How instrumented code reaches the thread-local countdown. In an executable
; (a PIE module, or code without PIC) the runtime is linked in, so the
; countdown is dso_local with the local-exec model: `%fs:offset`, no GOT load
; and no register to hold the offset. Position-independent code that may go
; into a shared library keeps initial-exec, and so does everything when the
; option says so (sampler-cc -fsampler-runtime=shared passes it). The same holds
; for the runtime's entry points: a direct call in an executable (no GOT load to
; hoist into a register), through the GOT, resolved at load time (nonlazybind: a
; lazy PLT slot's resolver clobbers r10), elsewhere; a site's draw and a check's
; fresh countdown (ABI 8), called from inline assembly, write the call either way,
; and no entry is declared.
; RUN: %opt-sampler -passes=sampler -sampler-schemes=branches -S %s | FileCheck %s --check-prefix=PIE
; RUN: %opt-sampler -passes=sampler -sampler-schemes=branches -sampler-tls-model=initial-exec -S %s | FileCheck %s --check-prefix=IE
; RUN: sed -e '/PIE Level/d' -e 's/!0, !1}/!0}/' %s | %opt-sampler -passes=sampler -sampler-schemes=branches -S | FileCheck %s --check-prefix=IE
; RUN: sed -e '/PIE Level/d' -e 's/!0, !1}/!0}/' -e 's/"PIC Level", i32 2/"PIC Level", i32 0/' %s | %opt-sampler -passes=sampler -sampler-schemes=branches -S | FileCheck %s --check-prefix=PIE
; RUN: not %opt-sampler -passes=sampler -sampler-tls-model=global-dynamic -S %s 2>&1 | FileCheck %s --check-prefix=BAD
; The large code model (clang -mcmodel=large) assumes nothing about distances, and
; the assembly's call is a 32-bit displacement: there a site calls the preserve_most
; entry with its argument in rdi, as a function the backend calls as the model asks.
; (A counter's add in assembly calls nothing and addresses its operands as the
; backend does, so it stays: test/schemes/when-threaded-counters.ll.)
; RUN: sed -e 's/!0, !1}/!0, !1, !2}/' -e '$a !2 = !{i32 1, !"Code Model", i32 4}' %s | %opt-sampler -passes=sampler -sampler-schemes=branches -S | FileCheck %s --check-prefix=LARGE
; LARGE-NOT: asm sideeffect "{{[^"]*}}call
; LARGE:     call preserve_mostcc i64 @__sampler_fresh_countdown_preserve_most()
; LARGE:     call preserve_mostcc i64 @__sampler_fire_preserve_most(i64
; LARGE-NOT: asm sideeffect "{{[^"]*}}call
; There the entries are declared, direct in an executable, through the GOT resolved at
; load time elsewhere.
; RUN: sed -e 's/!0, !1}/!0, !1, !2}/' -e '$a !2 = !{i32 1, !"Code Model", i32 4}' %s | %opt-sampler -passes=sampler -sampler-schemes=branches -S | FileCheck %s --check-prefix=LARGEPIE
; RUN: sed -e 's/!0, !1}/!0, !1, !2}/' -e '$a !2 = !{i32 1, !"Code Model", i32 4}' %s | %opt-sampler -passes=sampler -sampler-schemes=branches -sampler-tls-model=initial-exec -S | FileCheck %s --check-prefix=LARGEIE
; LARGEPIE: declare dso_local preserve_mostcc i64 @__sampler_fresh_countdown_preserve_most() [[PIEATTR:#[0-9]+]]
; LARGEIE:  declare preserve_mostcc i64 @__sampler_fresh_countdown_preserve_most() [[IEATTR:#[0-9]+]]
; LARGEPIE: attributes [[PIEATTR]] = {
; LARGEPIE-NOT: nonlazybind
; LARGEPIE-SAME: }
; LARGEIE:  attributes [[IEATTR]] = { {{.*}}nonlazybind

; PIE: @__sampler_countdown = external dso_local thread_local(localexec) global i64
; IE:  @__sampler_countdown = external thread_local(initialexec) global i64
; PIE-NOT: declare {{.*}}@__sampler_fresh_countdown_preserve_most
; IE-NOT:  declare {{.*}}@__sampler_fresh_countdown_preserve_most
; PIE: asm sideeffect "cmpq $$-1, $0\0A\09jge 1f\0A\09leaq 1($0), %rax\0A\09btq $$62, %rax\0A\09jnc 1f\0A\09call __sampler_fresh_rax_all\0A\09leaq -1(%rax), $0\0A\09movq $0, $1\0A1:"
; IE:  asm sideeffect "cmpq $$-1, $0\0A\09jge 1f\0A\09leaq 1($0), %rax\0A\09btq $$62, %rax\0A\09jnc 1f\0A\09call *__sampler_fresh_rax_all@GOTPCREL(%rip)\0A\09leaq -1(%rax), $0\0A\09movq $0, $1\0A1:"
; PIE: asm sideeffect "btq $$62, $0\0A\09jnc 1f\0A\09leaq 1($0), %rax\0A\09call __sampler_fire_rax_all\0A\09leaq -1(%rax), $0\0A\09movq $0, $2\0A\09cmc\0A1:"
; IE:  asm sideeffect "btq $$62, $0\0A\09jnc 1f\0A\09leaq 1($0), %rax\0A\09call *__sampler_fire_rax_all@GOTPCREL(%rip)\0A\09leaq -1(%rax), $0\0A\09movq $0, $2\0A\09cmc\0A1:"
; PIE-NOT: declare {{.*}}@__sampler_f
; IE-NOT:  declare {{.*}}@__sampler_f
; BAD: sampler: option 'tls-model' expects 'auto' or 'initial-exec', got 'global-dynamic'

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

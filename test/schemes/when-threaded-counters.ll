; Counter updates by default (-fsampler-atomic-counters=when-threaded): while
; glibc's __libc_single_threaded says the process has one thread, a plain load,
; operation and store; once it has started another, the relaxed atomic
; read-modify-write. glibc clears the flag in the thread that calls
; pthread_create, before the new thread exists, so the counts stay exact
; (test/e2e/thread-counters.c runs threads). On x86-64 an add is one statement
; of inline assembly whose test jumps over the `lock` prefix; elsewhere, and
; for the bounds' min and max, the flag is read with an unordered atomic load
; (another thread may write it meanwhile) and the plain way marked likely. In
; an executable (a PIE level, or code that is not PIC) the flag is dso_local,
; a PC-relative `cmpb` on the linker's copy; elsewhere through the GOT. The
; branch computes its cell (-sampler-observe-edges=0), as in the sampled build.
; RUN: %opt-sampler -mtriple=x86_64-unknown-linux-gnu -passes=sampler -sampler-schemes=branches,bounds -sampler-sampling=off -sampler-observe-edges=0 -S %s | FileCheck %s --check-prefixes=CHECK,X86,EXE
; RUN: sed -e 's/"PIE Level", i32 2/"PIE Level", i32 0/' %s | %opt-sampler -mtriple=x86_64-unknown-linux-gnu -passes=sampler -sampler-schemes=branches,bounds -sampler-sampling=off -sampler-observe-edges=0 -S | FileCheck %s --check-prefixes=CHECK,X86,DSO
; Other architectures, as long as the system is Linux with glibc:
; RUN: %opt-sampler -mtriple=aarch64-unknown-linux-gnu -passes=sampler -sampler-schemes=branches,bounds -sampler-sampling=off -sampler-observe-edges=0 -S %s | FileCheck %s --check-prefixes=CHECK,IR,EXE
; The name of the default, given:
; RUN: %opt-sampler -mtriple=x86_64-unknown-linux-gnu -passes=sampler -sampler-schemes=branches,bounds -sampler-sampling=off -sampler-observe-edges=0 -sampler-atomic-counters=when-threaded -S %s | FileCheck %s --check-prefixes=CHECK,X86,EXE
; Sampled, the observation keeps its two ways in the instrumented copy:
; RUN: %opt-sampler -mtriple=aarch64-unknown-linux-gnu -passes=sampler -sampler-schemes=branches,bounds -S %s | FileCheck %s --check-prefix=SAMPLED
; Without glibc (musl, Android, no system named) there is no flag: always atomic.
; RUN: %opt-sampler -mtriple=x86_64-unknown-linux-musl -passes=sampler -sampler-schemes=branches,bounds -sampler-sampling=off -sampler-observe-edges=0 -S %s | FileCheck %s --check-prefix=ATOMIC
; RUN: %opt-sampler -mtriple=aarch64-unknown-linux-android -passes=sampler -sampler-schemes=branches,bounds -sampler-sampling=off -sampler-observe-edges=0 -S %s | FileCheck %s --check-prefix=ATOMIC
; RUN: %opt-sampler -mtriple=x86_64-apple-macosx -passes=sampler -sampler-schemes=branches,bounds -sampler-sampling=off -sampler-observe-edges=0 -S %s | FileCheck %s --check-prefix=ATOMIC
; -fsampler-atomic-counters (1): always atomic; -fno-sampler-atomic-counters
; (0): always plain (plain-counters.ll).
; RUN: %opt-sampler -mtriple=x86_64-unknown-linux-gnu -passes=sampler -sampler-schemes=branches,bounds -sampler-sampling=off -sampler-observe-edges=0 -sampler-atomic-counters=1 -S %s | FileCheck %s --check-prefix=ATOMIC
; A value that is none of these is an error:
; RUN: not %opt-sampler -passes=sampler -sampler-atomic-counters=sometimes -disable-output %s 2>&1 | FileCheck %s --check-prefix=BAD

; EXE: @__libc_single_threaded = external dso_local global i8
; DSO: @__libc_single_threaded = external global i8

; CHECK-LABEL: define i32 @f(
; A branch's outcome:
; CHECK:       [[BPTR:%.*]] = getelementptr inbounds i64, ptr @__sampler_counters, i64
; X86-NEXT:    call void asm sideeffect "cmpb $$0, $2\0A\09jne 1f\0A\09lock\0A1:\0A\09addq $1, $0", "=*m,re,*m,*m,~{flags}"(ptr elementtype(i64) [[BPTR]], i64 1, ptr elementtype(i8) @__libc_single_threaded, ptr elementtype(i64) [[BPTR]]) [[ASMATTR:#[0-9]+]]
; X86-NEXT:    br label %site.cont
; IR-NEXT:     [[ST:%.*]] = load atomic i8, ptr @__libc_single_threaded unordered, align 1
; IR-NEXT:     [[SINGLE:%.*]] = icmp ne i8 [[ST]], 0
; IR-NEXT:     br i1 [[SINGLE]], label %[[PLAIN:counter.plain[0-9]*]], label %[[SHARED:counter.atomic[0-9]*]], !prof [[LIKELY:![0-9]+]]
; IR:        [[PLAIN]]:
; IR-NEXT:     [[BOLD:%.*]] = load i64, ptr [[BPTR]], align 8
; IR-NEXT:     [[BNEW:%.*]] = add i64 [[BOLD]], 1
; IR-NEXT:     store i64 [[BNEW]], ptr [[BPTR]], align 8
; IR-NEXT:     br label %[[JOIN:.*]]
; IR:        [[SHARED]]:
; IR-NEXT:     atomicrmw add ptr [[BPTR]], i64 1 monotonic, align 8
; IR-NEXT:     br label %[[JOIN]]
; IR:        [[JOIN]]:
; IR-NEXT:     br label %site.cont
; An assignment's bounds, each update tested on its own (the optimiser may
; reuse the first load: no call between them):
; CHECK:       load atomic i8, ptr @__libc_single_threaded unordered
; CHECK:       load i64, ptr getelementptr inbounds (i64, ptr @__sampler_counters, i64 2)
; CHECK:       store i64 {{.*}}, ptr getelementptr inbounds (i64, ptr @__sampler_counters, i64 2)
; CHECK:       atomicrmw min ptr getelementptr inbounds (i64, ptr @__sampler_counters, i64 2)
; CHECK:       load atomic i8, ptr @__libc_single_threaded unordered
; CHECK:       load i64, ptr getelementptr inbounds (i64, ptr @__sampler_counters, i64 3)
; CHECK:       store i64 {{.*}}, ptr getelementptr inbounds (i64, ptr @__sampler_counters, i64 3)
; CHECK:       atomicrmw max ptr getelementptr inbounds (i64, ptr @__sampler_counters, i64 3)
; X86:         attributes [[ASMATTR]] = { nounwind memory(argmem: readwrite) }
; CHECK:       !{!"branch_weights", i32 {{[0-9][0-9][0-9][0-9]+}}, i32 1}

; SAMPLED-LABEL: define i32 @f(
; SAMPLED:       load atomic i8, ptr @__libc_single_threaded unordered
; SAMPLED:       atomicrmw add ptr

; ATOMIC-NOT:    __libc_single_threaded
; ATOMIC-LABEL:  define i32 @f(
; ATOMIC-NOT:    __libc_single_threaded
; ATOMIC:        atomicrmw add ptr
; ATOMIC:        atomicrmw min ptr getelementptr inbounds (i64, ptr @__sampler_counters, i64 2)
; ATOMIC:        atomicrmw max ptr getelementptr inbounds (i64, ptr @__sampler_counters, i64 3)
; ATOMIC-NOT:    __libc_single_threaded

; BAD: sampler: option 'atomic-counters' expects 'when-threaded' or on/off (1/0), got 'sometimes'

source_filename = "threads.c"

define i32 @f(i32 %n) {
entry:
  %n.addr = alloca i32
  %c = icmp sgt i32 %n, 3
  br i1 %c, label %big, label %small

big:
  store i32 %n, ptr %n.addr
  ret i32 1

small:
  ret i32 0
}

!llvm.module.flags = !{!0, !1}
!0 = !{i32 8, !"PIC Level", i32 2}
!1 = !{i32 7, !"PIE Level", i32 2}

; In an unconditional build, a function whose counter adds would each test
; glibc's __libc_single_threaded is copied in two at the end of the pipeline
; (ThreadCopies.h): a test of the flag on entry, the function's own blocks
; with plain adds (one instruction, no test) while the process has one
; thread, and their copies with locked adds into the counters' second half
; (cell + 4 here: the unit has 4 cells, so 8 are allocated, and its
; descriptor's flags say so: SAMPLER_UNIT_HALVES, 2). @loop adds in its loop;
; @once adds once a call, where the test on entry would cost what it saves:
; it keeps the add that tests the flag itself.
; RUN: %opt-sampler -passes='sampler,sampler-thread-copies' -sampler-schemes=branches -sampler-sampling=off -S %s | FileCheck %s
; In the pipeline (OptimizerLast), on by default; off:
; RUN: %opt-sampler -passes='default<O2>' -sampler-schemes=branches -sampler-sampling=off -S %s | FileCheck %s --check-prefix=PIPE
; RUN: %opt-sampler -passes='default<O2>' -sampler-schemes=branches -sampler-sampling=off -sampler-thread-copies=0 -S %s | FileCheck %s --check-prefix=OFF
; Sampled builds have no halves and no copies of this kind:
; RUN: %opt-sampler -passes='default<O2>' -sampler-schemes=branches -S %s | FileCheck %s --check-prefix=OFF

; CHECK: @__sampler_counters = internal global [8 x i64] zeroinitializer, align 64, !sampler.halves [[HALF:![0-9]+]]
; CHECK: @__sampler_unit = internal global {{.*}} { i32 9, i32 2, i64 4,

; CHECK-LABEL: define i32 @loop(
; CHECK:       thread.test:
; CHECK-NEXT:    [[ST:%.*]] = load atomic i8, ptr @__libc_single_threaded unordered, align 1
; CHECK-NEXT:    [[SINGLE:%.*]] = icmp ne i8 [[ST]], 0
; CHECK-NEXT:    br i1 [[SINGLE]], label %entry, label %entry.threads
; CHECK:       site.true:
; CHECK-NEXT:    call void asm sideeffect "addq $1, $0", "=*m,re,*m,~{flags}"(ptr elementtype(i64) getelementptr inbounds (i64, ptr @__sampler_counters, i64 1), i64 1, ptr elementtype(i64) getelementptr inbounds (i64, ptr @__sampler_counters, i64 1))
; CHECK:       site.false:
; CHECK-NEXT:    call void asm sideeffect "addq $1, $0", "=*m,re,*m,~{flags}"(ptr elementtype(i64) @__sampler_counters, i64 1, ptr elementtype(i64) @__sampler_counters)
; CHECK:       entry.threads:
; CHECK:       site.true.threads:
; CHECK-NEXT:    call void asm sideeffect "lock addq $1, $0", "=*m,re,*m,~{flags}"(ptr elementtype(i64) getelementptr inbounds (i64, ptr getelementptr inbounds (i64, ptr @__sampler_counters, i64 1), i64 4), i64 1,
; CHECK:       site.false.threads:
; CHECK-NEXT:    call void asm sideeffect "lock addq $1, $0", "=*m,re,*m,~{flags}"(ptr elementtype(i64) getelementptr inbounds (i64, ptr @__sampler_counters, i64 4), i64 1,
; CHECK:       ret i32 %s.threads

; CHECK-LABEL: define i32 @once(
; CHECK-NOT:     thread.test
; CHECK:         call void asm sideeffect "cmpb $$0, $2\0A\09jne 1f\0A\09lock\0A1:\0A\09addq $1, $0"
; CHECK-NOT:     .threads:
; CHECK:         ret i32 %x
; CHECK: [[HALF]] = !{i64 4}

; PIPE: @__sampler_counters = internal global [8 x i64]
; PIPE-LABEL: define i32 @loop(
; PIPE:       thread.test:
; PIPE:         "lock addq $1, $0"

; OFF: @__sampler_counters = internal global [4 x i64] zeroinitializer, align 64{{$}}
; OFF: @__sampler_unit = internal global {{.*}} { i32 9, i32 {{[01]}}, i64 4,
; OFF-NOT: thread.test
; OFF-NOT: "lock addq $1, $0"

target triple = "x86_64-unknown-linux-gnu"

define i32 @loop(i32 %n) {
entry:
  br label %head

head:
  %i = phi i32 [ 0, %entry ], [ %i.next, %body ]
  %s = phi i32 [ 0, %entry ], [ %s.next, %body ]
  %more = icmp slt i32 %i, %n
  br i1 %more, label %body, label %done

body:
  %s.next = add i32 %s, %i
  %i.next = add i32 %i, 1
  br label %head

done:
  ret i32 %s
}

define i32 @once(i32 %x) {
entry:
  %neg = icmp slt i32 %x, 0
  br i1 %neg, label %a, label %b

a:
  ret i32 0

b:
  ret i32 %x
}

!llvm.module.flags = !{!0}
!0 = !{i32 8, !"PIE Level", i32 2}

; In an unconditional build, a function whose counter adds would each test
; glibc's __libc_single_threaded is copied in two at the end of the pipeline
; (ThreadCopies.h): a test of the flag on entry, the function's own blocks
; with plain adds (one instruction, no test) while the process has one
; thread, and their copies with locked adds into the counters' second half
; (cell + 8 here: the unit has 8 cells, so 16 are allocated, and its
; descriptor's flags say so: SAMPLER_UNIT_HALVES, 2). @loop adds in its loop;
; @once adds once a call, where the test on entry would cost what it saves:
; it keeps the add that tests the flag itself.
; RUN: %opt-sampler -passes='sampler,sampler-thread-copies' -sampler-schemes=branches -sampler-sampling=off -S %s | FileCheck %s
; In the pipeline (OptimizerLast), on by default; off:
; RUN: %opt-sampler -passes='default<O2>' -sampler-schemes=branches -sampler-sampling=off -S %s | FileCheck %s --check-prefix=PIPE
; RUN: %opt-sampler -passes='default<O2>' -sampler-schemes=branches -sampler-sampling=off -sampler-thread-copies=0 -S %s | FileCheck %s --check-prefix=OFF
; Sampled builds have no halves and no copies of this kind:
; RUN: %opt-sampler -passes='default<O2>' -sampler-schemes=branches -S %s | FileCheck %s --check-prefix=OFF

; CHECK: @tab.threads = private unnamed_addr constant [2 x ptr] [ptr blockaddress(@dispatch, %op.a.threads), ptr blockaddress(@dispatch, %op.b.threads)]
; CHECK: @tab = private unnamed_addr constant [2 x ptr] [ptr blockaddress(@dispatch, %op.a), ptr blockaddress(@dispatch, %op.b)]
; CHECK: @__sampler_counters = internal global [16 x i64] zeroinitializer, align 64, !sampler.halves [[HALF:![0-9]+]]
; CHECK: @__sampler_unit = internal global {{.*}} { i32 9, i32 2, i64 8,

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
; CHECK-NEXT:    call void asm sideeffect "lock addq $1, $0", "=*m,re,*m,~{flags}"(ptr elementtype(i64) getelementptr inbounds (i64, ptr getelementptr inbounds (i64, ptr @__sampler_counters, i64 1), i64 8), i64 1,
; CHECK:       site.false.threads:
; CHECK-NEXT:    call void asm sideeffect "lock addq $1, $0", "=*m,re,*m,~{flags}"(ptr elementtype(i64) getelementptr inbounds (i64, ptr @__sampler_counters, i64 8), i64 1,
; CHECK:       ret i32 %s.threads

; CHECK-LABEL: define i32 @once(
; CHECK-NOT:     thread.test
; CHECK:         call void asm sideeffect "cmpb $$0, $2\0A\09jne 1f\0A\09lock\0A1:\0A\09addq $1, $0"
; CHECK-NOT:     .threads:
; CHECK:         ret i32 %x

; A computed goto (Lua's luaV_execute): the copy dispatches through a copy of
; the table, which holds the addresses of the copy's blocks. @shared's table is
; also read by another function: it keeps its own adds, which test the flag.
; CHECK-LABEL: define i32 @dispatch(
; CHECK:       thread.test:
; CHECK:       go:
; CHECK:         getelementptr inbounds [2 x ptr], ptr @tab, i64 0
; CHECK:         indirectbr ptr %dest, [label %op.a, label %op.b]
; CHECK:       go.threads:
; CHECK:         getelementptr inbounds [2 x ptr], ptr @tab.threads, i64 0
; CHECK:         indirectbr ptr %dest.threads, [label %op.a.threads, label %op.b.threads]
; CHECK-LABEL: define i32 @shared(
; CHECK-NOT:     thread.test
; CHECK:         "cmpb $$0, $2\0A\09jne 1f\0A\09lock\0A1:\0A\09addq $1, $0"
; CHECK-NOT:     .threads:
; CHECK-LABEL: define ptr @reader(
; CHECK: [[HALF]] = !{i64 8}

; PIPE: @__sampler_counters = internal global [16 x i64]
; PIPE-LABEL: define i32 @loop(
; PIPE:       thread.test:
; PIPE:         "lock addq $1, $0"

; OFF: @__sampler_counters = internal global [8 x i64] zeroinitializer, align 64{{$}}
; OFF: @__sampler_unit = internal global {{.*}} { i32 9, i32 {{[01]}}, i64 8,
; OFF-NOT: thread.test
; OFF-NOT: "lock addq $1, $0"

target triple = "x86_64-unknown-linux-gnu"

@tab = private unnamed_addr constant [2 x ptr] [ptr blockaddress(@dispatch, %op.a), ptr blockaddress(@dispatch, %op.b)]
@tab2 = private unnamed_addr constant [2 x ptr] [ptr blockaddress(@shared, %op.a), ptr blockaddress(@shared, %op.b)]

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

define i32 @dispatch(ptr %code, i32 %n) {
entry:
  br label %next

next:
  %pc = phi i32 [ 0, %entry ], [ %pc.1, %op.a ], [ %pc.1, %op.b ]
  %acc = phi i32 [ 0, %entry ], [ %acc.a, %op.a ], [ %acc.b, %op.b ]
  %end = icmp sge i32 %pc, %n
  br i1 %end, label %done, label %go

go:
  %p = getelementptr inbounds i8, ptr %code, i32 %pc
  %op = load i8, ptr %p
  %idx = zext i8 %op to i64
  %slot = getelementptr inbounds [2 x ptr], ptr @tab, i64 0, i64 %idx
  %dest = load ptr, ptr %slot
  %pc.1 = add i32 %pc, 1
  indirectbr ptr %dest, [label %op.a, label %op.b]

op.a:
  %acc.a = add i32 %acc, 1
  br label %next

op.b:
  %acc.b = sub i32 %acc, 1
  br label %next

done:
  ret i32 %acc
}

define i32 @shared(ptr %code, i32 %n) {
entry:
  br label %next

next:
  %pc = phi i32 [ 0, %entry ], [ %pc.1, %op.a ], [ %pc.1, %op.b ]
  %acc = phi i32 [ 0, %entry ], [ %acc.a, %op.a ], [ %acc.b, %op.b ]
  %end = icmp sge i32 %pc, %n
  br i1 %end, label %done, label %go

go:
  %p = getelementptr inbounds i8, ptr %code, i32 %pc
  %op = load i8, ptr %p
  %idx = zext i8 %op to i64
  %slot = getelementptr inbounds [2 x ptr], ptr @tab2, i64 0, i64 %idx
  %dest = load ptr, ptr %slot
  %pc.1 = add i32 %pc, 1
  indirectbr ptr %dest, [label %op.a, label %op.b]

op.a:
  %acc.a = add i32 %acc, 1
  br label %next

op.b:
  %acc.b = sub i32 %acc, 1
  br label %next

done:
  ret i32 %acc
}

define ptr @reader() {
  ret ptr @tab2
}

!llvm.module.flags = !{!0}
!0 = !{i32 8, !"PIE Level", i32 2}

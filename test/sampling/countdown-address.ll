; Every access to the thread-local countdown in a function goes through one
; `llvm.threadlocal.address` call at the top of its entry block (as clang
; accesses C's thread-locals), so that the global itself has one use per
; function, not one per access: LICM walks all uses of a pointer it promotes,
; once per loop, and on sqlite's amalgamation (thousands of loops, tens of
; thousands of countdown accesses) that walk cost 5% of the whole compile.
; A presplit coroutine keeps the global: an address taken before a suspension
; may belong to another thread after it.
; RUN: %opt-sampler -passes=sampler,verify -sampler-clone-threshold=1 -sampler-schemes=branches -S %s | FileCheck %s
; RUN: %opt-sampler -passes='sampler,default<O2>' -sampler-schemes=branches -S %s | FileCheck %s --check-prefix=O2

; Cloned: the fast copy's check, the instrumented copy's sites, the loop's
; back-edge check all use the one address.
; CHECK-LABEL: define i32 @sum(
; CHECK-NEXT:  entry:
; CHECK-NEXT:    %countdown.addr = call ptr @llvm.threadlocal.address.p0(ptr @__sampler_countdown)
; CHECK-NOT:     @__sampler_countdown
; CHECK:         load volatile i64, ptr %countdown.addr
; CHECK-NOT:     @__sampler_countdown
; CHECK:         !sampler.backedge.check
; CHECK-NOT:     @__sampler_countdown
; CHECK:       {{^}}}

; CHECK-LABEL: define void @coro(
; CHECK-NOT:     threadlocal.address
; CHECK:         load volatile i64, ptr @__sampler_countdown
; CHECK:       {{^}}}

; @once's instrumented copy outlined: the same in the new function.
; CHECK-LABEL: define {{.*}} @once.sampler.slow(
; CHECK-NEXT:  {{.*}}:
; CHECK-NEXT:    %countdown.addr = call ptr @llvm.threadlocal.address.p0(ptr @__sampler_countdown)
; CHECK-NOT:     @__sampler_countdown
; CHECK:       {{^}}}

; After the O2 pipeline, @once inlined into @caller: one address left.
; O2-LABEL:    define i32 @caller(
; O2:            call {{.*}}ptr @llvm.threadlocal.address.p0(ptr @__sampler_countdown)
; O2-NOT:        @llvm.threadlocal.address
; O2:          {{^}}}

define i32 @sum(ptr %p, i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i.next, %latch ]
  %s = phi i32 [ 0, %entry ], [ %s.next, %latch ]
  %gep = getelementptr inbounds i32, ptr %p, i32 %i
  %v = load i32, ptr %gep
  %pos = icmp sgt i32 %v, 0
  br i1 %pos, label %add, label %latch
add:
  br label %latch
latch:
  %s.next = phi i32 [ %s, %loop ], [ %v, %add ]
  %i.next = add i32 %i, 1
  %done = icmp eq i32 %i.next, %n
  br i1 %done, label %exit, label %loop
exit:
  ret i32 %s.next
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

define i32 @caller(ptr %p, i32 %n) {
entry:
  %s = call i32 @sum(ptr %p, i32 %n)
  %r = call i32 @once(i32 %s)
  ret i32 %r
}

define void @coro(i32 %x) presplitcoroutine {
entry:
  %neg = icmp slt i32 %x, 0
  br i1 %neg, label %a, label %b
a:
  call void @sink()
  br label %b
b:
  ret void
}

declare void @sink()

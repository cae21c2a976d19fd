; A function that calls nothing and keeps nothing in its frame takes its
; instrumented copy out of its frame (lib/ContinuationTwin.cpp): each way from
; its fast code into a block that calls the runtime's draw becomes a tail call
; of a continuation, a private copy of the function that takes its arguments,
; the way's index and the values live on the way, and begins where the way
; leads. The input is what the pipeline leaves: an entry check whose slow way
; draws a fresh countdown, a loop that carries the countdown in a register and
; leaves for the instrumented copy with it, and the instrumented copy (a site,
; its draw).
; RUN: %opt-sampler -passes=sampler-continuation-twin,verify -sampler-continuation-limit=1000 -S %s | FileCheck %s
; Off (limit 0), a function above the limit, one that calls another and one
; with a stack slot stay as they are:
; RUN: %opt-sampler -passes=sampler-continuation-twin,verify -sampler-continuation-limit=0 -S %s | FileCheck %s --check-prefix=OFF
; RUN: %opt-sampler -passes=sampler-continuation-twin,verify -sampler-continuation-limit=10 -S %s | FileCheck %s --check-prefix=OFF
; OFF-NOT:     sampler.cont
; At most one continuation a function:
; RUN: %opt-sampler -passes=sampler-continuation-twin,verify -sampler-continuation-limit=1000 -sampler-continuation-copies=1 -S %s | FileCheck %s --check-prefix=CAP

; F keeps its checks and its fast code. The entry's way passes no value (the
; countdown's address is computed again); the loop's passes the loop's values
; in slots, and the countdown it carries in the countdown, which its first
; block would store there anyway. Both return what the continuation does.
; CHECK-LABEL: define i32 @sum(ptr %p, i32 %n)
; CHECK:         br i1 %countdown.enough, label %body, label %sampler.cont
; CHECK:       loop:
; CHECK:         br i1 %more, label %latch, label %done
; CHECK:       latch:
; CHECK:         %c.paid = add i64 %c, -1
; CHECK-NEXT:    %c.enough = icmp sgt i64 %c.paid, -1
; CHECK-NEXT:    br i1 %c.enough, label %loop, label %sampler.cont1
; CHECK:       sampler.cont1:
; CHECK-NEXT:    store i64 %c.paid, ptr %countdown.addr
; CHECK-NEXT:    %[[R1:.*]] = tail call i32 @sum.sampler.cont(ptr %p, i32 %n, i32 1, i32 %s.next, i32 %i.next)
; CHECK-NEXT:    ret i32 %[[R1]]
; CHECK:       sampler.cont:
; CHECK-NEXT:    %[[R0:.*]] = tail call i32 @sum.sampler.cont(ptr %p, i32 %n, i32 0, i32 poison, i32 poison)
; CHECK-NEXT:    ret i32 %[[R0]]
; No block of the instrumented copy is left in F:
; CHECK-NOT:     __sampler_fresh
; CHECK-NOT:     __sampler_fire
; CHECK:       {{^}}}


target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@__sampler_countdown = external thread_local(initialexec) global i64

declare i64 @__sampler_fresh_countdown_preserve_most()
declare i64 @__sampler_fire_preserve_most(i64)
declare void @work(i32)

define i32 @sum(ptr %p, i32 %n) {
entry:
  %countdown.addr = call ptr @llvm.threadlocal.address.p0(ptr @__sampler_countdown)
  %countdown = load volatile i64, ptr %countdown.addr
  %countdown.paid = add i64 %countdown, -1
  store i64 %countdown.paid, ptr %countdown.addr
  %countdown.enough = icmp sgt i64 %countdown.paid, -1
  br i1 %countdown.enough, label %body, label %slow.entry

; The fast copy: a loop with one site an iteration, the countdown in %c.
body:
  %c0 = load i64, ptr %countdown.addr
  br label %loop
loop:
  %c = phi i64 [ %c0, %body ], [ %c.paid, %latch ]
  %i = phi i32 [ 0, %body ], [ %i.next, %latch ]
  %s = phi i32 [ 0, %body ], [ %s.next, %latch ]
  %more = icmp slt i32 %i, %n
  br i1 %more, label %latch, label %done
latch:
  %q = getelementptr i32, ptr %p, i32 %i
  %v = load i32, ptr %q
  %s.next = add i32 %s, %v
  %i.next = add i32 %i, 1
  %c.paid = add i64 %c, -1
  %c.enough = icmp sgt i64 %c.paid, -1
  br i1 %c.enough, label %loop, label %slow.loop.enter
done:
  store i64 %c, ptr %countdown.addr
  br label %ret

; The instrumented copy: its way in from the loop stores the countdown the
; loop carried and draws a fresh one; one site an iteration.
slow.loop.enter:
  store i64 %c.paid, ptr %countdown.addr
  %fresh = call i64 @__sampler_fresh_countdown_preserve_most()
  store i64 %fresh, ptr %countdown.addr
  br label %slow.loop
slow.entry:
  %fresh0 = call i64 @__sampler_fresh_countdown_preserve_most()
  store i64 %fresh0, ptr %countdown.addr
  br label %slow.loop
slow.loop:
  %i.slow = phi i32 [ 0, %slow.entry ], [ %i.slow.next, %slow.latch ], [ %i.next, %slow.loop.enter ]
  %s.slow = phi i32 [ 0, %slow.entry ], [ %s.slow.next, %slow.latch ], [ %s.next, %slow.loop.enter ]
  %more.slow = icmp slt i32 %i.slow, %n
  br i1 %more.slow, label %slow.site, label %slow.done
slow.site:
  %cd = load volatile i64, ptr %countdown.addr
  %cd.next = add i64 %cd, -1
  store i64 %cd.next, ptr %countdown.addr
  %hit = icmp eq i64 %cd.next, 0
  br i1 %hit, label %slow.fire, label %slow.latch
slow.fire:
  %r = call i64 @__sampler_fire_preserve_most(i64 1)
  store i64 %r, ptr %countdown.addr
  br label %slow.latch
slow.latch:
  %q.slow = getelementptr i32, ptr %p, i32 %i.slow
  %v.slow = load i32, ptr %q.slow
  %s.slow.next = add i32 %s.slow, %v.slow
  %i.slow.next = add i32 %i.slow, 1
  br label %slow.loop
slow.done:
  br label %ret

ret:
  %result = phi i32 [ %s, %done ], [ %s.slow, %slow.done ]
  ret i32 %result
}

; Four arguments, and two ways whose values do not fit beside them and a way
; index in x86-64's six argument registers: two continuations, one a way. With
; at most one continuation a function (-sampler-continuation-copies=1), it
; stays as it is.
; CHECK-LABEL: define i64 @two_ways(ptr %a, ptr %b, ptr %c, ptr %d)
; CHECK:         tail call i64 @two_ways.sampler.cont(ptr %a, ptr %b, ptr %c, ptr %d)
; CHECK:         tail call i64 @two_ways.sampler.cont{{[.0-9]+}}(ptr %a, ptr %b, ptr %c, ptr %d, i64 %u, i64 %v)
; CHECK-NOT:     __sampler_fresh
; CHECK:       {{^}}}
; CAP-LABEL:   define i64 @two_ways(
; CAP-NOT:       sampler.cont
; CAP:           call i64 @__sampler_fresh_countdown_preserve_most()
; CAP-NOT:       sampler.cont
; CAP:         {{^}}}
define i64 @two_ways(ptr %a, ptr %b, ptr %c, ptr %d) {
entry:
  %countdown.addr = call ptr @llvm.threadlocal.address.p0(ptr @__sampler_countdown)
  %countdown = load volatile i64, ptr %countdown.addr
  %countdown.paid = add i64 %countdown, -1
  store i64 %countdown.paid, ptr %countdown.addr
  %countdown.enough = icmp sgt i64 %countdown.paid, -1
  br i1 %countdown.enough, label %body, label %slow.entry
body:
  %u = load i64, ptr %a
  %v = load i64, ptr %b
  %cd2 = load volatile i64, ptr %countdown.addr
  %cd2.paid = add i64 %cd2, -1
  store i64 %cd2.paid, ptr %countdown.addr
  %cd2.enough = icmp sgt i64 %cd2.paid, -1
  br i1 %cd2.enough, label %fast.end, label %slow.second
fast.end:
  %sum = add i64 %u, %v
  store i64 %sum, ptr %d
  ret i64 %sum

slow.entry:
  %fresh0 = call i64 @__sampler_fresh_countdown_preserve_most()
  store i64 %fresh0, ptr %countdown.addr
  %u.s = load i64, ptr %a
  %v.s = load i64, ptr %b
  br label %slow.site
slow.second:
  %fresh1 = call i64 @__sampler_fresh_countdown_preserve_most()
  store i64 %fresh1, ptr %countdown.addr
  br label %slow.site
slow.site:
  %uu = phi i64 [ %u.s, %slow.entry ], [ %u, %slow.second ]
  %vv = phi i64 [ %v.s, %slow.entry ], [ %v, %slow.second ]
  %cd = load volatile i64, ptr %countdown.addr
  %cd.next = add i64 %cd, -1
  store i64 %cd.next, ptr %countdown.addr
  %hit = icmp eq i64 %cd.next, 0
  br i1 %hit, label %slow.fire, label %slow.end
slow.fire:
  %r = call i64 @__sampler_fire_preserve_most(i64 1)
  store i64 %r, ptr %countdown.addr
  br label %slow.end
slow.end:
  %m = add i64 %uu, %vv
  store i64 %m, ptr %c
  ret i64 %m
}

; Calls another function: no continuation.
; CHECK-LABEL: define i32 @calls(
; CHECK-NOT:     sampler.cont
; CHECK:       {{^}}}
define i32 @calls(i32 %a) {
entry:
  %countdown.addr = call ptr @llvm.threadlocal.address.p0(ptr @__sampler_countdown)
  %countdown = load volatile i64, ptr %countdown.addr
  %countdown.paid = add i64 %countdown, -1
  store i64 %countdown.paid, ptr %countdown.addr
  %countdown.enough = icmp sgt i64 %countdown.paid, -1
  br i1 %countdown.enough, label %body, label %slow
body:
  call void @work(i32 %a)
  ret i32 %a
slow:
  %fresh = call i64 @__sampler_fresh_countdown_preserve_most()
  store i64 %fresh, ptr %countdown.addr
  call void @work(i32 %a)
  ret i32 %a
}

; A stack slot: the continuation would reach into the frame the tail call
; leaves. No continuation.
; CHECK-LABEL: define i32 @slot(
; CHECK-NOT:     sampler.cont
; CHECK:       {{^}}}
define i32 @slot(i32 %a) {
entry:
  %buf = alloca [4 x i32]
  store i32 %a, ptr %buf
  %countdown.addr = call ptr @llvm.threadlocal.address.p0(ptr @__sampler_countdown)
  %countdown = load volatile i64, ptr %countdown.addr
  %countdown.paid = add i64 %countdown, -1
  store i64 %countdown.paid, ptr %countdown.addr
  %countdown.enough = icmp sgt i64 %countdown.paid, -1
  br i1 %countdown.enough, label %body, label %slow
body:
  %v = load volatile i32, ptr %buf
  ret i32 %v
slow:
  %fresh = call i64 @__sampler_fresh_countdown_preserve_most()
  store i64 %fresh, ptr %countdown.addr
  %v.slow = load volatile i32, ptr %buf
  ret i32 %v.slow
}

; Last in the module, the continuation: the way's index chooses where it
; begins (a switch of two ways, which the clean-up makes a branch); each
; way's block takes its values out of the slots (the countdown out of the
; countdown), and they replace F's where the way leads; the countdown's
; address is computed again. The fast copy's loop, which only F's code
; reached, is not in it.
; CHECK-LABEL: define internal i32 @sum.sampler.cont(
; CHECK-SAME:    ptr %p, i32 %n, i32 %sampler.way, i32 %[[S:sampler.slot[0-9]*]], i32 %[[I:sampler.slot[0-9]*]])
; CHECK-SAME:    #[[ATTRS:[0-9]+]]
; CHECK-NEXT:  sampler.resume:
; CHECK-NEXT:    %[[ADDR:countdown.addr[0-9]*]] = call ptr @llvm.threadlocal.address.p0(ptr @__sampler_countdown)
; CHECK-NEXT:    %cond = icmp eq i32 %sampler.way, 1
; CHECK-NEXT:    br i1 %cond, label %[[WAY1:sampler.resume.way[0-9]+]], label %sampler.resume.way
; CHECK:       sampler.resume.way:
; CHECK-NEXT:    br label %slow.entry
; CHECK:       [[WAY1]]:
; CHECK-NEXT:    %[[C:.*]] = load i64, ptr %[[ADDR]]
; CHECK-NEXT:    br label %slow.loop.enter
; CHECK:       slow.loop.enter:
; CHECK-NEXT:    store i64 %[[C]], ptr %[[ADDR]]
; CHECK-NEXT:    call i64 @__sampler_fresh_countdown_preserve_most()
; CHECK:       slow.loop:
; CHECK-NEXT:    %i.slow = phi i32 [ 0, %slow.entry ], [ %i.slow.next, %slow.latch ], [ %[[I]], %slow.loop.enter ]
; CHECK-NEXT:    %s.slow = phi i32 [ 0, %slow.entry ], [ %s.slow.next, %slow.latch ], [ %[[S]], %slow.loop.enter ]
; CHECK:       attributes #[[ATTRS]] = { noinline "sampler-instrumented-copy" }

declare ptr @llvm.threadlocal.address.p0(ptr)

; A function with at least -sampler-countdown-slot-sites sites keeps its
; instrumented copy's countdown in a stack slot, read and written with volatile
; accesses, instead of promoting it to a register: in a function with thousands
; of sites the promoted countdown is a web of thousands of PHIs, and the
; register coalescer's time grows faster than linearly with it
; (docs/benchmarks.md, "The countdown's web with every scheme"). The fast
; copy is the same either way. Below the threshold (by default 1000 sites)
; the slot is promoted as before.
; RUN: %opt-sampler -sampler-clone-threshold=1 -passes=sampler -sampler-schemes=branches -sampler-countdown-slot-sites=2 -S %s | FileCheck %s --check-prefix=SLOT
; RUN: %opt-sampler -sampler-clone-threshold=1 -passes=sampler -sampler-schemes=branches -sampler-countdown-slot-sites=3 -S %s | FileCheck %s --check-prefix=REG
; RUN: %opt-sampler -sampler-clone-threshold=1 -passes=sampler -sampler-schemes=branches -S %s | FileCheck %s --check-prefix=REG

; SLOT-LABEL: define i32 @count(
; SLOT:       entry:
; SLOT:         %sampler.cd = alloca i64
; Each way into the instrumented copy stores the countdown it enters with:
; SLOT:       sampler.slow.region:
; SLOT:         %countdown.region{{[0-9]+}} = phi i64
; SLOT-NEXT:    store volatile i64 %countdown.region{{[0-9]+}}, ptr %sampler.cd
; SLOT-NEXT:    br label %sampler.body.slow
; The fast copy's loop test is the original code, with no access to the slot:
; SLOT:       {{^}}head:
; SLOT-NOT:     sampler.cd
; SLOT:       {{^}}latch:
; Each site of the instrumented copy reads it, and a draw writes it:
; SLOT:       {{^}}head.slow:
; SLOT:         %countdown = load volatile i64, ptr %sampler.cd
; SLOT-NEXT:    %countdown.fire = icmp slt i64 %countdown, -1
; SLOT:       site.draw:
; SLOT:         store volatile i64 %countdown.next, ptr %sampler.cd
; SLOT:       {{^}}exit.slow:
; SLOT:         load volatile i64, ptr %sampler.cd
; SLOT-LABEL: define internal void @sampler.register_unit(

; REG-LABEL: define i32 @count(
; REG-NOT:    %sampler.cd = alloca
; REG:        {{^}}head.slow:
; REG-NEXT:     %sampler.cd.0 = phi i64
; REG:          %countdown.fire = icmp slt i64 %sampler.cd.0, -1
; REG-NOT:    ptr %sampler.cd
; REG-LABEL: define internal void @sampler.register_unit(

source_filename = "loop.c"

define i32 @count(i32 %n) {
entry:
  br label %head
head:
  %i = phi i32 [ 0, %entry ], [ %i.next, %latch ]
  %more = icmp slt i32 %i, %n
  br i1 %more, label %latch, label %exit
latch:
  %i.next = add i32 %i, 1
  br label %head
exit:
  %big = icmp sgt i32 %i, 100
  br i1 %big, label %yes, label %no
yes:
  ret i32 1
no:
  ret i32 0
}

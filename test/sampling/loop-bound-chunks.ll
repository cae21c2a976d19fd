; Chunks (lib/LoopBoundCheck.cpp, -fsampler-loop-chunks, on by default): a
; loop with a reserve (test/sampling/loop-bound.ll, @nest) whose countdown does
; not cover its N back edges on entry still runs without its latch's check
; for the back edges that three quarters of the countdown covers,
; k = (countdown x M) >> 64 with M = floor(2^64 x 3 / (4 W)), one multiply
; (the last quarter is for the inner loop's checks, which test the countdown
; lowered by the reserve), in a copy of its own. The loop is zlib's
; longest_match in small: a walk down a chain whose counter counts to 0
; (`--chain_length != 0`), an inner loop on some links.
; RUN: %opt-sampler -passes=sampler-loop-bound-chunks,verify -S %s | FileCheck %s
; RUN: %opt-sampler -passes=sampler-loop-bound-chunks -pass-remarks=sampler-loop-bound -disable-output %s 2>&1 | FileCheck %s --check-prefix=REMARK
; Without chunks (-sampler-loop-chunks=0 in the pipeline), the same reserve
; and no chunks' copy:
; RUN: %opt-sampler -passes=sampler-loop-bound-reserve -S %s | FileCheck %s --check-prefix=NOCHUNK

; REMARK: loop in chain reserves its back edges' trials on entry (trials per back edge: 3), its inner loops checking against the rest, on 1 of 1 ways in, in chunks where the countdown covers fewer
; NOCHUNK-LABEL: define void @chain(
; NOCHUNK-NOT: {{sampler\.chunk|\.chunk}}

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@__sampler_countdown = external thread_local(initialexec) global i64

; The test on entry: the countdown covers the N x 3 trials of the N = n - 1
; back edges, and the copy with the whole reserve runs; or else it covers
; 8 back edges' 3 with 3/4 of it (fewer would not pay for the chunk's entry
; and end), and the chunks' copy runs.
; CHECK-LABEL: define void @chain(
; CHECK:       {{^}}sampler.loop.test{{[0-9]+}}:
; CHECK:         [[CD:%countdown[0-9]+]] = load i64, ptr %countdown.addr
; CHECK-NEXT:    %sampler.loop.trials = mul nuw nsw i64 %sampler.backedges, 3
; CHECK-NEXT:    [[ALL:%sampler.loop.affordable[0-9]+]] = icmp sge i64 [[CD]], %sampler.loop.trials
; CHECK-NEXT:    br i1 [[ALL]], label %[[ENOUGH:sampler.loop.enough[0-9]+]], label %sampler.loop.chunk.test
; CHECK:       {{^}}sampler.loop.chunk.test:
; CHECK-NEXT:    %sampler.chunk.some = icmp sge i64 [[CD]], 32
; CHECK-NEXT:    br i1 %sampler.chunk.some, label %sampler.loop.chunk, label %entry.split
; The loop as it was is also entered where a chunk ends (see below), with
; the chunk's values, the counter's shift added back.
; CHECK:       {{^}}outer:
; CHECK-NEXT:    %c = phi i32 [ %n, %entry.split ], [ %c.next, %olatch ], [ [[REAL_NEXT:%sampler.counter[0-9]*]], %olatch.chunk.end ]
; CHECK-NEXT:    %q = phi ptr [ %p, %entry.split ], [ %q.next, %olatch ], [ %q.next.chunk, %olatch.chunk.end ]
; A way out of the chunks' copy (the inner loop's check failing) gives back
; the back edges reserved and not taken, (base - s c') x 3 with the counter
; c' as the copy runs it (shifted) and base = -1 (below), and hands on the
; counter with the shift added back:
; CHECK:       {{^}}toslow.loopexit.reserve.back{{[0-9]+}}:
; CHECK-NEXT:    [[CC:%sampler.counter[0-9]+]] = call i32 asm "", "=r,0"(i32 %c.chunk)
; CHECK-NEXT:    [[LEFT:%[0-9]+]] = add i32 -1, [[CC]]
; CHECK-NEXT:    [[LEFT64:%sampler.backedges.left[0-9]+]] = zext i32 [[LEFT]] to i64
; CHECK-NEXT:    [[RES:%sampler.reserve.left[0-9]+]] = mul i64 [[LEFT64]], 3
; CHECK:         store i64 %countdown.given.back{{[0-9]+}}, ptr %countdown.addr
; CHECK-NEXT:    [[REAL:%sampler.counter[0-9]+]] = add i32 %c.chunk, [[SHIFT:%sampler.chunk.shift[0-9]*]]
; CHECK:       {{^}}toslow.loopexit:
; CHECK-NEXT:    %c.lcssa = phi i32 {{.*}}[ [[REAL]], %toslow.loopexit.reserve.back{{[0-9]+}} ]
; The whole reserve: as without chunks.
; CHECK:       {{^}}[[ENOUGH]]:
; CHECK-NEXT:    %countdown.reserved = sub i64 [[CD]], %sampler.loop.trials
; A chunk: k = (countdown x 2^62) >> 64 back edges reserved (W = 3, so
; M = 2^64 / 4: k = countdown / 4); the counter's exit must leave
; where c.next = n - (k + 1), so the copy runs the counter shifted by
; d = n - (k + 1) - 0, from n - d = k + 1 down to 0.
; CHECK:       {{^}}sampler.loop.chunk:
; CHECK-NEXT:    [[CD128:%[0-9]+]] = zext i64 [[CD]] to i128
; CHECK-NEXT:    %sampler.chunk.share = mul nuw i128 [[CD128]], 4611686018427387904
; CHECK-NEXT:    [[HI:%[0-9]+]] = lshr i128 %sampler.chunk.share, 64
; CHECK-NEXT:    %sampler.chunk.backedges = trunc i128 [[HI]] to i64
; CHECK-NEXT:    [[KW:%[0-9]+]] = mul nuw nsw i64 %sampler.chunk.backedges, 3
; CHECK-NEXT:    %countdown.reserved{{[0-9]+}} = sub i64 [[CD]], [[KW]]
; CHECK-NEXT:    store i64 %countdown.reserved{{[0-9]+}}, ptr %countdown.addr
; CHECK-NEXT:    [[K:%[0-9]+]] = trunc i64 %sampler.chunk.backedges to i32
; CHECK-NEXT:    [[K1:%[0-9]+]] = add i32 [[K]], 1
; CHECK-NEXT:    [[L:%[0-9]+]] = sub i32 %n, [[K1]]
; CHECK-NEXT:    [[SHIFT:%sampler.chunk.shift[0-9]*]] = sub i32 [[L]], 0
; CHECK-NEXT:    br label %entry.split.chunk
; CHECK:       {{^}}entry.split.chunk:
; CHECK-NEXT:    %sampler.counter.shifted = sub i32 %n, [[SHIFT]]
; CHECK:       {{^}}outer.chunk:
; CHECK-NEXT:    %c.chunk = phi i32 [ %sampler.counter.shifted, %entry.split.chunk ], [ %c.next.chunk, %olatch.chunk ]
; The chunks' copy's own inner loop checks, against the lowered countdown:
; CHECK:       {{^}}ilatch.chunk:
; CHECK:         br i1 %enough.chunk, label %inner.chunk, label %toslow.loopexit.reserve.back{{[0-9]+}}
; Its counter's exit, the same compare with 0 (so that, optimised, it costs
; what the whole reserve's does: a decrement and a branch on it, with no
; limit to compare with), now leaves after the k back edges reserved (none left to give back) for a copy of the latch's check,
; which pays and tests where the loop as it was would have, and goes on there
; with the real counter:
; CHECK:       {{^}}iexit.chunk:
; CHECK:         %c.next.chunk = add i32 %c.chunk, -1
; CHECK-NEXT:    %cdone.chunk = icmp eq i32 %c.next.chunk, 0
; CHECK-NEXT:    br i1 %cdone.chunk, label %olatch.chunk.end.reserve.back, label %olatch.chunk
; CHECK:       {{^}}olatch.chunk.end:
; CHECK-NEXT:    [[REAL_NEXT]] = add i32 %c.next.chunk, [[SHIFT]]
; CHECK-NEXT:    [[REAL_C:%sampler.counter[0-9]+]] = add i32 %c.chunk, [[SHIFT]]
; CHECK-NEXT:    [[C2:%.*]] = load volatile i64, ptr %countdown.addr
; CHECK-NEXT:    [[P2:%.*]] = add i64 [[C2]], -3
; CHECK-NEXT:    store i64 [[P2]], ptr %countdown.addr
; CHECK-NEXT:    [[E2:%.*]] = icmp sgt i64 [[P2]], -1
; CHECK-NEXT:    br i1 [[E2]], label %outer, label %toslow.loopexit2
; CHECK-NOT:     !sampler.backedge.check
; CHECK:       {{^}}olatch.chunk:
; CHECK-NEXT:    br label %outer.chunk
define void @chain(ptr %p, i32 %n) {
entry:
  %countdown.addr = call ptr @llvm.threadlocal.address.p0(ptr @__sampler_countdown)
  br label %outer
outer:
  %c = phi i32 [ %n, %entry ], [ %c.next, %olatch ]
  %q = phi ptr [ %p, %entry ], [ %q.next, %olatch ]
  %v = load i32, ptr %q
  %skip = icmp eq i32 %v, 0
  br i1 %skip, label %iexit, label %inner
inner:
  %j = phi i32 [ 0, %outer ], [ %j.next, %ilatch ]
  %gep = getelementptr inbounds i32, ptr %q, i32 %j
  store i32 %j, ptr %gep
  %j.next = add nuw nsw i32 %j, 1
  %jdone = icmp eq i32 %j.next, 8
  br i1 %jdone, label %iexit, label %ilatch
ilatch:
  %cd = load volatile i64, ptr %countdown.addr
  %paid = add i64 %cd, -1
  store i64 %paid, ptr %countdown.addr
  %enough = icmp sgt i64 %paid, -1
  br i1 %enough, label %inner, label %toslow, !sampler.backedge.check !1
iexit:
  %q.next = getelementptr inbounds i32, ptr %q, i64 1
  %c.next = add i32 %c, -1
  %cdone = icmp eq i32 %c.next, 0
  br i1 %cdone, label %exit, label %olatch
olatch:
  %cd2 = load volatile i64, ptr %countdown.addr
  %paid2 = add i64 %cd2, -3
  store i64 %paid2, ptr %countdown.addr
  %enough2 = icmp sgt i64 %paid2, -1
  br i1 %enough2, label %outer, label %toslow, !sampler.backedge.check !3
toslow:
  call void @slow(ptr %q, i32 %c)
  br label %exit
exit:
  ret void
}

; The counter has another use in the loop (here the index): shifting it would
; cost an add there, so the reserve is all or nothing.
; REMARK: loop in indexed reserves its back edges' trials on entry (trials per back edge: 3), its inner loops checking against the rest, on 1 of 1 ways in{{$}}
; CHECK-LABEL: define void @indexed(
; CHECK-NOT:   {{sampler\.chunk|\.chunk}}
; CHECK:       ret void
define void @indexed(ptr %p, i32 %n) {
entry:
  %countdown.addr = call ptr @llvm.threadlocal.address.p0(ptr @__sampler_countdown)
  br label %outer
outer:
  %c = phi i32 [ %n, %entry ], [ %c.next, %olatch ]
  %gepc = getelementptr inbounds i32, ptr %p, i32 %c
  %v = load i32, ptr %gepc
  %skip = icmp eq i32 %v, 0
  br i1 %skip, label %iexit, label %inner
inner:
  %j = phi i32 [ 0, %outer ], [ %j.next, %ilatch ]
  %gep = getelementptr inbounds i32, ptr %gepc, i32 %j
  store i32 %j, ptr %gep
  %j.next = add nuw nsw i32 %j, 1
  %jdone = icmp eq i32 %j.next, 8
  br i1 %jdone, label %iexit, label %ilatch
ilatch:
  %cd = load volatile i64, ptr %countdown.addr
  %paid = add i64 %cd, -1
  store i64 %paid, ptr %countdown.addr
  %enough = icmp sgt i64 %paid, -1
  br i1 %enough, label %inner, label %toslow, !sampler.backedge.check !1
iexit:
  %c.next = add i32 %c, -1
  %cdone = icmp eq i32 %c.next, 0
  br i1 %cdone, label %exit, label %olatch
olatch:
  %cd2 = load volatile i64, ptr %countdown.addr
  %paid2 = add i64 %cd2, -3
  store i64 %paid2, ptr %countdown.addr
  %enough2 = icmp sgt i64 %paid2, -1
  br i1 %enough2, label %outer, label %toslow, !sampler.backedge.check !3
toslow:
  call void @slow(ptr %p, i32 0)
  br label %exit
exit:
  ret void
}

declare void @slow(ptr, i32)
declare ptr @llvm.threadlocal.address.p0(ptr)

!1 = !{i64 1}
!3 = !{i64 3}

; Computed goto (an interpreter's dispatch table): a block whose address is
; taken may be entered from either copy, so it begins a region; every
; blockaddress, in the table and in both copies, names the block's check, and
; every indirectbr edge goes through a check. The dispatch loop thus chooses
; the fast or the instrumented copy at each dispatch.
; RUN: %opt-sampler -passes='sampler,verify' -sampler-clone-threshold=1 -sampler-schemes=branches -S %s | FileCheck %s

; CHECK: @table = internal constant [2 x ptr] [ptr blockaddress(@interp, %[[CA:sampler.check[0-9]*]]), ptr blockaddress(@interp, %[[CB:sampler.check[0-9]*]])]
; CHECK-LABEL: define i32 @interp(
; CHECK:       indirectbr ptr %{{.*}}, [label %[[CA]], label %[[CB]]]
; CHECK:     [[CA]]:
; CHECK:       %[[PAID:countdown.paid[0-9]*]] = sub i64 %{{.*}}, {{[0-9]+}}
; CHECK:       icmp sge i64 %[[PAID]], 0
; CHECK-NEXT:  br i1 %{{.*}}, label %op_a, label %[[TOSLOW:sampler.to.slow[0-9]*]]
; CHECK:     [[TOSLOW]]:
; CHECK:       br label %op_a.slow
; CHECK:       indirectbr ptr %{{.*}}, [label %[[CA]], label %[[CB]]]
; CHECK-NOT:   blockaddress(@interp, %op_
; CHECK:       {{^}}op_a.slow:
; CHECK:       indirectbr ptr %{{.*}}, [label %[[CA]], label %[[CB]]]

@table = internal constant [2 x ptr] [ptr blockaddress(@interp, %op_a), ptr blockaddress(@interp, %op_b)]

define i32 @interp(ptr %code, i32 %n) {
entry:
  %first = load i32, ptr %code
  %fi = sext i32 %first to i64
  %fp = getelementptr [2 x ptr], ptr @table, i64 0, i64 %fi
  %ft = load ptr, ptr %fp
  indirectbr ptr %ft, [label %op_a, label %op_b]
op_a:
  %pc.a = phi i32 [ 0, %entry ], [ %pc.next, %go ]
  %big = icmp sgt i32 %pc.a, 3
  br i1 %big, label %dispatch, label %dispatch
op_b:
  %pc.b = phi i32 [ 0, %entry ], [ %pc.next, %go ]
  %neg = icmp slt i32 %pc.b, 0
  br i1 %neg, label %done, label %dispatch
dispatch:
  %pc = phi i32 [ %pc.a, %op_a ], [ %pc.a, %op_a ], [ %pc.b, %op_b ]
  %pc.next = add i32 %pc, 1
  %more = icmp slt i32 %pc.next, %n
  %ip = getelementptr i32, ptr %code, i32 %pc.next
  %op = load i32, ptr %ip
  %oi = sext i32 %op to i64
  %tp = getelementptr [2 x ptr], ptr @table, i64 0, i64 %oi
  %t = load ptr, ptr %tp
  br i1 %more, label %go, label %done
go:
  indirectbr ptr %t, [label %op_a, label %op_b]
done:
  %res = phi i32 [ %pc.b, %op_b ], [ %pc, %dispatch ]
  ret i32 %res
}

; __builtin_expect survives instrumentation: a branch on `icmp (llvm.expect X,
; C), 0` gets the branch weights LLVM's LowerExpectIntrinsic gives it, in the
; fast copy and in the instrumented one. The branches scheme puts the
; observation between the compare and the branch (a block of its own); lowered
; after that, the expect call was dropped before the pass reached the branch,
; and every likely/unlikely of the program was lost.
; RUN: %opt-sampler -passes=sampler -sampler-schemes=branches -sampler-outline-limit=0 -S %s | FileCheck %s
; RUN: %opt-sampler -passes=sampler -sampler-schemes=branches -sampler-sampling=false -S %s | FileCheck %s --check-prefix=UNCOND

; CHECK-LABEL: define i32 @f(
; CHECK:         br i1 %tobool, label %if.then, label %if.end, !prof ![[W:[0-9]+]]
; CHECK:         br i1 %tobool{{.*}}, label %if.then{{.*}}, label %if.end{{.*}}, !prof ![[W]]
; CHECK-NOT:     llvm.expect
; CHECK:       ![[W]] = !{!"branch_weights", !"expected", i32 1, i32 2000}
; UNCOND-LABEL: define i32 @f(
; UNCOND:         br i1 %tobool, label %if.then, label %if.end, !prof ![[W:[0-9]+]]
; UNCOND:       ![[W]] = !{!"branch_weights", !"expected", i32 1, i32 2000}

@g = global i32 0

define i32 @f(i32 %v) {
entry:
  %rem = srem i32 %v, 4
  %cmp = icmp eq i32 %rem, 0
  %conv = zext i1 %cmp to i64
  %expval = call i64 @llvm.expect.i64(i64 %conv, i64 0)
  %tobool = icmp ne i64 %expval, 0
  br i1 %tobool, label %if.then, label %if.end

if.then:
  ret i32 -1

if.end:
  store i32 %v, ptr @g
  ret i32 1
}

declare i64 @llvm.expect.i64(i64, i64)

; function-entries: one site per function, after the static allocas: 1 cell.
; RUN: %opt-sampler -passes=sampler -sampler-schemes=function-entries -sampler-sampling=off -S %s | FileCheck %s

; CHECK: site 0\091\09function-entries\09entries.c\090\090\09f\09f\0Asite 1\091\09function-entries\09entries.c\090\090\09g(int)\09g(int)\0Aend
; CHECK-LABEL: define i32 @f(
; CHECK-NEXT:  entry:
; CHECK-NEXT:    %x = alloca i32
; CHECK-NEXT:    br label %site.observe
; CHECK:       site.observe:
; CHECK-NEXT:    atomicrmw add ptr @__sampler_counters, i64 1 monotonic
; CHECK:       site.cont:
; CHECK-NEXT:    store i32 1, ptr %x
; CHECK-LABEL: define i32 @_Z1gi(
; CHECK:         atomicrmw add ptr getelementptr inbounds (i64, ptr @__sampler_counters, i64 1), i64 1 monotonic

source_filename = "entries.c"

define i32 @f() {
entry:
  %x = alloca i32
  store i32 1, ptr %x
  ret i32 0
}

define i32 @_Z1gi(i32 %a) {
  ret i32 %a
}

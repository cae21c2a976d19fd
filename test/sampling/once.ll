; Running the pass twice (as when -fplugin and -fpass-plugin both load it)
; instruments once: the module flag marks an instrumented module.
; RUN: %opt-sampler -passes='sampler,sampler' -S %s | FileCheck %s
; CHECK: @__sampler_counters = internal global [2 x i64]
; CHECK-NOT: {{^}}@__sampler_counters{{[.0-9]+}} =
; CHECK: @llvm.global_ctors = appending global [1 x { i32, ptr, ptr }]
; CHECK: !{i32 7, !"sampler.instrumented", i32 1}

define i32 @f(i1 %c) {
  br i1 %c, label %a, label %b
a:
  ret i32 1
b:
  ret i32 0
}

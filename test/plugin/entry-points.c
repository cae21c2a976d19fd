// Every way of loading the pass instruments the unit exactly once.
// -fpass-plugin with the clang build, at -O2 and -O0:
// RUN: %clang -fpass-plugin=%plugin -O2 -S -emit-llvm %s -o - | FileCheck %s
// RUN: %clang -fpass-plugin=%plugin -O0 -S -emit-llvm %s -o - | FileCheck %s
// -fpass-plugin with the LLVM-only build:
// RUN: %clang -fpass-plugin=%plugin-llvm -O2 -S -emit-llvm %s -o - | FileCheck %s
// Both -fplugin and -fpass-plugin, with the same .so or with both builds:
// RUN: %clang -fplugin=%plugin -fpass-plugin=%plugin -O2 -S -emit-llvm %s -o - | FileCheck %s
// RUN: %clang -fplugin=%plugin -fpass-plugin=%plugin-llvm -O2 -S -emit-llvm %s -o - | FileCheck %s
// opt with the LLVM-only build, on clang's unoptimised output:
// RUN: %clang -O0 -Xclang -disable-O0-optnone -S -emit-llvm %s -o %t.ll
// RUN: %opt-sampler -passes=sampler -S %t.ll | FileCheck %s

// CHECK:     @__sampler_counters = internal global [5 x i64]
// CHECK-NOT: {{^}}@__sampler_counters{{[.0-9]+}} =
// CHECK:     @llvm.global_ctors = appending global [1 x
// CHECK-NOT: call i1 @__sampler_site(

int ext(int);

int f(int x) {
  if (x > 3)
    return ext(x);
  return 0;
}

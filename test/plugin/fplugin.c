// clang -fplugin=SamplerPass.so registers the pass through
// CodeGenOpts.PassBuilderCallbacks; it runs at -O0 (the pass is required) and
// at -O2, and the site table carries the source text the AST gives.
// -Rpass=sampler-location-tracking makes clang track locations without
// emitting debug info (what sampler-cc passes).
// RUN: %clang -fplugin=%plugin -Rpass=sampler-location-tracking -O0 -S -emit-llvm %s -o - | FileCheck %s
// RUN: %clang -fplugin=%plugin -Rpass=sampler-location-tracking -O2 -S -emit-llvm %s -o - | FileCheck %s
// RUN: %clang -fplugin=%plugin -Rpass=sampler-location-tracking -O2 -S %s -o - | FileCheck %s --check-prefix=ASM

// CHECK: c"SAMPLER-SITES 1\0Aunit {{[0-9a-f]+}} 15 1\0Asource {{.*}}fplugin.c\0A
// The first operand of && is branched on at the operator; the second decides the if.
// CHECK-SAME: site 0\092\09branches\09{{.*}}fplugin.c\0929\0913\09pick\09a > b\0A
// CHECK-SAME: site 2\092\09branches\09{{.*}}fplugin.c\0929\097\09pick\09a > b && b != limit\0A
// CHECK-SAME: site 4\092\09branches\09{{.*}}fplugin.c\0931\093\09pick\09i < b\0A
// CHECK-SAME: site 6\094\09branches\09{{.*}}fplugin.c\0933\093\09pick\09a; cases: 1,2,7\0A
// CHECK-SAME: site 10\092\09branches\09{{.*}}fplugin.c\0939\0910\09pick\09limit > 0\0A
// CHECK-SAME: site 12\093\09returns\09{{.*}}fplugin.c\0930\099\09pick\09fopen(...)\0Aend\0A\00", section ".sampler_sites"
// No debug info is emitted: only locations are tracked.
// CHECK-NOT: !DICompileUnit({{.*}}emissionKind: FullDebug
// ASM: .section .sampler_sites
// ASM-NOT: .debug_info

#include <stdio.h>

int limit;

int pick(int a, int b) {
  int s = 0;
  if (a > b && b != limit)
    s = fopen("/nonexistent", "r") == 0;
  for (int i = 0; i < b; i++)
    s++;
  switch (a) {
  case 1: s += 2; break;
  case 2: s += 3; break;
  case 7: s -= 1; break;
  default: break;
  }
  return limit > 0 ? s * a : s;
}

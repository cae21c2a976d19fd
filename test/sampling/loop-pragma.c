// The program's loop pragmas survive the checks: a loop's metadata hangs on
// its latch's branch, and the back-edge check becomes the latch, in the fast
// copy and in the bounded copy (whose check no longer tests), and in the
// continuation whose instrumented copy the fast copy's way leads into (a leaf
// function: lib/ContinuationTwin.cpp). Before, the copies lost it, and the
// loop below was vectorised and unrolled despite its pragma.
// RUN: %sampler-cc -O2 -S -emit-llvm %s -o - | FileCheck %s
// CHECK-LABEL: define {{.*}}@f(
// CHECK-NOT:     vector.body
// CHECK:         br i1 %countdown.enough{{[0-9]*}}, label %for.cond, label %sampler.cont{{[0-9]*}}, !prof !{{[0-9]+}}, !llvm.loop ![[L:[0-9]+]]
// CHECK-NOT:     vector.body
// CHECK:         br i1 %exitcond.not.bounded, {{.*}}, !llvm.loop ![[L]]
// CHECK-NOT:     vector.body
// CHECK:       {{^}}}
// CHECK-LABEL: define internal {{.*}}@f.sampler.cont(
// CHECK-NOT:     vector.body
// CHECK:         br i1 %countdown.enough{{[0-9]*}}, label %for.cond, label %sampler.to.slow{{[0-9]*}}, !prof !{{[0-9]+}}, !llvm.loop ![[LC:[0-9]+]]
// CHECK-NOT:     vector.body
// CHECK:       {{^}}}
// CHECK:       ![[L]] = distinct !{![[L]], {{.*}}![[U:[0-9]+]], ![[V:[0-9]+]]}
// CHECK-DAG:   ![[U]] = !{!"llvm.loop.unroll.disable"}
// CHECK-DAG:   ![[V]] = !{!"llvm.loop.vectorize.width", i32 1}
// CHECK:       ![[LC]] = distinct !{![[LC]], {{.*}}![[U]], ![[V]]}
int a[1000];

void f(int n) {
#pragma clang loop unroll(disable) vectorize(disable)
  for (int i = 0; i < n; i++)
    if (a[i] > 3)
      a[i] = i;
}

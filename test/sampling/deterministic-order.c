// The same input gives the same output: nothing the transformation creates may
// depend on where the compiler's own data lies in memory (which address space
// layout randomisation changes from run to run). Here: one loop round 24 heavy
// inner loops (9 sites per iteration, so each gets a check on its entry edge
// too, which the instrumented copy does not share: it returns to the fast
// copy only at the outer loop's header). Their headers were kept in a
// pointer-keyed set, whose iteration order (beyond 16 elements, the order of
// the pointers' hashes) set the order in which the entry checks were created,
// so the output varied from one compile to the next.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %sampler-cc -O0 -S -emit-llvm %s -o %t/1.ll
// RUN: %sampler-cc -O0 -S -emit-llvm %s -o %t/2.ll
// RUN: %sampler-cc -O0 -S -emit-llvm %s -o %t/3.ll
// RUN: %sampler-cc -O0 -S -emit-llvm %s -o %t/4.ll
// RUN: cmp %t/1.ll %t/2.ll
// RUN: cmp %t/1.ll %t/3.ll
// RUN: cmp %t/1.ll %t/4.ll
// RUN: FileCheck %s < %t/1.ll
// CHECK-LABEL: define {{.*}}@many_loops(
// CHECK-COUNT-25: !sampler.backedge.check

#define LOOP(k)                                                                \
  for (int i = 0; i < n; i++) {                                                \
    if (a[i] > k) s += 1;                                                      \
    if (a[i] < k) s -= 1;                                                      \
    if (a[i] == k + 1) s *= 2;                                                 \
    if (a[i] == k + 2) s /= 2;                                                 \
    if (a[i] & k) s ^= k;                                                      \
    if ((a[i] | k) == 7) s += k;                                               \
    if (a[i] == 3 * k) s -= k;                                                 \
    if (a[i] + k == 40) s += 3;                                                \
  }
#define LOOP4(k) LOOP(k) LOOP(k + 1) LOOP(k + 2) LOOP(k + 3)

long many_loops(const int *a, int n, int rounds) {
  long s = 0;
  for (int r = 0; r < rounds; r++) {
    LOOP4(0) LOOP4(4) LOOP4(8) LOOP4(12) LOOP4(16) LOOP4(20)
  }
  return s;
}

// Found by scripts/difftest-csmith.sh (csmith seeds 1361 and 1509, 2026-11-22; the counts
// check), reduced with creduce (test/difftest/interesting-c.sh, IT_KIND=counts) and by hand.
//
// scalar-pairs compares the assignment to g in the loop's increment (line 26) with l, a local
// of the loop body: l is out of scope there, and in the IR the load of l comes after
// llvm.lifetime.end(l), so its value is undefined. At SAMPLER_SPARSITY=1 the sampled build
// counts g < l 5 times and the unconditional build g > l 5 times: the counts of the two
// builds must be the same (and no site should compare with a variable out of its scope).
// Fixed: scalar-pairs now takes a local only where its last dominating lifetime marker
// is a start.
//
// RUN: rm -rf %t && mkdir -p %t
// RUN: %sampler-cc -O2 -fsampler-schemes=scalar-pairs,returns %s -o %t/sampled
// RUN: %sampler-cc -O2 -fsampler-schemes=scalar-pairs,returns -fno-sampler-sampling %s -o %t/uncond
// RUN: env SAMPLER_SPARSITY=1 SAMPLER_FILE=%t/sampled.report %t/sampled
// RUN: env SAMPLER_FILE=%t/uncond.report %t/uncond
// RUN: %sampler-report %t/sampled.report --binary %t/sampled > %t/sampled.txt
// RUN: %sampler-report %t/uncond.report --binary %t/uncond > %t/uncond.txt
// RUN: awk -f %S/../norm-report.awk %t/sampled.txt %t/sampled.txt > %t/sampled.norm
// RUN: awk -f %S/../norm-report.awk %t/uncond.txt %t/uncond.txt > %t/uncond.norm
// RUN: diff %t/sampled.norm %t/uncond.norm
#include <stdint.h>
int32_t g;
int32_t *gp = &g;
int32_t add(int32_t a, int32_t b) { return a + b; }
void f(void) {
  for (g = 0; g < 15; g = add(g, 3)) {
    int32_t l = 0x20985A95;
    int32_t *p = &l;
  }
  *gp;
}
int main(void) {
  f();
  return 0;
}

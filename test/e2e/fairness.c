// Two sites alternate in a loop (the loop test, then the `if`): at d = 100
// each must be observed in about 1% of its executions. A periodic counter
// (every 100th site) would observe one of them every 50 iterations and the
// other never; the geometric countdown observes both, each within 6 sigma.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %sampler-cc -O2 -fsampler-schemes=branches %s -o %t/prog
// RUN: env SAMPLER_SPARSITY=100 SAMPLER_SEED=12345 SAMPLER_FILE=%t/a.report %t/prog
// RUN: %sampler-report --all --json %t/a.report --binary %t/prog > %t/a.json
// RUN: python3 %S/Inputs/stats.py fraction %t/a.json main 1000000 0.01
// The same with another seed, and at d = 7 (not a divisor of anything here):
// RUN: env SAMPLER_SPARSITY=100 SAMPLER_SEED=999 SAMPLER_FILE=%t/b.report %t/prog
// RUN: %sampler-report --all --json %t/b.report --binary %t/prog > %t/b.json
// RUN: python3 %S/Inputs/stats.py fraction %t/b.json main 1000000 0.01
// RUN: env SAMPLER_SPARSITY=7 SAMPLER_SEED=1 SAMPLER_FILE=%t/c.report %t/prog
// RUN: %sampler-report --all --json %t/c.report --binary %t/prog > %t/c.json
// RUN: python3 %S/Inputs/stats.py fraction %t/c.json main 1000000 0.142857142857

volatile int sink;

int main(void) {
  // The loop test runs 1000001 times; the if 1000000: both ~ N.
  for (long i = 0; i < 1000000; i++)
    if (i & 1)
      sink++;
  return 0;
}

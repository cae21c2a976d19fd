// With natural nests (the default) the instrumented copy goes back to fast
// code at an inner loop's header through a tail, a copy of the outer loop
// (lib/LoopTails.h); with -fno-sampler-natural-nests it goes back into the
// fast outer loop itself (test/sampling/natural-nests.ll shows both). Which
// code runs changes, the trials do not: each copy takes the same trials for the
// same sites, so with the same seed every count equals that of the build
// without natural nests, at d = 3, 30 and 300, and at d = 1 the unconditional
// build's. The same holds without tails (instrumented copies outlined), where
// the instrumented copy returns at outermost headers only. The nest: an outer
// loop with two inner loops, one of them as long as the outer loop's data
// says, and a site between them. And a loop whose body holds an irreducible
// cycle (unrle: a `goto` into the loop's body, the shape of bzip2's
// unRLE_obuf_to_output_FAST), which the instrumented copy leaves through the
// loop's tail entered there (test/sampling/irreducible-cycle.ll), where
// without natural nests it stays instrumented until the loop's header. And
// buckets: a nest that calls a local function with loops, which the inliner
// takes at its one call, stays open (no tail: the instrumented copy goes
// back into it at its inner loop's header, as without natural nests;
// test/sampling/open-nest.ll), beside a nest without calls in the same
// function, which keeps its tail. With -fno-sampler-open-nests that
// nest gets a tail too, and the counts are the same again.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %sampler-cc -O2 -fno-sampler-natural-nests %s -o %t/default
// RUN: %sampler-cc -O2 %s -o %t/natural
// RUN: %sampler-cc -O2 -fsampler-outline-limit=1000 %s -o %t/outlined
// RUN: %sampler-cc -O2 -fno-sampler-open-nests %s -o %t/closed
// RUN: not cmp -s %t/closed %t/natural
// RUN: %sampler-cc -O2 -fno-sampler-sampling %s -o %t/exact
// RUN: not cmp -s %t/default %t/natural
// RUN: env SAMPLER_FILE=%t/exact.report %t/exact > %t/exact.out
// RUN: %sampler-report --all --json %t/exact.report --binary %t/exact > %t/exact.json
// RUN: env SAMPLER_SPARSITY=1 SAMPLER_FILE=%t/n1.report %t/natural > %t/n1.out
// RUN: cmp %t/exact.out %t/n1.out
// RUN: %sampler-report --all --json %t/n1.report --binary %t/natural > %t/n1.json
// RUN: python3 %S/../e2e/Inputs/stats.py equal %t/n1.json %t/exact.json
// RUN: env SAMPLER_SPARSITY=3 SAMPLER_SEED=31 SAMPLER_FILE=%t/n3.report %t/natural > /dev/null
// RUN: env SAMPLER_SPARSITY=3 SAMPLER_SEED=31 SAMPLER_FILE=%t/d3.report %t/default > /dev/null
// RUN: %sampler-report --all --json %t/n3.report --binary %t/natural > %t/n3.json
// RUN: %sampler-report --all --json %t/d3.report --binary %t/default > %t/d3.json
// RUN: python3 %S/../e2e/Inputs/stats.py equal %t/n3.json %t/d3.json
// RUN: python3 %S/../e2e/Inputs/stats.py unbiased %t/n3.json %t/exact.json
// RUN: env SAMPLER_SPARSITY=30 SAMPLER_SEED=32 SAMPLER_FILE=%t/n30.report %t/natural > /dev/null
// RUN: env SAMPLER_SPARSITY=30 SAMPLER_SEED=32 SAMPLER_FILE=%t/d30.report %t/default > /dev/null
// RUN: %sampler-report --all --json %t/n30.report --binary %t/natural > %t/n30.json
// RUN: %sampler-report --all --json %t/d30.report --binary %t/default > %t/d30.json
// RUN: python3 %S/../e2e/Inputs/stats.py equal %t/n30.json %t/d30.json
// RUN: env SAMPLER_SPARSITY=300 SAMPLER_SEED=33 SAMPLER_FILE=%t/n300.report %t/natural > /dev/null
// RUN: env SAMPLER_SPARSITY=300 SAMPLER_SEED=33 SAMPLER_FILE=%t/d300.report %t/default > /dev/null
// RUN: %sampler-report --all --json %t/n300.report --binary %t/natural > %t/n300.json
// RUN: %sampler-report --all --json %t/d300.report --binary %t/default > %t/d300.json
// RUN: python3 %S/../e2e/Inputs/stats.py equal %t/n300.json %t/d300.json
// RUN: env SAMPLER_SPARSITY=30 SAMPLER_SEED=32 SAMPLER_FILE=%t/o30.report %t/outlined > /dev/null
// RUN: %sampler-report --all --json %t/o30.report --binary %t/outlined > %t/o30.json
// RUN: python3 %S/../e2e/Inputs/stats.py equal %t/o30.json %t/d30.json
// RUN: env SAMPLER_SPARSITY=30 SAMPLER_SEED=32 SAMPLER_FILE=%t/c30.report %t/closed > /dev/null
// RUN: %sampler-report --all --json %t/c30.report --binary %t/closed > %t/c30.json
// RUN: python3 %S/../e2e/Inputs/stats.py equal %t/c30.json %t/d30.json
#include <stdio.h>

static unsigned state = 1;
static int rnd(void) {
  state = state * 1103515245u + 12345u;
  return (state >> 16) & 0x7fff;
}

__attribute__((noinline)) int nest(const int *a, int n, int m) {
  int s = 0;
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < m; j++)
      if (a[j] > i)
        s++;
    if (s & 1)
      s += 3;
    for (int k = 0; k < (a[i] & 7); k++)
      if (a[k] & 2)
        s ^= k;
      else
        s += 2;
  }
  return s;
}

// Runs of one byte: the `goto one` cycle never passes the loop's header.
__attribute__((noinline)) long unrle(const unsigned char *in, int n,
                                     unsigned char *out, int cap) {
  int i = 0, o = 0, len = 0;
  unsigned char ch = 0;
  long crc = 0;
  while (1) {
    if (len > 0) {
      while (1) {
        if (o == cap)
          goto done;
        if (len == 1)
          break;
        out[o++] = ch;
        crc = crc * 31 + ch;
        len--;
      }
    one:
      if (o == cap)
        goto done;
      out[o++] = ch;
      crc = crc * 31 + ch;
    }
    if (i >= n)
      goto done;
    ch = in[i++];
    if (i < n && in[i] != ch)
      goto one;
    len = 1 + (i < n ? in[i++] & 3 : 0);
  }
done:
  return crc + o;
}

// Sites of its own, local, called once (in buckets' first nest): the
// inliner takes it there (lib/SingleCallLocals.h).
// Big enough (three loops) that sampler's own inlining before the copies
// leaves it out of line.
static int partition(int *a, int lo, int hi) {
  int pivot = a[lo], less = 0, more = 0, odd = 0;
  for (int i = lo + 1; i < hi; i++)
    if (a[i] < pivot)
      less++;
    else if (a[i] > pivot)
      more++;
  for (int i = lo; i < hi; i += 3)
    if ((a[i] ^ pivot) & 1)
      odd++;
  for (int i = hi - 1; i > lo && odd > 0; i--)
    if (a[i] % 5 == 0)
      odd--;
  return less * 3 + more * 2 + odd;
}

__attribute__((noinline)) int buckets(int *a, int n, int m) {
  int s = 0;
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < m; j++)
      if (a[j] & 1)
        s++;
    if (a[i] > 32)
      s += partition(a, i, m);
  }
  for (int i = 0; i < n; i++)
    for (int k = 0; k < (a[i] & 7); k++)
      if (a[k] > s)
        s--;
  return s;
}

int main(void) {
  int a[64];
  long total = 0;
  for (int r = 0; r < 20000; r++) {
    for (int i = 0; i < 64; i++)
      a[i] = rnd() % 64;
    total += nest(a, 1 + rnd() % 40, 1 + rnd() % 64);
    if (r % 4 == 0)
      total += buckets(a, 1 + rnd() % 40, 1 + rnd() % 64);
  }
  unsigned char in[512], out[600];
  for (int r = 0; r < 2000; r++) {
    for (int i = 0; i < 512; i++)
      in[i] = i == 0 || rnd() % 8 ? (unsigned char)rnd() : in[i - 1];
    total += unrle(in, 64 + rnd() % 448, out, 300 + rnd() % 300);
  }
  printf("%ld\n", total);
  return 0;
}

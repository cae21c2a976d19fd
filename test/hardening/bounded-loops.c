// Loops whose trip count is bounded on entry test their back edges' checks
// once and run a copy whose checks pay but no longer test
// (lib/LoopBoundCheck.cpp). The copy takes exactly the trials the loop would
// take, so it observes exactly what the loop would: with the same seed, every
// count equals the build without the pass (-fno-sampler-loop-bounds), at d = 3,
// 30, 300 and 3000 (where the copy runs rarely, often, almost always); at d = 1
// every count equals the unconditional build's, and every cell lies within 6
// sigma of Binomial(n, 1/d). (A first version paid the bound at once and was
// biased where loops take fewer trials than their bound: early_exit's sites and
// what follows them came out 2 to 5 times too often at d = 1000; a loop calling
// a function with sites favoured the function's. Loops that cannot leave before
// their bound, slide, nested and tail_heavy, do pay it on entry, exactly: the
// same counts seed for seed.) The loops: a countdown loop
// (zlib's slide_hash), counted loops with early exits, a heavy loop whose
// region is split, a loop calling a function with sites (not bounded: the
// callee takes trials between the loop's), a bounded loop inside an unbounded
// one, a bounded loop around an unbounded one (chain: a reserve, in chunks
// where the countdown covers fewer of its back edges), a pointer
// range, a loop whose way out is heavier than its iterations, a
// loop that mostly leaves early, a reserve after a call with sites, and a
// counted loop longer than most countdowns cover (digits: chunks of a loop
// that pays on entry).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %sampler-cc -O2 -S -emit-llvm %s -o - | FileCheck %s
// RUN: %sampler-cc -O2 %s -o %t/sampled
// RUN: %sampler-cc -O2 -fno-sampler-sampling %s -o %t/exact
// RUN: %sampler-cc -O2 -fno-sampler-loop-bounds %s -o %t/unbounded
// RUN: env SAMPLER_FILE=%t/exact.report %t/exact > %t/exact.out
// RUN: %sampler-report --all --json %t/exact.report --binary %t/exact > %t/exact.json
// RUN: env SAMPLER_SPARSITY=1 SAMPLER_FILE=%t/d1.report %t/sampled > %t/d1.out
// RUN: cmp %t/exact.out %t/d1.out
// RUN: %sampler-report --all --json %t/d1.report --binary %t/sampled > %t/d1.json
// RUN: python3 %S/../e2e/Inputs/stats.py equal %t/d1.json %t/exact.json
// RUN: env SAMPLER_SPARSITY=3 SAMPLER_SEED=21 SAMPLER_FILE=%t/d3.report %t/sampled > %t/d3.out
// RUN: cmp %t/exact.out %t/d3.out
// RUN: %sampler-report --all --json %t/d3.report --binary %t/sampled > %t/d3.json
// RUN: python3 %S/../e2e/Inputs/stats.py unbiased %t/d3.json %t/exact.json
// RUN: env SAMPLER_SPARSITY=30 SAMPLER_SEED=22 SAMPLER_FILE=%t/d30.report %t/sampled > /dev/null
// RUN: %sampler-report --all --json %t/d30.report --binary %t/sampled > %t/d30.json
// RUN: python3 %S/../e2e/Inputs/stats.py unbiased %t/d30.json %t/exact.json
// RUN: env SAMPLER_SPARSITY=300 SAMPLER_SEED=23 SAMPLER_FILE=%t/d300.report %t/sampled > /dev/null
// RUN: %sampler-report --all --json %t/d300.report --binary %t/sampled > %t/d300.json
// RUN: python3 %S/../e2e/Inputs/stats.py unbiased %t/d300.json %t/exact.json
// RUN: env SAMPLER_SPARSITY=3000 SAMPLER_SEED=24 SAMPLER_FILE=%t/d3000.report %t/sampled > /dev/null
// RUN: %sampler-report --all --json %t/d3000.report --binary %t/sampled > %t/d3000.json
// RUN: python3 %S/../e2e/Inputs/stats.py unbiased %t/d3000.json %t/exact.json
// The same with the pass off: the per-iteration checks alone.
// RUN: env SAMPLER_SPARSITY=30 SAMPLER_SEED=22 SAMPLER_FILE=%t/u30.report %t/unbounded > /dev/null
// RUN: %sampler-report --all --json %t/u30.report --binary %t/unbounded > %t/u30.json
// RUN: python3 %S/../e2e/Inputs/stats.py unbiased %t/u30.json %t/exact.json
// With the same seeds, the bounded copies observe exactly what the loops do:
// RUN: python3 %S/../e2e/Inputs/stats.py equal %t/d30.json %t/u30.json
// RUN: env SAMPLER_SPARSITY=3 SAMPLER_SEED=21 SAMPLER_FILE=%t/u3.report %t/unbounded > /dev/null
// RUN: %sampler-report --all --json %t/u3.report --binary %t/unbounded > %t/u3.json
// RUN: python3 %S/../e2e/Inputs/stats.py equal %t/d3.json %t/u3.json
// RUN: env SAMPLER_SPARSITY=300 SAMPLER_SEED=23 SAMPLER_FILE=%t/u300.report %t/unbounded > /dev/null
// RUN: %sampler-report --all --json %t/u300.report --binary %t/unbounded > %t/u300.json
// RUN: python3 %S/../e2e/Inputs/stats.py equal %t/d300.json %t/u300.json
// RUN: env SAMPLER_SPARSITY=3000 SAMPLER_SEED=24 SAMPLER_FILE=%t/u3000.report %t/unbounded > /dev/null
// RUN: %sampler-report --all --json %t/u3000.report --binary %t/unbounded > %t/u3000.json
// RUN: python3 %S/../e2e/Inputs/stats.py equal %t/d3000.json %t/u3000.json
// The same with every instrumented copy outlined (-fsampler-outline-limit, off
// by default; lib/SlowCopyOutliner.h): the same counts at d = 1, fair at d = 30.
// RUN: %sampler-cc -O2 -fsampler-outline-limit=1000 %s -o %t/outlined
// RUN: env SAMPLER_SPARSITY=1 SAMPLER_FILE=%t/o1.report %t/outlined > %t/o1.out
// RUN: cmp %t/exact.out %t/o1.out
// RUN: %sampler-report --all --json %t/o1.report --binary %t/outlined > %t/o1.json
// RUN: python3 %S/../e2e/Inputs/stats.py equal %t/o1.json %t/exact.json
// RUN: env SAMPLER_SPARSITY=30 SAMPLER_SEED=22 SAMPLER_FILE=%t/o30.report %t/outlined > %t/o30.out
// RUN: cmp %t/exact.out %t/o30.out
// RUN: %sampler-report --all --json %t/o30.report --binary %t/outlined > %t/o30.json
// RUN: python3 %S/../e2e/Inputs/stats.py unbiased %t/o30.json %t/exact.json

// Each loop says whether it was bounded, at its line (optimisation remarks):
// RUN: %sampler-cc -O2 -c %s -o /dev/null -Rpass=sampler-loop-bound -Rpass-missed=sampler-loop-bound 2>&1 | FileCheck %s --check-prefix=REMARK
// Loops whose inner loops check, without reserves (-fno-sampler-loop-reserve;
// with them, the default, above):
// RUN: %sampler-cc -O2 -c -fno-sampler-loop-reserve %s -o /dev/null -Rpass-missed=sampler-loop-bound 2>&1 | FileCheck %s --check-prefix=NORESERVE
// RUN: %sampler-cc -O2 -fno-sampler-loop-reserve %s -o %t/noreserve
// RUN: env SAMPLER_SPARSITY=1 SAMPLER_FILE=%t/r1.report %t/noreserve > %t/r1.out
// RUN: cmp %t/exact.out %t/r1.out
// RUN: %sampler-report --all --json %t/r1.report --binary %t/noreserve > %t/r1.json
// RUN: python3 %S/../e2e/Inputs/stats.py equal %t/r1.json %t/exact.json
// RUN: env SAMPLER_SPARSITY=30 SAMPLER_SEED=22 SAMPLER_FILE=%t/r30.report %t/noreserve > /dev/null
// RUN: %sampler-report --all --json %t/r30.report --binary %t/noreserve > %t/r30.json
// RUN: python3 %S/../e2e/Inputs/stats.py equal %t/r30.json %t/u30.json
// RUN: env SAMPLER_SPARSITY=300 SAMPLER_SEED=23 SAMPLER_FILE=%t/r300.report %t/noreserve > /dev/null
// RUN: %sampler-report --all --json %t/r300.report --binary %t/noreserve > %t/r300.json
// RUN: python3 %S/../e2e/Inputs/stats.py equal %t/r300.json %t/u300.json
// RUN: env SAMPLER_SPARSITY=3000 SAMPLER_SEED=24 SAMPLER_FILE=%t/r3000.report %t/noreserve > /dev/null
// RUN: %sampler-report --all --json %t/r3000.report --binary %t/noreserve > %t/r3000.json
// RUN: python3 %S/../e2e/Inputs/stats.py equal %t/r3000.json %t/u3000.json
// CHECK-LABEL: define {{.*}}@slide(
// CHECK:       sampler.loop.affordable
// CHECK-LABEL: define {{.*}}@count_to(
// CHECK:       sampler.loop.affordable
// CHECK-LABEL: define {{.*}}@heavy(
// CHECK:       %sampler.loop.trials = mul nuw nsw i64 %sampler.backedges, 12
// CHECK-NEXT:  %sampler.loop.trials{{[0-9]+}} = add nuw nsw i64 %sampler.loop.trials, 4
// CHECK:       sampler.loop.affordable
// CHECK-LABEL: define {{.*}}@with_calls(
// CHECK-NOT:   sampler.loop.affordable
// CHECK-LABEL: define {{.*}}@nested(
// CHECK:       sampler.loop.affordable
// CHECK-LABEL: define {{.*}}@range(
// CHECK-LABEL: define {{.*}}@tail_heavy(
// CHECK:       sampler.loop.affordable
// CHECK-LABEL: define {{.*}}@early_exit(
// CHECK:       sampler.loop.affordable
// CHECK-LABEL: define {{.*}}@main(
#include <stdio.h>

static unsigned state = 5;
__attribute__((noinline)) static unsigned rnd(void) {
  state = state * 1103515245u + 12345u;
  return (state >> 16) & 0x7fff;
}

static unsigned short table[512];

// zlib's slide_hash: n iterations, a site in each.
__attribute__((noinline)) void slide(unsigned short *head, unsigned n,
                                     unsigned wsize) {
  unsigned short *p = &head[n];
  // (a loop is located where its metadata says it starts, as clang's remarks
  // locate it: a do-while at its `do`)
  // REMARK: bounded-loops.c:[[#@LINE+1]]:3: remark: loop in slide tests its countdown checks once on entry (trials per back edge: 2) on 2 of 2 ways in, and pays for them there [-Rpass=sampler-loop-bound]
  do {
    unsigned m = *--p;
    *p = (unsigned short)(m >= wsize ? m - wsize : 0);
  } while (--n);
}

// A counted loop that may leave early: the bound is the counter's.
__attribute__((noinline)) int count_to(const unsigned short *a, int n,
                                       unsigned stop) {
  int r = 0;
  // REMARK: bounded-loops.c:[[#@LINE+1]]:3: remark: loop in count_to tests its countdown checks once on entry (trials per back edge: 3) on 1 of 2 ways in [-Rpass=sampler-loop-bound]
  for (int i = 0; i < n; i++) {
    if (a[i] & 1)
      r++;
    if (a[i] == stop)
      break;
  }
  return r;
}

__attribute__((noinline)) static int weighty(unsigned v) {
  if (v & 4)
    return 1;
  return v % 5 == 0 ? 2 : 0;
}

// Twelve sites an iteration (n >= 1 iterations): the region is split after
// eight, and the copy without checks drops that check as well (n - 1 back
// edges, each paying both checks' weights, plus the split's once more).
__attribute__((noinline)) int heavy(const unsigned short *a, unsigned n) {
  int r = 0;
  do {
    unsigned v = *a++;
    if (v & 1) r++;
    if (v & 2) r += 2;
    if (v & 4) r += 3;
    if (v & 8) r ^= 1;
    if (v & 16) r++;
    if (v & 32) r += 2;
    if (v & 64) r += 3;
    if (v & 128) r ^= 2;
    if (v & 256) r++;
    if (v & 512) r += 2;
    if (v & 1024) r += 3;
  } while (--n);
  return r;
}

// A bounded loop whose body calls a function with sites of its own.
__attribute__((noinline)) int with_calls(const unsigned short *a, int n) {
  int r = 0;
  // REMARK: bounded-loops.c:[[#@LINE+1]]:3: remark: loop in with_calls keeps its back edge's countdown check: something else in it may take trials (a call that may reach sites, or a payment not recognised)
  for (int i = 0; i < n; i++) {
    if (a[i] > 1000)
      r += weighty(a[i]);
  }
  return r;
}

// A bounded inner loop in an unbounded outer one.
__attribute__((noinline)) int nested(const unsigned short *a) {
  int r = 0;
  unsigned k = a[0];
  while (k % 7 != 3 && r < 100000) {
    // One way in: the instrumented copy comes back to the inner loop through
    // the outer loop's tail (natural nests), not into the fast outer loop.
    // REMARK: bounded-loops.c:[[#@LINE+1]]:5: remark: loop in nested tests its countdown checks once on entry (trials per back edge: 2) on 1 of 1 ways in, and pays for them there, in chunks where the countdown covers fewer
    for (unsigned j = 0; j < (k & 15); j++)
      if ((a[j] ^ k) & 2)
        r++;
    k = k * 5 + 1;
  }
  return r;
}

// A pointer range.
__attribute__((noinline)) long range(const unsigned short *b,
                                     const unsigned short *e) {
  long s = 0;
  // REMARK: bounded-loops.c:[[#@LINE+1]]:3: remark: loop in range keeps its back edge's countdown check: no exit has a computable maximum trip count [-Rpass-missed=sampler-loop-bound]
  for (const unsigned short *p = b; p != e; p++)
    s += *p > 0x4000 ? 2 : 1;
  return s;
}

// A loop whose way out crosses more sites than an iteration does (its back
// edges' region weighs 5, the way out included).
__attribute__((noinline)) int tail_heavy(const unsigned short *a, int n) {
  int r = 0;
  // REMARK: bounded-loops.c:[[#@LINE+1]]:3: remark: loop in tail_heavy tests its countdown checks once on entry (trials per back edge: 5) on 1 of 2 ways in, and pays for them there, in chunks where the countdown covers fewer
  for (int i = 0; i < n; i++)
    r += a[i] & 3;
  if (r & 1)
    r += 5;
  if (r & 2)
    r += 7;
  if (r & 4)
    r ^= 9;
  if (r & 8)
    r -= 3;
  return r;
}

// A counted loop that mostly leaves early (one value in twelve ends it): it
// takes far fewer trials than its bound, and what follows it (after_exit) is
// where paying the bound at once showed.
__attribute__((noinline)) int early_exit(const unsigned short *a, int n) {
  // REMARK: bounded-loops.c:[[#@LINE+1]]:3: remark: loop in early_exit tests its countdown checks once on entry (trials per back edge: 2) on 1 of 2 ways in [-Rpass=sampler-loop-bound]
  for (int i = 0; i < n; i++)
    if (a[i] % 12 == 7)
      return i;
  return -1;
}

// zlib's longest_match, in small: an outer loop bounded by its counter, whose
// inner loop (no bound: the data ends it) checks every iteration, and which
// some iterations skip (`continue`). The outer loop reserves its back edges'
// trials on entry (with -fno-sampler-loop-reserve it keeps its check), the
// inner loop checks against the rest, and
// every way out gives back what is left of the reserve: early ways out
// (`break`, and the instrumented copy, taken as soon as the inner loop's
// stricter check fails) included. With the same seeds, the counts are those of
// the build without bounded loops.
__attribute__((noinline)) int chain(const unsigned short *a, const unsigned short *next,
                                    unsigned cur, unsigned chain_length, unsigned limit) {
  int best = 0;
  do {
    // (The loop is located at its start, the `do`: its metadata says so.)
    // REMARK: bounded-loops.c:[[#@LINE-2]]:3: remark: loop in chain reserves its back edges' trials on entry (trials per back edge: {{[0-9]+}}), its inner loops checking against the rest, on 2 of 2 ways in, in chunks where the countdown covers fewer
    // NORESERVE: bounded-loops.c:[[#@LINE-3]]:3: remark: loop in chain keeps its back edge's countdown check: its inner loops take trials of their own (-fsampler-loop-reserve would reserve its back edges' trials on entry)
    if ((a[cur & 255] & 15) == 7)
      continue;
    int j = 0;
    while (a[(cur + j) & 255] & 1)
      j++;
    if (j > best) {
      best = j;
      if (j > 9)
        break;
    }
  } while ((cur = next[cur & 255] & 255) > limit && --chain_length != 0);
  return best;
}

__attribute__((noinline)) int after_exit(int r) {
  if (r > 5)
    return 1;
  return 0;
}

// A loop with a reserve (chain's) whose preheader calls a function with
// sites (as bc's bc_divide calls _one_mult right before a loop): the test on
// entry must come after the call, which takes trials of its own. Before it,
// the reserve was taken from the countdown the call then drew from, and with
// the same seeds the counts differed from the build without the pass (at
// d = 30 and 300, after_exit's and the outer loop's); with chunks of bounded
// loops (a variant, not kept) a fresh countdown drawn in the call made a
// chunk's end look like the loop's, and bc wrote past its digits. (The chunks
// kept since, digits', leave for the loop as it was, which checks.)
__attribute__((noinline)) int chain_after_call(const unsigned short *a,
                                               const unsigned short *next,
                                               unsigned cur, unsigned length,
                                               unsigned limit) {
  int best = 0;
  for (int j = 0; j < 8; j++) {
    if (a[j] & 2) {
      best += after_exit(cur & 7);
      unsigned left = length;
      do {
        if ((a[cur & 255] & 15) == 7)
          continue;
        int k = 0;
        while (a[(cur + k) & 255] & 1)
          k++;
        if (k > best)
          best = k;
      } while ((cur = next[cur & 255] & 255) > limit && --left != 0);
    }
  }
  return best;
}

// chain's shape with a counted inner loop: one way out, an exact count, so
// it pays on entry inside the outer loop's reserve (the store that pays is
// tagged, so that the outer loop counts it among its inner loops' trials).
__attribute__((noinline)) int chain_counted(const unsigned short *a,
                                            const unsigned short *next,
                                            unsigned cur, unsigned length) {
  int s = 0;
  do {
    // (The inner loop's remark comes first.)
    // REMARK: bounded-loops.c:[[#@LINE+5]]:5: remark: loop in chain_counted tests its countdown checks once on entry (trials per back edge: {{[0-9]+}}) on 1 of {{[0-9]+}} ways in, and pays for them there, in chunks where the countdown covers fewer
    // REMARK: bounded-loops.c:[[#@LINE-3]]:3: remark: loop in chain_counted reserves its back edges' trials on entry
    if ((a[cur & 255] & 3) == 1)
      continue;
    unsigned n = a[cur & 255] & 15;
    for (unsigned j = 0; j < n; j++)
      s += (a[(cur + j) & 255] & 1) ? 1 : 3;
  } while (--length != 0 && (cur = next[cur & 255] & 255) != 0);
  return s;
}

// bc's digit loops, in small: a counted loop mostly longer than the
// countdown covers (up to 600 iterations of 2 trials), so that at d = 30 to
// 3000 the test on entry mostly fails and the loop runs in chunks, each of
// the back edges the countdown covers, paid on entry. After a chunk, the loop
// as it was fails its next check and the instrumented copy takes the sample.
// A chunk one back edge too long fails the counts' equality below.
__attribute__((noinline)) int digits(unsigned char *r, const unsigned char *a,
                                     int len) {
  int carry = 0;
  // REMARK: bounded-loops.c:[[#@LINE+1]]:3: remark: loop in digits tests its countdown checks once on entry (trials per back edge: 2) on 1 of 2 ways in, and pays for them there, in chunks where the countdown covers fewer
  for (int count = 0; count < len + 1; count++) {
    int v = a[count] * 7 + carry;
    if (v > 9) {
      carry = v / 10;
      v %= 10;
    } else
      carry = 0;
    r[count] = (unsigned char)v;
  }
  return carry;
}

static unsigned char num[640], prod[640];

int main(void) {
  long total = 0;
  for (int round = 0; round < 3000; round++) {
    for (int i = 0; i < 512; i++)
      table[i] = (unsigned short)rnd();
    slide(table, 1 + rnd() % 300, rnd() % 0x8000);
    total += count_to(table, (int)(rnd() % 40), rnd() % 64);
    total += with_calls(table, (int)(rnd() % 24));
    total += heavy(table, 1 + rnd() % 48);
    total += nested(table + (rnd() % 64));
    unsigned from = rnd() % 256;
    total += range(table + from, table + from + rnd() % 200);
    total += tail_heavy(table, (int)(rnd() % 64));
    for (int k = 0; k < 40; k++)
      total += after_exit(early_exit(table + rnd() % 256, 40));
    for (int k = 0; k < 20; k++)
      total += after_exit(chain(table, table + 256, rnd() % 256, 1 + rnd() % 64, rnd() % 16));
    total += chain_after_call(table, table + 256, rnd() % 256, 1 + rnd() % 64,
                              rnd() % 16);
    for (int k = 0; k < 10; k++)
      total += chain_counted(table, table + 256, rnd() % 256, 1 + rnd() % 64);
    for (int i = 0; i < 640; i++)
      num[i] = (unsigned char)(rnd() % 10);
    total += digits(prod, num, (int)(rnd() % 600));
    total += prod[rnd() % 600];
  }
  printf("%ld\n", total);
  return 0;
}

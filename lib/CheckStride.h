//===- CheckStride.h - A loop's back-edge check tested every K iterations -===//
//
// DESCRIPTION
//   A loop of the fast copy whose trip count is not bounded on entry
//   (LoopBoundCheck.h) keeps a check on its back edge: once
//   LoopCountdownPromotion carries the countdown in a register,
//
//     c' = c - W; if (c' < 0) goto instrumented copy;      every iteration
//
//   two instructions an iteration, which on short loops (a byte compared,
//   a list node followed) is a large part of the loop: most of what the
//   fast path costs (docs/benchmarks.md, "How much of the cost is the
//   checks themselves").
//
//   This pass unrolls such a loop K times, keeping every exit (LLVM's
//   UnrollLoop, no remainder needed), and makes the first copy's check test
//   for the K iterations that follow it:
//
//     copy 1:    c1 = c0 - W; if (c1 - (K-1)·W < 0) goto fallback;
//     copy j>1:  cj = c(j-1) - W;          (its test always passes: dropped)
//     fallback:  if (c1 < 0) goto instrumented copy;
//                else the loop as it was, a check every iteration
//
//   Exact, seed for seed. Every iteration pays its W as before, so the
//   countdown goes through the same values at the same sites. The checks
//   of copies 2..K test c1 - W, ..., c1 - (K-1)·W, all at least the
//   strengthened test's value, so they cannot fail once it has passed. When
//   it fails, the original test decides, and the loop goes on in the
//   fallback, a copy of the loop as it was, which leaves for the
//   instrumented copy where the loop as it was would have. Every way into
//   the loop enters at the first copy's header, whose first iteration the
//   region before the loop has paid. (Leaving for the instrumented copy at
//   once instead, with trials to spare, is exact too, but at d = 1000 it
//   keeps loops of W = 8 in their instrumented copy for up to 24 more
//   trials in each thousand: bzip2 went from 1.136 to 1.177.)
//
//   A loop qualifies when it is innermost, its latch ends in a back-edge
//   check the sampling transformation tagged (sampler.backedge.check, or
//   sampler.backedge.unbounded where LoopBoundCheck found no bound), the
//   tested value is an induction variable {c0,+,-S} of the loop
//   (ScalarEvolution: the countdown in a register, nothing else paying in
//   it but constant payments on every path), some way out of it is not
//   countable (ScalarEvolution; a loop whose every exit is counted is left
//   to the vectoriser, which takes the smaller count, and to LLVM's
//   unroller), nothing in it touches the countdown in memory or calls code
//   that may, it is small (MaxBody instructions) with one way out besides
//   its check, which does not test an induction variable of the loop, its
//   header is among the function's most frequent blocks by the static
//   estimate (HotFraction), the user did not ask for it not to be unrolled,
//   and the function is not optimised for size. The tags are dropped
//   afterwards. The last four conditions are measured ones: an unrolled
//   loop changes the register allocation of its whole function, and on
//   bzip2 a cold loop unrolled cost its function's hot loop two register
//   copies an iteration; loops of three ways out held more registers than
//   the checks saved; and where the way out tests an induction variable,
//   each copy computes its own value of it (bc's _bc_simp_mul: +12.9%);
//   docs/benchmarks.md, "Back-edge checks tested every K iterations".
//
//   Later passes fold the payments of the K copies into one `add` of K·W;
//   the copies' own countdowns are computed only on the ways out. The code
//   of such a loop grows K + 1 times, in the fast copy only.
//
// USAGE
//   opt-19 -load-pass-plugin=build/lib/SamplerPassLLVM.so
//       -passes='sampler,default<O2>' in.ll       (runs at VectorizerStart)
//   opt-19 -load-pass-plugin=build/lib/SamplerPassLLVM.so
//       -passes='sampler-check-stride<4>' in.ll -S  (this pass alone)
//   sampler-cc -fsampler-check-stride=1 ...       (off, to measure)
//
//===----------------------------------------------------------------------===//
#ifndef SAMPLER_CHECKSTRIDE_H
#define SAMPLER_CHECKSTRIDE_H

#include "llvm/IR/PassManager.h"

namespace sampler {

struct SamplerCheckStridePass : llvm::PassInfoMixin<SamplerCheckStridePass> {
  /// \p Stride: iterations per test (SamplerOptions::CheckStride); 1 only
  /// drops the tags.
  explicit SamplerCheckStridePass(unsigned Stride) : Stride(Stride) {}
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &FAM);
  unsigned Stride;
  /// Loops of at most this many instructions (CodeMetrics, as the unroller
  /// counts them) are unrolled.
  static constexpr unsigned MaxBody = 16;
  /// Loops whose header runs at least 1/HotFraction as often as the
  /// function's most frequent block (static estimate) are unrolled.
  static constexpr unsigned HotFraction = 8;
};

} // namespace sampler

#endif

//===- LoopBoundCheck.h - One check for a loop whose trip count is bounded -===//
//
// DESCRIPTION
//   The sampling transformation (SamplingTransform.h) gives every loop of the
//   fast copy a check on its back edge: `countdown -= W; if (countdown < 0)
//   goto instrumented copy`, two instructions per iteration, and an early
//   exit that keeps the vectoriser away. When ScalarEvolution bounds the
//   number of back edges by N on the loop's entry (a constant or an
//   expression of values known there), the loop's checks can be tested once
//   (docs/sampling.md, "Bounded loops"):
//
//     on a way in:  if (countdown >= N * W + ...)
//                     goto copy of the loop whose checks pay but never fail;
//                   else goto the loop as it was;
//
//   The copy pays exactly what the loop would have paid, check by check (in a
//   register, once LoopCountdownPromotion has run: an induction variable the
//   vectoriser sees), and none of its checks could have failed, since all of
//   them together take at most N * W + ... trials. So it is the loop itself,
//   faster: every site execution owns the same trial in either, and is
//   observed with probability exactly 1/d. (Paying the upper bound at once
//   instead, as a first version did, is biased: when the loop takes fewer
//   trials than the bound, what follows it is sampled too often, and
//   test/hardening/bounded-loop-exits.c measured it 100 sigma off.) Where
//   the loop cannot take fewer (one way out, whose exact count is N, and the
//   latch's check its only one), the test does pay N * W at once, and the
//   copy neither tests nor pays: nothing to compute on its way out. The copy
//   drops the tests of the checks of the loop's own body (the back edge's,
//   and splits of a heavy region, which run at most once an iteration and
//   are counted N + 1 times). Nothing else in the loop may take trials: not
//   a call that may reach sites (it would take them between the checks'),
//   not an inner loop with checks, unless the loop reserves its back edges'
//   trials instead (with Reserve, -fsampler-loop-reserve: the copy's latch
//   neither tests nor pays, its other checks test the countdown lowered by
//   the reserve N * W, and every way out gives back what is left of it;
//   docs/sampling.md, "Loops whose inner loops check"). With Chunks too, a
//   reserve's test that fails enters a second copy, the chunks' copy, when
//   three quarters of the countdown cover k >= 8 back edges: it reserves
//   those k, and where it would take the (k+1)st its counted exit goes
//   instead to a copy of the latch's check, which goes on in the loop as it
//   was
//   (docs/sampling.md, "Chunks of a reserve"). So does a loop that pays on
//   entry, whose header is its way out: its chunks' copy pays for the k
//   back edges the countdown covers and its header leaves after k of them
//   for the loop as it was, whose next check fails ("Chunks of a loop that
//   pays on entry").
//
//   The pass runs mid-pipeline (VectorizerStart), where loops are rotated and
//   ScalarEvolution sees their induction variables; it finds the checks by
//   the metadata SamplingTransform puts on them (sampler.backedge.check and
//   sampler.check, operand W). A tag the optimiser dropped, a countdown
//   update it reshaped beyond the forms recognised, or a bound it cannot
//   expand cheaply all mean the same: the loop keeps its per-iteration check.
//
// USAGE
//   opt-19 -load-pass-plugin=build/lib/SamplerPassLLVM.so
//       -passes='sampler,default<O2>' in.ll       (runs at VectorizerStart)
//   opt-19 -load-pass-plugin=build/lib/SamplerPassLLVM.so
//       -passes=sampler-loop-bound in.ll -S       (this pass alone)
//   sampler-cc -fno-sampler-loop-bounds ...      (off, to measure)
//   sampler-cc -fsampler-loop-reserve ...        (reserves for loop nests)
//   sampler-cc -fno-sampler-loop-chunks ...      (reserves and paid loops all
//                                                or nothing)
//
//===----------------------------------------------------------------------===//
#ifndef SAMPLER_LOOPBOUNDCHECK_H
#define SAMPLER_LOOPBOUNDCHECK_H

#include "llvm/IR/PassManager.h"

namespace sampler {

struct SamplerLoopBoundPass : llvm::PassInfoMixin<SamplerLoopBoundPass> {
  /// \p Reserve: loops whose inner loops check reserve their back edges'
  /// trials on entry (SamplerOptions::LoopReserve); \p Chunks: a reserve
  /// the countdown does not cover reserves what it covers
  /// (SamplerOptions::LoopChunks).
  explicit SamplerLoopBoundPass(bool Reserve = false, bool Chunks = false)
      : Reserve(Reserve), Chunks(Chunks) {}
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &FAM);
  bool Reserve;
  bool Chunks;
};

} // namespace sampler

#endif

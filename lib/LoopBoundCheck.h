//===- LoopBoundCheck.h - One check for a loop whose trip count is bounded -===//
//
// DESCRIPTION
//   The sampling transformation (SamplingTransform.h) gives every loop of the
//   fast copy a check on its back edge: `countdown -= W; if (countdown < 0)
//   goto instrumented copy`, two instructions per iteration, and an early
//   exit that keeps the vectoriser away. When ScalarEvolution bounds the
//   number of back edges by N on the loop's entry (a constant or an
//   expression of values known there), the loop can pay for all of them at
//   once (docs/sampling.md, "bounded loops"):
//
//     preheader:  if (countdown >= N * W) { countdown -= N * W;
//                                           goto loop without its check; }
//                 else goto loop as it was;
//
//   Subtracting an upper bound of the trials the loop's back-edge regions
//   own only discards trials known to fail (the countdown is memoryless), so
//   every site execution is still observed with probability exactly 1/d.
//   The copy without the check keeps every other check the loop has (split
//   regions, inner loops' entries); only the back edge's goes.
//
//   The pass runs mid-pipeline (VectorizerStart), where loops are rotated and
//   ScalarEvolution sees their induction variables; it finds the back-edge
//   checks by the metadata SamplingTransform puts on them
//   (sampler.backedge.check, operand W). A tag the optimiser dropped, a
//   countdown update it reshaped beyond the two forms recognised below, or a
//   bound it cannot expand cheaply all mean the same: the loop keeps its
//   per-iteration check.
//
// USAGE
//   opt-19 -load-pass-plugin=build/lib/SamplerPassLLVM.so
//       -passes='sampler,default<O2>' in.ll       (runs at VectorizerStart)
//   opt-19 -load-pass-plugin=build/lib/SamplerPassLLVM.so
//       -passes=sampler-loop-bound in.ll -S       (this pass alone)
//   sampler-cc -fno-sampler-loop-bounds ...      (off, to measure)
//
//===----------------------------------------------------------------------===//
#ifndef SAMPLER_LOOPBOUNDCHECK_H
#define SAMPLER_LOOPBOUNDCHECK_H

#include "llvm/IR/PassManager.h"

namespace sampler {

struct SamplerLoopBoundPass : llvm::PassInfoMixin<SamplerLoopBoundPass> {
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &FAM);
};

} // namespace sampler

#endif

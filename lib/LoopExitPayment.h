//===- LoopExitPayment.h - Check-free loops pay for their trials on exit ---===//
//
// DESCRIPTION
//   A loop without checks (the copy of a bounded loop, LoopBoundCheck.h)
//   still takes its trials: each iteration pays its weight, `countdown -= K`,
//   so that the countdown it leaves is exactly what the checked loop would
//   have left (docs/sampling.md). Once LoopCountdownPromotion carries the
//   countdown in a register, that payment is an induction variable of its
//   own, {c0,+,-K}: one `add` an iteration (and a vector lane when the loop
//   is vectorised) that nothing in the loop reads.
//
//   The loop already counts its iterations in another induction variable
//   {j0,+,s} (the one its exit tests, as a rule). This pass computes the
//   countdown where the loop is left instead, from that variable's value
//   there: c0 + (-K/s)·(j - j0), in 64-bit arithmetic, and deletes the
//   payments. ScalarEvolution proves the two expressions equal (the same
//   recurrence) before anything changes, and the widening of a narrower
//   variable must not wrap. Only the countdown's own values are rewritten;
//   the program's are left as the optimiser has them.
//
//   This is IndVarSimplify's exit-value rewriting, for a recurrence that only
//   appears after it has run (promotion happens at VectorizerStart).
//
// USAGE
//   opt-19 -load-pass-plugin=build/lib/SamplerPassLLVM.so
//       -passes='sampler,default<O2>' in.ll       (runs at VectorizerStart)
//   opt-19 -load-pass-plugin=build/lib/SamplerPassLLVM.so
//       -passes=sampler-loop-exit-pay in.ll -S   (this pass alone)
//   sampler-cc -fno-sampler-loop-exit-pay ...     (off, to measure)
//
//===----------------------------------------------------------------------===//
#ifndef SAMPLER_LOOPEXITPAYMENT_H
#define SAMPLER_LOOPEXITPAYMENT_H

#include "llvm/IR/PassManager.h"

namespace sampler {

struct SamplerLoopExitPayPass : llvm::PassInfoMixin<SamplerLoopExitPayPass> {
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &FAM);
};

} // namespace sampler

#endif

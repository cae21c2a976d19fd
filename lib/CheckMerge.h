//===- CheckMerge.h - Two checks in a row paid by the first -----*- C++ -*-===//
//
// DESCRIPTION
//   After inlining, a check is often followed at once by another: a small
//   function of one region (its check on entry, SamplingTransform.h) inlined
//   at the top of a caller that has its own, as Lua's index2value in
//   lua_geti, lua_type and the other API functions. On x86-64:
//
//     addq $-5, %fs:countdown; js slow1      ; the caller's region
//     addq $-5, %fs:countdown; js slow2      ; the inlined callee's region
//
//   When every path from the first check's fast edge reaches the second
//   check, through blocks that nothing else enters (straight code, or
//   branches of the first region whose ways join there; each reached from
//   the fast edge, none from the second check's block, none the function's
//   entry), and nothing on the way touches the countdown (no access, no call
//   that may reach sites), the first check pays for both regions:
//
//     countdown -= W1 + W2; if (countdown >= 0) -> the first fast copy, and
//                                  the second check always passes: dropped;
//     else countdown += W2     -> the first region's way to its instrumented
//                                  copy, with the countdown it had before.
//
//   Exact: on every path the countdown goes through the same values at the
//   same sites as before. The only difference is that the first region's
//   instrumented copy is now also entered when the first check alone would
//   have passed and the second would have failed; an instrumented copy
//   entered with trials to spare fires no site (none of its trials
//   succeeds), and reaches the second check as before. The way to the
//   instrumented copy is cold; the fast path saves two instructions per
//   merged check. Chains merge one after the other.
//
//   A check that only some paths from the fast edge reach (an inlined
//   callee called on one way of a branch, SQLite's sqlite3BtreeIndexMoveto)
//   is merged too when the blocks between are still entered from nowhere
//   else: each edge out of them that misses the second check gives W2 back
//   (`countdown += W2`, one instruction on x86-64, in a block of its own on
//   a critical edge), so again the countdown is what it would have been at
//   every site, seed for seed. That costs the ways that miss it one
//   instruction where the way through it saves two, so it is done only when
//   by the static block frequencies the ways that miss it run at most
//   GiveBackPercent% as often as the second check (default 50; at 100 the
//   even guesses of unknown branches let Lua's integer paths give back for
//   the float conversions' checks), through at most 8 such edges, and not
//   in functions of more than 5,000 instructions (CheckMerge.cpp says why).
//   Among several checks that qualify, the one that saves the most by those
//   frequencies goes first. A way out that enters a block nothing else
//   enters, whose first access is a check paying W3 > W2, gives nothing
//   back: that check pays W3 - W2 instead (the same countdown after it), so
//   the other way of an if/else that calls a function of one region on each
//   way costs nothing, and such ways are free when the merge is weighed.
//
//   Runs at the end of the optimisation pipeline (OptimizerLast), after the
//   inliner. It recognises checks by their shape, `store (add (load
//   volatile countdown), -W)` and a branch on the sign of the result; checks
//   the loop passes have put in registers are not volatile loads and are left
//   alone, as is anything reshaped beyond that form.
//
// USAGE
//   opt-19 -load-pass-plugin=build/lib/SamplerPassLLVM.so
//       -passes='sampler,default<O2>' in.ll       (runs at OptimizerLast)
//   opt-19 -load-pass-plugin=build/lib/SamplerPassLLVM.so
//       -passes=sampler-check-merge in.ll -S      (this pass alone)
//   sampler-cc -fno-sampler-check-merge ...      (off, to measure)
//   sampler-cc -fsampler-check-merge-give-back=N (0: only checks every path
//                                                reaches; default 50)
//
//===----------------------------------------------------------------------===//
#ifndef SAMPLER_CHECKMERGE_H
#define SAMPLER_CHECKMERGE_H

#include "llvm/IR/PassManager.h"

namespace sampler {

struct SamplerCheckMergePass : llvm::PassInfoMixin<SamplerCheckMergePass> {
  /// SamplerOptions::CheckMergeGiveBack.
  explicit SamplerCheckMergePass(unsigned GiveBackPercent = 50)
      : GiveBackPercent(GiveBackPercent) {}
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &FAM);

private:
  unsigned GiveBackPercent;
};

} // namespace sampler

#endif

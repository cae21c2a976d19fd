//===- LoopCountdownPromotion.h - The countdown in a register round loops -===//
//
// DESCRIPTION
//   Each check of the fast copy is `countdown -= W; if (countdown < 0) ...` on
//   the thread-local countdown itself: one `subq $W, %fs:...; js` on x86
//   (SamplingTransform.h). Round a loop, that is a read-modify-write of one
//   memory location per check and iteration: a chain of store-to-load
//   forwardings (some five cycles each) that the loop's own work cannot hide
//   when its iterations are short. LLVM's LICM does not keep a thread-local
//   global in a register across a loop whose exits do not all store it (the
//   global could be another thread's to read).
//
//   The countdown is this thread's and no code but sampler's touches it: the
//   program never has its address, and the runtime's draw does not read or
//   store it (runtime/sampler_abi.h). So in a loop whose calls can reach no
//   instrumented code (calls that access no memory or only their arguments'
//   memory, intrinsics, the runtime's draw), the countdown is loaded once in
//   the preheader, carried in a register by every check, and stored on every
//   exit: `add $-W, %reg; js` per check, no memory access. (An instrumented
//   signal handler that runs inside such a loop sees the countdown as the loop
//   found it, and its own updates are overwritten when the loop exits: the
//   handler's sites then share trials with the loop's. The original system,
//   which kept the countdown in a local across whole functions, had the same.)
//
//   Outermost loops first: a loop that qualifies takes its inner loops with
//   it; one that does not (a call in it) leaves its inner loops to be tried.
//   Where an inner loop takes trials (its checks, or a bounded copy's
//   payments), the countdown it leaves goes through an empty inline asm
//   that ScalarEvolution cannot see into: otherwise IndVarSimplify computes
//   it after the loop from the trip count and loop strength reduction keeps
//   a second copy of it in the inner loop (an `add` more an iteration).
//   Not a loop with two checks of its own in a row (nothing between them
//   touching the countdown) around inner loops that check: in memory,
//   CheckMerge pays such checks at once. Nor a cold one (the instrumented
//   copy's loops), whose promotion only moves the fast copy's registers.
//   The pass runs at VectorizerStart, after LoopBoundCheck (whose versioned
//   loops no longer touch the countdown at all).
//
// USAGE
//   opt-19 -load-pass-plugin=build/lib/SamplerPassLLVM.so
//       -passes='sampler,default<O2>' in.ll       (runs at VectorizerStart)
//   opt-19 -load-pass-plugin=build/lib/SamplerPassLLVM.so
//       -passes=sampler-loop-promote in.ll -S    (this pass alone)
//   sampler-cc -fno-sampler-loop-promote ...     (off, to measure)
//   sampler-cc -fno-sampler-nest-promote ...     (nests one loop at a time)
//
//===----------------------------------------------------------------------===//
#ifndef SAMPLER_LOOPCOUNTDOWNPROMOTION_H
#define SAMPLER_LOOPCOUNTDOWNPROMOTION_H

#include "llvm/IR/PassManager.h"

namespace sampler {

struct SamplerLoopPromotePass : llvm::PassInfoMixin<SamplerLoopPromotePass> {
  /// Without \p WholeNests (SamplerOptions::NestPromote), and with natural
  /// nests (SamplerOptions::NaturalNests), a loop whose inner loops have
  /// checks leaves them to be promoted one by one.
  explicit SamplerLoopPromotePass(bool NaturalNests = true,
                                  bool WholeNests = true)
      : NaturalNests(NaturalNests), WholeNests(WholeNests) {}
  bool NaturalNests;
  bool WholeNests;
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &FAM);
};

} // namespace sampler

#endif

//===- ContinuationTwin.h - A leaf's slow ways as tail calls --*- C++ -*-===//
//
// DESCRIPTION
//   A function that calls nothing (SQLite's cell parsers, bzip2's mainGtU)
//   natively saves few or no callee-saved registers. Sampled, it saves them
//   on every call: its fast copy's checks lead into the instrumented copy in
//   the same function, whose sites hold more values at once than the
//   caller-saved registers take, and the backend has one place for the
//   saves, a block that dominates every block using those registers: the
//   entry. EntryTwin.h moves the entry check's slow way out; the checks
//   inside the function (a loop's back edge, a split region) keep the rest
//   of the instrumented copy, and its registers, in F.
//
//   Here, at the end of the pipeline (after EntryTwin), such a function F
//   gets continuations: private copies of F that take F's arguments, the
//   index of a way in (when they serve several) and the values live on it,
//   and begin (a switch on the index) where the way leads. A way in is an
//   edge from F's fast code (what its entry reaches without entering a block
//   that calls the runtime's draw) into a block that does: a check's fresh
//   countdown, or a site's draw. Each becomes
//
//     tail call C(F's arguments, k, slots...); ret
//
//   and F keeps its fast copy alone. A way's values travel in slots (the
//   j-th in the j-th, of its type or i64), so a continuation takes as many
//   as its busiest way. Values C can compute again at its start (the
//   thread pointer, the countdown's address, an argument plus a constant)
//   are not passed; the countdown a loop carried in a register, which the
//   way's first block stores, travels in the countdown (F stores it before
//   the call, C loads it). C joins the passed values to its own definitions
//   (SSAUpdater). Ways share a continuation as long as every argument of the
//   call still goes in a register: then the call is a jump. Arguments on the
//   stack would need a frame on every way, set up at F's entry with the
//   saves (bzip2's mainGtU: six arguments and up to four values a way).
//
//   Exact: C runs what F would have run from that edge, with the same
//   values and the countdown where F left it in memory; only the place of
//   the code changes. Cutting at any edge is exact, so a way into the
//   instrumented copy that does not begin with a draw (a bounded loop's
//   give-back) only leaves more of that copy in F.
//
//   Chosen where it can pay: F calls nothing but in tail position (its
//   musttail call of its twin, a sibling call at its end: isCallOnceLowered),
//   has no stack slots (C's would be in the frame the tail call leaves), can
//   pass its arguments on (canTwin), has at most Limit instructions (each
//   continuation copies what its ways reach), and every way fits, in at
//   most MaxCopies continuations when that is set (0: any number).
//
// USAGE
//   opt-19 -load-pass-plugin=build/lib/SamplerPassLLVM.so
//       -passes='sampler,default<O2>' in.ll       (runs at OptimizerLast)
//   opt-19 -load-pass-plugin=build/lib/SamplerPassLLVM.so
//       -passes=sampler-continuation-twin in.ll -S   (this pass alone)
//   sampler-cc -fsampler-continuation-limit=N ...  (largest F, instructions)
//   sampler-cc -fsampler-continuation-limit=0 ...  (off, to measure)
//   sampler-cc -fsampler-continuation-copies=N ... (at most N copies of F)
//
//===----------------------------------------------------------------------===//
#ifndef SAMPLER_CONTINUATIONTWIN_H
#define SAMPLER_CONTINUATIONTWIN_H

#include "llvm/IR/PassManager.h"

namespace sampler {

struct SamplerContinuationTwinPass
    : llvm::PassInfoMixin<SamplerContinuationTwinPass> {
  SamplerContinuationTwinPass(unsigned Limit, unsigned MaxCopies)
      : Limit(Limit), MaxCopies(MaxCopies) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);

private:
  unsigned Limit;
  unsigned MaxCopies; // continuations a function at most; 0: no cap
};

} // namespace sampler

#endif

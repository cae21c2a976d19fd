//===- SingleCallLocals.h - A local function called once stays called once -*- C++ -*-===//
//
// DESCRIPTION
//   The inliner takes a local function that has one call left whatever its
//   size: the call is the function's only use, so inlining it deletes the
//   function (LLVM's bonus for the last call to a static function, 15,000
//   against a threshold of 225 at -O2). clang-19 inlines Lua's `max_expand`
//   into `match` and `forprep` into `luaV_execute`, each at its one call.
//
//   The sampling transformation copies the caller (the instrumented copy, in
//   place or as F.sampler.slow), and with it the call: the callee has two
//   calls, neither is the last, and at 775 (max_expand) or 3,280 (forprep)
//   it stays out of line in the fast copy too. Every call then pays a call,
//   a return, the callee's entry check and its saved registers.
//
//   So, right after the transformation: a local function G that had exactly
//   one use before it, a direct call C in a loop of its caller, keeps C (in
//   the caller's fast copy, which is the original code) as its only call,
//   and every other call of G (the copies of C) calls G' instead, a private
//   copy of G, noinline. The inliner then decides on C as it would without
//   sampler. Only calls in loops: made once a call of its caller, a call's
//   own cost rarely matters, and G' costs G's code again (with every call,
//   ccrypt's `.text` grew 32% for copies of functions called once a run, for
//   no instruction fewer). -fsampler-single-call-size-limit=N takes a call
//   outside its caller's loops too when G has at most N instructions (0 by
//   default: at 300, SQLite ran 0.83% fewer instructions for `.text` +1.7%,
//   Lua 0.44% fewer for +9.5%, its parser's functions copied; no profile
//   tells the hot small callees from the cold ones). G' stays out of line:
//   its calls are in instrumented copies, which run rarely, and where the
//   inliner took it too (into an outlined copy F.sampler.slow, whose calls
//   are not cold to it) G's code was there twice for nothing (bzip2 then ran
//   2.3% more instructions at d = 100 than with G' out of line). Copies of a
//   caller that was itself copied this way call copies in turn (repeated until
//   nothing changes). What runs is the same code with the same sites (G'
//   observes G's sites, the same counters), in the same order, so the counts
//   and the trials each site owns do not change.
//
//   Where the inliner does not take C after all (G too big even with the
//   bonus, as bzip2's sendMTFValues; a cold callee, which LLVM gives no
//   bonus), G' would be G's code twice for nothing. So at the end of the
//   pipeline, after the inliner, a copy whose original is still there goes
//   back into it where the two can be swapped: its calls call G again, and
//   G' goes (SamplerSingleCallMergePass).
//
//   Cost: where the inliner takes C, G' is one more out-of-line copy of G (G
//   as the transformation left it, with its own copies): `.text` Lua +1.6%,
//   SQLite +3.4%, bzip2 +12.4% (docs/benchmarks.md), and G's code optimised
//   twice (sqlite3.c compiled 15% longer). So a G of more than 1,000
//   instructions gets no copy (-fsampler-single-call-max-size=N; 0: no cap):
//   a call's cost is small beside such a body, and the copies bought nothing
//   there. SQLite's `flattenSubquery` (1,829) and `parseModifier`: the same
//   instructions, `.text` -0.9%; bzip2's `unRLE_obuf_to_output_FAST` ran
//   3% more instructions inlined into BZ2_bzDecompress than out of line
//   (bzip2 -0.20% with sampling off, `.text` -5.2%). Not lower: at 500,
//   bzip2's compression ran 2.6% more, its `mainQSort3` out of line.
//
// USAGE
//   Part of the `sampler` pass (`opt -passes=sampler`, `sampler-cc`); the
//   merge runs at OptimizerLast, or alone as `opt
//   -passes=sampler-single-call-merge`. `-fno-sampler-single-call-copies`
//   (`-sampler-single-call-copies=false`) turns both off.
//
//===----------------------------------------------------------------------===//
#ifndef SAMPLER_SINGLECALLLOCALS_H
#define SAMPLER_SINGLECALLLOCALS_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"
#include "llvm/IR/ValueHandle.h"

namespace sampler {

/// A local function with exactly one use, a direct call, and that call.
struct SingleCall {
  llvm::Function *Callee;
  llvm::WeakVH Call;
};

/// The local functions of \p M that the inliner could take at their one call:
/// defined here, local linkage, exactly one use, which is a direct call of
/// them from another function, in one of its loops (anywhere if they have
/// at most \p SizeLimit instructions, by sizeOf; 0: in loops only), of at
/// most \p MaxSize instructions (0: any size), and neither noinline,
/// always-inline nor optnone.
llvm::SmallVector<SingleCall, 16> findSingleCallLocals(llvm::Module &M,
                                                       unsigned SizeLimit,
                                                       unsigned MaxSize);

/// After the transformation has copied callers: for each of \p Calls whose
/// callee now has calls besides its original one, those other calls go to a
/// private copy of the callee. Appends the copies to \p Created and
/// returns how many calls were redirected.
unsigned redirectCopiedCalls(llvm::ArrayRef<SingleCall> Calls,
                             llvm::SmallVectorImpl<llvm::Function *> &Created);

/// At the end of the pipeline: each copy made by redirectCopiedCalls whose
/// original is still in the module (its call was not inlined) is merged back
/// into it.
struct SamplerSingleCallMergePass
    : llvm::PassInfoMixin<SamplerSingleCallMergePass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
};

} // namespace sampler

#endif

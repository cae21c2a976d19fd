//===- SlowCopyOutliner.h - A cloned function's instrumented copy, outlined ===//
//
// Cloning in place doubles a function: a small function with a loop (Lua's
// luaS_hash, ccrypt's xMixAdd) is then too big for the inliner, and its calls
// cost more than its sites ever did. This moves the instrumented copy of a
// function that SamplingTransform has cloned in place into a private function
// of its own, `F.sampler.slow`, so that F keeps only its fast copy and its
// checks:
//
//   * every value the copies share is, at that point, in a stack slot of F's
//     prologue (SamplingTransform's step 3) or an argument; the slots and the
//     program's promotable locals travel by value in a state record (an
//     alloca of F), the program's other locals by address;
//   * each way from a check into the instrumented copy becomes a call
//     `F.sampler.slow(args..., &state)` with the entry's index in the record;
//   * each way back to the fast copy (the checks at loop headers and outside
//     loops) becomes a return with the exit's index in the record; the
//     caller's switch goes on there. Index 0: the function returned, and the
//     call's value is F's.
//
// Nothing changes in what is observed or when: the same blocks run, in
// another frame. Run: part of the `sampler` pass, for functions of at most
// N instructions: `opt -passes=sampler -sampler-outline-limit=N`, or
// `sampler-cc -fsampler-outline-limit=N`. Off by default: measured neutral,
// the call blocks still weigh too much for the inliner (docs/benchmarks.md).
//
//===----------------------------------------------------------------------===//
#ifndef SAMPLER_SLOWCOPYOUTLINER_H
#define SAMPLER_SLOWCOPYOUTLINER_H

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/Function.h"

namespace sampler {

/// Whether \p F may have its instrumented copy outlined once cloned: not
/// optnone (at -O0 the debugger wants one frame), at most \p SizeLimit
/// instructions, and nothing whose meaning depends on the frame it runs in
/// (dynamic allocas, stacksave, frame or return addresses, musttail calls,
/// va_start) or that a call cannot pass on (computed goto, setjmp, exception
/// handling, swifterror and other special arguments).
bool canOutlineSlowCopy(const llvm::Function &F, unsigned SizeLimit);

/// Moves the blocks \p Slow of \p F (the instrumented copy, with the checks
/// that only it reaches) into a new function, as the header says. \p Prologue
/// is F's entry block and holds every stack slot. Returns the new function, or
/// null (F unchanged) when the CFG is not as expected.
llvm::Function *outlineSlowCopy(llvm::Function &F, llvm::BasicBlock *Prologue,
                                const llvm::SmallPtrSetImpl<llvm::BasicBlock *> &Slow);

} // namespace sampler

#endif

//===- EntryTwin.h - The entry check's slow way as a tail call --*- C++ -*-===//
//
// DESCRIPTION
//   A function whose fast copy usually returns early (bzip2's mainGtU: two of
//   its twelve byte compares, most calls) natively saves no register on that
//   way: the backend's shrink-wrapping puts the prologue where the long way
//   begins. The sampled function cannot: its entry check's slow way enters
//   the instrumented copy, which needs the callee-saved registers, so the
//   prologue must come before the check, on every call (bzip2: 6% of its
//   instructions, SQLite's B-tree cell parsers).
//
//   Here, at the end of the pipeline, such a function F gets a twin G: a
//   private clone of F entered on the entry check's slow way, its first
//   region already paid for, and F's slow way becomes
//
//     musttail call G(F's arguments); ret
//
//   so that it needs no frame. F's instrumented copy of its first region and
//   G's fast copy of it become unreachable and go. F's returns reached from
//   the entry check's fast edge before any other countdown access (the early
//   returns) get a return block of their own when they shared one with the
//   rest of F: the backend needs the prologue's region to be left through
//   one block, and the early returns must not be in it.
//
//   Exact: G runs what F's slow way ran, with the countdown F's check left;
//   only the place of the code changes.
//
//   Chosen where it can pay:
//   - the entry check has CheckShape.h's form;
//   - a return is reached from its fast edge before another countdown
//     access or call;
//   - F calls nothing but intrinsics and the runtime (a memcpy, memset or
//     memmove of a run-time length is a call: bc's _one_mult returns early
//     through tail calls of them). A function that calls others, even only
//     in its loops, mostly keeps what those calls need in callee-saved
//     registers from its entry on, so its early returns save them too and
//     the twin is code for nothing: every twin that worked was of a leaf
//     function (docs/benchmarks.md, "Twins that still save on entry");
//   - F has at most EntryTwinLimit instructions (G doubles them);
//   - musttail can pass its arguments on (no varargs, byval, inalloca,
//     preallocated or swift arguments; the C or fast calling convention);
//   - no block of F has its address taken (a twin's computed gotos would
//     jump into F).
//
//   The runtime's entry points take no argument register (the fresh draw none,
//   a site's in a thread-local: RuntimeABI.h), so that what F keeps in the
//   argument registers need not move into callee-saved ones for the
//   instrumented copy's calls; without that, the first argument of mainGtU
//   lived in %rbx from its first instruction.
//
// USAGE
//   opt-19 -load-pass-plugin=build/lib/SamplerPassLLVM.so
//       -passes='sampler,default<O2>' in.ll       (runs at OptimizerLast)
//   opt-19 -load-pass-plugin=build/lib/SamplerPassLLVM.so
//       -passes=sampler-entry-twin in.ll -S       (this pass alone)
//   sampler-cc -fsampler-entry-twin-limit=N ...  (largest F, instructions)
//   sampler-cc -fsampler-entry-twin-limit=0 ...  (off, to measure)
//
//===----------------------------------------------------------------------===//
#ifndef SAMPLER_ENTRYTWIN_H
#define SAMPLER_ENTRYTWIN_H

#include "llvm/IR/PassManager.h"

namespace llvm {
class Function;
class Instruction;
} // namespace llvm

namespace sampler {

/// Whether \p I is a call once lowered: a call of a function (not the
/// runtime's draw, not a counter's add in inline assembly) or a memcpy,
/// memset or memmove of a length known only at run time. A function with
/// none calls nothing, and needs a frame only for its own registers.
bool isCallOnceLowered(const llvm::Instruction &I);

/// Whether \p F's arguments can be passed on by a tail call to a private
/// copy of it that an exact copy of its body can serve: not varargs, the C
/// or fast calling convention, no argument passed in memory or with a
/// special role, and no block whose address is taken.
bool canTwin(const llvm::Function &F);

struct SamplerEntryTwinPass : llvm::PassInfoMixin<SamplerEntryTwinPass> {
  explicit SamplerEntryTwinPass(unsigned Limit) : Limit(Limit) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);

private:
  unsigned Limit;
};

} // namespace sampler

#endif

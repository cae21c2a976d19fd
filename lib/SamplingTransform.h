//===- SamplingTransform.h - Fast and instrumented copies, stitched -------===//
//
// The sampling transformation of Liblit et al. (PLDI 2003), on LLVM IR. For a
// function with sites (markers, docs/internals.md §3):
//
//   * the function body is cloned: the original blocks become the *fast copy*,
//     in which every site is `--countdown` (the optimiser folds the decrements
//     of a straight-line region into one subtract); the clones (suffix .slow)
//     the *instrumented copy*, in which a site is
//     `if (--countdown <= 0) { r = next(); if (r > 0) observe; }`;
//   * threshold checks sit at function entry, on every loop back edge, after
//     every call to a weighty function, and after every landing pad. A check
//     for a region of weight W (the most sites on any acyclic path from it to
//     the next check) is `if (countdown > W) fast else slow`; a region of
//     weight 0 goes straight to the fast copy.
//   * Both copies consume exactly one trial per site crossed, whatever the
//     path, so the countdown stays geometric and every site execution is
//     sampled with probability exactly 1/d, independently (docs/sampling.md
//     explains why subtracting W at the check instead would be biased).
//   * The thread-local countdown is imported into a local at entry and after
//     weighty calls and landing pads, and exported before weighty calls, calls
//     that may unwind, returns and resumes, so the optimiser keeps it in a
//     register.
//
// Functions that cannot be cloned (indirectbr, callbr, funclet EH, token
// values, convergent/noduplicate calls, coroutines) keep a single copy in
// which every site works on the thread-local countdown directly: slower,
// equally fair.
//
//===----------------------------------------------------------------------===//
#ifndef SAMPLER_SAMPLINGTRANSFORM_H
#define SAMPLER_SAMPLINGTRANSFORM_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Module.h"

namespace sampler {

class WeightlessInfo;

class SamplingTransform {
public:
  /// Functions whose heaviest region has fewer than \p CloneThreshold sites
  /// keep a single copy.
  /// With \p LocalExecInExecutables, code built for an executable (PIE or
  /// non-PIC) reaches the countdown with the local-exec TLS model.
  SamplingTransform(llvm::Module &M, const WeightlessInfo &WI,
                    unsigned CloneThreshold, bool LocalExecInExecutables);
  /// Rewrites \p F's markers. Returns false if F was lowered in place
  /// (single copy) rather than cloned.
  bool run(llvm::Function &F);

  /// The functions run() has created (instrumented copies of their own).
  llvm::ArrayRef<llvm::Function *> created() const { return Created; }

  /// Lowering for the unconditional build: every marker becomes `true`.
  static void lowerUnconditional(llvm::Function &F);

private:
  bool canClone(llvm::Function &F) const;
  /// One region, and arguments a call can pass on: the instrumented copy can
  /// be a function of its own (outline()).
  bool canOutline(llvm::Function &F) const;
  void outline(llvm::Function &F, llvm::ArrayRef<llvm::CallInst *> Markers);
  /// The most sites on a path between two points where cloning would place
  /// checks (entry, back edges, weighty calls, landing pads).
  uint64_t heaviestRegion(llvm::Function &F) const;
  void lowerInPlace(llvm::Function &F);

  llvm::Module &M;
  const WeightlessInfo &WI;
  unsigned CloneThreshold;
  llvm::GlobalVariable *Countdown;
  llvm::FunctionCallee Next;
  llvm::SmallVector<llvm::Function *, 16> Created;
};

} // namespace sampler

#endif

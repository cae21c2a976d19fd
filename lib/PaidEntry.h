//===- PaidEntry.h - A callee's entry check paid by its caller --*- C++ -*-===//
//
// DESCRIPTION
//   Most calls into a function with sites pay its entry check: Lua's
//   workload runs 58.7M of them, SQLite's speedtest1 42.8M, two to four
//   instructions each (docs/benchmarks.md, "The checks' share at abb4e29").
//   CheckMerge.h lets a check pay for the next one when the callee was
//   inlined; this does the same across a call that stays a call.
//
//   Before CheckMerge, at the end of the pipeline, a small function F whose
//   entry block is nothing but its check (allocas aside)
//
//     countdown -= W; if (countdown >= 0) -> Fast; else -> Slow
//
//   gets a private copy F.sampler.paid whose entry goes to Fast at once:
//   F entered with its first region already paid. CheckMerge then treats a
//   direct call of F as a check of weight W wherever it would merge an
//   inlined check there (every path from a check's fast edge reaches the
//   call before anything touches the countdown, or the ways that miss it
//   give W back): the caller's check pays W more and the call goes to
//   F.sampler.paid. After CheckMerge the copies nobody calls go.
//
//   Exact, seed for seed, by CheckMerge's argument: on every path the
//   countdown goes through the same values at the same sites. Where the
//   caller's check passes, F's own check would have passed on the same
//   countdown (nothing touched it in between); where it fails, the caller's
//   instrumented copy runs with W given back and calls F itself.
//
//   Only functions of at most Limit instructions get a copy (its .text is
//   F's fast code again), and only direct calls within the unit can use it:
//   calls through pointers and into other units keep paying F's check.
//
// USAGE
//   opt-19 -load-pass-plugin=build/lib/SamplerPassLLVM.so
//       -passes='sampler,default<O2>' in.ll       (runs at OptimizerLast)
//   opt-19 -load-pass-plugin=build/lib/SamplerPassLLVM.so
//       -passes='sampler-paid-entry,function(sampler-check-merge),sampler-paid-entry-cleanup'
//       in.ll -S                                  (these passes alone)
//   sampler-cc -fsampler-paid-entry-limit=N ...  (largest F, instructions)
//   sampler-cc -fsampler-paid-entry-limit=0 ...  (off, to measure)
//
//===----------------------------------------------------------------------===//
#ifndef SAMPLER_PAIDENTRY_H
#define SAMPLER_PAIDENTRY_H

#include "llvm/IR/PassManager.h"

#include <cstdint>
#include <optional>

namespace llvm {
class CallInst;
class Instruction;
class Function;
} // namespace llvm

namespace sampler {

/// The copies' suffix, and the attributes by which F names its copy and the
/// weight the copy leaves unpaid, for CheckMerge.
inline constexpr char PaidEntrySuffix[] = ".sampler.paid";
inline constexpr char PaidEntryAttr[] = "sampler-paid-entry";
inline constexpr char PaidWeightAttr[] = "sampler-paid-weight";

/// A call that may go to its callee's paid copy, the weight its caller must
/// pay for it, and that copy.
struct PaidCall {
  llvm::CallInst *Call;
  uint64_t W;
  llvm::Function *Paid;
};

/// Whether \p I is a direct call of a function with a paid copy.
std::optional<PaidCall> paidCall(const llvm::Instruction &I);

struct SamplerPaidEntryPass : llvm::PassInfoMixin<SamplerPaidEntryPass> {
  explicit SamplerPaidEntryPass(unsigned Limit) : Limit(Limit) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);

private:
  unsigned Limit;
};

/// After CheckMerge: the copies nobody calls go, and the attributes.
struct SamplerPaidEntryCleanupPass
    : llvm::PassInfoMixin<SamplerPaidEntryCleanupPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
};

} // namespace sampler

#endif

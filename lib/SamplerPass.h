//===- SamplerPass.h - The sampler module pass ----------------------------===//
//
// DESCRIPTION
//   Instruments a module for cooperative bug isolation: the selected schemes
//   insert sites (what is observed), the site table and the unit's counters
//   are emitted, and the sampling transformation (or, with sampling off, the
//   unconditional lowering) decides when each site is observed.
//
// USAGE
//   opt-19 -load-pass-plugin=build/lib/SamplerPassLLVM.so -passes=sampler
//       -sampler-schemes=branches,returns in.ll -S -o out.ll
//   clang-19 -fplugin=build/lib/SamplerPass.so
//       -fplugin-arg-sampler-schemes=branches -O2 -c x.c
//   clang-19 -fpass-plugin=build/lib/SamplerPass.so -O2 -c x.c
//   build/bin/sampler-cc -O2 x.c -o x        (what users run)
//
// Both phases run at the start of the pipeline (before optimisation), so the
// optimiser folds the fast path, and at -O0 too (the passes are required).
// `sampler-instrument` and `sampler-lower` run the phases separately (e.g.
// sampling after the optimiser: -passes='sampler-instrument,default<O2>,
// sampler-lower'), which docs/benchmarks.md measured and did not adopt.
//
//===----------------------------------------------------------------------===//
#ifndef SAMPLER_SAMPLERPASS_H
#define SAMPLER_SAMPLERPASS_H

#include "SamplerOptions.h"
#include "llvm/IR/PassManager.h"
#include <functional>

namespace llvm {
class PassBuilder;
}

namespace sampler {

/// Phase 1, at the start of the pipeline: the schemes insert their sites
/// (markers and observation code, docs/internals.md §3), and the unit's
/// counters, site table and registration are emitted. In the unconditional
/// build the markers are lowered at once (every execution observed).
class SamplerInstrumentPass : public llvm::PassInfoMixin<SamplerInstrumentPass> {
public:
  explicit SamplerInstrumentPass(SamplerOptions Opts) : Opts(std::move(Opts)) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }

private:
  SamplerOptions Opts;
};

/// Phase 2, at the end of the optimisation pipeline (after inlining): the
/// weightless analysis and the sampling transformation, which lowers every
/// marker. With \p Cleanup, transformed functions then get InstCombine and
/// SimplifyCFG, which fold each region's decrements into one subtract (no
/// optimisation runs after this point otherwise).
class SamplerLowerPass : public llvm::PassInfoMixin<SamplerLowerPass> {
public:
  SamplerLowerPass(SamplerOptions Opts, bool Cleanup)
      : Opts(std::move(Opts)), Cleanup(Cleanup) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }

private:
  SamplerOptions Opts;
  bool Cleanup;
};

/// Both phases back to back (`opt -passes=sampler`): what the IR tests use to
/// see the transformation's shape before any optimisation.
class SamplerPass : public llvm::PassInfoMixin<SamplerPass> {
public:
  explicit SamplerPass(SamplerOptions Opts) : Opts(std::move(Opts)) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
  static bool isRequired() { return true; }
  static llvm::StringRef name() { return "sampler"; }

private:
  SamplerOptions Opts;
};

/// The options an entry point hands the pass when no others are given:
/// from cl::opt in the LLVM-only plugin, from the plugin arguments (or the
/// defaults) in the clang plugin.
SamplerOptions getDefaultPassOptions();

/// Registers the passes with a PassBuilder: `-passes=sampler`,
/// `sampler-instrument` and `sampler-lower`, and both phases at the pipeline
/// start extension point.
void registerSamplerPass(llvm::PassBuilder &PB,
                         std::function<SamplerOptions()> GetOptions);

} // namespace sampler

#endif

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
// The pass runs at the start of the pipeline (before optimisation), so the
// optimiser folds the fast path, and at -O0 too (it is required).
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

/// Registers the pass with a PassBuilder: `-passes=sampler` and the pipeline
/// start extension point.
void registerSamplerPass(llvm::PassBuilder &PB,
                         std::function<SamplerOptions()> GetOptions);

} // namespace sampler

#endif

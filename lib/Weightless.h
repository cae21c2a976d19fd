//===- Weightless.h - Which calls can touch the countdown -----------------===//
//
// A function is weightless when no execution of it can reach a site: it has no
// sites and calls only weightless functions (least fixpoint over the module,
// so recursion among site-free functions stays weightless). A call to a
// weighty function must export the local countdown before it and import it
// after, and begins a new region (threshold check).
//
// Functions outside the module (declarations) are weighty unless known
// otherwise (docs/weightless.md):
//  - weightless: LLVM intrinsics; the sampler runtime; functions the front end
//    saw declared in a system header, and a built-in list of C library
//    functions (for opt, which has no front end); functions the user declares
//    weightless (option `weightless`, `#pragma sampler weightless(f)`,
//    `__attribute__((annotate("sampler_weightless")))`, IR attribute
//    "sampler-weightless");
//  - always weighty, even from system headers: functions that call back into
//    user code or jump (qsort, bsearch, pthread_create, atexit, signal,
//    sigaction, setjmp, longjmp, ...), and indirect calls.
//
//===----------------------------------------------------------------------===//
#ifndef SAMPLER_WEIGHTLESS_H
#define SAMPLER_WEIGHTLESS_H

#include "llvm/ADT/DenseSet.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Module.h"

namespace sampler {

struct SamplerOptions;

class WeightlessInfo {
public:
  /// \p HasSites: functions of the module that contain site markers.
  WeightlessInfo(llvm::Module &M, const SamplerOptions &Opts,
                 const llvm::DenseSet<const llvm::Function *> &HasSites);

  bool isWeighty(const llvm::Function *F) const { return Weighty.contains(F); }
  /// Whether this call can reach a site (and so touch the global countdown).
  bool isWeightyCall(const llvm::CallBase &CB) const;

  /// The policy for a function whose body is not in the module.
  static bool isWeightlessDeclaration(const llvm::Function &F,
                                      const SamplerOptions &Opts);
  /// Functions that call back into user code or jump: weighty by default.
  static bool takesCallbacks(llvm::StringRef Name);

private:
  const SamplerOptions &Opts;
  llvm::DenseSet<const llvm::Function *> Weighty;
};

} // namespace sampler

#endif

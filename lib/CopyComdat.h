//===- CopyComdat.h - Private copies go where their only callers go -*- C++ -*-===//
//
// DESCRIPTION
//   An inline function of C++ (a template, a method defined in its class) is
//   emitted by every unit that uses it, `linkonce_odr` in a comdat group of
//   its own, and the linker keeps one unit's group. The private copies sampler
//   makes of such a function F (its outlined instrumented copy
//   `F.sampler.slow`, its twin `F.sampler.twin`) are internal functions
//   outside any group, so the linker kept every unit's copy, though only the
//   kept F calls its own: the others were dead code in the program (two
//   `_Z3onei.sampler.slow` for one `_Z3onei`, test/e2e/comdat-copies.test).
//
//   At the end of the pipeline (after the inliner, which may have copied F's
//   call of its copy into other functions), a copy that only functions of one
//   comdat group call goes into that group: the linker then discards it with
//   them. A copy also called from elsewhere (F inlined into a caller outside
//   the group) stays out: a reference from outside a discarded group to a
//   symbol in it would not link. Copies calling copies are handled to a
//   fixpoint. ELF only (a COFF group needs its local members associative;
//   Mach-O has no groups).
//
//   Changes no code: which copies the linked program keeps.
//
// USAGE
//   opt-19 -load-pass-plugin=build/lib/SamplerPassLLVM.so
//       -passes='sampler,default<O2>' in.ll       (runs at OptimizerLast)
//   opt-19 -load-pass-plugin=build/lib/SamplerPassLLVM.so
//       -passes=sampler-copy-comdat in.ll -S      (this pass alone)
//
//===----------------------------------------------------------------------===//
#ifndef SAMPLER_COPYCOMDAT_H
#define SAMPLER_COPYCOMDAT_H

#include "llvm/IR/PassManager.h"

namespace sampler {

struct SamplerCopyComdatPass : llvm::PassInfoMixin<SamplerCopyComdatPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);
};

} // namespace sampler

#endif

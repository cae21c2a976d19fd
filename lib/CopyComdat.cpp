//===- CopyComdat.cpp - Private copies go where their only callers go ----===//
//
// See CopyComdat.h.
//
//===----------------------------------------------------------------------===//
#include "CopyComdat.h"
#include "SamplingTransform.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/IR/Comdat.h"
#include "llvm/IR/Module.h"
#include "llvm/TargetParser/Triple.h"

using namespace llvm;
using namespace sampler;

#define DEBUG_TYPE "sampler-copy-comdat"

STATISTIC(NumGrouped, "Private copies put in the comdat group of their callers");

/// The comdat group of every function that refers to \p G, if there is one
/// and only one (G's calls of itself aside); null if some reference is not
/// an instruction (a constant: a global's initialiser, a block address) or
/// is in a function outside any group.
static Comdat *onlyReferrersGroup(Function &G) {
  Comdat *Group = nullptr;
  for (User *U : G.users()) {
    auto *I = dyn_cast<Instruction>(U);
    if (!I)
      return nullptr;
    Function *Referrer = I->getFunction();
    if (Referrer == &G)
      continue;
    Comdat *C = Referrer->getComdat();
    if (!C || (Group && C != Group))
      return nullptr;
    Group = C;
  }
  return Group;
}

PreservedAnalyses SamplerCopyComdatPass::run(Module &M,
                                             ModuleAnalysisManager &) {
  if (!Triple(M.getTargetTriple()).isOSBinFormatELF())
    return PreservedAnalyses::all();
  // To a fixpoint: a copy called only from a copy joins the group once that
  // copy has.
  for (bool Again = true; Again;) {
    Again = false;
    for (Function &G : M) {
      if (G.isDeclaration() || G.hasComdat() || !isPrivateCopy(G))
        continue;
      if (Comdat *Group = onlyReferrersGroup(G)) {
        G.setComdat(Group);
        ++NumGrouped;
        Again = true;
      }
    }
  }
  // Only where the object file puts the code: no analysis looks at groups.
  return PreservedAnalyses::all();
}

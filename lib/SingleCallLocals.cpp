//===- SingleCallLocals.cpp - A local function called once stays called once ===//
//
// See SingleCallLocals.h.
//
//===----------------------------------------------------------------------===//
#include "SingleCallLocals.h"
#include "RuntimeABI.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/Transforms/Utils/Cloning.h"

using namespace llvm;
using namespace sampler;

#define DEBUG_TYPE "sampler-single-call"

STATISTIC(NumCalleeCopies, "Local functions called once given a copy for their caller's copies");
STATISTIC(NumRedirected, "Calls in copies redirected to the copy of their callee");

/// The name's suffix of the copy that the copies of its one caller call.
static constexpr char CopySuffix[] = ".sampler.callee";

SmallVector<SingleCall, 16> sampler::findSingleCallLocals(Module &M) {
  SmallVector<SingleCall, 16> Found;
  for (Function &G : M) {
    if (G.isDeclaration() || !G.hasLocalLinkage() || !G.hasOneUse() ||
        G.hasFnAttribute(Attribute::NoInline) ||
        G.hasFnAttribute(Attribute::AlwaysInline) ||
        G.hasFnAttribute(Attribute::OptimizeNone) ||
        G.getName().starts_with(abi::Prefix))
      continue;
    // Always-inline functions go into every caller anyway; a call that is
    // not G's callee (G passed as an argument) is not one the inliner takes.
    const Use &U = *G.use_begin();
    auto *CB = dyn_cast<CallBase>(U.getUser());
    if (!CB || !CB->isCallee(&U) || CB->getFunction() == &G)
      continue;
    Found.push_back({&G, WeakVH(CB)});
  }
  return Found;
}

unsigned sampler::redirectCopiedCalls(ArrayRef<SingleCall> Calls,
                                      SmallVectorImpl<Function *> &Created) {
  DenseMap<Function *, Function *> CopyOf;
  unsigned Redirected = 0;
  // To a fixpoint: a copy of a caller (G') holds copies of G's own calls,
  // which go to copies in turn. Each round redirects calls only, and a
  // function is copied once, so it ends.
  for (bool Again = true; Again;) {
    Again = false;
    for (const SingleCall &SC : Calls) {
      auto *Original = dyn_cast_or_null<CallBase>(SC.Call);
      Function *G = SC.Callee;
      if (!Original || Original->getCalledFunction() != G)
        continue;
      SmallVector<CallBase *, 4> Others;
      for (Use &U : G->uses())
        if (auto *CB = dyn_cast<CallBase>(U.getUser());
            CB && CB != Original && CB->isCallee(&U))
          Others.push_back(CB);
      if (Others.empty())
        continue;
      Function *&Copy = CopyOf[G];
      if (!Copy) {
        ValueToValueMapTy VMap;
        Copy = CloneFunction(G, VMap);
        Copy->setName(G->getName() + CopySuffix);
        Copy->setLinkage(GlobalValue::InternalLinkage);
        Copy->setUnnamedAddr(GlobalValue::UnnamedAddr::Global);
        Created.push_back(Copy);
        ++NumCalleeCopies;
      }
      for (CallBase *CB : Others)
        CB->setCalledFunction(Copy);
      Redirected += Others.size();
      Again = true;
    }
  }
  NumRedirected += Redirected;
  return Redirected;
}

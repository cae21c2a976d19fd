//===- LoopTails.cpp - Copies of outer loops for the way back to fast code -===//
//
// See LoopTails.h. The function is cloned while its values live in stack
// slots (SamplingTransform's step 3), so a block copies without PHIs to
// repair; the copies' edges are redirected by SamplingTransform, which puts
// checks on the check edges among them.
//
//===----------------------------------------------------------------------===//
#include "LoopTails.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

using namespace llvm;
using namespace sampler;

#define DEBUG_TYPE "sampler"

STATISTIC(NumTails, "Loops copied as tails (natural nests)");

STATISTIC(NumOpenLoops, "Loops of nests left open, without tails: their "
                        "loops call a function with a loop, inlined at its "
                        "one call");

STATISTIC(NumCycleTails, "Innermost loops copied as tails for the way back "
                         "into an irreducible cycle of their body");

void LoopTails::build(Function &F, const LoopInfo &Info,
                      ArrayRef<BasicBlock *> BackTargets,
                      const SmallPtrSetImpl<const Loop *> &Open) {
  LI = &Info;
  OpenNests.insert(Open.begin(), Open.end());
  SmallPtrSet<const Loop *, 4> AroundCycles;
  for (BasicBlock *BB : BackTargets)
    if (const Loop *X = Info.getLoopFor(BB); X && X->getHeader() != BB)
      AroundCycles.insert(X);
  for (Loop *X : Info.getLoopsInPreorder()) {
    if (OpenNests.count(X->getOutermostLoop())) {
      ++NumOpenLoops;
      continue;
    }
    if (X->isInnermost()) {
      if (!AroundCycles.count(X))
        continue;
      ++NumCycleTails;
    }
    ++NumTails;
    ValueToValueMapTy VMap;
    SmallVector<BasicBlock *, 32> Copies;
    auto &Map = Tails[X];
    for (BasicBlock *BB : X->blocks()) {
      BasicBlock *Copy = CloneBasicBlock(BB, VMap, ".tail", &F);
      VMap[BB] = Copy;
      Map[BB] = Copy;
      CopyToFast[Copy] = BB;
      Copies.push_back(Copy);
      Blocks.push_back({X, BB, Copy});
    }
    remapInstructionsInBlocks(Copies, VMap);
  }
}

bool LoopTails::mayEnter(const Loop *L) const {
  return !L->getParentLoop() ||
         (LI && (OpenNests.count(L->getOutermostLoop()) ||
                 Tails.count(L->getParentLoop())));
}

BasicBlock *LoopTails::entry(BasicBlock *Header) const {
  if (empty())
    return Header;
  const Loop *Y = LI->getLoopFor(Header);
  if (!Y || Y->getHeader() != Header || !Y->getParentLoop())
    return Header;
  auto It = Tails.find(Y->getParentLoop());
  return It == Tails.end() ? Header : It->second.lookup(Header);
}

BasicBlock *LoopTails::cycleEntry(BasicBlock *Entry) const {
  const Loop *X = LI ? LI->getLoopFor(Entry) : nullptr;
  if (!X || X->getHeader() == Entry)
    return nullptr;
  auto It = Tails.find(X);
  return It == Tails.end() ? nullptr : It->second.lookup(Entry);
}

BasicBlock *LoopTails::dest(const Loop *X, BasicBlock *To) const {
  if (To != X->getHeader() && X->contains(To))
    return Tails.find(X)->second.lookup(To);
  const Loop *A = LI->getLoopFor(To);
  if (!A)
    return To;
  if (A->getHeader() == To)
    return entry(To);
  // An exit into the body of a loop around X (A contains X: the CFG is
  // reducible where LoopInfo found loops).
  auto It = Tails.find(A);
  return It == Tails.end() ? To : It->second.lookup(To);
}

BasicBlock *LoopTails::original(BasicBlock *BB) const {
  BasicBlock *Fast = CopyToFast.lookup(BB);
  return Fast ? Fast : BB;
}

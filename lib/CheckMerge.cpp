//===- CheckMerge.cpp - Two checks in a row paid by the first -------------===//
//
// See CheckMerge.h.
//
//===----------------------------------------------------------------------===//
#include "CheckMerge.h"
#include "CheckShape.h"
#include "RuntimeABI.h"
#include "SamplingTransform.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Local.h"

#include <optional>

using namespace llvm;
using namespace sampler;

#define DEBUG_TYPE "sampler-check-merge"

STATISTIC(NumMerged, "Checks paid by the check before them");

/// The next check after \p First's fast edge, if every path from that edge
/// reaches it, nothing on the way touches the countdown (accesses it, or
/// calls what may), and no other way leads into those blocks: the blocks
/// reachable from the fast edge before a countdown access, each entered only
/// from among themselves (the first only from First's check), none returning,
/// and at their frontier one check, its load the first access in its block.
static std::optional<PaidCheck> nextCheck(const PaidCheck &First, const GlobalVariable *CD) {
  BasicBlock *From = First.Br->getParent();
  if (First.Fast->getSinglePredecessor() != From)
    return std::nullopt;
  SmallPtrSet<BasicBlock *, 16> Between; // before the next check
  SmallVector<BasicBlock *, 16> Work{First.Fast};
  BasicBlock *Next = nullptr;
  const Instruction *NextTouch = nullptr; // the first access in Next
  while (!Work.empty()) {
    BasicBlock *BB = Work.pop_back_val();
    if (BB == From || BB->isEHPad())
      return std::nullopt;
    if (BB == Next || Between.contains(BB))
      continue;
    if (Between.size() >= 32)
      return std::nullopt;
    auto Touch = find_if(*BB, [&](Instruction &I) { return touchesCountdown(I, CD); });
    if (Touch != BB->end()) {
      if (Next) // a second frontier block: not one check for every path
        return std::nullopt;
      Next = BB;
      NextTouch = &*Touch;
      continue;
    }
    Between.insert(BB);
    Instruction *T = BB->getTerminator();
    if (T->getNumSuccessors() == 0 || !isa<BranchInst, SwitchInst>(T))
      return std::nullopt; // a way out (return, unreachable) or one not followed
    for (BasicBlock *S : successors(BB))
      Work.push_back(S);
  }
  if (!Next)
    return std::nullopt;
  // Entered only from the fast edge: every predecessor of the blocks between
  // (the first's is First's check) and of the next check's is among them.
  for (BasicBlock *BB : Between)
    if (BB != First.Fast && any_of(predecessors(BB), [&](BasicBlock *P) {
          return !Between.contains(P);
        }))
      return std::nullopt;
  if (Next != First.Fast &&
      any_of(predecessors(Next), [&](BasicBlock *P) { return !Between.contains(P); }))
    return std::nullopt;
  std::optional<PaidCheck> Second = matchPaidCheck(Next, CD);
  if (!Second || Second->Load != NextTouch)
    return std::nullopt;
  return Second;
}

/// \p First pays for \p Second's region too: its payment grows by W2, its way
/// to its instrumented copy gives W2 back first, and Second always passes.
static void merge(PaidCheck &First, const PaidCheck &Second) {
  uint64_t W = First.W + Second.W;
  Type *I64 = First.Paid->getType();
  if (First.Paid->getOpcode() == Instruction::Add)
    First.Paid->setOperand(1, ConstantInt::get(I64, -static_cast<int64_t>(W)));
  else
    First.Paid->setOperand(1, ConstantInt::get(I64, W));
  First.W = W;

  BasicBlock *Back = SplitEdge(First.Br->getParent(), First.Slow);
  Back->setName("sampler.merged.back");
  IRBuilder<> B(Back->getTerminator());
  Value *Addr = First.Store->getPointerOperand();
  LoadInst *Old = B.CreateLoad(I64, Addr, /*isVolatile=*/true, "countdown");
  StoreInst *New = B.CreateStore(
      B.CreateAdd(Old, ConstantInt::get(I64, Second.W), "countdown.back"), Addr);
  Old->copyMetadata(*First.Load);
  New->copyMetadata(*First.Store);
  First.Slow = Back;

  // The second check: its fast edge only, its payment gone.
  BasicBlock *Here = Second.Br->getParent();
  BranchInst::Create(Second.Fast, Second.Br->getIterator());
  Second.Slow->removePredecessor(Here);
  Second.Br->eraseFromParent();
  Second.Cmp->eraseFromParent();
  Second.Store->eraseFromParent();
  Second.Paid->eraseFromParent();
  Second.Load->eraseFromParent();
  ++NumMerged;
}

PreservedAnalyses SamplerCheckMergePass::run(Function &F,
                                             FunctionAnalysisManager &) {
  const GlobalVariable *CD = F.getParent()->getGlobalVariable(abi::Countdown);
  if (!CD || F.isDeclaration())
    return PreservedAnalyses::all();
  bool Changed = false;
  SmallVector<BasicBlock *, 32> Blocks;
  for (BasicBlock &BB : F)
    Blocks.push_back(&BB);
  // (A block whose check a merge removed ends in a plain branch: no match.)
  for (BasicBlock *BB : Blocks) {
    std::optional<PaidCheck> First = matchPaidCheck(BB, CD);
    if (!First)
      continue;
    while (std::optional<PaidCheck> Second = nextCheck(*First, CD)) {
      merge(*First, *Second);
      Changed = true;
    }
  }
  if (!Changed)
    return PreservedAnalyses::all();
  removeUnreachableBlocks(F);
  return PreservedAnalyses::none();
}

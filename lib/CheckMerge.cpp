//===- CheckMerge.cpp - Two checks in a row paid by the first -------------===//
//
// See CheckMerge.h.
//
//===----------------------------------------------------------------------===//
#include "CheckMerge.h"
#include "RuntimeABI.h"
#include "SamplingTransform.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/PatternMatch.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Local.h"

#include <optional>

using namespace llvm;
using namespace llvm::PatternMatch;
using namespace sampler;

#define DEBUG_TYPE "sampler-check-merge"

STATISTIC(NumMerged, "Checks paid by the check before them");

namespace {
/// A check as the optimiser leaves it: `%c = load volatile countdown;
/// %p = add %c, -W; store %p, countdown; br (%p >= 0), Fast, Slow`.
struct Check {
  LoadInst *Load;
  BinaryOperator *Paid;
  StoreInst *Store;
  ICmpInst *Cmp;
  BranchInst *Br;
  uint64_t W;
  BasicBlock *Fast;
  BasicBlock *Slow;
};
} // namespace

/// The check that ends \p BB, if it has exactly that shape and its values
/// serve nothing else.
static std::optional<Check> matchCheck(BasicBlock *BB, const GlobalVariable *CD) {
  auto *Br = dyn_cast<BranchInst>(BB->getTerminator());
  if (!Br || !Br->isConditional())
    return std::nullopt;
  auto *Cmp = dyn_cast<ICmpInst>(Br->getCondition());
  Value *X;
  const APInt *C;
  if (!Cmp || Cmp->getParent() != BB || !Cmp->hasOneUse() ||
      !match(Cmp, m_ICmp(m_Value(X), m_APInt(C))))
    return std::nullopt;
  // X >= 0 on the true edge (sgt -1, sge 0) or on the false one (slt 0, sle -1).
  bool FastIsTrue;
  ICmpInst::Predicate P = Cmp->getPredicate();
  if ((P == ICmpInst::ICMP_SGT && C->isAllOnes()) || (P == ICmpInst::ICMP_SGE && C->isZero()))
    FastIsTrue = true;
  else if ((P == ICmpInst::ICMP_SLT && C->isZero()) ||
           (P == ICmpInst::ICMP_SLE && C->isAllOnes()))
    FastIsTrue = false;
  else
    return std::nullopt;
  auto *Paid = dyn_cast<BinaryOperator>(X);
  const APInt *Step;
  Value *Loaded;
  if (!Paid || Paid->getParent() != BB || !X->getType()->isIntegerTy(64))
    return std::nullopt;
  int64_t Delta;
  if (match(Paid, m_Add(m_Value(Loaded), m_APInt(Step))))
    Delta = Step->getSExtValue();
  else if (match(Paid, m_Sub(m_Value(Loaded), m_APInt(Step))))
    Delta = -Step->getSExtValue();
  else
    return std::nullopt;
  if (Delta >= 0 || Delta < -(int64_t(1) << 32))
    return std::nullopt;
  auto *Load = dyn_cast<LoadInst>(Loaded);
  if (!Load || Load->getParent() != BB || !Load->isVolatile() || !Load->hasOneUse() ||
      !isCountdownAddress(Load->getPointerOperand(), CD))
    return std::nullopt;
  // The payment's users: its store to the countdown and the compare.
  StoreInst *Store = nullptr;
  for (User *U : Paid->users()) {
    if (U == Cmp)
      continue;
    auto *SI = dyn_cast<StoreInst>(U);
    if (!SI || Store || SI->getParent() != BB || SI->getValueOperand() != Paid ||
        !isCountdownAddress(SI->getPointerOperand(), CD))
      return std::nullopt;
    Store = SI;
  }
  if (!Store)
    return std::nullopt;
  // Nothing else touches the countdown between the load and the store.
  for (auto It = std::next(Load->getIterator()); &*It != Store; ++It)
    if (touchesCountdown(*It, CD))
      return std::nullopt;
  BasicBlock *Fast = Br->getSuccessor(FastIsTrue ? 0 : 1);
  BasicBlock *Slow = Br->getSuccessor(FastIsTrue ? 1 : 0);
  if (Fast == Slow)
    return std::nullopt;
  return Check{Load, Paid, Store, Cmp, Br, static_cast<uint64_t>(-Delta), Fast, Slow};
}

/// The next check after \p First's fast edge, if every path from that edge
/// reaches it, nothing on the way touches the countdown (accesses it, or
/// calls what may), and no other way leads into those blocks: the blocks
/// reachable from the fast edge before a countdown access, each entered only
/// from among themselves (the first only from First's check), none returning,
/// and at their frontier one check, its load the first access in its block.
static std::optional<Check> nextCheck(const Check &First, const GlobalVariable *CD) {
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
  std::optional<Check> Second = matchCheck(Next, CD);
  if (!Second || Second->Load != NextTouch)
    return std::nullopt;
  return Second;
}

/// \p First pays for \p Second's region too: its payment grows by W2, its way
/// to its instrumented copy gives W2 back first, and Second always passes.
static void merge(Check &First, const Check &Second) {
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
    std::optional<Check> First = matchCheck(BB, CD);
    if (!First)
      continue;
    while (std::optional<Check> Second = nextCheck(*First, CD)) {
      merge(*First, *Second);
      Changed = true;
    }
  }
  if (!Changed)
    return PreservedAnalyses::all();
  removeUnreachableBlocks(F);
  return PreservedAnalyses::none();
}

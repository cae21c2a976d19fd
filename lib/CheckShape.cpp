//===- CheckShape.cpp - A fast-copy check as the optimiser leaves it ------===//
//
// See CheckShape.h.
//
//===----------------------------------------------------------------------===//
#include "CheckShape.h"
#include "SamplingTransform.h"

#include "llvm/IR/PatternMatch.h"

using namespace llvm;
using namespace llvm::PatternMatch;
using namespace sampler;

std::optional<bool> sampler::nonNegativeOnTrue(const ICmpInst &Cmp) {
  const APInt *C;
  if (!match(Cmp.getOperand(1), m_APInt(C)))
    return std::nullopt;
  ICmpInst::Predicate P = Cmp.getPredicate();
  if ((P == ICmpInst::ICMP_SGT && C->isAllOnes()) ||
      (P == ICmpInst::ICMP_SGE && C->isZero()))
    return true;
  if ((P == ICmpInst::ICMP_SLT && C->isZero()) ||
      (P == ICmpInst::ICMP_SLE && C->isAllOnes()))
    return false;
  return std::nullopt;
}

std::optional<PaidCheck> sampler::matchPaidCheck(BasicBlock *BB,
                                                 const GlobalVariable *CD) {
  auto *Br = dyn_cast<BranchInst>(BB->getTerminator());
  if (!Br || !Br->isConditional())
    return std::nullopt;
  auto *Cmp = dyn_cast<ICmpInst>(Br->getCondition());
  if (!Cmp || Cmp->getParent() != BB || !Cmp->hasOneUse())
    return std::nullopt;
  // X >= 0 on the true edge or on the false one.
  std::optional<bool> OnTrue = nonNegativeOnTrue(*Cmp);
  if (!OnTrue)
    return std::nullopt;
  bool FastIsTrue = *OnTrue;
  Value *X = Cmp->getOperand(0);
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
      Load->hasMetadata(InPlaceSiteMD) ||
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
  return PaidCheck{Load, Paid, Store, Cmp, Br, static_cast<uint64_t>(-Delta), Fast, Slow};
}

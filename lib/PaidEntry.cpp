//===- PaidEntry.cpp - A callee's entry check paid by its caller ----------===//
//
// See PaidEntry.h.
//
//===----------------------------------------------------------------------===//
#include "PaidEntry.h"
#include "CheckShape.h"
#include "RuntimeABI.h"
#include "SamplingTransform.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/Local.h"

using namespace llvm;
using namespace sampler;

#define DEBUG_TYPE "sampler-paid-entry"

STATISTIC(NumCopies, "Functions given a copy entered with its first region paid");
STATISTIC(NumUnused, "Such copies no call used");

/// The check ending \p F's entry block, if that block holds nothing else but
/// allocas, the countdown's address and debug records: the copy then only
/// drops the check.
static std::optional<PaidCheck> entryOnlyCheck(Function &F,
                                               const GlobalVariable *CD) {
  BasicBlock &Entry = F.getEntryBlock();
  std::optional<PaidCheck> C = matchPaidCheck(&Entry, CD);
  if (!C)
    return std::nullopt;
  for (Instruction &I : Entry) {
    if (&I == C->Load || &I == C->Paid || &I == C->Store || &I == C->Cmp ||
        &I == C->Br || isa<AllocaInst>(I) || isa<DbgInfoIntrinsic>(I))
      continue;
    if (auto *II = dyn_cast<IntrinsicInst>(&I);
        II && II->getIntrinsicID() == Intrinsic::threadlocal_address)
      continue;
    return std::nullopt;
  }
  return C;
}

/// Whether \p F may get a paid copy: a body the unit's own (not replaced at
/// link time), no variable arguments, no block whose address is taken (the
/// copy's computed gotos would jump into F), not one of the other copies.
static bool mayCopy(const Function &F, unsigned Limit) {
  if (F.isDeclaration() || F.isInterposable() || F.isVarArg() ||
      F.hasOptNone() || isPrivateCopy(F) || F.getInstructionCount() > Limit)
    return false;
  for (const BasicBlock &BB : F)
    if (BB.hasAddressTaken())
      return false;
  return true;
}

std::optional<PaidCall> sampler::paidCall(const Instruction &I) {
  auto *CI = dyn_cast<CallInst>(&I);
  Function *Callee = CI ? CI->getCalledFunction() : nullptr;
  if (!Callee || !Callee->hasFnAttribute(PaidEntryAttr) ||
      CI->getFunctionType() != Callee->getFunctionType())
    return std::nullopt;
  Function *Paid = Callee->getParent()->getFunction(
      Callee->getFnAttribute(PaidEntryAttr).getValueAsString());
  uint64_t W;
  if (!Paid ||
      Callee->getFnAttribute(PaidWeightAttr).getValueAsString().getAsInteger(10, W))
    return std::nullopt;
  return PaidCall{const_cast<CallInst *>(CI), W, Paid};
}

PreservedAnalyses SamplerPaidEntryPass::run(Module &M, ModuleAnalysisManager &) {
  const GlobalVariable *CD = M.getGlobalVariable(abi::Countdown);
  if (!CD || !Limit)
    return PreservedAnalyses::all();
  SmallVector<Function *, 32> Candidates;
  for (Function &F : M)
    if (mayCopy(F, Limit) && entryOnlyCheck(F, CD))
      Candidates.push_back(&F);
  for (Function *F : Candidates) {
    ValueToValueMapTy VMap;
    Function *G = clonePrivate(*F, VMap, PaidEntrySuffix);
    std::optional<PaidCheck> C = matchPaidCheck(&G->getEntryBlock(), CD);
    assert(C && "the copy's entry is F's");
    // Entered with the region paid: straight to the fast copy.
    BasicBlock *Entry = C->Br->getParent();
    BranchInst::Create(C->Fast, C->Br->getIterator());
    C->Slow->removePredecessor(Entry);
    C->Br->eraseFromParent();
    C->Cmp->eraseFromParent();
    C->Store->eraseFromParent();
    C->Paid->eraseFromParent();
    Value *Addr = C->Load->getPointerOperand();
    C->Load->eraseFromParent();
    RecursivelyDeleteTriviallyDeadInstructions(Addr);
    removeUnreachableBlocks(*G);
    F->addFnAttr(PaidEntryAttr, G->getName());
    F->addFnAttr(PaidWeightAttr, std::to_string(C->W));
    ++NumCopies;
  }
  return Candidates.empty() ? PreservedAnalyses::all()
                            : PreservedAnalyses::none();
}

PreservedAnalyses SamplerPaidEntryCleanupPass::run(Module &M,
                                                   ModuleAnalysisManager &) {
  bool Changed = false;
  SmallVector<Function *, 32> Unused;
  for (Function &F : M) {
    if (!F.hasFnAttribute(PaidEntryAttr))
      continue;
    if (Function *G = M.getFunction(
            F.getFnAttribute(PaidEntryAttr).getValueAsString());
        G && G->use_empty())
      Unused.push_back(G);
    F.removeFnAttr(PaidEntryAttr);
    F.removeFnAttr(PaidWeightAttr);
    Changed = true;
  }
  for (Function *G : Unused) {
    G->eraseFromParent();
    ++NumUnused;
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

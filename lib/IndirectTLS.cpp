//===- IndirectTLS.cpp - The countdown reached through the thread pointer -===//
//
// See IndirectTLS.h. For each function that touches the countdown:
//   1. mark it "indirect-tls-seg-refs";
//   2. if it touches the countdown in two blocks or more, make every access
//      go through one `freeze` of its llvm.threadlocal.address call, in the
//      entry block: an instruction, not a constant, so that the backend
//      computes the address once and keeps it in a register (or a spill
//      slot) rather than again in every block.
//
//===----------------------------------------------------------------------===//
#include "IndirectTLS.h"
#include "RuntimeABI.h"
#include "SamplingTransform.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/TargetParser/Triple.h"

using namespace llvm;
using namespace sampler;

#define DEBUG_TYPE "sampler-indirect-tls"

STATISTIC(NumMarked, "Functions that reach the countdown through %fs:0");
STATISTIC(NumHeld, "Functions that keep the countdown's address in a register");

/// The attribute clang's -mno-tls-direct-seg-refs gives every function; the
/// x86 instruction selector reads it (X86ISelDAGToDAG.cpp).
static constexpr char IndirectAttr[] = "indirect-tls-seg-refs";

/// Step 2 for \p F: its loads, stores and draws' memory operands of the
/// countdown use one frozen address when they are in two blocks or more.
/// (A constant address, which llvm.threadlocal.address is to the instruction
/// selector, is computed again in every block that uses it: with the
/// attribute, a load of the thread pointer from %fs:0 a block. One
/// instruction a check more, and measured slower than the register:
/// docs/benchmarks.md.)
static bool holdAddress(Function &F, GlobalVariable *Countdown) {
  SmallVector<Use *, 16> Uses;
  SmallPtrSet<BasicBlock *, 4> Blocks;
  for (BasicBlock &BB : F)
    for (Instruction &I : BB) {
      Use *Addr = nullptr;
      if (auto *LI = dyn_cast<LoadInst>(&I))
        Addr = &LI->getOperandUse(LoadInst::getPointerOperandIndex());
      else if (auto *SI = dyn_cast<StoreInst>(&I))
        Addr = &SI->getOperandUse(StoreInst::getPointerOperandIndex());
      else if (auto *CB = dyn_cast<CallBase>(&I); CB && drawStoresCountdown(CB))
        Addr = &CB->getArgOperandUse(0); // its memory operand
      if (Addr && isCountdownAddress(Addr->get(), Countdown)) {
        Uses.push_back(Addr);
        Blocks.insert(&BB);
      }
    }
  if (Blocks.size() < 2)
    return false;
  auto *Addr = dyn_cast<Instruction>(countdownAddressFor(F, Countdown));
  if (!Addr)
    return false; // the global itself: a presplit coroutine
  auto *Held = new FreezeInst(Addr, "countdown.held",
                              std::next(Addr->getIterator()));
  for (Use *U : Uses)
    U->set(Held);
  return true;
}

PreservedAnalyses SamplerIndirectTLSPass::run(Module &M,
                                              ModuleAnalysisManager &) {
  GlobalVariable *Countdown = M.getGlobalVariable(abi::Countdown);
  if (!Countdown || !Triple(M.getTargetTriple()).isX86())
    return PreservedAnalyses::all();
  // The functions that use the global: through their llvm.threadlocal.address
  // call (SamplingTransform.h, countdownAddressFor) or directly, and through
  // constant expressions.
  SmallPtrSet<Function *, 32> Users;
  SmallVector<User *, 16> Work(Countdown->users());
  SmallPtrSet<User *, 16> Seen;
  while (!Work.empty()) {
    User *U = Work.pop_back_val();
    if (!Seen.insert(U).second)
      continue;
    if (auto *I = dyn_cast<Instruction>(U))
      Users.insert(I->getFunction());
    else if (isa<ConstantExpr>(U))
      Work.append(U->user_begin(), U->user_end());
  }
  bool Changed = false;
  for (Function *F : Users) {
    if (!F->hasFnAttribute(IndirectAttr)) {
      F->addFnAttr(IndirectAttr);
      ++NumMarked;
      Changed = true;
    }
    // At -O0 (optnone) every value lives in memory anyway.
    if (!F->hasOptNone() && holdAddress(*F, Countdown)) {
      ++NumHeld;
      Changed = true;
    }
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

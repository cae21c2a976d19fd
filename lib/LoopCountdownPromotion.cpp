//===- LoopCountdownPromotion.cpp - The countdown in a register round loops ===//
//
// See LoopCountdownPromotion.h. For each loop, outermost first:
//   1. no call in it may reach code touching the countdown
//      (mayTouchCountdown); loop-simplify form (a preheader, dedicated exits);
//   2. it is put in LCSSA form, so that a countdown value used after the loop
//      goes through an exit block's PHI;
//   3. LoadAndStorePromoter (as LICM uses it) rewrites the loop's loads of the
//      countdown to the value last stored on the way there, from a load
//      placed in the preheader, and removes the loop's stores; each exit
//      block then stores the value live into it; LCSSA is restored for the
//      loops inside.
//
//===----------------------------------------------------------------------===//
#include "LoopCountdownPromotion.h"
#include "RuntimeABI.h"
#include "SamplingTransform.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Transforms/Utils/LoopSimplify.h"
#include "llvm/Transforms/Utils/LoopUtils.h"
#include "llvm/Transforms/Utils/SSAUpdater.h"

using namespace llvm;
using namespace sampler;

#define DEBUG_TYPE "sampler-loop-promote"

STATISTIC(NumPromoted, "Loops that carry the countdown in a register");
STATISTIC(NumWithCalls, "Loops with checks left in memory (calls)");

// Calls that may reach instrumented code (mayTouchCountdown,
// SamplingTransform.h) keep a loop's checks in memory.

namespace {
/// Stores the countdown on each of the loop's exits (dedicated exit blocks):
/// the value live into the block, through an LCSSA PHI when it is defined in
/// the loop.
class CountdownPromoter : public LoadAndStorePromoter {
  Value *Countdown; // its address in the function (countdownAddressFor)
  ArrayRef<BasicBlock *> Exits;
  const LoopInfo &LI;
  MDNode *TBAA;

public:
  CountdownPromoter(ArrayRef<const Instruction *> Insts, SSAUpdater &SSA,
                    Value *Countdown, ArrayRef<BasicBlock *> Exits,
                    const LoopInfo &LI, MDNode *TBAA)
      : LoadAndStorePromoter(Insts, SSA, "countdown.reg"), Countdown(Countdown),
        Exits(Exits), LI(LI), TBAA(TBAA) {}

  void doExtraRewritesBeforeFinalDeletion() override {
    for (BasicBlock *Exit : Exits) {
      Value *V = SSA.GetValueInMiddleOfBlock(Exit);
      if (auto *I = dyn_cast<Instruction>(V))
        if (const Loop *Def = LI.getLoopFor(I->getParent());
            Def && !Def->contains(Exit)) {
          auto *PN = PHINode::Create(V->getType(), pred_size(Exit),
                                     V->getName() + ".lcssa");
          PN->insertBefore(Exit->begin());
          for (BasicBlock *Pred : predecessors(Exit))
            PN->addIncoming(V, Pred);
          V = PN;
        }
      auto *SI = new StoreInst(V, Countdown, Exit->getFirstInsertionPt());
      SI->setMetadata(LLVMContext::MD_tbaa, TBAA);
    }
  }
};
} // namespace

/// A call to an instrumented copy of its own (abi::InstrumentedCopyAttr): it
/// works on the countdown in memory, and the promotion hands it over.
static bool callsInstrumentedCopy(const Instruction &I) {
  const auto *CB = dyn_cast<CallInst>(&I); // an invoke's way on is an edge
  const Function *Callee = CB ? CB->getCalledFunction() : nullptr;
  return Callee && Callee->hasFnAttribute(abi::InstrumentedCopyAttr);
}

/// Steps 1-3 for one loop; false if it keeps its checks in memory.
static bool promote(Loop &L, GlobalVariable *Countdown, DominatorTree &DT,
                    LoopInfo &LI, ScalarEvolution &SE, AssumptionCache &AC,
                    bool NaturalNests, bool &Changed) {
  SmallVector<Instruction *, 16> Accesses;
  SmallVector<LoadInst *, 8> Rereads;
  SmallVector<CallInst *, 4> Handovers;
  SmallVector<CallInst *, 4> StoringDraws;
  bool Stores = false;
  for (BasicBlock *BB : L.blocks()) {
    bool StoreAfter = false; // a store of the countdown later in BB
    for (Instruction &I : reverse(*BB)) {
      if (Value *Ptr = getLoadStorePointerOperand(&I);
          Ptr && isCountdownAddress(Ptr, Countdown)) {
        auto *LI = dyn_cast<LoadInst>(&I);
        if (LI && LI->isVolatile() && !StoreAfter)
          Rereads.push_back(LI);
        else
          Accesses.push_back(&I);
        StoreAfter |= isa<StoreInst>(I);
        Stores |= isa<StoreInst>(I);
        continue;
      }
      if (callsInstrumentedCopy(I)) {
        Handovers.push_back(cast<CallInst>(&I));
        continue;
      }
      if (auto *CI = dyn_cast<CallInst>(&I); CI && drawStoresCountdown(CI)) {
        StoringDraws.push_back(CI);
        Stores = true;
        // A check's fresh draw follows the reread of its way to the
        // instrumented copy (its input), which stays a reread.
        StoreAfter |= !isFreshDrawAsm(CI);
        continue;
      }
      if (mayTouchCountdown(I)) {
        ++NumWithCalls;
        return false;
      }
    }
  }
  if (!Stores)
    return false; // no check here: nothing to gain
  // With natural nests (SamplerOptions::NaturalNests), a loop whose inner
  // loops have checks of their own leaves them to be promoted one by one:
  // the countdown carried through the nest made the inner loops' exit values
  // arithmetic of the outer loop, for which loop strength reduction kept a
  // second copy of the countdown in each inner loop (bzip2's mainQSort3: one
  // more `add` an iteration; the whole program 1.9% more instructions). (A
  // check's load is volatile; the payments of a bounded loop's copy, which
  // has no check, are plain loads and stores and do not count.) Without
  // natural nests such a loop is rare, and promoting it whole measured
  // better (bzip2 0.8% fewer instructions).
  if (NaturalNests)
    for (const Loop *Inner : L.getSubLoops())
      for (BasicBlock *BB : Inner->blocks())
        for (Instruction &I : *BB)
          if (auto *LI = dyn_cast<LoadInst>(&I);
              LI && LI->isVolatile() &&
              isCountdownAddress(LI->getPointerOperand(), Countdown))
            return false;

  // The fast copy's loops are entered from the instrumented copy too, and
  // their early exits often join other paths: a preheader and exit blocks of
  // their own (the blocks of the loop stay as they are).
  Changed |= simplifyLoop(&L, &DT, &LI, &SE, &AC, nullptr,
                          /*PreserveLCSSA=*/false);
  BasicBlock *Preheader = L.getLoopPreheader();
  if (!Preheader || !L.hasDedicatedExits())
    return false;
  // New accesses go through the function's address of the countdown, as the
  // transformation's own do.
  Value *Addr = countdownAddressFor(*Preheader->getParent(), Countdown);
  MDNode *TBAA = nullptr;
  for (Instruction *I : Accesses)
    if ((TBAA = I->getMetadata(LLVMContext::MD_tbaa)))
      break;

  // The way from a check to the instrumented copy reads the countdown again
  // (a volatile load: SamplingTransform's resolveUnknown) so that the value
  // before the payment is not kept alive beside the paid one (a copy and a
  // jump more per iteration; zlib's longest_match). It still does, from
  // memory: the value carried so far is stored just before it.
  for (LoadInst *Reread : Rereads) {
    auto *Carried = new LoadInst(Reread->getType(), Addr, "countdown.carried",
                                 Reread->getIterator());
    auto *Export = new StoreInst(Carried, Addr, Reread->getIterator());
    Export->copyMetadata(*Reread, {LLVMContext::MD_tbaa});
    Accesses.push_back(Carried);
  }

  // A call to an instrumented copy of its own (the way there from a check,
  // once the slow copy is outlined, or a one-region callee's, inlined) reads
  // and writes the countdown in memory: the value carried is stored before
  // it, and what it leaves is loaded after it and carried on.
  for (CallInst *Call : Handovers) {
    auto *Carried = new LoadInst(Countdown->getValueType(), Addr,
                                 "countdown.carried", Call->getIterator());
    auto *Export = new StoreInst(Carried, Addr, Call->getIterator());
    Export->setMetadata(LLVMContext::MD_tbaa, TBAA);
    auto *Import = new LoadInst(Countdown->getValueType(), Addr,
                                "countdown.after", std::next(Call->getIterator()));
    Import->setMetadata(LLVMContext::MD_tbaa, TBAA);
    auto *Define = new StoreInst(Import, Addr, std::next(Import->getIterator()));
    Accesses.push_back(Carried);
    Accesses.push_back(Define);
  }

  // A draw that stores the countdown (a site's or a check's fresh one, on
  // its draw's way only; the countdown it leaves is its result, a site's
  // first, either way) gets that store in IR after it, for the promoter to
  // carry in a register. Its own store to
  // memory stays: every read of memory in the loop follows an export of the
  // value carried (above), and the exits store it.
  for (CallInst *Draw : StoringDraws) {
    Value *Left = Draw;
    Instruction *After = Draw;
    if (Draw->getType()->isStructTy())
      Left = After = ExtractValueInst::Create(Draw, 0, "countdown.left",
                                              std::next(Draw->getIterator()));
    auto *Store = new StoreInst(Left, Addr, std::next(After->getIterator()));
    Store->setMetadata(LLVMContext::MD_tbaa, TBAA);
    Accesses.push_back(Store);
  }

  formLCSSA(L, DT, &LI, &SE);
  SmallVector<BasicBlock *, 8> Exits;
  L.getUniqueExitBlocks(Exits);
  SmallVector<PHINode *, 16> NewPHIs;
  SSAUpdater SSA(&NewPHIs);
  SmallVector<const Instruction *, 16> Insts(Accesses.begin(), Accesses.end());
  CountdownPromoter Promoter(Insts, SSA, Addr, Exits, LI, TBAA);
  auto *Entry = new LoadInst(Countdown->getValueType(), Addr,
                             "countdown.promoted",
                             Preheader->getTerminator()->getIterator());
  Entry->setMetadata(LLVMContext::MD_tbaa, TBAA);
  SSA.AddAvailableValue(Preheader, Entry);
  Promoter.run(Accesses);
  if (Entry->use_empty())
    Entry->eraseFromParent();
  // A value of an inner loop may now be used after it, in this loop's body
  // (a load there rewritten): LCSSA again, as LICM does after promoting.
  formLCSSARecursively(L, DT, &LI, &SE);
  ++NumPromoted;
  return true;
}

PreservedAnalyses SamplerLoopPromotePass::run(Function &F,
                                              FunctionAnalysisManager &FAM) {
  GlobalVariable *Countdown = F.getParent()->getGlobalVariable(abi::Countdown);
  if (!Countdown || F.isDeclaration())
    return PreservedAnalyses::all();
  auto &LI = FAM.getResult<LoopAnalysis>(F);
  if (LI.empty())
    return PreservedAnalyses::all();
  auto &DT = FAM.getResult<DominatorTreeAnalysis>(F);
  auto &SE = FAM.getResult<ScalarEvolutionAnalysis>(F);
  auto &AC = FAM.getResult<AssumptionAnalysis>(F);
  bool Changed = false;
  SmallVector<Loop *, 8> Work(LI.begin(), LI.end());
  while (!Work.empty()) {
    Loop *L = Work.pop_back_val();
    if (promote(*L, Countdown, DT, LI, SE, AC, NaturalNests, Changed))
      Changed = true;
    else
      Work.append(L->begin(), L->end());
  }
  if (!Changed)
    return PreservedAnalyses::all();
  // New blocks (preheaders, exits), PHIs and values.
  return PreservedAnalyses::none();
}

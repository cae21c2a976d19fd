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

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/BlockFrequencyInfo.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/InlineAsm.h"
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

/// Whether \p I is a call (not an invoke: an invoke's way on is an edge) of a
/// function with the attribute \p Attr:
/// - abi::InstrumentedCopyAttr, an instrumented copy of its own: it works on
///   the countdown in memory, and the promotion hands it over;
/// - abi::PaidBodyAttr, a paid callee's body (SamplingTransform.h): it
///   touches no countdown, but the countdown carried in a register across it
///   takes a callee-saved one, which the loop's own values then miss (SQLite's
///   vdbeRecordCompareString ran 8.2% more instructions with sampling off,
///   and speedtest1 0.24% more: docs/benchmarks.md, "Callees paid by their
///   callers"). Such a loop keeps its checks in memory, as it did when the
///   call was the callee's.
static bool callsFunctionWith(const Instruction &I, StringRef Attr) {
  const auto *CB = dyn_cast<CallInst>(&I);
  const Function *Callee = CB ? CB->getCalledFunction() : nullptr;
  return Callee && Callee->hasFnAttribute(Attr);
}

/// Whether \p BB reads or writes the countdown (checks, a bounded copy's
/// payments, the ways to the instrumented copy).
static bool touchesCountdown(const BasicBlock &BB, GlobalVariable *Countdown) {
  for (const Instruction &I : BB)
    if (const Value *Ptr = getLoadStorePointerOperand(&I);
        Ptr && isCountdownAddress(Ptr, Countdown))
      return true;
  return false;
}

static bool touchesCountdown(const Loop &L, GlobalVariable *Countdown) {
  return any_of(L.blocks(), [&](const BasicBlock *BB) {
    return touchesCountdown(*BB, Countdown);
  });
}

/// On every way out of an inner loop of \p L that takes trials, into L's
/// body: the countdown passed through an empty inline asm (its output tied
/// to its input: no instruction), a load and a store for the promoter to
/// carry in a register. ScalarEvolution then sees no induction variable
/// leave the inner loop. Without it, IndVarSimplify rewrote the exit value
/// as the start minus the trip count times the weight, and loop strength
/// reduction kept that as a second induction variable in the inner loop
/// (bzip2's mainQSort3: +3.8% instructions with sampling off).
static void hideInnerExitValues(Loop &L, const LoopInfo &LI,
                                GlobalVariable *Countdown, Value *Addr,
                                MDNode *TBAA,
                                SmallVectorImpl<Instruction *> &Accesses) {
  Type *I64 = Countdown->getValueType();
  auto *Opaque = InlineAsm::get(FunctionType::get(I64, {I64}, false), "",
                                "=r,0", /*hasSideEffects=*/false);
  SmallVector<Loop *, 8> Work(L.begin(), L.end());
  while (!Work.empty()) {
    Loop *Inner = Work.pop_back_val();
    Work.append(Inner->begin(), Inner->end());
    if (!touchesCountdown(*Inner, Countdown))
      continue;
    SmallVector<BasicBlock *, 4> Exits;
    Inner->getUniqueExitBlocks(Exits);
    for (BasicBlock *Exit : Exits) {
      if (!L.contains(Exit))
        continue; // L's own exits store the value they receive
      // Not in the header of another loop inside L, where it would run every
      // iteration and hide that loop's countdown from the vectoriser too.
      if (const Loop *In = LI.getLoopFor(Exit);
          In != &L && In->getHeader() == Exit)
        continue;
      if (Exit->getFirstInsertionPt() == Exit->end())
        continue; // no room for it (a catchswitch)
      auto *Out = new LoadInst(I64, Addr, "countdown.out",
                               Exit->getFirstInsertionPt());
      Out->setMetadata(LLVMContext::MD_tbaa, TBAA);
      auto *Hidden = CallInst::Create(Opaque, {Out}, "countdown.hidden",
                                      std::next(Out->getIterator()));
      auto *Store =
          new StoreInst(Hidden, Addr, std::next(Hidden->getIterator()));
      Store->setMetadata(LLVMContext::MD_tbaa, TBAA);
      Accesses.push_back(Out);
      Accesses.push_back(Store);
    }
  }
}

/// A check's read of the countdown (a volatile load: SamplingTransform), or
/// the way to the instrumented copy reading it again.
static bool isCheckLoad(const Instruction &I, GlobalVariable *Countdown) {
  const auto *Load = dyn_cast<LoadInst>(&I);
  return Load && Load->isVolatile() &&
         isCountdownAddress(Load->getPointerOperand(), Countdown);
}

/// A check: a volatile load of the countdown and the store of the value paid,
/// in one block (the way to the instrumented copy rereads it without a store).
static bool isCheckBlock(const BasicBlock &BB, GlobalVariable *Countdown) {
  bool Load = false, Store = false;
  for (const Instruction &I : BB) {
    Load |= isCheckLoad(I, Countdown);
    if (const auto *SI = dyn_cast<StoreInst>(&I))
      Store |= isCountdownAddress(SI->getPointerOperand(), Countdown);
  }
  return Load && Store;
}

/// Whether one of \p L's own checks (outside its inner loops) leads to
/// another with nothing between them but blocks of L's own that do not touch
/// the countdown: a pair that CheckMerge pays with one payment while the
/// countdown is in memory. Checks that an inner loop or the way round L's
/// back edge keeps apart are not such a pair: ccrypt's rounds, whose
/// rotation loops' exits get checks of their own under a profile (the
/// cold-heavy rule), then kept the countdown in memory round the nest.
static bool ownChecksInARow(const Loop &L, const LoopInfo &LI,
                            GlobalVariable *Countdown) {
  auto Own = [&](const BasicBlock *BB) { return LI.getLoopFor(BB) == &L; };
  for (BasicBlock *First : L.blocks()) {
    if (!Own(First) || !isCheckBlock(*First, Countdown))
      continue;
    SmallPtrSet<const BasicBlock *, 16> Seen;
    SmallVector<const BasicBlock *, 16> Work(succ_begin(First),
                                              succ_end(First));
    while (!Work.empty()) {
      const BasicBlock *BB = Work.pop_back_val();
      if (BB == L.getHeader() || !Own(BB) || !Seen.insert(BB).second)
        continue;
      if (isCheckBlock(*BB, Countdown))
        return true;
      if (touchesCountdown(*BB, Countdown))
        continue;
      Work.append(succ_begin(BB), succ_end(BB));
    }
  }
  return false;
}

/// Whether \p L's header runs less often than its function is entered, or
/// than the header of the loop around it (by the static or profile
/// frequencies): the instrumented copy's loops, whose way in is an unlikely
/// branch, also where they sit in a loop of the fast copy.
static bool isColdLoop(const Loop &L, const BlockFrequencyInfo &BFI) {
  BlockFrequency Freq = BFI.getBlockFreq(L.getHeader());
  const Loop *Around = L.getParentLoop();
  return Freq < BFI.getEntryFreq() ||
         (Around && Freq < BFI.getBlockFreq(Around->getHeader()));
}

/// Steps 1-3 for one loop; false if it keeps its checks in memory.
static bool promote(Loop &L, GlobalVariable *Countdown, DominatorTree &DT,
                    LoopInfo &LI, ScalarEvolution &SE, AssumptionCache &AC,
                    function_ref<BlockFrequencyInfo &()> GetBFI,
                    bool NaturalNests, bool WholeNests, bool &Changed) {
  SmallVector<Instruction *, 16> Accesses;
  SmallVector<LoadInst *, 8> Rereads;
  SmallVector<CallInst *, 4> Handovers;
  SmallVector<CallInst *, 4> StoringDraws;
  bool Stores = false;
  unsigned OwnChecks = 0; // volatile loads outside L's inner loops (below)
  for (BasicBlock *BB : L.blocks()) {
    bool StoreAfter = false; // a store of the countdown later in BB
    bool Own = LI.getLoopFor(BB) == &L;
    for (Instruction &I : reverse(*BB)) {
      if (Value *Ptr = getLoadStorePointerOperand(&I);
          Ptr && isCountdownAddress(Ptr, Countdown)) {
        auto *LI = dyn_cast<LoadInst>(&I);
        OwnChecks += Own && LI && LI->isVolatile();
        if (LI && LI->isVolatile() && !StoreAfter)
          Rereads.push_back(LI);
        else
          Accesses.push_back(&I);
        StoreAfter |= isa<StoreInst>(I);
        Stores |= isa<StoreInst>(I);
        continue;
      }
      if (callsFunctionWith(I, abi::InstrumentedCopyAttr)) {
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
      if (mayTouchCountdown(I) || callsFunctionWith(I, abi::PaidBodyAttr)) {
        ++NumWithCalls;
        return false;
      }
    }
  }
  if (!Stores)
    return false; // no check here: nothing to gain
  // A loop whose inner loops have checks of their own carries the countdown
  // through the whole nest (hideInnerExitValues says what that needs):
  // ccrypt's rounds, whose rotation loops check every iteration, kept
  // storing, loading and paying it in memory once an iteration of the round
  // around them. Without WholeNests, and with natural nests
  // (SamplerOptions::NaturalNests), such a loop leaves them to be promoted
  // one by one, as before (a check's load is volatile; the payments of a
  // bounded loop's copy, which has no check, are plain loads and stores and
  // do not count). Without natural nests such a loop is rare, and promoting
  // it whole measured better (bzip2 0.8% fewer instructions). Nor does a
  // loop with two checks or more of its own (outside its inner loops): in
  // memory, CheckMerge pays checks in a row with one payment at the end of
  // the pipeline, and carried in a register they would stay apart (zlib's
  // longest_match with every scheme: three tests an iteration where there
  // was one, +34% instructions). Checks kept apart by an inner loop or by
  // the way round are no such pair (ownChecksInARow), and the nest is
  // carried whole where it runs; a cold loop (isColdLoop: the instrumented
  // copy's) keeps the rule. Carried whole, those only moved the register
  // allocation of the fast copy's loops: ccrypt's xrijndaelEncrypt +1.7%
  // instructions with sampling off where cold meant colder than the entry,
  // bzip2's mainSort +0.4% until it also meant colder than the loop around.
  auto InnerChecks = [&] {
    return any_of(L.getSubLoops(), [&](const Loop *Inner) {
      return any_of(Inner->blocks(), [&](const BasicBlock *BB) {
        return any_of(*BB, [&](const Instruction &I) {
          return isCheckLoad(I, Countdown);
        });
      });
    });
  };
  if (NaturalNests && InnerChecks() &&
      (!WholeNests ||
       (OwnChecks > 1 && (ownChecksInARow(L, LI, Countdown) ||
                          isColdLoop(L, GetBFI())))))
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

  if (WholeNests)
    hideInnerExitValues(L, LI, Countdown, Addr, TBAA, Accesses);

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
  GlobalVariable *Countdown = countdownIn(*F.getParent());
  if (!Countdown || F.isDeclaration())
    return PreservedAnalyses::all();
  auto &LI = FAM.getResult<LoopAnalysis>(F);
  if (LI.empty())
    return PreservedAnalyses::all();
  auto &DT = FAM.getResult<DominatorTreeAnalysis>(F);
  auto &SE = FAM.getResult<ScalarEvolutionAnalysis>(F);
  auto &AC = FAM.getResult<AssumptionAnalysis>(F);
  // Asked for only where a nest's checks are apart. The loops promoted
  // before then add preheaders and exit blocks but leave the headers, whose
  // frequencies are all it is read for.
  auto GetBFI = [&]() -> BlockFrequencyInfo & {
    return FAM.getResult<BlockFrequencyAnalysis>(F);
  };
  bool Changed = false;
  SmallVector<Loop *, 8> Work(LI.begin(), LI.end());
  while (!Work.empty()) {
    Loop *L = Work.pop_back_val();
    if (promote(*L, Countdown, DT, LI, SE, AC, GetBFI, NaturalNests,
                WholeNests, Changed))
      Changed = true;
    else
      Work.append(L->begin(), L->end());
  }
  if (!Changed)
    return PreservedAnalyses::all();
  // New blocks (preheaders, exits), PHIs and values.
  return PreservedAnalyses::none();
}

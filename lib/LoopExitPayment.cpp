//===- LoopExitPayment.cpp - Check-free loops pay for their trials on exit -===//
//
// See LoopExitPayment.h. For each loop, inner loops first:
//   1. a preheader, dedicated exits and LCSSA form (as promotion leaves them);
//   2. a header PHI of the countdown whose recurrence {c0,+,-K} is all the
//      loop computes from it: every value of the countdown in the loop is the
//      PHI plus a constant, read only by another such value or by an exit
//      block's LCSSA PHI (a check reads it: such loops are left alone);
//   3. a counter: another header PHI {j0,+,s}, s dividing K, which widened to
//      64 bits is still a recurrence of the loop (no wrap), and for which
//      ScalarEvolution finds c0 + (-K/s)·(j - j0) the same recurrence;
//   4. in each exit block, the countdown is computed from the counter's value
//      there, and the recurrence is deleted.
//
//===----------------------------------------------------------------------===//
#include "LoopExitPayment.h"
#include "RuntimeABI.h"
#include "SamplingTransform.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/PatternMatch.h"

using namespace llvm;
using namespace sampler;

#define DEBUG_TYPE "sampler-loop-exit-pay"

STATISTIC(NumPaidOnExit, "Loops that pay for their trials on their exits");
STATISTIC(NumNoCounter,
          "Check-free loops without a counter to compute the payment from");

namespace {
/// A header PHI that counts the loop's iterations: {Start,+,Step}.
struct Counter {
  PHINode *Phi = nullptr;
  Value *Start = nullptr; // its value from the preheader
  int64_t Step = 0;
  bool Signed = true;     // how it widens to 64 bits (when narrower)
};

/// The countdown's recurrence in one loop.
struct Recurrence {
  PHINode *Phi;                               // {c0,+,PayStep} in the header
  Value *Entry;                               // c0, from the preheader
  LoadInst *InMemory = nullptr; // c0 as loaded, if memory still holds it
  int64_t PayStep;                            // -K
  SmallSetVector<Instruction *, 8> Values;    // Phi and the payments
  DenseMap<const Value *, int64_t> Offset;    // value = Phi + Offset
  SmallSetVector<PHINode *, 4> ExitPHIs;      // LCSSA PHIs that read them
};
} // namespace

static const SCEV *widen(ScalarEvolution &SE, const SCEV *S, bool Signed) {
  Type *I64 = Type::getInt64Ty(S->getType()->getContext());
  if (S->getType() == I64)
    return S;
  return Signed ? SE.getSignExtendExpr(S, I64) : SE.getZeroExtendExpr(S, I64);
}

static Value *widen(IRBuilder<> &B, Value *V, bool Signed) {
  return Signed ? B.CreateSExtOrTrunc(V, B.getInt64Ty())
                : B.CreateZExtOrTrunc(V, B.getInt64Ty());
}

/// Step 2 for the header PHI \p P; false if the loop does more with the
/// countdown than pay.
static bool findRecurrence(Loop &L, PHINode &P, BasicBlock *Preheader,
                           const GlobalVariable *Countdown,
                           const SmallPtrSetImpl<const Value *> &FromCountdown,
                           ScalarEvolution &SE, Recurrence &R) {
  Type *I64 = Type::getInt64Ty(P.getContext());
  if (P.getType() != I64 || !FromCountdown.count(&P))
    return false;
  auto *S = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(&P));
  if (!S || S->getLoop() != &L || !S->isAffine())
    return false;
  auto *Step = dyn_cast<SCEVConstant>(S->getStepRecurrence(SE));
  if (!Step || Step->getAPInt().isZero() ||
      Step->getAPInt().getSignificantBits() > 63)
    return false;
  R.Phi = &P;
  R.Entry = P.getIncomingValueForBlock(Preheader);
  R.PayStep = Step->getAPInt().getSExtValue();
  R.Values.insert(&P);
  R.Offset[&P] = 0;
  SmallVector<Instruction *, 8> Work{&P};
  while (!Work.empty()) {
    Instruction *I = Work.pop_back_val();
    for (User *U : I->users()) {
      auto *UI = cast<Instruction>(U);
      if (!L.contains(UI)) {
        // LCSSA: a use after the loop is a PHI of an exit block.
        auto *Q = dyn_cast<PHINode>(UI);
        if (!Q || !L.contains(Q->getIncomingBlock(0)))
          return false;
        R.ExitPHIs.insert(Q);
        continue;
      }
      if (R.Values.count(UI))
        continue;
      if (UI->getType() != I64 || !FromCountdown.count(UI))
        return false; // a check, or a store: the loop reads the countdown
      auto *D = dyn_cast<SCEVConstant>(SE.getMinusSCEV(SE.getSCEV(UI), S));
      if (!D || D->getAPInt().getSignificantBits() > 63)
        return false;
      R.Values.insert(UI);
      R.Offset[UI] = D->getAPInt().getSExtValue();
      Work.push_back(UI);
    }
  }
  // Every value an exit PHI receives must be one of the recurrence's.
  for (PHINode *Q : R.ExitPHIs)
    for (Value *In : Q->incoming_values())
      if (!R.Offset.count(In))
        return false;
  if (R.Values.size() < 2 || R.ExitPHIs.empty())
    return false;
  // c0 is what the promotion loaded in the preheader, as a rule. Nothing in
  // the loop stores the countdown then (its stores were the payments, and
  // promotion takes no loop with a call that may reach instrumented code), so
  // the exits can load c0 again rather than keep it in a register round the
  // loop.
  auto *Load = dyn_cast<LoadInst>(R.Entry);
  if (Load && !Load->isVolatile() && Load->getParent() == Preheader &&
      isCountdownAddress(Load->getPointerOperand(), Countdown) &&
      none_of(make_range(std::next(Load->getIterator()), Preheader->end()),
              [](Instruction &I) { return I.mayWriteToMemory(); }) &&
      none_of(L.blocks(), [&](BasicBlock *BB) {
        return any_of(*BB, [&](Instruction &I) {
          Value *Ptr = getLoadStorePointerOperand(&I);
          return mayTouchCountdown(I) ||
                 (isa<StoreInst>(I) && isCountdownAddress(Ptr, Countdown));
        });
      }))
    R.InMemory = Load;
  return true;
}

/// Step 3: a counter of the loop from which \p R's value at any point of an
/// iteration follows.
static std::optional<Counter>
findCounter(Loop &L, BasicBlock *Preheader, const Recurrence &R,
            const SmallPtrSetImpl<const Value *> &FromCountdown,
            ScalarEvolution &SE) {
  const SCEV *Countdown = SE.getSCEV(R.Phi);
  const SCEV *Entry = SE.getSCEV(R.Entry);
  for (const LoopCounter &LC : loopCounters(L, SE, FromCountdown)) {
    PHINode &J = *LC.Phi;
    const SCEVAddRecExpr *AR = LC.Rec;
    int64_t S = LC.Step;
    if (R.PayStep % S != 0)
      continue;
    Value *Start = J.getIncomingValueForBlock(Preheader);
    for (bool Signed : {true, false}) {
      // Narrower than 64 bits, the widened counter must not wrap: its
      // difference from the start is then s times the iterations exactly.
      // At 64 bits everything is modulo 2^64, the countdown included.
      const SCEV *Wide = widen(SE, AR, Signed);
      if (!isa<SCEVAddRecExpr>(Wide))
        continue;
      const SCEV *Paid = SE.getAddExpr(
          Entry, SE.getMulExpr(SE.getConstant(Wide->getType(), R.PayStep / S,
                                              /*isSigned=*/true),
                               SE.getMinusSCEV(Wide, widen(SE, SE.getSCEV(Start),
                                                           Signed))));
      if (Paid == Countdown)
        return Counter{&J, Start, S, Signed};
    }
  }
  return std::nullopt;
}

/// Step 4.
static void payOnExits(Recurrence &R, const Counter &C,
                       SmallPtrSetImpl<const Value *> &FromCountdown) {
  DenseMap<BasicBlock *, Value *> Base; // c0 - K·iterations, per exit block
  for (PHINode *Q : R.ExitPHIs) {
    BasicBlock *Exit = Q->getParent();
    Value *&AtExit = Base[Exit];
    IRBuilder<> B(Exit, Exit->getFirstInsertionPt());
    if (!AtExit) {
      // The counter leaves the loop through a PHI of its own (LCSSA).
      PHINode *J = PHINode::Create(C.Phi->getType(), pred_size(Exit),
                                   C.Phi->getName() + ".lcssa");
      J->insertBefore(Exit->begin());
      for (BasicBlock *Pred : predecessors(Exit))
        J->addIncoming(C.Phi, Pred);
      B.SetInsertPoint(Exit, Exit->getFirstInsertionPt());
      Value *Steps = widen(B, J, C.Signed);
      if (!match(C.Start, PatternMatch::m_Zero())) {
        Value *Start = widen(B, C.Start, C.Signed);
        Steps = B.CreateSub(Steps, Start, "loop.steps");
      }
      Value *Paid = B.CreateMul(Steps, B.getInt64(R.PayStep / C.Step),
                                "countdown.paid");
      Value *Entry = R.Entry;
      if (R.InMemory) {
        LoadInst *Again = B.CreateLoad(B.getInt64Ty(),
                                       R.InMemory->getPointerOperand(),
                                       "countdown.entry");
        Again->copyMetadata(*R.InMemory);
        FromCountdown.insert(Again);
        Entry = Again;
      }
      AtExit = B.CreateAdd(Entry, Paid, "countdown.exit");
      FromCountdown.insert(AtExit);
    }
    // What this PHI becomes reads AtExit: it goes after it, also where an
    // earlier PHI of the same block computed it.
    if (auto *I = dyn_cast<Instruction>(AtExit))
      B.SetInsertPoint(I->getNextNode());
    // The PHI's value is the recurrence's at the exit plus a payment made
    // or not in the block it leaves from.
    int64_t First = R.Offset.lookup(Q->getIncomingValue(0));
    bool Same = all_of(Q->incoming_values(), [&](Value *In) {
      return R.Offset.lookup(In) == First;
    });
    Value *Offset;
    if (Same) {
      Offset = B.getInt64(First);
    } else {
      PHINode *O = PHINode::Create(B.getInt64Ty(), Q->getNumIncomingValues(),
                                   "countdown.offset");
      O->insertBefore(Exit->begin());
      for (unsigned I = 0, E = Q->getNumIncomingValues(); I != E; ++I)
        O->addIncoming(B.getInt64(R.Offset.lookup(Q->getIncomingValue(I))),
                       Q->getIncomingBlock(I));
      Offset = O;
    }
    Value *V = match(Offset, PatternMatch::m_Zero())
                   ? AtExit
                   : B.CreateAdd(AtExit, Offset, Q->getName() + ".exit");
    FromCountdown.insert(V);
    Q->replaceAllUsesWith(V);
    FromCountdown.erase(Q);
    Q->eraseFromParent();
  }
  // Nothing reads the recurrence now.
  for (Instruction *I : R.Values) {
    I->dropAllReferences();
    FromCountdown.erase(I);
  }
  for (Instruction *I : R.Values)
    I->eraseFromParent();
}

static bool payOnExit(Loop &L, const GlobalVariable *Countdown,
                      SmallPtrSetImpl<const Value *> &FromCountdown,
                      DominatorTree &DT, ScalarEvolution &SE) {
  BasicBlock *Preheader = L.getLoopPreheader();
  if (!Preheader || !L.hasDedicatedExits() || !L.isLCSSAForm(DT))
    return false;
  SmallVector<PHINode *, 4> Phis;
  for (PHINode &P : L.getHeader()->phis())
    if (FromCountdown.count(&P))
      Phis.push_back(&P);
  bool Changed = false;
  for (PHINode *P : Phis) {
    Recurrence R;
    if (!findRecurrence(L, *P, Preheader, Countdown, FromCountdown, SE, R))
      continue;
    std::optional<Counter> C = findCounter(L, Preheader, R, FromCountdown, SE);
    if (!C) {
      ++NumNoCounter;
      continue;
    }
    SE.forgetLoop(L.getOutermostLoop());
    payOnExits(R, *C, FromCountdown);
    ++NumPaidOnExit;
    Changed = true;
  }
  return Changed;
}

PreservedAnalyses SamplerLoopExitPayPass::run(Function &F,
                                              FunctionAnalysisManager &FAM) {
  GlobalVariable *Countdown = countdownIn(*F.getParent());
  if (!Countdown || F.isDeclaration())
    return PreservedAnalyses::all();
  auto &LI = FAM.getResult<LoopAnalysis>(F);
  if (LI.empty())
    return PreservedAnalyses::all();
  auto &DT = FAM.getResult<DominatorTreeAnalysis>(F);
  auto &SE = FAM.getResult<ScalarEvolutionAnalysis>(F);
  SmallPtrSet<const Value *, 32> FromCountdown = countdownValues(F, Countdown);
  bool Changed = false;
  // Inner loops first: their exits are in the loops around them.
  SmallVector<Loop *, 8> Loops = LI.getLoopsInPreorder();
  for (Loop *L : reverse(Loops))
    Changed |= payOnExit(*L, Countdown, FromCountdown, DT, SE);
  if (!Changed)
    return PreservedAnalyses::all();
  PreservedAnalyses PA; // instructions only: the CFG is as it was
  PA.preserveSet<CFGAnalyses>();
  return PA;
}

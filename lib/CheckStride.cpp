//===- CheckStride.cpp - A loop's back-edge check tested every K iterations ===//
//
// See CheckStride.h. For each innermost loop whose latch is a tagged
// back-edge check on an induction variable of the countdown, one at a time:
//   1. LCSSA and loop-simplify form, as UnrollLoop requires, then UnrollLoop
//      by K, without a remainder (every copy keeps its exits);
//   2. a copy of the first copy's blocks, the fallback: the loop as it was,
//      its check on every iteration, entered at its header with the values
//      the first copy's latch hands on; its exits join the loop's;
//   3. the first copy's check tests c1 - (K-1)·S; where that fails, the
//      original test sends the loop to the fallback or, failing too, to the
//      instrumented copy;
//   4. the other copies' checks always pass (SimplifyCFG removes their ways
//      out later).
//
//===----------------------------------------------------------------------===//
#include "CheckStride.h"
#include "CheckShape.h"
#include "SamplingTransform.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/BlockFrequencyInfo.h"
#include "llvm/Analysis/CodeMetrics.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/Analysis/TargetTransformInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/PatternMatch.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/LoopSimplify.h"
#include "llvm/Transforms/Utils/LoopUtils.h"
#include "llvm/Transforms/Utils/UnrollLoop.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

#include <optional>

using namespace llvm;
using namespace sampler;
using namespace llvm::PatternMatch;

#define DEBUG_TYPE "sampler-check-stride"

STATISTIC(NumStrided, "Loops whose back-edge check is tested every K iterations");
STATISTIC(NumManyExits, "Loops with back-edge checks and two ways out or more");
STATISTIC(NumCountedExit,
          "Loops with back-edge checks whose way out tests an induction variable");
STATISTIC(NumCold, "Loops far less frequent than their function's hottest block");
STATISTIC(NumTooBig, "Loops with back-edge checks too big to unroll");
STATISTIC(NumCounted, "Loops with back-edge checks whose trip count is known");
STATISTIC(NumNotRecurrence,
          "Loops whose check does not test an induction variable");

namespace {

/// A loop to unroll: its latch's check tests `Paid >= 0`, Paid = {c0,+,-S}.
struct Strided {
  Loop *L;
  BasicBlock *Latch;
  BranchInst *Check;
  Value *Paid;
  uint64_t S;
};

/// The tag's weight on \p BI (either kind of back-edge tag), 0 without.
uint64_t backEdgeTag(const BranchInst *BI) {
  if (uint64_t W = tagWeight(BI, BackEdgeCheckMD))
    return W;
  return tagWeight(BI, UnboundedBackEdgeMD);
}

/// The value \p BI's condition requires to be >= 0 for the way to \p Pass
/// (nonNegativeOnTrue); null if the condition has another shape or \p Pass
/// is not one of its two ways.
Value *testedForNonNegative(const BranchInst *BI, const BasicBlock *Pass) {
  if (!BI->isConditional())
    return nullptr;
  auto *Cmp = dyn_cast<ICmpInst>(BI->getCondition());
  bool PassOnTrue = BI->getSuccessor(0) == Pass;
  if (!Cmp || PassOnTrue == (BI->getSuccessor(1) == Pass))
    return nullptr;
  std::optional<bool> OnTrue = nonNegativeOnTrue(*Cmp);
  return OnTrue && *OnTrue == PassOnTrue ? Cmp->getOperand(0) : nullptr;
}

/// The same for the way that stays in \p L.
Value *testedForNonNegative(const BranchInst *BI, const Loop &L) {
  if (!BI->isConditional())
    return nullptr;
  bool First = L.contains(BI->getSuccessor(0));
  if (First == L.contains(BI->getSuccessor(1)))
    return nullptr;
  return testedForNonNegative(BI, BI->getSuccessor(First ? 0 : 1));
}

/// Whether \p L qualifies (CheckStride.h), filling \p Out.
bool qualifies(Loop *L, const GlobalVariable *Countdown, ScalarEvolution &SE,
               AssumptionCache &AC, const TargetTransformInfo &TTI,
               Strided &Out) {
  if (!L->isInnermost())
    return false;
  BasicBlock *Latch = L->getLoopLatch();
  auto *BI = Latch ? dyn_cast<BranchInst>(Latch->getTerminator()) : nullptr;
  if (!BI || !BI->isConditional() || !backEdgeTag(BI))
    return false;
  if (hasUnrollTransformation(L) != TM_Unspecified)
    return false; // a pragma, or already unrolled: the user's, or LLVM's
  Value *Paid = testedForNonNegative(BI, *L);
  if (!Paid || !Paid->getType()->isIntegerTy(64))
    return false;
  for (BasicBlock *BB : L->blocks())
    for (Instruction &I : *BB)
      if (touchesCountdown(I, Countdown))
        return false;
  // An induction variable of the loop: every iteration, whatever its way,
  // subtracts the same S.
  auto *AR = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(Paid));
  auto *Step = AR && AR->getLoop() == L && AR->isAffine()
                   ? dyn_cast<SCEVConstant>(AR->getStepRecurrence(SE))
                   : nullptr;
  if (!Step || !Step->getAPInt().isNegative() ||
      Step->getAPInt().getSignificantBits() > 32) {
    ++NumNotRecurrence;
    return false;
  }
  // Where ScalarEvolution counts every way out (the countdown's own exit is
  // countable: c0 / S), the loop is the vectoriser's (which takes the
  // smaller count) and LLVM's runtime unroller's: left to them.
  if (!isa<SCEVCouldNotCompute>(SE.getBackedgeTakenCount(L))) {
    ++NumCounted;
    return false;
  }
  // One way out besides the check: every other multiplies what the copies
  // compute for their exits, and the registers they hold (bzip2's
  // partition loops in mainQSort3, three ways out: the function +4.6%
  // with sampling off, +12% at d = 1000).
  SmallVector<BasicBlock *, 4> Exiting;
  L->getExitingBlocks(Exiting);
  if (Exiting.size() > 2) {
    ++NumManyExits;
    return false;
  }
  // Nor may that way out test an induction variable of the loop (a pointer
  // compared with an end, an index with a limit, joined by && or ||): each
  // copy would compute its own value of it, an `lea` a copy where the loop
  // as it was had one increment, which costs what the checks saved (bc's
  // _bc_simp_mul, `while (n1ptr >= base && n2ptr <= end)`: +12.9%). A way
  // out on a loaded value (a list's end, a sentinel) shares the copies'
  // addressing.
  for (BasicBlock *BB : Exiting) {
    auto *Br = dyn_cast<BranchInst>(BB->getTerminator());
    if (BB == Latch || !Br || !Br->isConditional())
      continue;
    SmallVector<Value *, 4> Conds{Br->getCondition()};
    while (!Conds.empty()) {
      Value *C = Conds.pop_back_val();
      Value *A, *B;
      if (match(C, m_LogicalAnd(m_Value(A), m_Value(B))) ||
          match(C, m_LogicalOr(m_Value(A), m_Value(B)))) {
        Conds.append({A, B});
        continue;
      }
      auto *Cmp = dyn_cast<ICmpInst>(C);
      if (!Cmp)
        continue;
      for (Value *Op : Cmp->operands())
        if (auto *OpAR = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(Op));
            OpAR && OpAR->getLoop() == L) {
          ++NumCountedExit;
          return false;
        }
    }
  }
  SmallPtrSet<const Value *, 32> Ephemeral;
  CodeMetrics::collectEphemeralValues(L, &AC, Ephemeral);
  CodeMetrics Metrics;
  for (BasicBlock *BB : L->blocks())
    Metrics.analyzeBasicBlock(BB, TTI, Ephemeral);
  if (Metrics.notDuplicatable || Metrics.Convergence != ConvergenceKind::None)
    return false;
  if (!Metrics.NumInsts.isValid() ||
      *Metrics.NumInsts.getValue() > SamplerCheckStridePass::MaxBody) {
    ++NumTooBig;
    return false;
  }
  Out = {L, Latch, BI, Paid, uint64_t(-Step->getAPInt().getSExtValue())};
  return true;
}

/// Drops the back-edge tags of \p F's branches; whether there were any.
bool dropTags(Function &F) {
  bool Any = false;
  for (BasicBlock &BB : F)
    if (Instruction *T = BB.getTerminator())
      for (StringRef Kind : {StringRef(BackEdgeCheckMD),
                             StringRef(UnboundedBackEdgeMD)})
        if (T->getMetadata(Kind)) {
          T->setMetadata(Kind, nullptr);
          Any = true;
        }
  return Any;
}

/// Steps 1-4 of CheckStride.cpp on \p S's loop (where UnrollLoop refuses it,
/// nothing changes but the loop's form).
void stride(Strided &S, unsigned K, DominatorTree &DT, LoopInfo &LI,
            ScalarEvolution &SE, AssumptionCache &AC,
            const TargetTransformInfo &TTI, OptimizationRemarkEmitter &ORE) {
  Loop *L = S.L;
  simplifyLoop(L, &DT, &LI, &SE, &AC, nullptr, /*PreserveLCSSA=*/false);
  formLCSSA(*L, DT, &LI, &SE);
  BasicBlock *Header = L->getHeader();
  BasicBlock *Latch = S.Latch;
  if (L->getLoopLatch() != Latch || Latch->getTerminator() != S.Check)
    return;
  // What each header PHI takes from the latch: the values the fallback loop
  // starts its iteration with. (UnrollLoop may simplify them: handles.)
  SmallVector<std::pair<PHINode *, WeakTrackingVH>, 8> FromLatch;
  for (PHINode &P : Header->phis())
    FromLatch.push_back({&P, P.getIncomingValueForBlock(Latch)});
  SmallVector<BasicBlock *, 8> Original(L->blocks());
  unsigned PassIdx = L->contains(S.Check->getSuccessor(0)) ? 0 : 1;
  BasicBlock *Slow = S.Check->getSuccessor(1 - PassIdx);

  // 2. The fallback: a copy of the loop as it was, a loop of one iteration
  // with its own check, for when the countdown does not cover the next
  // K - 1 iterations but covers the next. Copied before unrolling (the
  // flags UnrollLoop infers for the first copy hold for it alone), outside
  // the function until the unrolling is done.
  // Its ways out lead to a block of nowhere until then: an exit block's
  // predecessors are its uses, and UnrollLoop must not see the copy among
  // them.
  ValueToValueMapTy VMap;
  SmallVector<BasicBlock *, 8> Clones;
  SmallVector<BasicBlock *, 4> Exits;
  L->getUniqueExitBlocks(Exits);
  BasicBlock *Nowhere = BasicBlock::Create(Header->getContext(), "nowhere");
  for (BasicBlock *Exit : Exits)
    VMap[Exit] = Nowhere;
  for (BasicBlock *BB : Original) {
    BasicBlock *C = CloneBasicBlock(BB, VMap, ".fallback");
    VMap[BB] = C;
    Clones.push_back(C);
  }
  // (remapInstructionsInBlocks, but for blocks not in a function yet.)
  Module *M = Header->getModule();
  for (BasicBlock *C : Clones)
    for (Instruction &I : *C) {
      RemapDbgRecordRange(M, I.getDbgRecordRange(), VMap,
                          RF_NoModuleLevelChanges | RF_IgnoreMissingLocals);
      RemapInstruction(&I, VMap,
                       RF_NoModuleLevelChanges | RF_IgnoreMissingLocals);
    }
  auto *FallHeader = cast<BasicBlock>(VMap[Header]);
  auto *FallLatch = cast<BasicBlock>(VMap[Latch]);
  // The copy's header PHIs, taken now: UnrollLoop may simplify away the
  // loop's own.
  SmallVector<PHINode *, 8> FallPhis;
  for (auto &PV : FromLatch)
    FallPhis.push_back(cast<PHINode>(VMap[PV.first]));
  struct Way {
    BasicBlock *From; // in the loop as it was
    unsigned Idx;     // of the successor
  };
  SmallVector<Way, 8> WaysOut;
  for (BasicBlock *BB : Original)
    for (unsigned I = 0, E = BB->getTerminator()->getNumSuccessors(); I != E;
         ++I)
      if (is_contained(Exits, BB->getTerminator()->getSuccessor(I)))
        WaysOut.push_back({BB, I});
  auto Discard = [&Clones, Nowhere] {
    for (BasicBlock *C : Clones)
      C->dropAllReferences();
    for (BasicBlock *C : Clones)
      delete C;
    delete Nowhere;
  };

  UnrollLoopOptions ULO;
  ULO.Count = K;
  ULO.Force = false;
  ULO.Runtime = false;
  ULO.AllowExpensiveTripCount = false;
  ULO.UnrollRemainder = false;
  ULO.ForgetAllSCEV = false;
  LoopUnrollResult R = UnrollLoop(L, ULO, &LI, &SE, &DT, &AC, &TTI, &ORE,
                                  /*PreserveLCSSA=*/true);
  if (R != LoopUnrollResult::PartiallyUnrolled) {
    // Unmodified: refused. Fully unrolled: no back edge left, each copy's
    // check tests for itself.
    Discard();
    return;
  }
  L->setLoopAlreadyUnrolled();
  auto *First = dyn_cast<BranchInst>(Latch->getTerminator());
  if (!First || !First->isConditional() ||
      First->getSuccessor(1 - PassIdx) != Slow ||
      testedForNonNegative(First, *L) != S.Paid ||
      any_of(FromLatch, [](auto &PV) { return !PV.second; })) {
    // Not the shape it had, or a value the fallback would start from is
    // gone: every copy keeps its own test.
    Discard();
    return;
  }

  // What the copy takes, planned first and checked: a value of the
  // unrolled loop's that the way in or the copy would use must be one the
  // first copy defines (the way in follows its latch) or, in the copy, its
  // own; anything UnrollLoop created in their place, and the plan is
  // dropped (every copy keeps its own test).
  auto InLoop = [&](Value *V) {
    auto *I = dyn_cast<Instruction>(V);
    return I && L->contains(I->getParent());
  };
  auto Mapped = [&](Value *V) -> Value * {
    if (Value *M = VMap.lookup(V))
      return M;
    return InLoop(V) ? nullptr : V;
  };
  struct Incoming {
    PHINode *P;
    Value *V;
    BasicBlock *From;
  };
  SmallVector<Incoming, 16> Plan;
  bool Sound = true;
  // The copy's exits: each exit block takes from it what it takes from
  // the first copy (LCSSA: every value used outside goes through them).
  for (Way &W : WaysOut) {
    // UnrollLoop kept the first copy's ways out as they were (or the plan
    // is dropped).
    Instruction *T = W.From->getTerminator();
    BasicBlock *Exit =
        W.Idx < T->getNumSuccessors() ? T->getSuccessor(W.Idx) : nullptr;
    if (!Exit || !is_contained(Exits, Exit)) {
      Sound = false;
      continue;
    }
    for (PHINode &P : Exit->phis()) {
      int Idx = P.getBasicBlockIndex(W.From);
      Value *V = Idx < 0 ? nullptr : Mapped(P.getIncomingValue(Idx));
      Sound &= V != nullptr;
      Plan.push_back({&P, V, cast<BasicBlock>(VMap[W.From])});
    }
  }
  // Its header starts from the first copy's values on the way in, and from
  // its own on its back edge.
  SmallVector<std::pair<Value *, Value *>, 8> Starts;
  for (auto &[P, V] : FromLatch) {
    Value *In = V;
    auto *I = dyn_cast<Instruction>(In);
    Sound &= !InLoop(In) || is_contained(Original, I->getParent());
    Value *Back = Mapped(In);
    Sound &= Back != nullptr;
    Starts.push_back({In, Back});
  }
  if (!Sound) {
    Discard();
    return;
  }

  Function &F = *Header->getParent();
  for (BasicBlock *C : Clones)
    C->insertInto(&F);
  for (Way &W : WaysOut)
    cast<BasicBlock>(VMap[W.From])
        ->getTerminator()
        ->setSuccessor(W.Idx, W.From->getTerminator()->getSuccessor(W.Idx));
  delete Nowhere;
  auto *Enter = BasicBlock::Create(F.getContext(), "countdown.fallback", &F,
                                   FallHeader);
  for (Incoming &In : Plan)
    In.P->addIncoming(In.V, In.From);
  for (auto [Idx, FP] : enumerate(FallPhis)) {
    while (FP->getNumIncomingValues())
      FP->removeIncomingValue(0u, /*DeletePHIIfEmpty=*/false);
    FP->addIncoming(Starts[Idx].first, Enter);
    FP->addIncoming(Starts[Idx].second, FallLatch);
  }
  auto *FallCheck = cast<BranchInst>(FallLatch->getTerminator());
  FallCheck->setMetadata(BackEdgeCheckMD, nullptr);
  FallCheck->setMetadata(UnboundedBackEdgeMD, nullptr);
  LLVMContext &Ctx = F.getContext();
  MDNode *Disable =
      MDNode::get(Ctx, MDString::get(Ctx, "llvm.loop.unroll.disable"));
  MDNode *ID = MDNode::getDistinct(Ctx, {nullptr, Disable});
  ID->replaceOperandWith(0, ID);
  FallCheck->setMetadata(LLVMContext::MD_loop, ID);

  // 3. The first copy's check tests K - 1 iterations ahead; where that
  // fails, the original test chooses between the fallback and the
  // instrumented copy.
  Value *Own = First->getCondition();
  BranchInst *Choose =
      PassIdx == 0 ? BranchInst::Create(FallHeader, Slow, Own, Enter)
                   : BranchInst::Create(Slow, FallHeader, Own, Enter);
  Choose->copyMetadata(*First, {LLVMContext::MD_prof});
  Slow->replacePhiUsesWith(Latch, Enter);
  First->setSuccessor(1 - PassIdx, Enter);
  IRBuilder<> B(First);
  Value *Ahead =
      B.CreateAdd(S.Paid, B.getInt64(-int64_t((K - 1) * S.S)), "countdown.ahead");
  First->setCondition(
      PassIdx == 0 ? B.CreateICmpSGT(Ahead, B.getInt64(-1), "countdown.stride")
                   : B.CreateICmpSLT(Ahead, B.getInt64(0), "countdown.stride"));
  // 4. The other copies' checks pass whenever the first has.
  for (BasicBlock *BB : L->blocks()) {
    auto *BI = dyn_cast<BranchInst>(BB->getTerminator());
    if (BB == Latch || !BI || !BI->isConditional() || !backEdgeTag(BI) ||
        !testedForNonNegative(BI, *L))
      continue;
    BI->setCondition(ConstantInt::getBool(Ctx, L->contains(BI->getSuccessor(0))));
  }
  ++NumStrided;
}

} // namespace

PreservedAnalyses SamplerCheckStridePass::run(Function &F,
                                             FunctionAnalysisManager &FAM) {
  GlobalVariable *Countdown = countdownIn(*F.getParent());
  if (!Countdown || F.isDeclaration())
    return PreservedAnalyses::all();
  if (none_of(F, [](BasicBlock &BB) {
        auto *BI = dyn_cast_or_null<BranchInst>(BB.getTerminator());
        return BI && backEdgeTag(BI);
      }))
    return PreservedAnalyses::all();
  if (Stride < 2 || F.hasOptSize()) {
    dropTags(F); // metadata only: every analysis stands
    return PreservedAnalyses::all();
  }

  // The loops that qualify, by header; then one at a time, the analyses
  // computed again after each (the fallback is made outside the dominator
  // tree's and LoopInfo's knowledge), each loop asked again whether it
  // qualifies, as its neighbours' changes may have reshaped it.
  SmallVector<BasicBlock *, 8> Headers;
  {
    auto &LI = FAM.getResult<LoopAnalysis>(F);
    auto &SE = FAM.getResult<ScalarEvolutionAnalysis>(F);
    auto &AC = FAM.getResult<AssumptionAnalysis>(F);
    auto &TTI = FAM.getResult<TargetIRAnalysis>(F);
    auto &BFI = FAM.getResult<BlockFrequencyAnalysis>(F);
    // Only the function's hottest loops, by the static estimate: unrolling
    // a loop changes the registers of the whole function, and in a loop
    // that runs little the checks saved do not pay for that.
    uint64_t Hottest = 0;
    for (BasicBlock &BB : F)
      Hottest = std::max(Hottest, BFI.getBlockFreq(&BB).getFrequency());
    for (Loop *L : LI.getLoopsInPreorder()) {
      Strided S;
      if (BFI.getBlockFreq(L->getHeader()).getFrequency() <
          Hottest / SamplerCheckStridePass::HotFraction) {
        ++NumCold;
        continue;
      }
      if (qualifies(L, Countdown, SE, AC, TTI, S))
        Headers.push_back(L->getHeader());
    }
  }
  bool Changed = false;
  for (BasicBlock *H : Headers) {
    auto &DT = FAM.getResult<DominatorTreeAnalysis>(F);
    auto &LI = FAM.getResult<LoopAnalysis>(F);
    auto &SE = FAM.getResult<ScalarEvolutionAnalysis>(F);
    auto &AC = FAM.getResult<AssumptionAnalysis>(F);
    auto &TTI = FAM.getResult<TargetIRAnalysis>(F);
    auto &ORE = FAM.getResult<OptimizationRemarkEmitterAnalysis>(F);
    Loop *L = LI.getLoopFor(H);
    Strided S;
    if (!L || L->getHeader() != H || !qualifies(L, Countdown, SE, AC, TTI, S))
      continue;
    Changed = true; // loop-simplify and LCSSA form at least
    stride(S, Stride, DT, LI, SE, AC, TTI, ORE);
    FAM.invalidate(F, PreservedAnalyses::none());
  }
  Changed |= dropTags(F);
  if (!Changed)
    return PreservedAnalyses::all();
  return PreservedAnalyses::none();
}

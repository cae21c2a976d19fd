//===- CheckMerge.cpp - Two checks in a row paid by the first -------------===//
//
// See CheckMerge.h.
//
//===----------------------------------------------------------------------===//
#include "CheckMerge.h"
#include "CheckShape.h"
#include "RuntimeABI.h"
#include "SamplingTransform.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/BlockFrequencyInfo.h"
#include "llvm/Analysis/CFG.h"
#include "llvm/Analysis/BranchProbabilityInfo.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Local.h"

#include <optional>

using namespace llvm;
using namespace sampler;

#define DEBUG_TYPE "sampler-check-merge"

STATISTIC(NumMerged, "Checks paid by the check before them");
STATISTIC(NumMergedSomePaths, "Checks paid by a check before them on some paths only");
STATISTIC(NumGiveBacks, "Ways past a merged check that give its trials back");
STATISTIC(NumGiveBacksFolded, "Give-backs taken by the next check's payment");

namespace {
/// A check that the check before it can pay for, and the edges out of the
/// blocks between them (entered only from the first check's fast edge and
/// from among themselves, all reaching the second check, none touching the
/// countdown) that miss the second check (GiveBack: they give its trials
/// back).
struct Candidate {
  PaidCheck Second;
  SmallVector<std::pair<BasicBlock *, BasicBlock *>, 4> GiveBack;
};

/// Makes \p C pay \p W: `add X, -W` or `sub X, W`, as it was written.
void setPayment(const PaidCheck &C, uint64_t W) {
  Type *I64 = C.Paid->getType();
  if (C.Paid->getOpcode() == Instruction::Add)
    C.Paid->setOperand(1, ConstantInt::get(I64, -static_cast<int64_t>(W)));
  else
    C.Paid->setOperand(1, ConstantInt::get(I64, W));
}

struct Merger {
  Function &F;
  const GlobalVariable *CD;
  FunctionAnalysisManager &FAM; // the block frequencies, asked for when needed
  unsigned GiveBackPercent;
  /// In the largest functions (interpreters' loops: SQLite's sqlite3VdbeExec,
  /// Lua's luaV_execute), only checks every path reaches are merged. Their
  /// dispatch makes the static frequencies of most branches even, so the
  /// ways that give back run as often as the check they save (Lua's integer
  /// paths past a merged conversion check), and each new way out moved the
  /// register allocator's spills by more than the checks saved: SQLite's
  /// sqlite3VdbeExec +41M instructions (+3.5%, 25M of them stack moves) for
  /// 11M fewer in checks, at one setting of the percentage, -0.7M at another.
  static constexpr unsigned GiveBackFunctionLimit = 5000;
  bool TooLargeToGiveBack;
  /// The give-back blocks made so far, and their add: a later merge whose
  /// way out goes through one adds its own weight there.
  DenseMap<BasicBlock *, BinaryOperator *> GiveBackAdd;

  Merger(Function &F, const GlobalVariable *CD, FunctionAnalysisManager &FAM,
         unsigned GiveBackPercent)
      : F(F), CD(CD), FAM(FAM), GiveBackPercent(GiveBackPercent),
        TooLargeToGiveBack(F.getInstructionCount() > GiveBackFunctionLimit) {}

  /// Whether \p BB stops the way from a check to the next: it touches the
  /// countdown, or may unwind (a way out that could not give trials back).
  /// Returns the first such instruction, or nullptr.
  const Instruction *stop(BasicBlock &BB) const {
    for (Instruction &I : BB)
      if (touchesCountdown(I, CD) || (isa<CallBase>(I) && I.mayThrow()))
        return &I;
    return nullptr;
  }

  /// The check at the top of \p S, if \p S is entered only from \p BB and
  /// its check pays more than \p W: a way from BB into S that must give W
  /// back can instead have that check pay W less (the same countdown after
  /// it, tested the same way), at no cost.
  std::optional<PaidCheck> takesGiveBack(BasicBlock *BB, BasicBlock *S,
                                         uint64_t W) const {
    if (S->getSinglePredecessor() != BB)
      return std::nullopt;
    std::optional<PaidCheck> C = matchPaidCheck(S, CD);
    if (!C || C->Load != stop(*S) || C->W <= W)
      return std::nullopt;
    return C;
  }

  std::optional<Candidate> between(const PaidCheck &First, BasicBlock *Next,
                                   const PaidCheck &Second) const;
  std::optional<Candidate> nextCheck(const PaidCheck &First) const;
  void merge(PaidCheck &First, const Candidate &C);
  BinaryOperator *giveBack(Instruction *Before, uint64_t W, const PaidCheck &First);
};
} // namespace

/// The blocks from \p First's fast edge to \p Next (whose check is \p
/// Second): found backwards from Next, each must be entered only from among
/// them (the fast edge's block only from First's check) and reached from
/// that edge through them, not from Next, touch nothing, and end in a branch
/// or switch. Their other edges give Second's trials back.
std::optional<Candidate> Merger::between(const PaidCheck &First, BasicBlock *Next,
                                         const PaidCheck &Second) const {
  BasicBlock *From = First.Br->getParent();
  Candidate C{Second, {}};
  if (Next == First.Fast)
    return C; // the fast edge leads straight to it
  SmallPtrSet<BasicBlock *, 16> In;
  SmallVector<BasicBlock *, 16> Between; // In, in a fixed order
  SmallVector<BasicBlock *, 16> Work{Next};
  while (!Work.empty()) {
    BasicBlock *BB = Work.pop_back_val();
    for (BasicBlock *P : predecessors(BB)) {
      if (P == From) {
        if (BB != First.Fast)
          return std::nullopt;
        continue;
      }
      if (P == Next || In.contains(P))
        continue;
      if (P->isEHPad() || !isa<BranchInst, SwitchInst>(P->getTerminator()) ||
          stop(*P) || In.size() >= 64)
        return std::nullopt;
      In.insert(P);
      Between.push_back(P);
      Work.push_back(P);
    }
  }
  if (!In.contains(First.Fast))
    return std::nullopt;
  // Entered only from among them is not enough: a block without
  // predecessors (the function's entry) or one entered from Next is entered
  // from nowhere the first check pays for. Both happen where tail calls
  // became a loop (TailCallElim: f inlined into g, then g's call of itself):
  // the entry check at the loop's header was merged into the check in its
  // body, and the first region, entered from the function's entry, no
  // longer paid for its trials or ran its instrumented copy, so its sites
  // were never observed (SQLite's growOp3 and btreePrevious,
  // test/sampling/check-merge.ll @tail_loop). So every block between must
  // be reached from the fast edge, through them, and none from Next.
  SmallPtrSet<BasicBlock *, 16> Reached{First.Fast};
  SmallVector<BasicBlock *, 16> Forward{First.Fast};
  while (!Forward.empty())
    for (BasicBlock *S : successors(Forward.pop_back_val()))
      if (In.contains(S) && Reached.insert(S).second)
        Forward.push_back(S);
  if (Reached.size() != In.size())
    return std::nullopt;
  for (BasicBlock *S : successors(Next))
    if (In.contains(S))
      return std::nullopt;
  // The ways out that miss Next.
  for (BasicBlock *BB : Between)
    for (BasicBlock *S : successors(BB))
      if (S != Next && !In.contains(S) &&
          !is_contained(C.GiveBack, std::make_pair(BB, S))) {
        if (S == From || S->isEHPad())
          return std::nullopt;
        C.GiveBack.push_back({BB, S});
      }
  return C;
}

/// The check after \p First's fast edge that it pays for best: among the
/// checks at the frontier of the blocks reachable from that edge before any
/// countdown access (each check's load the first access in its block), one
/// that every path reaches, or else the one whose merge saves the most by
/// the static block frequencies (two instructions each time it runs, one each
/// time a way that misses it gives its trials back), if the ways that miss
/// it run at most GiveBackPercent% as often as it does.
std::optional<Candidate> Merger::nextCheck(const PaidCheck &First) const {
  BasicBlock *From = First.Br->getParent();
  if (First.Fast->getSinglePredecessor() != From)
    return std::nullopt;
  SmallPtrSet<BasicBlock *, 32> Seen;
  SmallVector<BasicBlock *, 32> Work{First.Fast};
  SmallVector<std::pair<BasicBlock *, PaidCheck>, 8> Checks;
  while (!Work.empty()) {
    BasicBlock *BB = Work.pop_back_val();
    if (BB == From || BB->isEHPad() || !Seen.insert(BB).second)
      continue;
    if (Seen.size() > 256)
      return std::nullopt;
    if (const Instruction *Stop = stop(*BB)) {
      std::optional<PaidCheck> Check = matchPaidCheck(BB, CD);
      if (Check && Check->Load == Stop)
        Checks.push_back({BB, *Check});
      continue;
    }
    for (BasicBlock *S : successors(BB))
      Work.push_back(S);
  }
  std::optional<Candidate> Best;
  double BestGain = 0;
  for (auto &[Next, Check] : Checks) {
    std::optional<Candidate> C = between(First, Next, Check);
    if (!C)
      continue;
    if (C->GiveBack.empty())
      return C; // every path reaches it: nothing to give back
    if (GiveBackPercent == 0 || C->GiveBack.size() > 8 || TooLargeToGiveBack)
      continue;
    auto &BFI = FAM.getResult<BlockFrequencyAnalysis>(F);
    auto &BPI = FAM.getResult<BranchProbabilityAnalysis>(F);
    double Runs = BFI.getBlockFreq(Next).getFrequency();
    double Missed = 0;
    for (auto [BB, S] : C->GiveBack) {
      if (takesGiveBack(BB, S, Check.W))
        continue; // the check there pays less: free
      // Edge by edge, in doubles: BranchProbabilityInfo's (Src, Dst) overload
      // sums them exactly, and the last bit decides ties (SQLite's
      // sqlite3DecOrHexToI64 merges one more check with it): kept as measured.
      double P = 0;
      for (unsigned I = 0, E = BB->getTerminator()->getNumSuccessors(); I != E; ++I)
        if (BB->getTerminator()->getSuccessor(I) == S)
          P += double(BPI.getEdgeProbability(BB, I).getNumerator()) /
               BranchProbability::getDenominator();
      Missed += P * BFI.getBlockFreq(BB).getFrequency();
    }
    if (Missed * 100 > Runs * GiveBackPercent)
      continue;
    double Gain = 2 * Runs - Missed;
    if (Gain > BestGain) {
      BestGain = Gain;
      Best = std::move(C);
    }
  }
  return Best;
}

/// countdown += W before \p Before, as \p First accesses it.
BinaryOperator *Merger::giveBack(Instruction *Before, uint64_t W, const PaidCheck &First) {
  IRBuilder<> B(Before);
  Type *I64 = First.Paid->getType();
  Value *Addr = First.Store->getPointerOperand();
  LoadInst *Old = B.CreateLoad(I64, Addr, /*isVolatile=*/true, "countdown");
  auto *Sum = cast<BinaryOperator>(
      B.CreateAdd(Old, ConstantInt::get(I64, W), "countdown.back"));
  StoreInst *New = B.CreateStore(Sum, Addr);
  Old->copyMetadata(*First.Load);
  New->copyMetadata(*First.Store);
  return Sum;
}

/// \p First pays for \p C's check too: its payment grows by W2, its way to
/// its instrumented copy and the ways that miss the second check give W2
/// back first, and the second check always passes.
void Merger::merge(PaidCheck &First, const Candidate &C) {
  const PaidCheck &Second = C.Second;
  Type *I64 = First.Paid->getType();
  First.W += Second.W;
  setPayment(First, First.W);

  BasicBlock *Back = SplitEdge(First.Br->getParent(), First.Slow);
  Back->setName("sampler.merged.back");
  giveBack(Back->getTerminator(), Second.W, First);
  First.Slow = Back;

  for (auto [BB, S] : C.GiveBack) {
    auto Known = GiveBackAdd.find(S);
    if (Known != GiveBackAdd.end() && S->getSinglePredecessor() == BB) {
      // Already a give-back block (an earlier merge's): give both back there.
      BinaryOperator *Add = Known->second;
      Add->setOperand(1, ConstantInt::get(
          I64, cast<ConstantInt>(Add->getOperand(1))->getZExtValue() + Second.W));
      continue;
    }
    if (std::optional<PaidCheck> Then = takesGiveBack(BB, S, Second.W)) {
      // countdown += W2; countdown -= W3  ==  countdown -= W3 - W2.
      setPayment(*Then, Then->W - Second.W);
      ++NumGiveBacksFolded;
      continue;
    }
    BasicBlock *Way;
    if (S->getSinglePredecessor() == BB) {
      Way = S; // only this edge enters S: give back at its top
    } else {
      Way = SplitCriticalEdge(BB->getTerminator(), GetSuccessorNumber(BB, S),
                              CriticalEdgeSplittingOptions().setMergeIdenticalEdges());
      if (!Way)
        Way = S; // not critical after all: S has BB as its one predecessor
      else
        Way->setName("sampler.merged.giveback");
    }
    BinaryOperator *Add = giveBack(&*Way->getFirstInsertionPt(), Second.W, First);
    GiveBackAdd[Way] = Add;
    ++NumGiveBacks;
  }

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
  if (!C.GiveBack.empty())
    ++NumMergedSomePaths;
}

PreservedAnalyses SamplerCheckMergePass::run(Function &F,
                                             FunctionAnalysisManager &FAM) {
  const GlobalVariable *CD = countdownIn(*F.getParent());
  if (!CD || F.isDeclaration())
    return PreservedAnalyses::all();
  Merger M(F, CD, FAM, GiveBackPercent);
  bool Changed = false;
  SmallVector<BasicBlock *, 32> Blocks;
  for (BasicBlock &BB : F)
    Blocks.push_back(&BB);
  // (A block whose check a merge removed ends in a plain branch: no match.)
  // The block frequencies are those before any merge: the blocks a merge
  // makes (the ways back) are never among the blocks between two checks,
  // and the blocks between keep their branches.
  for (BasicBlock *BB : Blocks) {
    std::optional<PaidCheck> First = matchPaidCheck(BB, CD);
    if (!First)
      continue;
    while (std::optional<Candidate> C = M.nextCheck(*First)) {
      M.merge(*First, *C);
      Changed = true;
    }
  }
  if (!Changed)
    return PreservedAnalyses::all();
  removeUnreachableBlocks(F);
  return PreservedAnalyses::none();
}

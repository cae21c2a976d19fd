//===- LoopBoundCheck.cpp - One check for a loop whose trip count is bounded ===//
//
// See LoopBoundCheck.h. Inner loops first (a nest takes one round per depth),
// for each loop whose latch is a tagged back-edge check:
//   1. loop-simplify and LCSSA form (a preheader of its own, dedicated exits,
//      every value leaving the loop through a PHI of an exit block);
//   2. the checks of the loop's own body (the latch's and tagged splits) and
//      their payments `add V, -K`, V the countdown as loaded or as a PHI the
//      optimiser carries it in; nothing else in the loop may take trials;
//   3. N, an upper bound of the back edges taken: the smallest of the
//      symbolic maximum exit counts of the exits that are not checks (a
//      check's exit is the way to the instrumented copy, which the copy
//      without checks does not have);
//   4. for each way into the preheader where N (the preheader's PHIs replaced
//      by what that way brings) is cheap to compute, N is expanded there; all
//      candidates first, while the analyses still describe the function;
//   5. then the CFG: the loop and its preheader are cloned, each such way
//      gets a test, the clone's checks pay as before and go on into the loop
//      (their loads no longer volatile, so that LoopCountdownPromotion carries
//      the countdown in a register), exit blocks' PHIs receive the clone's
//      values and SSAUpdater joins the preheader's. A loop that leaves only
//      after exactly N back edges is paid for by its test instead, and its
//      clone's latch neither tests nor pays (paysOnEntry). With chunks, a
//      failed test may enter a third copy that runs the back edges the
//      countdown covers (a reserve's: addChunkEnd; a paid loop's:
//      addPaidChunkEnd).
//
//===----------------------------------------------------------------------===//
#include "LoopBoundCheck.h"
#include "RuntimeABI.h"
#include "SamplingTransform.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/TargetTransformInfo.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/PatternMatch.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/Local.h"
#include "llvm/Transforms/Utils/LoopSimplify.h"
#include "llvm/Transforms/Utils/LoopUtils.h"
#include "llvm/Transforms/Utils/SSAUpdater.h"
#include "llvm/Transforms/Utils/ScalarEvolutionExpander.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

using namespace llvm;
using namespace sampler;

#define DEBUG_TYPE "sampler-loop-bound"

STATISTIC(NumBounded, "Loops that pay for their back edges on entry");
STATISTIC(NumNoBound, "Tagged loops without a trip count bound");
STATISTIC(NumCostly, "Tagged loops whose bound costs too much on every way in");
STATISTIC(NumNoPayment, "Tagged loops whose payment was not recognised");
STATISTIC(NumOtherTrials, "Tagged loops where calls or inner loops take trials");
STATISTIC(NumReserved, "Loops whose back edges' trials are reserved on entry "
                       "while their inner loops check");
STATISTIC(NumPaidOnEntry, "Bounded loops with one way out, whose exact trip count "
                          "pays for their back edges on entry");
STATISTIC(NumChunked, "Loops with a reserve that reserve the back edges the "
                      "countdown covers when it does not cover all");
STATISTIC(NumPaidChunked, "Loops that pay on entry for the back edges the "
                          "countdown covers when it does not cover all");

/// The cost, in TargetTransformInfo's units, that computing a loop's bound on
/// a way into it may have beyond what is computed anyway: the test runs on
/// every entry and pays for itself only over a few iterations. Measured
/// (scripts/bench-quick.sh, sampling off), when the test stood in the
/// preheader, where the bound of a counted loop is an smax/smin of a PHI
/// (the instrumented copy re-enters the loop with any counter): 6 let in
/// Lua's short copy loops (17 instructions on entry; Lua 1.164x -> 1.174x),
/// 1 cost Lua nothing. With the test on each way in, the fast copy's entry
/// starts the counter from a constant and 1 and 3 measure the same; 3 lets in
/// more loops (counted loops with a variable start). Higher was measured on
/// ccrypt's rijndael (rotations of 1 to 7 iterations inside a loop of 3), as
/// instructions of 100,000 blocks each way: 5 the same, 6 +1.7%, 8 +6.3% (8
/// lets in both rotations, whose copies the optimiser then unrolls: their
/// set-up costs more than two instructions an iteration save).
static constexpr unsigned BoundBudget = 3;

/// The same for a loop that pays on entry (Candidate::PayOnEntry): its way
/// out computes no payment, so its test may cost that much more. Measured
/// against 3 (instructions, sampling off / d = 1000 / d = 100): bc -5.8% /
/// -5.0% / -0.1% (its digit loops, `count < len2 + 1`), bzip2 -0.25% /
/// -0.7% / -1.3%; Lua +0.24% / +0.24% / +0.28%, SQLite +0.08% / +0.05%,
/// rijndael +0.04% / +0.1% / +0.6%, zlib within 0.1%. The same budget for
/// every loop had cost bzip2 0.5% to 1.1% (mainQSort3's swaps computing a
/// bound, then paying on the way out, on every entry).
static constexpr unsigned PaidBoundBudget = 5;

/// Loops that can take fewer back edges than this are left alone: the test on
/// entry (about six instructions) costs more than the checks it saves (two
/// per back edge).
static constexpr uint64_t MinUsefulBound = 4;

/// A reserve's chunk takes the back edges that a share of the countdown,
/// ChunkShareNum / 2^ChunkShareShift, covers: the rest is for the inner
/// loops, whose checks test the countdown lowered by the reserve and leave for
/// the instrumented copy when it is short. Measured on zlib
/// (`scripts/bench-quick.sh`, minigzip -6, d = 1000, against no chunks): a
/// share of 1 (all of it) made its compare loop's check fail on most chunks,
/// +1.4%; 1/2 -3.8%, 1/3 -2.9%, 1/4 -2.8%.
/// Then, with k computed by one multiply (insertTest), against 1/2 (zlib's
/// minigzip, cachegrind, d = 1000 / 100): 3/4 -1.17% / -1.15%, 5/8 -0.68% /
/// -0.74%, 7/8 -1.11% / -0.63%, 15/16 -0.25% / +0.65%, 1 +3.96% / +3.10%.
/// Less than all, for the inner loops; a quarter kept is enough for zlib's.
static constexpr uint64_t ChunkShareNum = 3;
static constexpr unsigned ChunkShareShift = 2;
static_assert(ChunkShareNum < (uint64_t(1) << ChunkShareShift),
              "a chunk leaves the inner loops some of the countdown");

/// A reserve with more trials a back edge than this takes no chunks: the
/// share's multiplier (insertTest) would keep too few bits of it.
static constexpr uint64_t MaxChunkWeight = uint64_t(1) << 20;

/// A reserve's chunk is entered only for at least this many back edges: its
/// entry (the share computed, the reserve stored) and its end (the copy of
/// the latch's check) cost about 24 instructions, and each back edge it runs
/// saves the check's 3. Measured on zlib's minigzip (cachegrind, d = 100 /
/// 1000, against 1): 4 -1.11% / -0.10%, 6 -1.43% / -0.14%, 8 -1.51% /
/// -0.16%, 12 -1.29% / -0.15%, 16 -0.83% / -0.08%.
static constexpr uint64_t MinUsefulChunk = 8;

/// On the store with which an inner loop pays on entry (Candidate::PayOnEntry),
/// in its outer loop's body: the inner loop's trials, which the outer loop's
/// reserve lets be taken as its checks' are, not trials of the outer loop's own.
static constexpr char PaidOnEntryMD[] = "sampler.loop.paid";

namespace {

/// One way into the loop whose bound is cheap to compute: the edge from
/// \c From to the preheader gets the test.
struct Entry {
  BasicBlock *From;
  Value *Backedges; // N, expanded at the end of From
  APInt MaxBackedges;
  /// With a reserve: N + s·j0 in the counter's width (j0 its start, s its
  /// step), expanded at the end of From; the reserve left when the counter
  /// holds j is then (base - s·j)·W.
  Value *ReserveBase = nullptr;
  /// With chunks: the counter's start j0 for this way, expanded at the end
  /// of From (null: a failed test goes to the loop as it was).
  Value *CounterStart = nullptr;
};

/// Chunks (with a reserve): the counter's exit `icmp eq/ne V, E`, V the
/// counter j or its step j + s, E a constant, in the block just before the
/// latch, whose way on is the latch, which holds the check alone. In the
/// chunks' copy, the counter runs shifted by a loop invariant d (j' = j - d)
/// such that V' reaches E where the copy would take a back edge beyond those
/// it reserved; that way out then goes on to a copy of the latch's check
/// (addChunkEnd). The exit's test stays a compare with a constant, so the
/// copy costs nothing more an iteration; j and j + s have no other use in
/// the loop than each other and that test (a way out adds d back to what it
/// carries of them).
struct ChunkExit {
  BasicBlock *Block = nullptr; // the exiting block
  ICmpInst *Cmp = nullptr;
  unsigned LimitOp = 0;       // E's operand
  bool Stepped = false;       // V is j + s (else j)
  BasicBlock *Exit = nullptr; // the way out when V = E
};

/// A check of the loop's own body (the latch's, or a split of a heavy
/// region): what the copy drops.
struct BodyCheck {
  BasicBlock *Block;
  uint64_t W;           // the weight of the check's region
  Instruction *Payment; // `add V, -K` in the block (the copy keeps it)
  Value *Paid;          // V: the countdown before the payment
  BasicBlock *Stay;     // the successor in the loop (the fast copy)
};

/// With a reserve (inner loops that check, see prepare()): the loop's
/// counter, from which the back edges taken so far follow.
struct Counter {
  PHINode *Phi = nullptr; // {Start,+,Step} in the header, Step = +-1
  int64_t Step = 0;
};

struct Candidate {
  BasicBlock *Header, *Preheader, *Latch;
  SmallVector<BasicBlock *, 8> Blocks;
  SmallVector<BodyCheck, 2> Checks; // the latch's first
  uint64_t PerBackedge; // trials each back edge costs: all checks' weights
  uint64_t Once;        // trials the checks of the last iteration cost
  SmallVector<Entry, 2> Entries;
  /// Reserve: the copy's latch neither tests nor pays, the N·W trials of its
  /// back edges are taken from the countdown on entry, every other check
  /// stays (testing the lowered countdown), and every way out of the copy
  /// gives back what was not used.
  bool Reserve = false;
  Counter Count;
  /// Chunks: a failed test on a way in that computes the counter's start
  /// enters the chunks' copy when the countdown covers a few back edges.
  bool Chunked = false;
  ChunkExit Chunk;
  /// Paid on entry: the loop leaves only through one exit, after exactly N
  /// back edges, and only its latch checks. The test takes the N·W trials
  /// of them at once, and the copy neither tests nor pays (nothing to give
  /// back: every way through the copy takes all N back edges).
  bool PayOnEntry = false;
  /// Paid on entry, in chunks (findPaidChunk): a failed test on a way in
  /// that computes the counter's start (Entry::CounterStart) enters a third
  /// copy when the countdown C covers k = C / W >= MinUsefulBound back edges.
  /// It pays k·W there, and its header's exit leaves after exactly k back
  /// edges, for the header of the loop as it was, whose next check is the
  /// first that C does not cover.
  bool PaidChunked = false;
};

} // namespace

/// Whether some iteration of \p L goes from its header to a latch without
/// entering any of its inner loops. A reserve saves the latch's check on each
/// back edge and costs a test, the reserve and a give-back on each entry: it
/// pays where many iterations run no inner loop (zlib's longest_match walks
/// its hash chain and enters the loop that compares strings on few links),
/// not where every iteration runs one, whose own checks and bounds cost more
/// than the latch's (ccrypt's rounds: +0.2% to +0.5% with a reserve).
static bool iterationSkipsInnerLoops(const Loop &L, const LoopInfo &LI) {
  SmallVector<const BasicBlock *, 16> Work{L.getHeader()};
  SmallPtrSet<const BasicBlock *, 32> Seen{L.getHeader()};
  while (!Work.empty()) {
    const BasicBlock *BB = Work.pop_back_val();
    for (const BasicBlock *Succ : successors(BB)) {
      if (Succ == L.getHeader())
        return true; // a back edge, reached without an inner loop
      if (LI.getLoopFor(Succ) == &L && Seen.insert(Succ).second)
        Work.push_back(Succ);
    }
  }
  return false;
}

/// Chunks: the counter's exit just before the latch (ChunkExit), if the loop
/// \p C with a reserve has one, and a latch that holds the check alone, so
/// that a copy of it can stand for the latch on the way the exit takes in
/// chunks: the copy then pays and tests where the loop as it was would have.
static bool findChunkExit(const Loop &L, Candidate &C) {
  using namespace PatternMatch;
  PHINode *J = C.Count.Phi;
  BasicBlock *X = C.Latch->getSinglePredecessor();
  if (!J || !X || X == C.Latch || !L.contains(X))
    return false;
  auto *Next = dyn_cast<Instruction>(J->getIncomingValueForBlock(C.Latch));
  const APInt *Step;
  if (!Next || !match(Next, m_Add(m_Specific(J), m_APInt(Step))) ||
      Step->getSExtValue() != C.Count.Step)
    return false;
  auto *BI = dyn_cast<BranchInst>(X->getTerminator());
  if (!BI || !BI->isConditional())
    return false;
  auto *Cmp = dyn_cast<ICmpInst>(BI->getCondition());
  if (!Cmp || !Cmp->isEquality() || !Cmp->hasOneUse())
    return false;
  unsigned Leaves = Cmp->getPredicate() == ICmpInst::ICMP_EQ ? 0 : 1;
  if (BI->getSuccessor(1 - Leaves) != C.Latch ||
      L.contains(BI->getSuccessor(Leaves)))
    return false;
  ChunkExit Found;
  for (unsigned Op : {1u, 0u}) {
    Value *V = Cmp->getOperand(1 - Op);
    if (isa<ConstantInt>(Cmp->getOperand(Op)) && (V == J || V == Next)) {
      Found = {X, Cmp, Op, V == Next, BI->getSuccessor(Leaves)};
      break;
    }
  }
  if (!Found.Cmp)
    return false;
  for (Value *V : {static_cast<Value *>(J), static_cast<Value *>(Next)})
    for (User *U : V->users())
      if (U != J && U != Next && U != Cmp &&
          L.contains(cast<Instruction>(U)->getParent()))
        return false;
  // The latch: the countdown's load, the payment, its store, the test.
  const BodyCheck &Check = C.Checks.front();
  auto *Term = cast<BranchInst>(C.Latch->getTerminator());
  for (Instruction &I : *C.Latch) {
    if (&I == Term || &I == Check.Paid || &I == Check.Payment ||
        &I == Term->getCondition() || isa<DbgInfoIntrinsic>(I))
      continue;
    if (auto *SI = dyn_cast<StoreInst>(&I);
        SI && SI->getValueOperand() == Check.Payment)
      continue;
    return false;
  }
  if (!isa<LoadInst>(Check.Paid) ||
      cast<Instruction>(Check.Paid)->getParent() != C.Latch ||
      !isa<ICmpInst>(Term->getCondition()) ||
      !Term->getCondition()->hasOneUse() ||
      !is_contained(cast<User>(Term->getCondition())->operands(),
                    Check.Payment))
    return false;
  C.Chunk = Found;
  C.Chunked = true;
  return true;
}

/// A counter of \p L's iterations of step ±1, if it has one (Phi null if not).
static Counter unitCounter(const Loop &L, ScalarEvolution &SE,
                           const SmallPtrSetImpl<const Value *> &FromCountdown) {
  for (const LoopCounter &LC : loopCounters(L, SE, FromCountdown))
    if (LC.Step == 1 || LC.Step == -1)
      return {LC.Phi, LC.Step};
  return {};
}

/// Chunks of a loop that pays on entry (Candidate::PaidChunked): its header
/// is its way out, a counter of step ±1 counts its back edges there, and the
/// header computes nothing that it matters to compute twice (it writes no
/// memory and always goes on): the chunks' copy leaves from its header's
/// clone for the loop's header, which computes it again. Replacing the
/// exit's test with the chunk's (the counter against its value after k back
/// edges) costs nothing an iteration.
static bool findPaidChunk(const Loop &L, Candidate &C, ScalarEvolution &SE,
                          const SmallPtrSetImpl<const Value *> &FromCountdown) {
  if (C.Header == C.Latch || !L.isLoopExiting(C.Header))
    return false;
  auto *BI = dyn_cast<BranchInst>(C.Header->getTerminator());
  if (!BI || !BI->isConditional())
    return false;
  for (Instruction &I : *C.Header)
    if (&I != BI && (I.mayWriteToMemory() ||
                     !isGuaranteedToTransferExecutionToSuccessor(&I)))
      return false;
  C.Count = unitCounter(L, SE, FromCountdown);
  C.PaidChunked = C.Count.Phi != nullptr;
  return C.PaidChunked;
}

/// The payment of a check in \p Block: `add V, -K` (or `sub V, K`) where V
/// is the countdown (computed from it: FromCountdown) as the check loaded it
/// in the block or as the optimiser carries it in a PHI of the block or of the
/// header, and K is the check's weight W, or, where the optimiser folded the
/// payments of the body's earlier checks into this one (V a PHI), up to
/// \p MaxK. Null if there is not exactly one, or if something may write
/// memory between V and a store of the payment in the loop (storing V instead
/// would then not store what the countdown holds).
static Instruction *
findPayment(BasicBlock *Block, const Loop &L, uint64_t W, uint64_t MaxK,
            const SmallPtrSetImpl<const Value *> &FromCountdown,
            Value *&Paid) {
  using namespace PatternMatch;
  Instruction *Found = nullptr;
  for (Instruction &I : *Block) {
    Value *V;
    const APInt *C;
    uint64_t K = 0;
    if (match(&I, m_Add(m_Value(V), m_APInt(C))) && C->getBitWidth() == 64 &&
        C->isNegative())
      K = -C->getSExtValue();
    else if (match(&I, m_Sub(m_Value(V), m_APInt(C))) &&
             C->getBitWidth() == 64 && !C->isNegative())
      K = C->getZExtValue();
    if (!K || !FromCountdown.count(V))
      continue;
    Instruction *From = nullptr; // where V is known to be the countdown
    if (auto *LI = dyn_cast<LoadInst>(V)) {
      if (LI->getParent() == Block && K == W)
        From = LI;
    } else if (auto *PN = dyn_cast<PHINode>(V)) {
      if ((PN->getParent() == Block || PN->getParent() == L.getHeader()) &&
          K >= W && K <= MaxK)
        From = &*Block->getFirstNonPHIIt();
    }
    if (!From)
      continue;
    if (Found)
      return nullptr; // two candidates: not ours to guess
    for (User *U : I.users())
      if (auto *SI = dyn_cast<StoreInst>(U);
          SI && L.contains(SI->getParent())) {
        if (SI->getParent() != Block)
          return nullptr;
        for (auto It = From->getIterator(); &*It != SI; ++It)
          if (&*It != V && It->mayWriteToMemory())
            return nullptr;
      }
    Found = &I;
    Paid = V;
  }
  return Found;
}

/// Whether a value computed from the countdown in \p L is used after it: a
/// copy that takes its trials on entry (a reserve, or paid on entry) computes
/// no such value.
static bool countdownLeaves(const Loop &L,
                            const SmallPtrSetImpl<const Value *> &FromCountdown) {
  for (BasicBlock *BB : L.blocks())
    for (Instruction &I : *BB)
      if (FromCountdown.count(&I) && any_of(I.users(), [&](User *U) {
            return !L.contains(cast<Instruction>(U)->getParent());
          }))
        return true;
  return false;
}

/// Whether the loop \p C, whose back edges \p Bound bounds, can pay for
/// them on entry (Candidate::PayOnEntry): a bounded loop otherwise pays as it
/// goes, and the countdown it carries is computed from its counter on each
/// way out (LoopExitPayment.cpp): about five instructions an entry, which
/// the test's own N·W makes unnecessary where N is what the loop takes.
///   - its latch's check is its only one, paying its own weight from the
///     countdown as loaded (so N·W are all the trials the copy takes);
///   - one block leaves the loop but the latch's check, and the exact count
///     of its exits is N (ScalarEvolution's, which the bound is then too);
///   - nothing in the loop may unwind out of it, and no value computed from
///     the countdown leaves it but through memory (the copy computes none).
/// A call in it that ends the program (exit, abort) leaves the countdown
/// lower than the loop as it was would: the trials left are geometric all
/// the same, and only exit handlers run after it.
static bool paysOnEntry(const Loop &L, const Candidate &C, const SCEV *Bound,
                        const SmallPtrSetImpl<const Value *> &FromCountdown,
                        ScalarEvolution &SE) {
  if (C.Checks.size() != 1 || C.Once != 0 ||
      !isa<LoadInst>(C.Checks.front().Paid))
    return false;
  SmallVector<BasicBlock *, 4> Exiting;
  L.getExitingBlocks(Exiting);
  BasicBlock *Out = nullptr;
  for (BasicBlock *BB : Exiting) {
    if (BB == C.Latch)
      continue;
    if (Out || !isa<BranchInst>(BB->getTerminator()))
      return false;
    Out = BB;
  }
  if (!Out)
    return false;
  const SCEV *Exact = SE.getExitCount(&L, Out, ScalarEvolution::Exact);
  if (isa<SCEVCouldNotCompute>(Exact) || Exact != Bound)
    return false;
  for (BasicBlock *BB : L.blocks())
    for (Instruction &I : *BB)
      if (auto *CB = dyn_cast<CallBase>(&I); CB && !CB->doesNotThrow())
        return false;
  return !countdownLeaves(L, FromCountdown);
}

/// Steps 1-4 for one loop; false if it keeps its per-iteration check.
static bool prepare(Loop *L, uint64_t W, bool Reserve, bool Chunks,
                    GlobalVariable *Countdown,
                    const SmallPtrSetImpl<const Value *> &FromCountdown,
                    DominatorTree &DT, LoopInfo &LI, ScalarEvolution &SE,
                    AssumptionCache &AC, const TargetTransformInfo &TTI,
                    OptimizationRemarkEmitter &ORE,
                    SmallVectorImpl<Candidate> &Out) {
  // Why a loop keeps its per-iteration check, for -Rpass-missed=sampler-loop-bound
  // (clang) or -pass-remarks-missed (opt).
  auto Missed = [&](StringRef Name, const Twine &Why) {
    ORE.emit([&] {
      return OptimizationRemarkMissed(DEBUG_TYPE, Name, L->getStartLoc(),
                                      L->getHeader())
             << "loop in " << ore::NV("Function", L->getHeader()->getParent())
             << " keeps its back edge's countdown check: " << Why.str();
    });
    return false;
  };
  // Step 1's loop-simplify form: SamplerLoopBoundPass::run gives it to every
  // loop of the round before any is prepared.
  if (!L->isLoopSimplifyForm())
    return Missed("NotSimplified", "no preheader or no single latch");
  formLCSSA(*L, DT, &LI, &SE);
  BasicBlock *Latch = L->getLoopLatch();
  BasicBlock *Header = L->getHeader();
  BasicBlock *Preheader = L->getLoopPreheader();
  // A preheader that is an outer loop's header would give the copy of it a
  // second way into the outer loop (irreducible): a block of its own instead.
  // The function's entry block as the preheader has no way into it to put the
  // test on: the same. And so does a preheader that may take trials (a call
  // that may reach sites, bc's `_one_mult` right before its subtraction
  // loop): the test on the ways into it would count trials that the call then
  // takes, and a reserve taken there would be what the call draws from.
  auto TakesTrials = [&](const Instruction &I) {
    auto *CB = dyn_cast<CallBase>(&I);
    return touchesCountdown(I, Countdown) ||
           (CB && isCountdownDraw(CB));
  };
  if (LI.isLoopHeader(Preheader) || pred_empty(Preheader) ||
      any_of(*Preheader, TakesTrials)) {
    Preheader = SplitEdge(Preheader, Header, &DT, &LI);
    SE.forgetLoop(L);
  }
  auto *Check = dyn_cast<BranchInst>(Latch->getTerminator());
  if (!Check || !Check->isConditional() || tagWeight(Check) != W ||
      !is_contained(successors(Check), Header))
    return Missed("LatchNotCheck",
                  "the latch's branch is no longer the tagged check");

  // The checks of the loop's own body (not of loops inside it): each runs at
  // most once an iteration, so at most N + 1 times for N back edges.
  Candidate C{Header, Preheader, Latch,
              SmallVector<BasicBlock *, 8>(L->blocks()), {}, 0, 0, {},
              /*Reserve=*/false, {}, /*Chunked=*/false, {},
              /*PayOnEntry=*/false};
  for (BasicBlock *BB : L->blocks()) {
    if (LI.getLoopFor(BB) != L)
      continue;
    auto *BI = dyn_cast<BranchInst>(BB->getTerminator());
    uint64_t Wx = BB == Latch ? W : tagWeight(BI, CheckMD);
    if (!Wx)
      continue;
    if (!BI->isConditional() ||
        L->contains(BI->getSuccessor(0)) == L->contains(BI->getSuccessor(1)))
      return Missed("CheckShape", "a check of its body does not leave the loop "
                                  "on failure");
    BodyCheck X{BB, Wx, nullptr, nullptr,
                BB == Latch ? Header
                            : BI->getSuccessor(L->contains(BI->getSuccessor(0))
                                                   ? 0
                                                   : 1)};
    C.PerBackedge += Wx;
    if (BB == Latch) {
      C.Checks.insert(C.Checks.begin(), X);
    } else {
      C.Once += Wx;
      C.Checks.push_back(X);
    }
  }
  for (BodyCheck &X : C.Checks) {
    X.Payment = findPayment(X.Block, *L, X.W, C.PerBackedge, FromCountdown,
                            X.Paid);
    if (!X.Payment) {
      ++NumNoPayment;
      return Missed("NoPayment", "the countdown update of a check was not "
                                 "recognised");
    }
  }
  // The copy is the loop with its checks' tests dropped: exact only if the
  // checks are all that takes trials in it. A call that may reach sites takes
  // its own between them, and so do an inner loop's checks: with those, the
  // loop's trials are not the next N * W + ... of the countdown, and testing
  // them at once would favour what runs between them.
  SmallPtrSet<const Value *, 16> Own;
  for (const BodyCheck &X : C.Checks) {
    Own.insert(X.Payment);
    if (isa<LoadInst>(X.Paid))
      Own.insert(X.Paid);
    for (const User *U : X.Payment->users())
      if (isa<StoreInst>(U))
        Own.insert(U);
  }
  //
  // Inner loops' checks (and the tests and payments of their bounded copies)
  // are the one exception: the copy then reserves its back edges' trials on
  // entry instead, and lets those checks test the countdown with the reserve
  // taken out (see Candidate::Reserve). What it reads of the countdown in its
  // own body (an inner copy's test) reads the lowered countdown too, and an
  // inner copy that pays on entry takes its trials from it there.
  bool InnerTrials = false, OwnReads = false;
  for (BasicBlock *BB : L->blocks())
    for (Instruction &I : *BB) {
      const Value *Ptr = getLoadStorePointerOperand(&I);
      bool Access = Ptr && isCountdownAddress(Ptr, Countdown) && !Own.count(&I);
      bool Takes = false;
      if (auto *CB = dyn_cast<CallBase>(&I))
        Takes = isCountdownDraw(CB) || mayTouchCountdown(I);
      if (Access && (LI.getLoopFor(BB) != L || I.getMetadata(PaidOnEntryMD)))
        InnerTrials = true;
      else if (Access && isa<LoadInst>(I))
        OwnReads = true;
      else
        Takes |= Access;
      if (Takes) {
        ++NumOtherTrials;
        return Missed("OtherTrials",
                      "something else in it may take trials (a call that may "
                      "reach sites, or a payment not recognised)");
      }
    }
  if (!InnerTrials && OwnReads) {
    ++NumOtherTrials;
    return Missed("OtherTrials", "it reads the countdown outside its checks");
  }
  if (InnerTrials && !Reserve) {
    ++NumOtherTrials;
    return Missed("OtherTrials", "its inner loops take trials of their own "
                                 "(-fsampler-loop-reserve would reserve its "
                                 "back edges' trials on entry)");
  }
  if (InnerTrials && !iterationSkipsInnerLoops(*L, LI)) {
    ++NumOtherTrials;
    return Missed("ReserveShape",
                  "every iteration runs an inner loop, whose checks cost "
                  "more than the latch's: a reserve would not pay");
  }
  if (InnerTrials) {
    // The reserve: the latch pays exactly its weight (the copy drops that
    // payment), nothing computed from the countdown leaves the loop but
    // through memory (every way out gives the unused reserve back there),
    // no way out is an unwind edge (no block to give it back in), and a
    // counter tells how many back edges were taken.
    if (!isa<LoadInst>(C.Checks.front().Paid))
      return Missed("ReserveShape", "its inner loops check, and its latch's "
                                    "payment is not its own weight");
    if (countdownLeaves(*L, FromCountdown))
      return Missed("ReserveShape", "its inner loops check, and a value of "
                                    "the countdown is used after it");
    SmallVector<BasicBlock *, 4> Exits;
    L->getExitBlocks(Exits);
    if (any_of(Exits, [](BasicBlock *BB) { return BB->isEHPad(); }))
      return Missed("ReserveShape", "its inner loops check, and it has an "
                                    "unwind edge out");
    C.Count = unitCounter(*L, SE, FromCountdown);
    if (!C.Count.Phi)
      return Missed("NoCounter", "its inner loops check, and it has no counter "
                                 "of its iterations to give back the reserve");
    C.Reserve = true;
    C.Checks.resize(1); // the latch's; the body's other checks stay
    C.PerBackedge = C.Checks.front().W;
    C.Once = 0;
    if (Chunks && C.PerBackedge <= MaxChunkWeight)
      findChunkExit(*L, C);
  }

  const SCEV *Bound = nullptr;
  SmallVector<BasicBlock *, 8> Exiting;
  L->getExitingBlocks(Exiting);
  for (BasicBlock *BB : Exiting) {
    if (any_of(C.Checks, [&](const BodyCheck &X) { return X.Block == BB; }))
      continue;
    const SCEV *EC =
        SE.getExitCount(L, BB, ScalarEvolution::SymbolicMaximum);
    if (isa<SCEVCouldNotCompute>(EC) || !EC->getType()->isIntegerTy() ||
        EC->getType()->getIntegerBitWidth() > 64)
      continue;
    // A check whose tag the optimiser dropped: its exit count follows the
    // countdown, which the copy no longer spends as the original does.
    if (SCEVExprContains(EC, [&](const SCEV *S) {
          auto *U = dyn_cast<SCEVUnknown>(S);
          return U && FromCountdown.count(U->getValue());
        }))
      continue;
    Bound = Bound ? SE.getUMinFromMismatchedTypes(Bound, EC) : EC;
  }
  if (!Bound) {
    ++NumNoBound;
    return Missed("NoBound", "no exit has a computable maximum trip count");
  }
  C.PayOnEntry = !C.Reserve && paysOnEntry(*L, C, Bound, FromCountdown, SE);
  if (Chunks && C.PayOnEntry)
    findPaidChunk(*L, C, SE, FromCountdown);

  // The bound for each way into the preheader, its PHIs replaced by what that
  // way brings: the fast copy's own entry usually starts the loop from a
  // constant, and the instrumented copy's return (after a sample) from
  // anything. The test goes on the ways where N is cheap to compute.
  const DataLayout &DL = Header->getModule()->getDataLayout();
  SCEVExpander Exp(SE, DL, "sampler.bound");
  SmallPtrSet<BasicBlock *, 4> Seen;
  unsigned Ways = 0, Unsafe = 0, Costly = 0, Short = 0;
  for (BasicBlock *From : predecessors(Preheader)) {
    if (!Seen.insert(From).second)
      continue;
    ++Ways;
    Instruction *At = From->getTerminator();
    if (!isa<BranchInst>(At) ||
        count(successors(From), Preheader) != 1) {
      ++Unsafe;
      continue;
    }
    ValueToSCEVMapTy Map;
    for (PHINode &PN : Preheader->phis())
      Map[&PN] = SE.getSCEV(PN.getIncomingValueForBlock(From));
    const SCEV *N = SCEVParameterRewriter::rewrite(Bound, SE, Map);
    if (!Exp.isSafeToExpandAt(N, At)) {
      ++Unsafe;
      continue;
    }
    if (Exp.isHighCostExpansion(N, L,
                                C.PayOnEntry ? PaidBoundBudget : BoundBudget,
                                &TTI, At)) {
      ++Costly;
      continue;
    }
    APInt MaxN = SE.getUnsignedRangeMax(N).zextOrTrunc(64);
    if (MaxN.ult(MinUsefulBound)) {
      ++Short;
      continue;
    }
    // The counter, modulo 2^w, tells the back edges taken exactly while they
    // are fewer than 2^w.
    if (C.Reserve &&
        MaxN.getActiveBits() > C.Count.Phi->getType()->getIntegerBitWidth()) {
      ++Unsafe;
      continue;
    }
    Value *Base = nullptr, *J0Value = nullptr;
    // The counter's start j0 on this way (a reserve's counter, or a paid
    // loop's for its chunks).
    Type *CT = C.Count.Phi ? C.Count.Phi->getType() : nullptr;
    const SCEV *J0 =
        CT ? SCEVParameterRewriter::rewrite(
                 SE.getSCEV(C.Count.Phi->getIncomingValueForBlock(Preheader)),
                 SE, Map)
           : nullptr;
    if (C.Reserve) {
      // Folded by ScalarEvolution where the bound comes from the counter
      // itself (zlib's `--chain_length != 0`: N = j0 - 1, so the base is
      // the constant -1): then nothing more stays live round the loop.
      const SCEV *BaseS = SE.getAddExpr(
          SE.getTruncateOrZeroExtend(N, CT),
          C.Count.Step == 1 ? J0 : SE.getNegativeSCEV(J0));
      if (!Exp.isSafeToExpandAt(BaseS, At)) {
        ++Unsafe;
        continue;
      }
      Base = Exp.expandCodeFor(BaseS, CT, At);
    }
    // Chunks start from j0: a reserve's, and a paid loop's where its counter
    // tells the value after k back edges from its start's, while k < 2^w
    // (k < N, so N <= 2^w will do).
    bool ChunkWay = C.Chunked || (C.PaidChunked && (MaxN - 1).getActiveBits() <=
                                                       CT->getIntegerBitWidth());
    if (ChunkWay && Exp.isSafeToExpandAt(J0, At))
      J0Value = Exp.expandCodeFor(J0, CT, At);
    C.Entries.push_back(
        {From, Exp.expandCodeFor(N, nullptr, At), MaxN, Base, J0Value});
  }
  if (C.Entries.empty()) {
    ++NumCostly;
    return Missed("Costly", "of its " + Twine(Ways) + " ways in, " +
                                Twine(Costly) + " would compute the bound at " +
                                "too high a cost, " + Twine(Short) +
                                " bound it below " + Twine(MinUsefulBound) +
                                ", " + Twine(Unsafe) +
                                " cannot compute it there");
  }
  bool AnyStart =
      any_of(C.Entries, [](const Entry &E) { return E.CounterStart; });
  C.Chunked &= AnyStart;
  C.PaidChunked &= AnyStart;
  ORE.emit([&] {
    if (C.Reserve)
      return OptimizationRemark(DEBUG_TYPE, "Reserved", L->getStartLoc(),
                                L->getHeader())
             << "loop in " << ore::NV("Function", Header->getParent())
             << " reserves its back edges' trials on entry (trials per back "
                "edge: "
             << ore::NV("PerBackedge", C.PerBackedge)
             << "), its inner loops checking against the rest, on "
             << ore::NV("Ways", unsigned(C.Entries.size())) << " of "
             << ore::NV("Of", Ways) << " ways in"
             << (C.Chunked ? ", in chunks where the countdown covers fewer"
                           : "");
    return OptimizationRemark(DEBUG_TYPE, "Bounded", L->getStartLoc(),
                              L->getHeader())
           << "loop in " << ore::NV("Function", Header->getParent())
           << " tests its countdown checks once on entry (trials per back edge: "
           << ore::NV("PerBackedge", C.PerBackedge) << ") on "
           << ore::NV("Ways", unsigned(C.Entries.size())) << " of "
           << ore::NV("Of", Ways) << " ways in"
           << (C.PayOnEntry ? ", and pays for them there" : "")
           << (C.PaidChunked ? ", in chunks where the countdown covers fewer"
                             : "");
  });
  Out.push_back(std::move(C));
  return true;
}

/// The test on one way into the loop, in a block of its own on the edge
/// From -> preheader: whether the countdown covers all the trials the loop's
/// checks can take over N back edges (then none of them can fail). Usually
/// that is below 2^63 (ScalarEvolution's range of N says so): one signed
/// comparison, an unknown countdown (< 0) failing it too; otherwise overflow
/// and sign are tested as well. Returns the block that goes on to the copy.
///
/// With chunks on this way (E.CounterStart), a failed test goes instead to
/// the chunks' copy \p ChunkClone, through \p ChunkGo, when the countdown
/// covers enough back edges: ChunkGo reserves k·W and computes
/// \p ChunkShift, the counter's shift d (ChunkExit); for a loop that pays on
/// entry, it pays k·W and \p ChunkShift is the counter's value after k back
/// edges (addPaidChunkEnd).
static BasicBlock *insertTest(const Candidate &C, const Entry &E,
                              GlobalVariable *Countdown, BasicBlock *Clone,
                              BasicBlock *ChunkClone, BasicBlock *&ChunkGo,
                              Value *&ChunkShift) {
  LLVMContext &Ctx = C.Header->getContext();
  Function *F = C.Header->getParent();
  BasicBlock *Test =
      BasicBlock::Create(Ctx, "sampler.loop.test", F, C.Preheader);
  BasicBlock *Go = BasicBlock::Create(Ctx, "sampler.loop.enough", F, Clone);
  E.From->getTerminator()->replaceSuccessorWith(C.Preheader, Test);
  // With chunks, the loop as it was is entered from a second test.
  BasicBlock *Fail = C.Preheader;
  ChunkGo = nullptr;
  if ((C.Chunked || C.PaidChunked) && E.CounterStart)
    Fail = BasicBlock::Create(Ctx, "sampler.loop.chunk.test", F, C.Preheader);
  C.Preheader->replacePhiUsesWith(E.From, Fail == C.Preheader ? Test : Fail);
  IRBuilder<> B(Test);
  auto *I64 = B.getInt64Ty();
  Value *N = B.CreateZExtOrTrunc(E.Backedges, I64, "sampler.backedges");
  Value *Addr = countdownAddressFor(*F, Countdown);
  Value *Cd = B.CreateLoad(I64, Addr, "countdown");
  Value *Cost, *Enough;
  // N back edges: N * PerBackedge + Once trials (the body's checks run N + 1
  // times, the latch's N).
  bool Overflow = false, Overflow2 = false;
  APInt MaxCost = E.MaxBackedges.umul_ov(APInt(64, C.PerBackedge), Overflow)
                      .uadd_ov(APInt(64, C.Once), Overflow2);
  Value *Paid = nullptr; // the countdown with the loop paid for
  if (!Overflow && !Overflow2 && !MaxCost.isNegative()) {
    Cost = B.CreateMul(N, B.getInt64(C.PerBackedge), "sampler.loop.trials",
                       /*HasNUW=*/true, /*HasNSW=*/true);
    if (C.Once)
      Cost = B.CreateAdd(Cost, B.getInt64(C.Once), "sampler.loop.trials",
                         /*HasNUW=*/true, /*HasNSW=*/true);
    // Paid on entry: the subtraction beside the compare, whose flags x86
    // then tests (the same code as with the subtraction in the copy's
    // entry, measured: the backend moves it either way).
    if (C.PayOnEntry)
      Paid = B.CreateSub(Cd, Cost, "countdown.paid.on.entry");
    Enough = B.CreateICmpSGE(Cd, Cost, "sampler.loop.affordable");
  } else {
    Value *Mul = B.CreateBinaryIntrinsic(Intrinsic::umul_with_overflow, N,
                                         B.getInt64(C.PerBackedge));
    Value *Add = B.CreateBinaryIntrinsic(Intrinsic::uadd_with_overflow,
                                         B.CreateExtractValue(Mul, 0),
                                         B.getInt64(C.Once));
    Cost = B.CreateExtractValue(Add, 0, "sampler.loop.trials");
    Enough = B.CreateAnd(
        B.CreateAnd(B.CreateNot(B.CreateOr(B.CreateExtractValue(Mul, 1),
                                           B.CreateExtractValue(Add, 1))),
                    B.CreateICmpSGE(Cost, B.getInt64(0))),
        B.CreateICmpSGE(Cd, Cost), "sampler.loop.affordable");
  }
  MDBuilder MDB(Ctx);
  B.CreateCondBr(Enough, Go, Fail, MDB.createLikelyBranchWeights());
  B.SetInsertPoint(Go);
  // The reserve: the back edges' trials, taken now (Once is 0 then).
  if (C.Reserve)
    B.CreateStore(B.CreateSub(Cd, Cost, "countdown.reserved"), Addr);
  // Paid on entry: all the loop's trials, taken now (Once is 0 too).
  if (C.PayOnEntry)
    B.CreateStore(Paid ? Paid : B.CreateSub(Cd, Cost, "countdown.paid.on.entry"),
                  Addr)
        ->setMetadata(PaidOnEntryMD, MDNode::get(Ctx, {}));
  B.CreateBr(Clone);
  if (Fail == C.Preheader)
    return Go;

  // Chunks: k back edges, a share of those the countdown covers (a negative
  // countdown, the next trial unknown, covers none), taken now; k < N, the
  // test above having failed:
  //   - a reserve takes k >= MinUsefulChunk, about ChunkShareNum /
  //     2^ChunkShareShift of countdown / W, the rest being for its inner
  //     loops' checks. Its counted exit must then leave where
  //     the counter's value is L = j0 + s·(k + t) (t = 1 if it tests j + s,
  //     0 if j), which it reaches before E, N being at most that exit's
  //     count. Shifted by d = L - E, the counter meets E there (the reserve's
  //     base for it: chunkBase); \p ChunkShift carries d;
  //   - a paid loop pays for k = countdown / W >= MinUsefulBound, and its
  //     copy's header leaves after k back edges, where the counter is
  //     L = j0 + s·k (addPaidChunkEnd); \p ChunkShift carries L.
  uint64_t W = C.PerBackedge;
  // A reserve's share of the countdown, k = (C * M) >> 64 with
  // M = floor(2^64 * share / W): one multiply, where dividing by W costs a
  // fix-up for most W (k need only be at most C / W, not rounded);
  // k >= MinUsefulChunk exactly when C >= ceil(MinUsefulChunk * 2^64 / M).
  // A paid loop's k = C / W exactly, at least MinUsefulBound.
  APInt M;
  uint64_t LeastC = MinUsefulBound * W;
  if (!C.PaidChunked) {
    assert(W <= MaxChunkWeight && "prepare takes no chunks for it");
    APInt Two64 = APInt::getOneBitSet(128, 64);
    M = (Two64 * ChunkShareNum).udiv(APInt(128, W) << ChunkShareShift);
    LeastC = (Two64 * MinUsefulChunk + M - 1).udiv(M).getZExtValue();
  }
  B.SetInsertPoint(Fail);
  ChunkGo = BasicBlock::Create(Ctx, "sampler.loop.chunk", F, ChunkClone);
  B.CreateCondBr(B.CreateICmpSGE(Cd, B.getInt64(LeastC), "sampler.chunk.some"),
                 ChunkGo, C.Preheader, MDB.createLikelyBranchWeights());
  B.SetInsertPoint(ChunkGo);
  Value *K;
  if (C.PaidChunked) {
    K = B.CreateUDiv(Cd, B.getInt64(W), "sampler.chunk.backedges");
  } else {
    auto *I128 = B.getIntNTy(128);
    Value *Prod = B.CreateMul(B.CreateZExt(Cd, I128),
                              ConstantInt::get(I128, M.trunc(64).zext(128)),
                              "sampler.chunk.share", /*HasNUW=*/true);
    K = B.CreateTrunc(B.CreateLShr(Prod, 64), I64, "sampler.chunk.backedges");
  }
  StoreInst *Take = B.CreateStore(
      B.CreateSub(Cd, B.CreateMul(K, B.getInt64(W), "", true, true),
                  C.PaidChunked ? "countdown.paid.chunk" : "countdown.reserved"),
      Addr);
  Type *CT = C.Count.Phi->getType();
  Value *KC = B.CreateTrunc(K, CT);
  Value *J0 = E.CounterStart;
  if (C.PaidChunked) {
    // An outer loop's reserve counts it among its inner loops' trials.
    Take->setMetadata(PaidOnEntryMD, MDNode::get(Ctx, {}));
    ChunkShift = C.Count.Step == 1 ? B.CreateAdd(J0, KC) : B.CreateSub(J0, KC);
    ChunkShift->setName("sampler.chunk.last");
  } else {
    Value *Steps =
        C.Chunk.Stepped ? B.CreateAdd(KC, ConstantInt::get(CT, 1)) : KC;
    Value *Leave =
        C.Count.Step == 1 ? B.CreateAdd(J0, Steps) : B.CreateSub(J0, Steps);
    auto *EC = cast<ConstantInt>(C.Chunk.Cmp->getOperand(C.Chunk.LimitOp));
    ChunkShift = B.CreateSub(Leave, EC, "sampler.chunk.shift");
  }
  B.CreateBr(ChunkClone);
  return Go;
}

/// With a reserve: on every way out of the copy (its exits, and the ways to
/// the instrumented copy from the checks it kept), the trials of the back
/// edges not taken go back to the countdown, so that it holds what the loop
/// as it was would have left: (N - b)·W, b the back edges taken so far, from
/// the counter j = j0 + s·b: (N - b) = (N + s·j0) - s·j = Base - s·j, in the
/// counter's width w (exact: 0 <= N - b <= N < 2^w, prepare() saw to it).
///
/// With chunks, the counter in the copy is shifted (ChunkExit): the base
/// takes that into account, and what a way out carries of the counter gets
/// the shift \p Shift added back.
static void giveBackReserve(const Candidate &C, ValueToValueMapTy &VMap,
                            ArrayRef<BasicBlock *> Clones, Value *Base,
                            Value *Shift, GlobalVariable *Countdown) {
  Function &F = *C.Header->getParent();
  auto *J = cast<PHINode>(VMap[C.Count.Phi]);
  uint64_t W = C.PerBackedge;
  // Where the iteration's step of the counter, j + s, is already computed,
  // the way out uses it (base + 1 - s·(j + s) is the same): otherwise j
  // stays live beside j + s to the end of the iteration, and the register
  // allocator copies it every iteration (zlib's longest_match, whose
  // `--chain_length != 0` leaves after the step).
  using namespace PatternMatch;
  // (The step compared as a signed value: m_SpecificInt would zero-extend a
  // narrow counter's -1 and never match it.)
  auto *Next = dyn_cast<Instruction>(
      J->getIncomingValueForBlock(cast<BasicBlock>(VMap[C.Latch])));
  Value *Next0 = Next; // j + s in the copy, whatever its form
  const APInt *StepC;
  if (Next && !(match(Next, m_Add(m_Specific(J), m_APInt(StepC))) &&
                StepC->getSExtValue() == C.Count.Step))
    Next = nullptr;
  DominatorTree DT(F);
  SmallVector<std::pair<BasicBlock *, BasicBlock *>, 8> Ways;
  for (BasicBlock *Clone : Clones)
    for (BasicBlock *Succ : successors(Clone))
      if (!is_contained(Clones, Succ) &&
          !is_contained(Ways, std::make_pair(Clone, Succ)))
        Ways.push_back({Clone, Succ});
  // The counter leaves through an empty inline asm that ScalarEvolution
  // cannot see into: otherwise loop strength reduction turns (N - b)·W into
  // an induction variable of its own, decremented by W every iteration
  // (zlib's longest_match: the add the reserve was to save, and a copy
  // more). Its output is tied to its input ("=r,0"): the asm writes nothing,
  // so an untied output would be whatever its register held (bounded-loops.c's
  // counts caught that).
  auto *Opaque = InlineAsm::get(
      FunctionType::get(J->getType(), {J->getType()}, false), "", "=r,0",
      /*hasSideEffects=*/false);
  Value *Addr = countdownAddressFor(F, Countdown);
  for (auto [From, To] : Ways) {
    // A block of its own on the way (every edge from From to To: a switch
    // may have several), PHIs of To updated.
    bool Stepped = Next && DT.dominates(Next, From->getTerminator());
    Value *Counter = Stepped ? Next : J;
    BasicBlock *Back = SplitBlockPredecessors(To, {From}, ".reserve.back");
    IRBuilder<> B(Back->getTerminator());
    Value *JOut = B.CreateCall(Opaque, {Counter}, "sampler.counter");
    Value *From0 = Stepped ? B.CreateAdd(Base, ConstantInt::get(J->getType(), 1))
                           : Base;
    Value *Rest = C.Count.Step == 1 ? B.CreateSub(From0, JOut)
                                    : B.CreateAdd(From0, JOut);
    Rest = B.CreateZExtOrTrunc(Rest, B.getInt64Ty(), "sampler.backedges.left");
    Value *Left = B.CreateMul(Rest, B.getInt64(W), "sampler.reserve.left");
    Value *Cd = B.CreateLoad(B.getInt64Ty(), Addr, "countdown");
    B.CreateStore(B.CreateAdd(Cd, Left, "countdown.given.back"), Addr);
    if (Shift)
      for (PHINode &PN : To->phis()) {
        Value *V = PN.getIncomingValueForBlock(Back);
        if (V == J || V == Next0)
          PN.setIncomingValueForBlock(Back,
                                      B.CreateAdd(V, Shift, "sampler.counter"));
      }
  }
  ++NumReserved;
}

/// Chunks: the reserve's base (giveBackReserve) for the chunks' copy, whose
/// counter is shifted by d = L - E (insertTest). For the counter itself the
/// base is k + s·j0 (the back edges left when it holds j are base - s·j);
/// for the shifted one k + s·j0 - s·d = -t + s·E (t = 1 if the exit tests
/// j + s, 0 if j), whatever k and j0: a constant.
static Constant *chunkBase(const Candidate &C) {
  Type *CT = C.Count.Phi->getType();
  const APInt &E =
      cast<ConstantInt>(C.Chunk.Cmp->getOperand(C.Chunk.LimitOp))->getValue();
  APInt T(CT->getIntegerBitWidth(), C.Chunk.Stepped ? 1 : 0);
  return ConstantInt::get(CT, C.Count.Step == 1 ? E - T : -E - T);
}

/// A copy of the loop and its preheader (\p Suffix on the names), remapped,
/// its preheader's PHIs emptied for the tests to fill (\p PrePhis), the
/// checks of its body dropped as versionLoop says.
static BasicBlock *cloneLoop(Candidate &C, const Twine &Suffix,
                             ValueToValueMapTy &VMap,
                             SmallVectorImpl<BasicBlock *> &Clones,
                             SmallVectorImpl<PHINode *> &PrePhis,
                             SmallVectorImpl<WeakTrackingVH> &MaybeDead,
                             GlobalVariable *Countdown) {
  Function &F = *C.Header->getParent();
  for (BasicBlock *BB : C.Blocks) {
    BasicBlock *Clone = CloneBasicBlock(BB, VMap, Suffix, &F);
    VMap[BB] = Clone;
    Clones.push_back(Clone);
  }
  BasicBlock *PreClone =
      CloneBasicBlock(C.Preheader, VMap, Suffix, &F, nullptr, nullptr);
  VMap[C.Preheader] = PreClone;
  PreClone->moveBefore(cast<BasicBlock>(VMap[C.Header]));
  for (PHINode &PN : PreClone->phis())
    PrePhis.push_back(&PN);
  SmallVector<BasicBlock *, 8> Remap(Clones.begin(), Clones.end());
  Remap.push_back(PreClone);
  remapInstructionsInBlocks(Remap, VMap);
  for (PHINode *PN : PrePhis)
    while (PN->getNumIncomingValues())
      PN->removeIncomingValue(0u, /*DeletePHIIfEmpty=*/false);

  // The copy's checks pay as the loop's do, and go on into the loop (for the
  // latch: straight back to the header): the test showed that none can fail.
  for (const BodyCheck &X : C.Checks) {
    auto *BlockClone = cast<BasicBlock>(VMap[X.Block]);
    auto *CheckClone = cast<BranchInst>(BlockClone->getTerminator());
    MaybeDead.push_back(CheckClone->getCondition());
    BranchInst *Stay = BranchInst::Create(cast<BasicBlock>(VMap[X.Stay]),
                                          CheckClone->getIterator());
    // A latch's branch carries the loop's metadata (the program's pragmas).
    Stay->copyMetadata(*CheckClone, {LLVMContext::MD_loop});
    Stay->setDebugLoc(CheckClone->getDebugLoc());
    CheckClone->eraseFromParent();
    // With a reserve, or paid on entry, the latch no longer pays either: its
    // trials were taken on entry.
    if (C.Reserve || C.PayOnEntry) {
      auto *PaymentClone = cast<Instruction>(VMap[X.Payment]);
      auto *PaidClone = cast<Instruction>(VMap[X.Paid]); // its volatile load
      if (auto *Cond = dyn_cast_or_null<Instruction>(MaybeDead.back());
          Cond && Cond->use_empty())
        Cond->eraseFromParent();
      for (User *U : make_early_inc_range(PaymentClone->users()))
        if (auto *SI = dyn_cast<StoreInst>(U); SI && SI->getParent() == BlockClone)
          SI->eraseFromParent();
      if (PaymentClone->use_empty())
        PaymentClone->eraseFromParent();
      if (PaidClone->use_empty())
        PaidClone->eraseFromParent();
    }
  }
  // The checks' loads are volatile, so that the optimiser keeps each check a
  // `subq $W, %fs:...` (SamplingTransform.cpp); in the copy, which no longer
  // tests, they are plain, so that LoopCountdownPromotion carries the
  // countdown in a register and the vectoriser sees an induction variable.
  // (With a reserve, the inner loops' checks stay what they are.)
  for (BasicBlock *Clone : Clones)
    for (Instruction &I : *Clone)
      if (auto *LI = dyn_cast<LoadInst>(&I);
          LI && LI->isVolatile() && !C.Reserve &&
          isCountdownAddress(LI->getPointerOperand(), Countdown))
        LI->setVolatile(false);
  return PreClone;
}

/// LCSSA: what leaves the loop leaves through exit blocks' PHIs, which now
/// also receive the copy's values. (The copy's latch no longer exits.)
static void addExitIncomings(const Candidate &C, ValueToValueMapTy &VMap,
                             ArrayRef<BasicBlock *> Clones) {
  for (auto [BB, Clone] : zip(C.Blocks, Clones))
    for (BasicBlock *Succ : successors(Clone)) {
      if (is_contained(Clones, Succ))
        continue;
      for (PHINode &PN : Succ->phis()) {
        Value *V = PN.getIncomingValueForBlock(BB);
        if (Value *M = VMap.lookup(V))
          V = M;
        PN.addIncoming(V, Clone);
      }
    }
}

/// Chunks: the copy that runs the back edges a reserve covers when it does not
/// cover all (\p VMap, its preheader \p PreClone), its counter shifted by
/// \p Shift (ChunkExit). Its counter's exit always leaves where the copy has
/// taken the back edges it reserved (k < N), and there the loop as it was
/// would take its latch's check. A copy of that check (the latch holds
/// nothing else, findChunkExit) does it with the copy's values, the counter's
/// shift added back, and goes on where the latch goes: the loop as it was, or
/// the instrumented copy.
static void addChunkEnd(const Candidate &C, ValueToValueMapTy &VMap,
                        BasicBlock *PreClone, PHINode *Shift) {
  Function *F = C.Header->getParent();
  PHINode *J = C.Count.Phi;
  Value *Next = J->getIncomingValueForBlock(C.Latch);
  auto *JC = cast<PHINode>(VMap[J]);
  int In = JC->getBasicBlockIndex(PreClone);
  IRBuilder<> B(PreClone->getTerminator());
  JC->setIncomingValue(In, B.CreateSub(JC->getIncomingValue(In), Shift,
                                       "sampler.counter.shifted"));

  auto *XClone = cast<BasicBlock>(VMap[C.Chunk.Block]);
  ValueToValueMapTy LatchMap;
  BasicBlock *End = CloneBasicBlock(C.Latch, LatchMap, ".chunk.end", F);
  End->moveAfter(XClone);
  for (Instruction &I : *End)
    RemapInstruction(&I, LatchMap,
                     RF_IgnoreMissingLocals | RF_NoModuleLevelChanges);
  End->getTerminator()->setMetadata(BackEdgeCheckMD, nullptr);
  XClone->getTerminator()->replaceSuccessorWith(C.Chunk.Exit, End);
  B.SetInsertPoint(End->getFirstNonPHI());
  for (BasicBlock *Succ : successors(End))
    for (PHINode &PN : Succ->phis()) {
      Value *V = PN.getIncomingValueForBlock(C.Latch);
      if (V == J || V == Next)
        V = B.CreateAdd(VMap[V], Shift, "sampler.counter");
      else if (Value *M = LatchMap.lookup(V))
        V = M;
      else if (Value *M = VMap.lookup(V))
        V = M;
      PN.addIncoming(V, End);
    }
  ++NumChunked;
}

/// Paid chunks: the chunks' copy (\p VMap) leaves from its header's clone
/// once its counter holds \p Last, its value after the k back edges paid
/// for (k < N: the loop's own exit, the header's, cannot come first), for
/// the header of the loop as it was, with the copy's values: there the loop
/// as it was would be after k back edges too, and its next check fails.
static void addPaidChunkEnd(const Candidate &C, ValueToValueMapTy &VMap,
                            ArrayRef<BasicBlock *> Clones, PHINode *Last,
                            SmallVectorImpl<WeakTrackingVH> &MaybeDead) {
  auto *HeaderClone = cast<BasicBlock>(VMap[C.Header]);
  auto *Exit = cast<BranchInst>(HeaderClone->getTerminator());
  BasicBlock *Stay = Exit->getSuccessor(0);
  if (!is_contained(Clones, Stay))
    Stay = Exit->getSuccessor(1);
  IRBuilder<> B(Exit);
  Value *End = B.CreateICmpEQ(VMap[C.Count.Phi], Last, "sampler.chunk.end");
  MDBuilder MDB(C.Header->getContext());
  B.CreateCondBr(End, C.Header, Stay, MDB.createUnlikelyBranchWeights())
      ->setDebugLoc(Exit->getDebugLoc());
  MaybeDead.push_back(Exit->getCondition());
  Exit->eraseFromParent();
  for (PHINode &PN : C.Header->phis())
    PN.addIncoming(VMap[&PN], HeaderClone);
  ++NumPaidChunked;
}

/// A PHI of the copy's preheader or header that only carries one value round
/// is that value (a preheader PHI with one way in).
static void foldCopyPhis(ValueToValueMapTy &VMap, const Candidate &C,
                         ArrayRef<BasicBlock *> Clones) {
  for (auto *BB : {cast<BasicBlock>(VMap[C.Preheader]),
                   cast<BasicBlock>(VMap[C.Header])})
    for (PHINode &PN : make_early_inc_range(BB->phis()))
      if (Value *V = PN.hasConstantValue();
          V && V != &PN &&
          !(isa<Instruction>(V) &&
            is_contained(Clones, cast<Instruction>(V)->getParent()))) {
        PN.replaceAllUsesWith(V);
        PN.eraseFromParent();
      }
}

/// Step 5: the copy of the loop whose body's checks pay but do not test,
/// behind a copy of the preheader that the tests enter; with chunks, a second
/// copy for the tests that the countdown fails (addChunkEnd).
static void versionLoop(Candidate &C, GlobalVariable *Countdown) {
  ValueToValueMapTy VMap, ChunkMap;
  SmallVector<BasicBlock *, 8> Clones, ChunkClones;
  SmallVector<PHINode *, 4> PrePhis, ChunkPhis;
  SmallVector<WeakTrackingVH, 8> MaybeDead;
  BasicBlock *PreClone =
      cloneLoop(C, ".bounded", VMap, Clones, PrePhis, MaybeDead, Countdown);
  BasicBlock *ChunkPre =
      C.Chunked || C.PaidChunked
          ? cloneLoop(C, ".chunk", ChunkMap, ChunkClones, ChunkPhis, MaybeDead,
                      Countdown)
          : nullptr;

  // The tests; the copy is entered with the preheader's PHIs' values for the
  // way it came in by (and, with a reserve, its bound; with chunks, the
  // counter's shift).
  PHINode *Base = nullptr, *Shift = nullptr;
  if (C.Reserve)
    Base = PHINode::Create(C.Count.Phi->getType(), C.Entries.size(),
                           "sampler.reserve.base",
                           PreClone->getFirstNonPHIIt());
  if (ChunkPre)
    Shift = PHINode::Create(C.Count.Phi->getType(), C.Entries.size(),
                            C.Chunked ? "sampler.chunk.shift"
                                      : "sampler.chunk.last",
                            ChunkPre->getFirstNonPHIIt());
  for (const Entry &E : C.Entries) {
    // What the original preheader's PHIs receive from E.From, before the
    // test takes the edge's place.
    SmallVector<Value *, 4> In;
    for (PHINode &PN : C.Preheader->phis())
      In.push_back(PN.getIncomingValueForBlock(E.From));
    BasicBlock *ChunkGo;
    Value *ChunkShift;
    BasicBlock *Go =
        insertTest(C, E, Countdown, PreClone, ChunkPre, ChunkGo, ChunkShift);
    for (auto [PN, V] : zip(PrePhis, In))
      PN->addIncoming(V, Go);
    if (Base)
      Base->addIncoming(E.ReserveBase, Go);
    if (ChunkGo) {
      for (auto [PN, V] : zip(ChunkPhis, In))
        PN->addIncoming(V, ChunkGo);
      Shift->addIncoming(ChunkShift, ChunkGo);
    }
  }

  addExitIncomings(C, VMap, Clones);
  if (C.Chunked) {
    addChunkEnd(C, ChunkMap, ChunkPre, Shift);
    addExitIncomings(C, ChunkMap, ChunkClones);
  }
  if (C.PaidChunked)
    addPaidChunkEnd(C, ChunkMap, ChunkClones, Shift, MaybeDead);

  // What the preheader computes and code after the loop uses now comes from
  // either preheader: SSAUpdater joins them where the ways meet (after the
  // exits' PHIs are complete, or it would build PHIs they then complete again).
  // With chunks, so does what the loop uses: it is also entered from the
  // chunks' copy (addChunkEnd).
  for (Instruction &I : *C.Preheader) {
    SmallVector<Use *, 4> Outside;
    for (Use &U : I.uses()) {
      auto *User = cast<Instruction>(U.getUser());
      BasicBlock *UB = User->getParent();
      if (auto *PN = dyn_cast<PHINode>(User))
        UB = PN->getIncomingBlock(U);
      if (UB != C.Preheader && (ChunkPre || !is_contained(C.Blocks, UB)))
        Outside.push_back(&U);
    }
    if (Outside.empty())
      continue;
    SSAUpdater SSA;
    SSA.Initialize(I.getType(), I.getName());
    SSA.AddAvailableValue(C.Preheader, &I);
    SSA.AddAvailableValue(PreClone, VMap[&I]);
    if (ChunkPre)
      SSA.AddAvailableValue(ChunkPre, ChunkMap[&I]);
    for (Use *U : Outside)
      SSA.RewriteUse(*U);
  }

  if (C.Reserve)
    giveBackReserve(C, VMap, Clones, Base, nullptr, Countdown);
  if (C.Chunked)
    giveBackReserve(C, ChunkMap, ChunkClones, chunkBase(C), Shift, Countdown);
  RecursivelyDeleteTriviallyDeadInstructionsPermissive(MaybeDead);
  foldCopyPhis(VMap, C, Clones);
  if (C.PayOnEntry)
    ++NumPaidOnEntry;
  if (ChunkPre)
    foldCopyPhis(ChunkMap, C, ChunkClones);
  ++NumBounded;
}

PreservedAnalyses SamplerLoopBoundPass::run(Function &F,
                                            FunctionAnalysisManager &FAM) {
  GlobalVariable *Countdown = countdownIn(*F.getParent());
  if (!Countdown || F.isDeclaration())
    return PreservedAnalyses::all();
  bool Tagged = false;
  for (BasicBlock &BB : F)
    Tagged |= tagWeight(BB.getTerminator()) != 0;
  if (!Tagged)
    return PreservedAnalyses::all();

  // Inner loops first: a loop is ready when no loop inside it still has a
  // tagged latch (each attempt drops its loop's tag, so that the copies made
  // of it carry none). A loop nest takes one round per depth, the analyses
  // computed again in between.
  bool Changed = false;
  for (;;) {
    auto &DT = FAM.getResult<DominatorTreeAnalysis>(F);
    auto &LI = FAM.getResult<LoopAnalysis>(F);
    auto &SE = FAM.getResult<ScalarEvolutionAnalysis>(F);
    auto &AC = FAM.getResult<AssumptionAnalysis>(F);
    auto &TTI = FAM.getResult<TargetIRAnalysis>(F);
    auto TaggedLatch = [](const Loop *L) -> BranchInst * {
      BasicBlock *Latch = L->getLoopLatch();
      auto *BI = Latch ? dyn_cast<BranchInst>(Latch->getTerminator()) : nullptr;
      return BI && tagWeight(BI) ? BI : nullptr;
    };
    SmallVector<std::pair<Loop *, BranchInst *>, 8> Ready;
    for (Loop *L : LI.getLoopsInPreorder())
      if (BranchInst *BI = TaggedLatch(L))
        if (none_of(L->getLoopsInPreorder(), [&](Loop *Sub) {
              return Sub != L && TaggedLatch(Sub);
            }))
          Ready.push_back({L, BI});
    if (Ready.empty())
      break;
    Changed = true; // loop-simplify and LCSSA may change a loop
    SmallVector<Candidate, 8> Candidates;
    SmallPtrSet<const Value *, 32> FromCountdown =
        countdownValues(F, Countdown);
    auto &ORE = FAM.getResult<OptimizationRemarkEmitterAnalysis>(F);
    // Every loop in loop-simplify form before any candidate records its ways
    // in: a loop's dedicated exits split the edges into a sibling's
    // preheader, which would leave the sibling's recorded ways stale.
    for (auto [L, BI] : Ready)
      simplifyLoop(L, &DT, &LI, &SE, &AC, nullptr, /*PreserveLCSSA=*/false);
    for (auto [L, BI] : Ready)
      prepare(L, tagWeight(BI), Reserve, Chunks, Countdown, FromCountdown, DT,
              LI, SE, AC, TTI, ORE, Candidates);
    SmallPtrSet<const BasicBlock *, 8> Versioned;
    for (Candidate &C : Candidates) {
      versionLoop(C, Countdown);
      Versioned.insert(C.Latch);
    }
    // A loop left as it was keeps its weight under another name, for
    // CheckStride.h (which drops it); the versioned ones' checks run only
    // when the countdown does not cover their bound.
    for (auto [L, BI] : Ready) {
      if (!Versioned.contains(BI->getParent()))
        BI->setMetadata(UnboundedBackEdgeMD, BI->getMetadata(BackEdgeCheckMD));
      BI->setMetadata(BackEdgeCheckMD, nullptr);
    }
    FAM.invalidate(F, PreservedAnalyses::none());
  }
  if (!Changed)
    return PreservedAnalyses::all();
  return PreservedAnalyses::none();
}

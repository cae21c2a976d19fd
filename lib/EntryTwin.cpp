//===- EntryTwin.cpp - The entry check's slow way as a tail call ----------===//
//
// See EntryTwin.h.
//
//===----------------------------------------------------------------------===//
#include "EntryTwin.h"
#include "CheckShape.h"
#include "RuntimeABI.h"
#include "SamplingTransform.h"
#include "SiteTable.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/Local.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

using namespace llvm;
using namespace sampler;

#define DEBUG_TYPE "sampler-entry-twin"

STATISTIC(NumTwins, "Functions whose entry check's slow way tail-calls a twin");
STATISTIC(NumEarlyReturns, "Return blocks given to the early returns alone");

/// Return blocks of at most this many instructions besides their PHIs are
/// copied for the early returns (a value's extension and the `ret`, as a
/// rule); a larger one stays shared.
static constexpr unsigned ReturnCopyLimit = 8;

namespace {
/// What F's fast copy runs from the entry check's fast edge before it
/// touches the countdown or calls anything (either needs a frame): the
/// blocks, and the return blocks among them.
struct FirstRun {
  SmallPtrSet<BasicBlock *, 32> Blocks;
  SmallVector<BasicBlock *, 4> Returns;
};
} // namespace

/// Whether \p I is a call once lowered: a call of a function (not the
/// runtime's draw) or a memcpy, memset or memmove of a length known only at
/// run time (bc's _one_mult returns early through tail calls of them, which
/// need the epilogue before them: a twin bought nothing there and cost its
/// loop two register copies an iteration, bc +5.5%). One of a constant
/// length, a struct's copy, is expanded in line. A counter's add in inline
/// assembly calls nothing (bzip2's mainGtU lost its twin to it: six registers
/// pushed on entry, +60%).
bool sampler::isCallOnceLowered(const Instruction &I) {
  const auto *CB = dyn_cast<CallBase>(&I);
  if (!CB || isCountdownDraw(CB) || isCounterAddAsm(CB))
    return false;
  if (const auto *Mem = dyn_cast<AnyMemIntrinsic>(CB))
    return !isa<ConstantInt>(Mem->getLength());
  return !isa<IntrinsicInst>(CB);
}

static bool needsFrame(const Instruction &I, const GlobalVariable *CD) {
  return touchesCountdown(I, CD) || isCallOnceLowered(I);
}

static FirstRun firstRun(const PaidCheck &C, const GlobalVariable *CD) {
  FirstRun R;
  BasicBlock *Entry = C.Br->getParent();
  SmallVector<BasicBlock *, 16> Work{C.Fast};
  while (!Work.empty()) {
    BasicBlock *BB = Work.pop_back_val();
    if (BB == Entry || R.Blocks.contains(BB))
      continue;
    if (any_of(*BB, [&](Instruction &I) { return needsFrame(I, CD); }))
      continue;
    R.Blocks.insert(BB);
    if (isa<ReturnInst>(BB->getTerminator()))
      R.Returns.push_back(BB);
    for (BasicBlock *S : successors(BB))
      Work.push_back(S);
  }
  return R;
}

/// Whether F calls nothing but intrinsics and the runtime's draws: then its
/// early returns need no frame once the instrumented copy's blocks are out of
/// the way. A function that calls others, even only in its loops, keeps the
/// values those calls need across them in callee-saved registers, and the
/// register allocator mostly gives them those registers from the entry block
/// on, where the early returns' way needs them too: shrink-wrapping then finds
/// no later place for the saves and the twin is code for nothing. Every twin
/// that worked with calls in loops allowed was of a function that calls
/// nothing (9 of SQLite's 110, none of Lua's 32, bzip2's mainGtU); leaf
/// functions alone: SQLite and Lua 0.1% fewer instructions, 1.4% to 2.2% less
/// `.text` (docs/benchmarks.md, "Twins that still save on entry"). Twins of
/// every function with early returns cost SQLite 13.6% more `.text` for 0.3%
/// fewer instructions.
static bool callsNothing(const Function &F) {
  for (const BasicBlock &BB : F)
    if (any_of(BB, isCallOnceLowered))
      return false;
  return true;
}

/// Whether F's arguments can be passed on to its twin by `musttail`, and the
/// twin be an exact copy of it.
bool sampler::canTwin(const Function &F) {
  if (F.isVarArg() || F.hasFnAttribute(Attribute::Naked) ||
      F.hasFnAttribute(Attribute::ReturnsTwice) || F.isPresplitCoroutine())
    return false;
  if (F.getCallingConv() != CallingConv::C &&
      F.getCallingConv() != CallingConv::Fast)
    return false;
  for (const Argument &A : F.args())
    if (A.hasByValAttr() || A.hasInAllocaAttr() || A.hasPreallocatedAttr() ||
        A.hasSwiftSelfAttr() || A.hasSwiftErrorAttr() ||
        A.hasAttribute(Attribute::SwiftAsync))
      return false;
  // A twin's computed gotos would jump through the addresses of F's blocks.
  return none_of(F, [](const BasicBlock &BB) { return BB.hasAddressTaken(); });
}

/// A private copy of \p F entered with its first region paid for: the entry
/// check neither pays nor tests, and goes the slow way.
static Function *makeTwin(Function &F, const PaidCheck &C) {
  ValueToValueMapTy VMap;
  Function *G = clonePrivate(F, VMap, TwinSuffix);
  auto *Br = cast<BranchInst>(VMap[C.Br]);
  auto *Fast = cast<BasicBlock>(VMap[C.Fast]);
  auto *Slow = cast<BasicBlock>(VMap[C.Slow]);
  BranchInst::Create(Slow, Br->getIterator())->setDebugLoc(Br->getDebugLoc());
  Fast->removePredecessor(Br->getParent());
  Br->eraseFromParent();
  // The check's values serve nothing else (matchPaidCheck).
  for (Instruction *I : std::initializer_list<Instruction *>{
           C.Cmp, C.Store, C.Paid, C.Load})
    cast<Instruction>(VMap[I])->eraseFromParent();
  removeUnreachableBlocks(*G);
  return G;
}

/// F's way to its instrumented copy becomes `musttail call G(args); ret`.
static void tailCallTwin(Function &F, const PaidCheck &C, Function *G) {
  BasicBlock *Entry = C.Br->getParent();
  BasicBlock *Tail =
      BasicBlock::Create(F.getContext(), "sampler.twin", &F, C.Slow);
  IRBuilder<> B(Tail);
  forwardCall(B, F, G)->setTailCallKind(CallInst::TCK_MustTail);
  C.Br->setSuccessor(C.Br->getSuccessor(0) == C.Slow ? 0 : 1, Tail);
  C.Slow->removePredecessor(Entry);
}

/// The early returns into \p R (those from \p First) get a copy of it of
/// their own, when other ways share it.
static bool separateEarlyReturns(BasicBlock *R,
                                 const SmallPtrSetImpl<BasicBlock *> &First) {
  SmallVector<BasicBlock *, 8> Early;
  bool Shared = false;
  for (BasicBlock *P : predecessors(R)) {
    if (!First.contains(P))
      Shared = true;
    else if (!is_contained(Early, P))
      Early.push_back(P);
  }
  if (!Shared || Early.empty())
    return false;
  unsigned Size = 0;
  for (Instruction &I : make_range(R->getFirstNonPHIIt(), R->end()))
    if (!isa<DbgInfoIntrinsic>(I))
      ++Size;
  if (Size > ReturnCopyLimit)
    return false;
  BasicBlock *Copy = BasicBlock::Create(
      R->getContext(), R->getName() + ".early", R->getParent(), R);
  ValueToValueMapTy VMap;
  for (PHINode &PN : R->phis()) {
    PHINode *New = PHINode::Create(PN.getType(), Early.size(),
                                   PN.getName() + ".early", Copy);
    for (BasicBlock *P : Early)
      for (unsigned I = 0, E = PN.getNumIncomingValues(); I != E; ++I)
        if (PN.getIncomingBlock(I) == P)
          New->addIncoming(PN.getIncomingValue(I), P);
    VMap[&PN] = New;
  }
  for (Instruction &I : make_range(R->getFirstNonPHIIt(), R->end())) {
    Instruction *New = I.clone();
    New->setName(I.getName());
    New->insertInto(Copy, Copy->end());
    VMap[&I] = New;
    RemapInstruction(New, VMap,
                     RF_NoModuleLevelChanges | RF_IgnoreMissingLocals);
  }
  for (BasicBlock *P : Early) {
    for (PHINode &PN : R->phis())
      while (PN.getBasicBlockIndex(P) >= 0)
        PN.removeIncomingValue(P, /*DeletePHIIfEmpty=*/false);
    P->getTerminator()->replaceSuccessorWith(R, Copy);
  }
  ++NumEarlyReturns;
  return true;
}

PreservedAnalyses SamplerEntryTwinPass::run(Module &M,
                                            ModuleAnalysisManager &) {
  const GlobalVariable *CD = countdownIn(M);
  if (!CD || Limit == 0)
    return PreservedAnalyses::all();
  // The functions there are now (the twins made below are not candidates),
  // with an entry check to give a twin.
  SmallVector<std::pair<Function *, PaidCheck>, 32> Candidates;
  for (Function &F : M) {
    if (F.isDeclaration() || F.hasOptNone() ||
        F.hasFnAttribute(abi::InstrumentedCopyAttr) || !canTwin(F))
      continue;
    if (std::optional<PaidCheck> C = matchPaidCheck(&F.getEntryBlock(), CD))
      Candidates.push_back({&F, *C});
  }
  bool Changed = false;
  for (auto &[F, C] : Candidates) {
    unsigned Size = F->getInstructionCount();
    if (Size > Limit)
      continue;
    FirstRun First = firstRun(C, CD);
    if (First.Returns.empty())
      continue; // every way from the entry check needs the frame anyway
    if (!callsNothing(*F))
      continue;
    Function *G = makeTwin(*F, C);
    tailCallTwin(*F, C, G);
    removeUnreachableBlocks(*F);
    unsigned Separated = 0;
    for (BasicBlock *R : First.Returns)
      Separated += separateEarlyReturns(R, First.Blocks);
    ++NumTwins;
    OptimizationRemarkEmitter ORE(F);
    ORE.emit([&] {
      return OptimizationRemark(DEBUG_TYPE, "Twin", F->getSubprogram(),
                                &F->getEntryBlock())
             << "entry check's slow way tail-calls a twin of "
             << ore::NV("Function", F) << " (" << ore::NV("Instructions", Size)
             << " instructions; " << ore::NV("Returns", First.Returns.size())
             << " early return blocks, " << ore::NV("Separated", Separated)
             << " given their own)";
    });
    Changed = true;
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

//===- PreInliner.cpp - Small functions with loops, inlined before cloning ===//
//
// See PreInliner.h.
//
//===----------------------------------------------------------------------===//
#include "PreInliner.h"
#include "RuntimeABI.h"

#include "llvm/ADT/SCCIterator.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/CFG.h"
#include "llvm/Analysis/CallGraph.h"
#include "llvm/Analysis/InlineCost.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Transforms/Utils/Cloning.h"

using namespace llvm;

#define DEBUG_TYPE "sampler-preinline"

STATISTIC(NumPreInlined, "Calls to small functions with loops inlined before cloning");
STATISTIC(NumPreInlinedDeleted, "Local functions deleted once inlined everywhere");

namespace {

/// Callers above this size take nothing (see where it is used).
constexpr unsigned MaxCallerSize = 10000;

/// Adds to \p InLoop those of \p Calls (calls not yet inlined) in \p Caller
/// that sit inside one of its loops: one LoopInfo for all of them.
void addCallsInLoops(Function &Caller, ArrayRef<CallBase *> Calls,
                     SmallPtrSetImpl<CallBase *> &InLoop) {
  DominatorTree DT(Caller);
  LoopInfo LI(DT);
  for (CallBase *CB : Calls)
    if (CB->getFunction() == &Caller && LI.getLoopFor(CB->getParent()))
      InLoop.insert(CB);
}

bool hasSites(Function &F, Function *Marker) {
  for (Instruction &I : instructions(F))
    if (auto *CI = dyn_cast<CallInst>(&I); CI && CI->getCalledFunction() == Marker)
      return true;
  return false;
}

/// A function declared `inline` may be twice as big, as the inliner's own
/// threshold is higher for it (325 against 225 at -O2): ccrypt's
/// `static inline` xShiftSubst (164 instructions with its sites).
unsigned limitFor(const Function &F, unsigned SizeLimit) {
  return F.hasFnAttribute(Attribute::InlineHint) ? 2 * SizeLimit : SizeLimit;
}

/// The callee side: what the header promises.
bool isCandidate(Function &F, unsigned Size, unsigned SizeLimit) {
  if (F.isDeclaration() || F.isInterposable() ||
      F.hasFnAttribute(Attribute::NoInline) ||
      F.hasFnAttribute(Attribute::OptimizeNone) || F.isPresplitCoroutine() ||
      F.getName().starts_with(sampler::abi::Prefix))
    return false;
  if (Size > limitFor(F, SizeLimit) || !sampler::hasLoop(F))
    return false;
  return isInlineViable(F).isSuccess();
}

/// The call side: a direct call from another function that may be
/// optimised, and a location for the inlined code's debug scopes when both
/// functions have debug info (the verifier requires one).
bool canInlineAt(CallBase &CB, Function &Callee) {
  Function *Caller = CB.getFunction();
  if (CB.getCalledFunction() != &Callee || Caller == &Callee ||
      CB.isNoInline() || CB.getFunctionType() != Callee.getFunctionType())
    return false;
  if (Caller->hasFnAttribute(Attribute::OptimizeNone) ||
      Caller->hasFnAttribute(Attribute::Naked) ||
      Caller->hasFnAttribute(Attribute::DisableSanitizerInstrumentation))
    return false;
  if (Caller->getSubprogram() && Callee.getSubprogram() && !CB.getDebugLoc())
    return false;
  return true;
}

} // namespace

unsigned sampler::preInlineSmallLoopFunctions(Module &M, unsigned SizeLimit,
                                              unsigned LargeCaller) {
  Function *Marker = M.getFunction(abi::SiteMarker);
  if (!Marker || SizeLimit == 0)
    return 0;
  // Bottom-up, as the inliner goes: a function is judged once what it calls
  // has been inlined into it. Recursive functions are left alone.
  SmallVector<Function *, 64> Order;
  {
    CallGraph CG(M);
    for (auto I = scc_begin(&CG); !I.isAtEnd(); ++I)
      if (I->size() == 1 && !I.hasCycle())
        if (Function *F = I->front()->getFunction(); F && !F->isDeclaration())
          Order.push_back(F);
  }
  SmallPtrSet<Function *, 32> InOrder(Order.begin(), Order.end());
  unsigned Inlined = 0;
  SmallVector<Function *, 16> Emptied;
  for (Function *F : Order) {
    unsigned Size = sizeOf(*F);
    if (!hasSites(*F, Marker) || !isCandidate(*F, Size, SizeLimit))
      continue;
    SmallVector<CallBase *, 8> Calls;
    for (User *U : F->users())
      if (auto *CB = dyn_cast<CallBase>(U); CB && canInlineAt(*CB, *F))
        Calls.push_back(CB);
    // Which calls sit in their caller's loops, asked of large callers only,
    // once per caller: from the calls still to come (those before are gone
    // or stay), in the caller as it is when first asked.
    SmallPtrSet<Function *, 8> LoopsSeen;
    SmallPtrSet<CallBase *, 8> InLoop;
    for (size_t I = 0; I < Calls.size(); ++I) {
      CallBase *CB = Calls[I];
      Function *Caller = CB->getFunction();
      // Not into the largest functions: sqlite's sqlite3VdbeExec (20,600
      // instructions here) took 7 small callees and ran 4% more
      // instructions (the register allocation of its fast copy, whose calls
      // had been rare), where bzip2's sendMTFValues (5,600) took its 63
      // calls to bsW and the whole compression ran 1.1% fewer. Large ones
      // take only the calls inside their loops: bzip2's BZ2_decompress
      // (8,700) took makeMaps_d, called once a block, and ran 4.5% more.
      unsigned CallerSize = sizeOf(*Caller);
      if (CallerSize > MaxCallerSize)
        continue;
      if (CallerSize > LargeCaller) {
        if (LoopsSeen.insert(Caller).second)
          addCallsInLoops(*Caller, ArrayRef(Calls).drop_front(I), InLoop);
        if (!InLoop.contains(CB))
          continue;
      }
      // A caller without a loop is not cloned in place, so the inliner can
      // still put it into its own callers; with F's loop it would be. Only
      // while it stays small enough to be inlined here in turn (it comes
      // later in this order, not being recursive) does it take F.
      if (!sampler::hasLoop(*Caller) &&
          (!InOrder.contains(Caller) ||
           CallerSize + Size > limitFor(*Caller, SizeLimit)))
        continue;
      OptimizationRemarkEmitter ORE(Caller);
      OptimizationRemark R(DEBUG_TYPE, "PreInlined", CB);
      R << "inlined " << ore::NV("Callee", F) << " (" << ore::NV("Size", Size)
        << " instructions, a loop) into " << ore::NV("Caller", Caller)
        << " before cloning";
      InlineFunctionInfo IFI;
      if (InlineFunction(*CB, IFI, /*MergeAttributes=*/true).isSuccess()) {
        ++Inlined;
        ORE.emit(R);
      }
    }
    Emptied.push_back(F);
  }
  NumPreInlined += Inlined;
  // What the inliner would do too: a local (or discardable linkonce)
  // function nobody calls any more need not be transformed and compiled.
  for (Function *F : Emptied) {
    F->removeDeadConstantUsers();
    if (F->isDefTriviallyDead()) {
      F->eraseFromParent();
      ++NumPreInlinedDeleted;
    }
  }
  return Inlined;
}

bool sampler::hasLoop(const Function &F) {
  SmallVector<std::pair<const BasicBlock *, const BasicBlock *>, 4> BackEdges;
  FindFunctionBackedges(F, BackEdges);
  return !BackEdges.empty();
}

unsigned sampler::sizeOf(const Function &F) {
  unsigned N = 0;
  for (const Instruction &I : instructions(F))
    if (!isa<DbgInfoIntrinsic>(I) && !I.isLifetimeStartOrEnd())
      ++N;
  return N;
}

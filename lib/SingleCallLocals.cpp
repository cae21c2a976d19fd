//===- SingleCallLocals.cpp - A local function called once stays called once ===//
//
// See SingleCallLocals.h.
//
//===----------------------------------------------------------------------===//
#include "SingleCallLocals.h"
#include "PreInliner.h"
#include "RuntimeABI.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Transforms/Utils/Cloning.h"

using namespace llvm;
using namespace sampler;

#define DEBUG_TYPE "sampler-single-call"

STATISTIC(NumCalleeCopies, "Local functions called once given a copy for their caller's copies");
STATISTIC(NumRedirected, "Calls in copies redirected to the copy of their callee");
STATISTIC(NumMergedBack, "Callee copies merged back: the original call was not inlined");
STATISTIC(NumKeptApart, "Callee copies kept: the original stayed, optimised differently");

/// The attribute naming, on a copy, the function it copies.
static constexpr char CopyOfAttr[] = "sampler-callee-copy-of";

/// The name's suffix of the copy that the copies of its one caller call.
static constexpr char CopySuffix[] = ".sampler.callee";

SmallVector<SingleCall, 16> sampler::findSingleCallLocals(Module &M,
                                                          unsigned SizeLimit,
                                                          unsigned MaxSize) {
  SmallVector<SingleCall, 16> Found;
  // The loops of each caller, computed when first asked.
  DenseMap<Function *, std::unique_ptr<DominatorTree>> DomOf;
  DenseMap<Function *, std::unique_ptr<LoopInfo>> LoopsOf;
  for (Function &G : M) {
    if (G.isDeclaration() || !G.hasLocalLinkage() || !G.hasOneUse() ||
        G.hasFnAttribute(Attribute::NoInline) ||
        G.hasFnAttribute(Attribute::AlwaysInline) ||
        G.hasFnAttribute(Attribute::OptimizeNone) ||
        G.getName().starts_with(abi::Prefix))
      continue;
    // Always-inline functions go into every caller anyway; a call that is
    // not G's callee (G passed as an argument) is not one the inliner takes.
    const Use &U = *G.use_begin();
    auto *CB = dyn_cast<CallBase>(U.getUser());
    if (!CB || !CB->isCallee(&U) || CB->getFunction() == &G)
      continue;
    // G's copy is G's code again, optimised a second time, for a call saved
    // per call: the bigger G, the more the copy costs (`.text`, compile
    // time) for the same gain, hence the cap (SingleCallLocals.h).
    unsigned Size = SizeLimit || MaxSize ? sizeOf(G) : 0;
    if (MaxSize && Size > MaxSize)
      continue;
    // Only a call in a loop of its caller (as the program wrote it), unless G
    // has at most SizeLimit instructions. A call outside the caller's loops
    // is made once a call of the caller, so its own cost rarely matters, and
    // the copy costs G's code again. With every such call: ccrypt's `.text`
    // +32% for no instruction fewer (action_tmpfiles, __init_des_r, once a
    // run), Lua's +14% for 1.76% fewer with sampling off; in loops, +2.3% and
    // +1.6% for 1.34% fewer. Small callees outside loops too (SizeLimit 300):
    // SQLite 0.83% fewer for +1.7%, Lua 0.44% fewer for +9.5%
    // (docs/benchmarks.md), hence 0 by default.
    if (SizeLimit == 0 || Size > SizeLimit) {
      Function *Caller = CB->getFunction();
      std::unique_ptr<LoopInfo> &LI = LoopsOf[Caller];
      if (!LI) {
        DomOf[Caller] = std::make_unique<DominatorTree>(*Caller);
        LI = std::make_unique<LoopInfo>(*DomOf[Caller]);
      }
      if (!LI->getLoopFor(CB->getParent()))
        continue;
    }
    Found.push_back({&G, WeakVH(CB)});
  }
  return Found;
}

unsigned sampler::redirectCopiedCalls(ArrayRef<SingleCall> Calls,
                                      SmallVectorImpl<Function *> &Created) {
  DenseMap<Function *, Function *> CopyOf;
  unsigned Redirected = 0;
  // To a fixpoint: a copy of a caller (G') holds copies of G's own calls,
  // which go to copies in turn. Each round redirects calls only, and a
  // function is copied once, so it ends.
  for (bool Again = true; Again;) {
    Again = false;
    for (const SingleCall &SC : Calls) {
      auto *Original = dyn_cast_or_null<CallBase>(SC.Call);
      Function *G = SC.Callee;
      if (!Original || Original->getCalledFunction() != G)
        continue;
      SmallVector<CallBase *, 4> Others;
      for (Use &U : G->uses())
        if (auto *CB = dyn_cast<CallBase>(U.getUser());
            CB && CB != Original && CB->isCallee(&U))
          Others.push_back(CB);
      if (Others.empty())
        continue;
      Function *&Copy = CopyOf[G];
      if (!Copy) {
        ValueToValueMapTy VMap;
        Copy = CloneFunction(G, VMap);
        Copy->setName(G->getName() + CopySuffix);
        Copy->setLinkage(GlobalValue::InternalLinkage);
        Copy->setUnnamedAddr(GlobalValue::UnnamedAddr::Global);
        Copy->addFnAttr(Attribute::NoInline);
        Copy->addFnAttr(CopyOfAttr, G->getName());
        Created.push_back(Copy);
        ++NumCalleeCopies;
      }
      for (CallBase *CB : Others)
        CB->setCalledFunction(Copy);
      Redirected += Others.size();
      Again = true;
    }
  }
  NumRedirected += Redirected;
  return Redirected;
}

/// Whether \p F's returns were zapped: IPSCCP, finding that F returns a
/// constant, replaces its calls' values with it and makes F return undef.
static bool returnsUndef(const Function &F) {
  if (F.getReturnType()->isVoidTy())
    return false;
  for (const BasicBlock &BB : F)
    if (auto *R = dyn_cast<ReturnInst>(BB.getTerminator());
        R && isa<UndefValue>(R->getReturnValue()))
      return true;
  return false;
}

/// Whether the calls of \p Copy may call \p Original instead. Both were one
/// function when the copy was made, and the optimiser has since worked on
/// each for its own calls. What it proves from those calls' arguments (a
/// constant, a range) holds at the copy's calls too: the instrumented copy
/// computes the program's values as the fast copy does, and every path the
/// one takes the other can. What it does to the interface does not carry
/// over: an argument or a returned value dropped (the type differs), another
/// calling convention, and returns zapped (the constant the original returns
/// was put at its own calls only, not at the copy's).
static bool interchangeable(const Function &Original, const Function &Copy) {
  return Original.getFunctionType() == Copy.getFunctionType() &&
         Original.getCallingConv() == Copy.getCallingConv() &&
         !returnsUndef(Original);
}

PreservedAnalyses SamplerSingleCallMergePass::run(Module &M,
                                                  ModuleAnalysisManager &) {
  SmallVector<Function *, 16> Copies;
  for (Function &F : M)
    if (F.hasFnAttribute(CopyOfAttr))
      Copies.push_back(&F);
  if (Copies.empty())
    return PreservedAnalyses::all();
  for (Function *Copy : Copies) {
    Function *Original =
        M.getFunction(Copy->getFnAttribute(CopyOfAttr).getValueAsString());
    Copy->removeFnAttr(CopyOfAttr);
    // The original is gone: the inliner took its one call, and the copy
    // serves the caller's copies. Otherwise the copy is the original's code
    // twice, for nothing, where the two can be swapped.
    if (!Original)
      continue;
    if (!interchangeable(*Original, *Copy)) {
      ++NumKeptApart;
      continue;
    }
    Copy->replaceAllUsesWith(Original);
    Copy->eraseFromParent();
    ++NumMergedBack;
  }
  return PreservedAnalyses::none();
}

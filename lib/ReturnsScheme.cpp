//===- ReturnsScheme.cpp - The `returns` scheme ---------------------------===//
//
// Observes the value each call returns, for calls returning an integer, enum,
// bool or pointer: 3 cells [< 0, == 0, > 0]. Integers compare as signed;
// bool and pointers as unsigned (so they are never < 0).
// Not sites: intrinsics, inline asm, the runtime's own functions, and musttail
// calls (nothing may stand between them and their return).
//
//===----------------------------------------------------------------------===//
#include "FrontEndInfo.h"
#include "RuntimeABI.h"
#include "Scheme.h"
#include "SiteTable.h"

#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"

using namespace llvm;
using namespace sampler;

namespace {

class ReturnsScheme : public Scheme {
public:
  ReturnsScheme(const FrontEndInfo *FE, bool Edges) : FE(FE), Edges(Edges) {}
  StringRef name() const override { return "returns"; }

  void collect(Function &F, std::vector<Instruction *> &Out) override {
    for (BasicBlock &BB : F)
      for (Instruction &I : BB) {
        auto *CB = dyn_cast<CallBase>(&I);
        if (!CB || CB->isInlineAsm() || isa<IntrinsicInst>(CB) ||
            isa<CallBrInst>(CB))
          continue;
        Type *T = CB->getType();
        if (!T->isIntegerTy() && !T->isPointerTy())
          continue;
        if (auto *CI = dyn_cast<CallInst>(CB); CI && CI->isMustTailCall())
          continue;
        if (Function *Callee = CB->getCalledFunction())
          if (Callee->getName().starts_with(abi::Prefix) ||
              Callee->isIntrinsic())
            continue;
        Out.push_back(CB);
      }
  }

  void instrument(Instruction *I, SiteTable &Table) override {
    auto *CB = cast<CallBase>(I);
    std::string Desc = sourceTextAt(CB, int(FrontEndInfo::Kind::Call), FE)
                           .value_or(calleeText(CB));
    Instruction *Before;
    if (auto *II = dyn_cast<InvokeInst>(CB)) {
      // The value exists only on the normal edge: observe it there.
      BasicBlock *Edge = SplitEdge(II->getParent(), II->getNormalDest());
      Before = &*Edge->getFirstInsertionPt();
    } else {
      Before = CB->getNextNode();
    }
    // The site's location is the call's, not that of what follows it.
    InsertedSite S = Table.addSite(Before, "returns", 3, Desc, CB);
    if (Edges)
      return observeOnEdges(S, CB);
    IRBuilder<> B(S.Observe->getTerminator());
    Value *V = CB;
    Value *Index;
    if (V->getType()->isPointerTy() || V->getType()->isIntegerTy(1)) {
      Value *NonZero = V->getType()->isPointerTy() ? B.CreateIsNotNull(V)
                                                   : V;
      Index = B.CreateSelect(NonZero, B.getInt64(2), B.getInt64(1));
    } else {
      Constant *Zero = ConstantInt::get(V->getType(), 0);
      // [<0, ==0, >0] -> (v > 0) + (v >= 0)
      // (Separate statements: argument evaluation order would make the
      // IR order compiler-dependent.)
      Value *Positive = B.CreateZExt(B.CreateICmpSGT(V, Zero), B.getInt64Ty());
      Value *NonNegative = B.CreateZExt(B.CreateICmpSGE(V, Zero), B.getInt64Ty());
      Index = B.CreateAdd(Positive, NonNegative);
    }
    S.bump(B, Index);
  }

private:
  /// The edges' form (SamplerOptions::ObserveEdges): the sign tested by
  /// branches, each way adding 1 to a constant cell, so that the program's
  /// own tests of the value (`if (p == NULL)`, `if (r < 0)`) are threaded
  /// through them.
  static void observeOnEdges(const InsertedSite &S, Value *V) {
    Instruction *At = S.Observe->getTerminator();
    IRBuilder<> B(At);
    uint64_t Last; // the cell of the way left after the tests
    if (V->getType()->isPointerTy() || V->getType()->isIntegerTy(1)) {
      Value *NonZero = V->getType()->isPointerTy() ? B.CreateIsNotNull(V) : V;
      At = S.bumpIf(At, NonZero, 2, "site.ret2");
      Last = 1;
    } else {
      Constant *Zero = ConstantInt::get(V->getType(), 0);
      At = S.bumpIf(At, B.CreateICmpEQ(V, Zero), 1, "site.ret1");
      B.SetInsertPoint(At);
      At = S.bumpIf(At, B.CreateICmpSLT(V, Zero), 0, "site.ret0");
      Last = 2;
    }
    At->getParent()->setName("site.ret" + Twine(Last));
    B.SetInsertPoint(At);
    S.bump(B, B.getInt64(Last));
  }

  static std::string calleeText(const CallBase *CB) {
    if (const Function *F = CB->getCalledFunction()) {
      std::string N = llvm::demangle(F->getName().str());
      // Keep the name, drop the parameter list of a demangled C++ name.
      if (auto P = N.find('('); P != std::string::npos && P > 0)
        N.resize(P);
      return N + "(...)";
    }
    return "(*" + describeValue(CB->getCalledOperand()) + ")(...)";
  }

  const FrontEndInfo *FE;
  /// SamplerOptions::observeEdges().
  bool Edges;
};

} // namespace

namespace sampler {
std::unique_ptr<Scheme> createReturnsScheme(const FrontEndInfo *FE,
                                            bool Edges) {
  return std::make_unique<ReturnsScheme>(FE, Edges);
}
} // namespace sampler

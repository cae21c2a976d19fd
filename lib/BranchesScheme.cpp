//===- BranchesScheme.cpp - The `branches` scheme -------------------------===//
//
// Observes every conditional branch of the source: if, loop tests, &&, ||,
// ?: (when clang emits a branch for it) and switch.
//   two-way branch: 2 cells [false, true]
//   switch:         1 + cases cells [default, case 1, ..., case n]; the
//                   description ends with "; cases: v1,v2,..."
// Branches the compiler made up (debug line 0 in a function with debug info)
// are not sites.
//
//===----------------------------------------------------------------------===//
#include "FrontEndInfo.h"
#include "RuntimeABI.h"
#include "Scheme.h"
#include "SiteTable.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;
using namespace sampler;

namespace {

bool isMarker(const Value *V) {
  if (auto *CI = dyn_cast<CallInst>(V))
    if (Function *F = CI->getCalledFunction())
      return F->getName() == abi::SiteMarker;
  return false;
}

/// sampler.h's `if (__sampler_check_begin(...))` is plumbing of the checks
/// scheme, not a branch of the program.
bool isCheckPlumbing(const Value *V) {
  for (int Depth = 0; Depth < 4 && V; ++Depth) {
    if (auto *CI = dyn_cast<CallInst>(V)) {
      const Function *F = CI->getCalledFunction();
      return F && F->getName() == "__sampler_check_begin";
    }
    if (auto *Cmp = dyn_cast<CmpInst>(V))
      V = isa<Constant>(Cmp->getOperand(1)) ? Cmp->getOperand(0) : nullptr;
    else if (auto *Cast = dyn_cast<CastInst>(V))
      V = Cast->getOperand(0);
    else
      return false;
  }
  return false;
}

bool isArtificial(const Instruction *I) {
  if (!I->getFunction()->getSubprogram())
    return false; // no debug info at all: every branch counts
  const DebugLoc &DL = I->getDebugLoc();
  return !DL || DL.getLine() == 0;
}

class BranchesScheme : public Scheme {
public:
  explicit BranchesScheme(const FrontEndInfo *FE) : FE(FE) {}
  StringRef name() const override { return "branches"; }

  void collect(Function &F, std::vector<Instruction *> &Out) override {
    for (BasicBlock &BB : F) {
      Instruction *T = BB.getTerminator();
      if (auto *BI = dyn_cast<BranchInst>(T)) {
        if (BI->isConditional() && !isa<Constant>(BI->getCondition()) &&
            !isMarker(BI->getCondition()) && !isArtificial(BI) &&
            !isCheckPlumbing(BI->getCondition()))
          Out.push_back(BI);
      } else if (auto *SI = dyn_cast<SwitchInst>(T)) {
        if (SI->getNumCases() > 0 && !isa<Constant>(SI->getCondition()) &&
            !isArtificial(SI))
          Out.push_back(SI);
      }
    }
  }

  void instrument(Instruction *I, SiteTable &Table) override {
    if (auto *BI = dyn_cast<BranchInst>(I))
      return instrumentBranch(BI, Table);
    instrumentSwitch(cast<SwitchInst>(I), Table);
  }

private:
  void instrumentBranch(BranchInst *BI, SiteTable &Table) {
    Value *Cond = BI->getCondition();
    std::string Desc =
        sourceTextAt(BI, int(FrontEndInfo::Kind::Branch), FE)
            .value_or(describeValue(Cond));
    InsertedSite S = Table.addSite(BI, "branches", 2, Desc);
    IRBuilder<> B(S.Observe->getTerminator());
    S.bump(B, B.CreateZExt(Cond, B.getInt64Ty())); // false: 0, true: 1
  }

  void instrumentSwitch(SwitchInst *SI, SiteTable &Table) {
    std::string Desc =
        sourceTextAt(SI, int(FrontEndInfo::Kind::Switch), FE)
            .value_or(describeValue(SI->getCondition()));
    Desc += "; cases: ";
    bool First = true;
    for (auto &Case : SI->cases()) {
      if (!First)
        Desc += ",";
      First = false;
      Desc += std::to_string(Case.getCaseValue()->getSExtValue());
    }
    Value *Cond = SI->getCondition();
    InsertedSite S = Table.addSite(SI, "branches", SI->getNumCases() + 1, Desc);
    IRBuilder<> B(S.Observe->getTerminator());
    // Cell 0 is the default; case k (in IR order) is cell k.
    Value *Index = B.getInt64(0);
    unsigned K = SI->getNumCases();
    SmallVector<ConstantInt *, 16> Values;
    for (auto &Case : SI->cases())
      Values.push_back(Case.getCaseValue());
    for (unsigned J = K; J-- > 0;)
      Index = B.CreateSelect(B.CreateICmpEQ(Cond, Values[J]),
                             B.getInt64(J + 1), Index);
    S.bump(B, Index);
  }

  const FrontEndInfo *FE;
};

} // namespace

namespace sampler {
std::unique_ptr<Scheme> createBranchesScheme(const FrontEndInfo *FE) {
  return std::make_unique<BranchesScheme>(FE);
}
} // namespace sampler

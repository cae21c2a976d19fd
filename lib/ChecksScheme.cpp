//===- ChecksScheme.cpp - The `checks` scheme (user-sampled checks) -------===//
//
// sampler.h turns `sampler_check(c)` into
//     if (__sampler_check_begin(ID, "c")) __sampler_check_end(ID, c ? 1 : 0);
// and `sampler_sampled()` into `__sampler_check_begin(ID, "sampled block")`.
// Each begin becomes a site with 2 cells [sampled, failed]: the site's
// observation counts the sample, and the begin's value becomes 1 there and 0
// elsewhere, so the user's check runs only when the site is sampled. Each end
// with the same ID in the same function adds !ok to the failed cell.
//
// When the scheme is not selected, lowerUnselectedChecks() makes every begin
// 1 (the check runs every time, as in a plain build) and drops the ends.
//
//===----------------------------------------------------------------------===//
#include "Scheme.h"
#include "SiteTable.h"

#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;
using namespace sampler;

static constexpr char BeginName[] = "__sampler_check_begin";
static constexpr char EndName[] = "__sampler_check_end";

static SmallVector<CallInst *, 8> callsTo(Function &F, StringRef Name) {
  SmallVector<CallInst *, 8> Out;
  for (BasicBlock &BB : F)
    for (Instruction &I : BB)
      if (auto *CI = dyn_cast<CallInst>(&I))
        if (Function *Callee = CI->getCalledFunction())
          if (Callee->getName() == Name)
            Out.push_back(CI);
  return Out;
}

static std::optional<int64_t> checkId(CallInst *CI) {
  if (auto *C = dyn_cast<ConstantInt>(CI->getArgOperand(0)))
    return C->getSExtValue();
  return std::nullopt;
}

namespace {

class ChecksScheme : public Scheme {
public:
  StringRef name() const override { return "checks"; }

  void collect(Function &F, std::vector<Instruction *> &Out) override {
    for (CallInst *CI : callsTo(F, BeginName))
      if (checkId(CI))
        Out.push_back(CI);
  }

  void instrument(Instruction *I, SiteTable &Table) override {
    auto *Begin = cast<CallInst>(I);
    Function &F = *Begin->getFunction();
    StringRef Text;
    if (!getConstantStringInfo(Begin->getArgOperand(1), Text))
      Text = "check";
    InsertedSite S = Table.addSite(Begin, "checks", 2, Text, Begin);
    {
      IRBuilder<> B(S.Observe->getTerminator());
      S.bump(B, B.getInt64(0));
    }
    // The begin's value: 1 where the site was observed, 0 where it was not.
    BasicBlock *MarkerBlock = S.Marker->getParent();
    IRBuilder<> B(&*S.Cont->begin());
    PHINode *Taken = B.CreatePHI(Begin->getType(), 2, "check.sampled");
    Taken->addIncoming(ConstantInt::get(Begin->getType(), 1), S.Observe);
    Taken->addIncoming(ConstantInt::get(Begin->getType(), 0), MarkerBlock);
    Begin->replaceAllUsesWith(Taken);
    int64_t Id = *checkId(Begin);
    Begin->eraseFromParent();
    for (CallInst *End : callsTo(F, EndName)) {
      if (checkId(End) != Id)
        continue;
      IRBuilder<> EB(End);
      Value *Ok = EB.CreateICmpNE(End->getArgOperand(1),
                                  ConstantInt::get(End->getArgOperand(1)->getType(), 0));
      S.update(EB, AtomicRMWInst::Add, S.cell(EB, 1),
               EB.CreateZExt(EB.CreateNot(Ok), EB.getInt64Ty()));
      End->eraseFromParent();
    }
  }
};

} // namespace

namespace sampler {
std::unique_ptr<Scheme> createChecksScheme(const FrontEndInfo *) {
  return std::make_unique<ChecksScheme>();
}

void lowerUnselectedChecks(Module &M) {
  for (Function &F : M) {
    for (CallInst *CI : callsTo(F, BeginName)) {
      CI->replaceAllUsesWith(ConstantInt::get(CI->getType(), 1));
      CI->eraseFromParent();
    }
    for (CallInst *CI : callsTo(F, EndName))
      CI->eraseFromParent();
  }
  for (StringRef Name : {BeginName, EndName})
    if (Function *Decl = M.getFunction(Name))
      if (Decl->use_empty())
        Decl->eraseFromParent();
}
} // namespace sampler

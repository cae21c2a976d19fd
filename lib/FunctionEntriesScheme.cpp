//===- FunctionEntriesScheme.cpp - The `function-entries` scheme ----------===//
//
// One site per function, at its entry (after the static allocas): 1 cell,
// the number of calls. Description: the function's name.
//
//===----------------------------------------------------------------------===//
#include "Scheme.h"
#include "SiteTable.h"

#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;
using namespace sampler;

namespace {

class FunctionEntriesScheme : public Scheme {
public:
  StringRef name() const override { return "function-entries"; }

  void collect(Function &F, std::vector<Instruction *> &Out) override {
    BasicBlock &Entry = F.getEntryBlock();
    BasicBlock::iterator It = Entry.getFirstInsertionPt();
    while (isa<AllocaInst>(*It))
      ++It;
    Out.push_back(&*It);
  }

  void instrument(Instruction *I, SiteTable &Table) override {
    Function *F = I->getFunction();
    // The location of the function itself, not of its first instruction.
    InsertedSite S = Table.addSite(I, "function-entries", 1,
                                   llvm::demangle(F->getName().str()));
    IRBuilder<> B(S.Observe->getTerminator());
    S.bump(B, B.getInt64(0));
  }
};

} // namespace

namespace sampler {
std::unique_ptr<Scheme> createFunctionEntriesScheme(const FrontEndInfo *) {
  return std::make_unique<FunctionEntriesScheme>();
}
} // namespace sampler

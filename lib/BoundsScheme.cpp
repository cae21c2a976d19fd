//===- BoundsScheme.cpp - The `bounds` scheme -----------------------------===//
//
// At each assignment of an integer (not bool; locals, parameters, globals;
// fields and elements with the `elements` option): 2 cells holding values,
// not counts: [smallest, largest] value assigned, as signed 64-bit integers.
// They start at [INT64_MAX, INT64_MIN] ("never observed") and are updated with
// atomic min/max. Count x d does not apply to them.
//
//===----------------------------------------------------------------------===//
#include "Assignments.h"
#include "SamplerOptions.h"
#include "Scheme.h"
#include "SiteTable.h"

using namespace llvm;
using namespace sampler;

namespace {

class BoundsScheme : public Scheme {
public:
  explicit BoundsScheme(bool Elements) : Elements(Elements) {}
  StringRef name() const override { return "bounds"; }

  void collect(Function &F, std::vector<Instruction *> &Out) override {
    for (Assignment &A : findAssignments(F, Elements, [](Type *T) {
           return T->isIntegerTy() && !T->isIntegerTy(1) &&
                  T->getIntegerBitWidth() <= 64;
         })) {
      Names[A.Store] = A.Name;
      Out.push_back(A.Store);
    }
  }

  void instrument(Instruction *I, SiteTable &Table) override {
    auto *SI = cast<StoreInst>(I);
    InsertedSite S =
        Table.addSite(SI->getNextNode(), "bounds", 2, Names[SI], SI);
    Table.setInitialValue(S, 0, INT64_MAX);
    Table.setInitialValue(S, 1, INT64_MIN);
    IRBuilder<> B(S.Observe->getTerminator());
    Value *V = B.CreateSExt(SI->getValueOperand(), B.getInt64Ty());
    S.update(B, AtomicRMWInst::Min, S.cell(B, 0), V);
    S.update(B, AtomicRMWInst::Max, S.cell(B, 1), V);
  }

private:
  bool Elements;
  DenseMap<const Instruction *, std::string> Names;
};

} // namespace

namespace sampler {
std::unique_ptr<Scheme> createBoundsScheme(const SamplerOptions &Opts) {
  return std::make_unique<BoundsScheme>(Opts.Elements);
}
} // namespace sampler

//===- FloatKindsScheme.cpp - The `float-kinds` scheme --------------------===//
//
// At each assignment of a float or double (locals, parameters, globals; fields
// and array elements with the `elements` option): 9 cells, the kind of the
// value assigned:
//   [-inf, -normal, -denormal, -0, +0, +denormal, +normal, +inf, NaN]
// The kind comes from the bits (sign, exponent, mantissa), so it is exact and
// does not depend on the floating-point environment.
//
//===----------------------------------------------------------------------===//
#include "Assignments.h"
#include "SamplerOptions.h"
#include "Scheme.h"
#include "SiteTable.h"

using namespace llvm;
using namespace sampler;

namespace {

class FloatKindsScheme : public Scheme {
public:
  explicit FloatKindsScheme(bool Elements) : Elements(Elements) {}
  StringRef name() const override { return "float-kinds"; }

  void collect(Function &F, std::vector<Instruction *> &Out) override {
    for (Assignment &A : findAssignments(F, Elements, [](Type *T) {
           return T->isFloatTy() || T->isDoubleTy() || T->isHalfTy();
         })) {
      Names[A.Store] = A.Name;
      Out.push_back(A.Store);
    }
  }

  void instrument(Instruction *I, SiteTable &Table) override {
    auto *SI = cast<StoreInst>(I);
    Value *V = SI->getValueOperand();
    InsertedSite S = Table.addSite(SI->getNextNode(), "float-kinds", 9,
                                   Names[SI], SI);
    IRBuilder<> B(S.Observe->getTerminator());
    Type *FT = V->getType();
    unsigned Bits = FT->getPrimitiveSizeInBits();
    unsigned MantBits = APFloat::semanticsPrecision(FT->getFltSemantics()) - 1;
    unsigned ExpBits = Bits - 1 - MantBits;
    Type *IT = B.getIntNTy(Bits);
    Value *Raw = B.CreateBitCast(V, IT);
    Value *Neg = B.CreateICmpSLT(Raw, ConstantInt::get(IT, 0));
    Value *Exp = B.CreateAnd(B.CreateLShr(Raw, MantBits),
                             ConstantInt::get(IT, (1ull << ExpBits) - 1));
    Value *Mant = B.CreateAnd(Raw, ConstantInt::get(IT, APInt::getLowBitsSet(Bits, MantBits)));
    Value *ExpMax = B.CreateICmpEQ(Exp, ConstantInt::get(IT, (1ull << ExpBits) - 1));
    Value *ExpZero = B.CreateICmpEQ(Exp, ConstantInt::get(IT, 0));
    Value *MantZero = B.CreateICmpEQ(Mant, ConstantInt::get(IT, 0));
    auto Pick = [&](Value *C, unsigned IfNeg, unsigned IfPos) {
      return B.CreateSelect(C, B.getInt64(IfNeg), B.getInt64(IfPos));
    };
    Value *Normal = Pick(Neg, 1, 6);
    Value *Tiny = B.CreateSelect(MantZero, Pick(Neg, 3, 4), Pick(Neg, 2, 5));
    Value *Special = B.CreateSelect(MantZero, Pick(Neg, 0, 7), B.getInt64(8));
    Value *Index = B.CreateSelect(ExpMax, Special,
                                  B.CreateSelect(ExpZero, Tiny, Normal));
    S.bump(B, Index);
  }

private:
  bool Elements;
  DenseMap<const Instruction *, std::string> Names;
};

} // namespace

namespace sampler {
std::unique_ptr<Scheme> createFloatKindsScheme(const SamplerOptions &Opts) {
  return std::make_unique<FloatKindsScheme>(Opts.Elements);
}
} // namespace sampler

//===- ScalarPairsScheme.cpp - The `scalar-pairs` scheme ------------------===//
//
// At each assignment `x = v` to an integer or pointer variable (locals,
// parameters, globals; fields and array elements with the `elements` option),
// one site per other variable y of the same type that holds a value there:
// 3 cells [v < y, v == y, v > y]. Pointers are also compared with NULL; with
// the `compare-constants` option, integers are also compared with the
// constants of the same type that appear in the function (at most 8).
//
// Which variables: the same-typed locals and parameters of the function for
// which some store dominates the assignment (an initialised local), and the
// same-typed globals the function uses. The description is `x <=> y`; the
// tools derive the six predicates (<, <=, >, >=, ==, !=).
//
// Integers compare as signed, pointers as unsigned. The other variable's value
// is frozen: it may be undefined (a local whose initialising store does not
// run on this path), and an undefined value must not make the observation
// itself undefined.
//
//===----------------------------------------------------------------------===//
#include "Assignments.h"
#include "SamplerOptions.h"
#include "Scheme.h"
#include "SiteTable.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/IntrinsicInst.h"

using namespace llvm;
using namespace sampler;

namespace {

/// What an assignment is compared with.
struct Other {
  Value *Variable; // alloca or global to load; null for a constant
  Constant *Value_; // NULL pointer or constant
  std::string Name;
};

/// With lifetime markers: the last marker of \p AI that dominates \p At must
/// be a start (the variable exists there). Without markers (-O0): in scope.
bool inScope(AllocaInst *AI, Instruction *At,
             const DenseMap<AllocaInst *, SmallVector<IntrinsicInst *, 4>> &Lifetimes,
             const DominatorTree &DT) {
  auto It = Lifetimes.find(AI);
  if (It == Lifetimes.end())
    return true;
  IntrinsicInst *Last = nullptr;
  for (IntrinsicInst *M : It->second)
    if (DT.dominates(M, At) && (!Last || DT.dominates(Last, M)))
      Last = M;
  return Last && Last->getIntrinsicID() == Intrinsic::lifetime_start;
}

class ScalarPairsScheme : public Scheme {
public:
  ScalarPairsScheme(bool Elements, bool Constants)
      : Elements(Elements), Constants(Constants) {}
  StringRef name() const override { return "scalar-pairs"; }

  static bool wanted(Type *T) {
    return (T->isIntegerTy() && !T->isIntegerTy(1)) || T->isPointerTy();
  }

  void collect(Function &F, std::vector<Instruction *> &Out) override {
    std::vector<Assignment> As = findAssignments(F, Elements, wanted);
    if (As.empty())
      return;
    DominatorTree DT(F);
    // Candidate variables by type: program locals with their stores, and
    // the globals the function uses.
    MapVector<Type *, SmallVector<AllocaInst *, 8>> Locals;
    DenseMap<AllocaInst *, SmallVector<StoreInst *, 4>> StoresTo;
    // Lifetime markers (clang emits them at -O1 and above) bound a local's
    // scope: after its llvm.lifetime.end the variable no longer exists.
    DenseMap<AllocaInst *, SmallVector<IntrinsicInst *, 4>> Lifetimes;
    for (Instruction &I : F.getEntryBlock())
      if (auto *AI = dyn_cast<AllocaInst>(&I))
        if (isProgramVariable(AI) && wanted(AI->getAllocatedType()))
          Locals[AI->getAllocatedType()].push_back(AI);
    SmallSetVector<GlobalVariable *, 8> Globals;
    SmallSetVector<ConstantInt *, 8> Consts;
    for (BasicBlock &BB : F)
      for (Instruction &I : BB) {
        if (auto *SI = dyn_cast<StoreInst>(&I))
          if (auto *AI = dyn_cast<AllocaInst>(SI->getPointerOperand()))
            StoresTo[AI].push_back(SI);
        if (auto *II = dyn_cast<IntrinsicInst>(&I))
          if (II->isLifetimeStartOrEnd())
            if (auto *AI = dyn_cast<AllocaInst>(
                    II->getArgOperand(1)->stripPointerCasts()))
              Lifetimes[AI].push_back(II);
        for (Value *Op : I.operands()) {
          if (auto *GV = dyn_cast<GlobalVariable>(Op->stripPointerCasts()))
            if (!GV->isConstant() && wanted(GV->getValueType()) &&
                !GV->getName().starts_with("llvm.") &&
                !GV->getName().starts_with("__sampler") && GV->hasName() &&
                !GV->getName().starts_with("."))
              Globals.insert(GV);
          if (auto *CI = dyn_cast<ConstantInt>(Op))
            if (Constants && !CI->getType()->isIntegerTy(1) && Consts.size() < 8)
              Consts.insert(CI);
        }
      }

    for (Assignment &A : As) {
      Type *T = A.Store->getValueOperand()->getType();
      std::vector<Other> Others;
      for (AllocaInst *AI : Locals.lookup(T)) {
        if (AI == A.Variable)
          continue;
        bool Initialised = any_of(StoresTo.lookup(AI), [&](StoreInst *S) {
          return S != A.Store && DT.dominates(S, A.Store);
        });
        if (Initialised && inScope(AI, A.Store, Lifetimes, DT))
          Others.push_back({AI, nullptr, variableName(AI)});
      }
      for (GlobalVariable *GV : Globals)
        if (GV != A.Variable && GV->getValueType() == T)
          Others.push_back({GV, nullptr, variableName(GV)});
      if (T->isPointerTy())
        Others.push_back({nullptr, ConstantPointerNull::get(cast<PointerType>(T)),
                          "NULL"});
      for (ConstantInt *CI : Consts)
        if (CI->getType() == T)
          Others.push_back({nullptr, CI, std::to_string(CI->getSExtValue())});
      if (Others.empty())
        continue;
      Plans[A.Store] = {A.Name, std::move(Others)};
      Out.push_back(A.Store);
    }
  }

  void instrument(Instruction *I, SiteTable &Table) override {
    auto *SI = cast<StoreInst>(I);
    auto &[Name, Others] = Plans[SI];
    Value *V = SI->getValueOperand();
    Instruction *Before = SI->getNextNode();
    for (const Other &O : Others) {
      InsertedSite S = Table.addSite(Before, "scalar-pairs", 3,
                                     Name + " <=> " + O.Name, SI);
      IRBuilder<> B(S.Observe->getTerminator());
      Value *W = O.Value_;
      if (!W)
        W = B.CreateFreeze(B.CreateLoad(V->getType(), O.Variable, O.Name));
      bool Signed = V->getType()->isIntegerTy();
      Value *Gt = Signed ? B.CreateICmpSGT(V, W) : B.CreateICmpUGT(V, W);
      Value *GtX = B.CreateZExt(Gt, B.getInt64Ty());
      Value *Ge = Signed ? B.CreateICmpSGE(V, W) : B.CreateICmpUGE(V, W);
      Value *GeX = B.CreateZExt(Ge, B.getInt64Ty());
      S.bump(B, B.CreateAdd(GtX, GeX)); // <: 0, ==: 1, >: 2
      Before = &*S.Cont->getFirstInsertionPt();
    }
  }

private:
  bool Elements, Constants;
  DenseMap<const Instruction *, std::pair<std::string, std::vector<Other>>> Plans;
};

} // namespace

namespace sampler {
std::unique_ptr<Scheme> createScalarPairsScheme(const SamplerOptions &Opts) {
  return std::make_unique<ScalarPairsScheme>(Opts.Elements,
                                             Opts.CompareConstants);
}
} // namespace sampler

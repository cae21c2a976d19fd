//===- Assignments.cpp - Assignments to program variables -----------------===//
#include "Assignments.h"
#include "RuntimeABI.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Operator.h"

using namespace llvm;
using namespace sampler;

bool sampler::isProgramVariable(const AllocaInst *AI) {
  if (!AI->isStaticAlloca())
    return false;
  StringRef N = AI->getName();
  if (N.empty())
    return true; // names discarded: cannot tell, assume it is
  // clang's temporaries.
  static const char *const Temporaries[] = {
      "retval", "tmp", "agg.tmp", "ref.tmp", "cleanup.dest.slot", "exn.slot",
      "ehselector.slot", "saved_stack", "coerce", "nrvo", "undef.agg.tmp",
      "indirect-arg-temp", "byval-temp", "__range", "__begin", "__end",
      "cleanup.isactive", "cond-cleanup.save", "atomic-temp", "cmpxchg.bool",
      "__vla_expr", "this.addr", "vla", "saved_stack"};
  for (const char *T : Temporaries)
    if (N == T || (N.starts_with(T) && N.size() > strlen(T) &&
                   isdigit(static_cast<unsigned char>(N[strlen(T)]))))
      return false;
  return !N.starts_with(".") && !N.starts_with("__sampler");
}

std::string sampler::variableName(const Value *V) {
  StringRef N = V->getName();
  if (N.empty()) {
    if (auto *AI = dyn_cast<AllocaInst>(V)) {
      unsigned Index = 0;
      for (const Instruction &I : AI->getParent()->getParent()->getEntryBlock()) {
        if (&I == AI)
          break;
        if (isa<AllocaInst>(I))
          ++Index;
      }
      return "<local " + std::to_string(Index) + ">";
    }
    return "<unnamed>";
  }
  N.consume_back(".addr");
  return N.str();
}

/// The variable behind a pointer, through GEPs when \p Elements.
static Value *variableOf(Value *Ptr, bool Elements, bool &IsElement,
                         std::string &Suffix) {
  IsElement = false;
  if (Elements) {
    if (auto *GEP = dyn_cast<GEPOperator>(Ptr)) {
      Value *Base = GEP->getPointerOperand()->stripPointerCasts();
      if (isa<AllocaInst>(Base) || isa<GlobalVariable>(Base)) {
        IsElement = true;
        bool AllConst = GEP->hasAllConstantIndices();
        Suffix = AllConst && GEP->getNumIndices() >= 2 ? ".field" : "[...]";
        Ptr = Base;
      }
    }
  }
  if (auto *AI = dyn_cast<AllocaInst>(Ptr))
    return isProgramVariable(AI) ? AI : nullptr;
  if (auto *GV = dyn_cast<GlobalVariable>(Ptr)) {
    if (GV->isConstant() || GV->getName().starts_with("llvm.") ||
        GV->getName().starts_with(abi::Prefix) || GV->getName().starts_with("."))
      return nullptr;
    return GV;
  }
  return nullptr;
}

std::vector<Assignment>
sampler::findAssignments(Function &F, bool Elements,
                         function_ref<bool(Type *)> WantType) {
  std::vector<Assignment> Out;
  for (BasicBlock &BB : F)
    for (Instruction &I : BB) {
      auto *SI = dyn_cast<StoreInst>(&I);
      if (!SI || SI->isVolatile() || SI->isAtomic() ||
          !WantType(SI->getValueOperand()->getType()))
        continue;
      bool IsElement;
      std::string Suffix;
      Value *Var = variableOf(SI->getPointerOperand(), Elements, IsElement, Suffix);
      if (!Var)
        continue;
      // A whole-variable store must store the variable's own type (not a
      // byte of a union or a memcpy-like punning store).
      if (!IsElement) {
        Type *VarTy = isa<AllocaInst>(Var) ? cast<AllocaInst>(Var)->getAllocatedType()
                                           : cast<GlobalVariable>(Var)->getValueType();
        if (VarTy != SI->getValueOperand()->getType())
          continue;
      }
      Out.push_back({SI, Var, variableName(Var) + Suffix, IsElement});
    }
  return Out;
}

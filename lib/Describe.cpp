//===- Describe.cpp - Source-like descriptions of sites -------------------===//
#include "FrontEndInfo.h"
#include "Scheme.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;
using namespace sampler;

std::optional<std::string> sampler::sourceTextAt(const Instruction *I, int Kind,
                                                 const FrontEndInfo *FE) {
  if (!FE)
    return std::nullopt;
  const DebugLoc &DL = I->getDebugLoc();
  if (!DL)
    return std::nullopt;
  auto *Scope = dyn_cast_or_null<DIScope>(DL.getScope());
  if (!Scope)
    return std::nullopt;
  std::string File =
      FrontEndInfo::canonicalPath(Scope->getDirectory(), Scope->getFilename());
  return FE->lookupText(File, DL.getLine(), DL.getCol(),
                        static_cast<FrontEndInfo::Kind>(Kind));
}

/// The name a person would use for V: a variable behind a load, a constant.
static std::string operandName(const Value *V) {
  if (auto *CI = dyn_cast<ConstantInt>(V))
    return CI->getType()->isIntegerTy(1) ? (CI->isOne() ? "true" : "false")
                                         : std::to_string(CI->getSExtValue());
  if (isa<ConstantPointerNull>(V))
    return "null";
  if (auto *CF = dyn_cast<ConstantFP>(V))
    return std::to_string(CF->getValueAPF().convertToDouble());
  if (auto *LI = dyn_cast<LoadInst>(V))
    V = LI->getPointerOperand();
  for (int Depth = 0; Depth < 4; ++Depth) {
    if (auto *Cast = dyn_cast<CastInst>(V))
      V = Cast->getOperand(0);
    else
      break;
    if (auto *LI = dyn_cast<LoadInst>(V))
      V = LI->getPointerOperand();
  }
  if (V->hasName()) {
    StringRef N = V->getName();
    N.consume_back(".addr"); // clang's home for a parameter at -O0
    return N.str();
  }
  return "(expr)";
}

std::string sampler::describeValue(const Value *V) {
  if (auto *Cmp = dyn_cast<CmpInst>(V)) {
    StringRef Op;
    switch (Cmp->getPredicate()) {
    case CmpInst::ICMP_EQ: case CmpInst::FCMP_OEQ: case CmpInst::FCMP_UEQ: Op = "=="; break;
    case CmpInst::ICMP_NE: case CmpInst::FCMP_ONE: case CmpInst::FCMP_UNE: Op = "!="; break;
    case CmpInst::ICMP_SLT: case CmpInst::ICMP_ULT: case CmpInst::FCMP_OLT: case CmpInst::FCMP_ULT: Op = "<"; break;
    case CmpInst::ICMP_SLE: case CmpInst::ICMP_ULE: case CmpInst::FCMP_OLE: case CmpInst::FCMP_ULE: Op = "<="; break;
    case CmpInst::ICMP_SGT: case CmpInst::ICMP_UGT: case CmpInst::FCMP_OGT: case CmpInst::FCMP_UGT: Op = ">"; break;
    case CmpInst::ICMP_SGE: case CmpInst::ICMP_UGE: case CmpInst::FCMP_OGE: case CmpInst::FCMP_UGE: Op = ">="; break;
    default: Op = "?"; break;
    }
    return operandName(Cmp->getOperand(0)) + " " + Op.str() + " " +
           operandName(Cmp->getOperand(1));
  }
  if (auto *Cast = dyn_cast<CastInst>(V))
    return describeValue(Cast->getOperand(0));
  return operandName(V);
}

//===- WeightyEffects.cpp - Weighty code says it writes memory -----------===//
//
// See WeightyEffects.h.
//
//===----------------------------------------------------------------------===//
#include "WeightyEffects.h"
#include "Weightless.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;
using namespace sampler;

#define DEBUG_TYPE "sampler"

STATISTIC(NumWidenedFunctions,
          "Weighty functions whose declared memory effects were widened");
STATISTIC(NumWidenedCalls,
          "Weighty calls whose declared memory effects were widened");

/// \p ME with the program's nameable memory (the countdown, the counters)
/// read and written.
static MemoryEffects withOtherMemory(MemoryEffects ME) {
  return ME | MemoryEffects(IRMemLocation::Other, ModRefInfo::ModRef);
}

void sampler::declareWeightyEffects(Module &M, const WeightlessInfo &WI) {
  for (Function &F : M) {
    if (F.isIntrinsic())
      continue;
    if (WI.isWeighty(&F)) {
      MemoryEffects ME = F.getMemoryEffects();
      if (withOtherMemory(ME) != ME) {
        F.setMemoryEffects(withOtherMemory(ME));
        ++NumWidenedFunctions;
      }
      // Executing it where the program would not may take trials.
      F.removeFnAttr(Attribute::Speculatable);
    }
    for (Instruction &I : instructions(F)) {
      auto *CB = dyn_cast<CallBase>(&I);
      if (!CB || !WI.isWeightyCall(*CB))
        continue;
      // A call's effects are those of its own attribute and its callee's
      // together: only a call that declares some is narrowed by it.
      AttributeSet CallAttrs = CB->getAttributes().getFnAttrs();
      if (CallAttrs.hasAttribute(Attribute::Memory)) {
        MemoryEffects ME = CallAttrs.getMemoryEffects();
        if (withOtherMemory(ME) != ME) {
          CB->setMemoryEffects(withOtherMemory(ME));
          ++NumWidenedCalls;
        }
      }
      CB->removeFnAttr(Attribute::Speculatable);
    }
  }
}

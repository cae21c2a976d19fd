//===- FeedbackWeights.cpp - Branch weights from earlier runs' counts -----===//
#include "FeedbackWeights.h"
#include "Feedback.h"
#include "SiteTable.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstring>

using namespace llvm;
using namespace sampler;

#define DEBUG_TYPE "sampler-feedback"

STATISTIC(NumWeighted, "Branches and switches weighted from feedback");

namespace {

/// The weights of one terminator from its cells' estimates, scaled as clang
/// scales a profile's counts (CodeGenPGO's scaleBranchWeight): divided so
/// that the largest fits 32 bits, then 1 added, so that a way never seen is
/// rare, not impossible.
MDNode *weightsFrom(LLVMContext &C, ArrayRef<uint64_t> Estimates) {
  uint64_t Max = *std::max_element(Estimates.begin(), Estimates.end());
  uint64_t Scale = Max < UINT32_MAX ? 1 : Max / UINT32_MAX + 1;
  SmallVector<uint32_t, 8> Weights;
  for (uint64_t E : Estimates)
    Weights.push_back(uint32_t(E / Scale + 1));
  return MDBuilder(C).createBranchWeights(Weights);
}

} // namespace

unsigned sampler::applyFeedbackWeights(SiteTable &Table, const Feedback &Counts,
                                       StringRef Path) {
  if (Table.empty())
    return 0;
  MD5::MD5Result Digest = Table.signature();
  Signature Sig;
  std::memcpy(Sig.Bytes, Digest.data(), sizeof Sig.Bytes);
  const FeedbackUnit *U = Counts.find(Sig);
  if (!U) {
    // Not a failure: a unit's code (or the flags that choose its sites) may
    // change between the runs and this build. Said, as clang says of a
    // profile that does not match.
    StringRef Source = Table.sites().front().File;
    errs() << "sampler: warning: " << Path << " has no counts for unit "
           << Sig.hex() << " (" << Source
           << "): its sites changed since those runs; its branches keep "
              "their weights\n";
    return 0;
  }
  if (U->NumCells != Table.numCounters())
    return 0; // the signature matched: cannot happen unless the file lies
  unsigned N = 0;
  SmallVector<uint64_t, 8> Estimates;
  for (const SiteRecord &R : Table.sites()) {
    if (R.Scheme != "branches" || !R.Before)
      continue;
    auto *T = dyn_cast<Instruction>(&*R.Before);
    // The scheme's cells follow the terminator's successors: a branch's
    // [false, true] are successors 1 and 0; a switch's [default, case 1,
    // ..., case n] are successors 0 to n.
    unsigned Ways = T ? T->getNumSuccessors() : 0;
    if (Ways < 2 || Ways != R.NumCounters ||
        !(isa<BranchInst>(T) || isa<SwitchInst>(T)))
      continue;
    Estimates.clear();
    for (unsigned W = 0; W < Ways; ++W)
      Estimates.push_back(U->cell(R.Offset + W));
    if (std::all_of(Estimates.begin(), Estimates.end(),
                    [](uint64_t E) { return E == 0; }))
      continue; // never reached in those runs: nothing learned
    if (isa<BranchInst>(T))
      std::swap(Estimates[0], Estimates[1]);
    T->setMetadata(LLVMContext::MD_prof, weightsFrom(T->getContext(), Estimates));
    ++N;
  }
  NumWeighted += N;
  return N;
}

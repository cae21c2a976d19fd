//===- FeedbackWeights.cpp - Branch weights from earlier runs' counts -----===//
#include "FeedbackWeights.h"
#include "Feedback.h"
#include "SamplerOptions.h"
#include "SiteTable.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SCCIterator.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstring>
#include <optional>

using namespace llvm;
using namespace sampler;

#define DEBUG_TYPE "sampler-feedback"

STATISTIC(NumWeighted, "Branches and switches weighted from feedback");
STATISTIC(NumCold, "Functions with sites that the feedback's runs found cold");
STATISTIC(NumColdLoops, "Cold functions kept cloned: sites in a cycle");
STATISTIC(NumColdPaths,
          "Cold functions kept cloned: more sites on a path than the limit");
STATISTIC(NumColdOptSize, "Cold functions optimised for size");

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

/// The most sites that one call of \p F can cross: the heaviest path through
/// its CFG, a cycle's sites counted once (its strongly connected components,
/// from scc_iterator, whose post-order lets each take the heaviest of the
/// components after it). Nothing if a site is in a cycle and \p CountCycles is
/// false: in place, such a site pays its test on every iteration, where the
/// cloned copy's loop pays a check a back edge, or once on its exits.
std::optional<unsigned> heaviestPathSites(Function &F, bool CountCycles) {
  DenseMap<const BasicBlock *, unsigned> Sites;
  for (CallInst *Marker : SiteTable::markersIn(F))
    ++Sites[Marker->getParent()];
  // Per block walked, the most sites on a path from its component to a
  // return.
  DenseMap<const BasicBlock *, unsigned> From;
  unsigned Heaviest = 0;
  for (scc_iterator<Function *> I = scc_begin(&F); !I.isAtEnd(); ++I) {
    const std::vector<BasicBlock *> &Component = *I;
    unsigned Own = 0, After = 0;
    for (const BasicBlock *BB : Component) {
      Own += Sites.lookup(BB);
      for (const BasicBlock *Succ : successors(BB))
        if (auto It = From.find(Succ); It != From.end())
          After = std::max(After, It->second);
    }
    if (Own && I.hasCycle() && !CountCycles)
      return std::nullopt;
    // Successors in the same component are not in From yet: only those of
    // components already walked, which come after it, count.
    for (const BasicBlock *BB : Component)
      From[BB] = Own + After;
    Heaviest = std::max(Heaviest, Own + After);
  }
  return Heaviest;
}

} // namespace

unsigned sampler::applyFeedbackWeights(SiteTable &Table, const Feedback &Counts,
                                       StringRef Path,
                                       const SamplerOptions &Opts) {
  if (Table.empty())
    return 0;
  MD5::MD5Result Digest = Table.signature();
  Signature Sig;
  std::memcpy(Sig.Bytes, Digest.data(), sizeof Sig.Bytes);
  const FeedbackUnit *U = Counts.find(Sig);
  if (!U) {
    // Not a failure: the unit may not be linked into the program the runs
    // came from (a library's unused member), or its code, the flags that
    // choose its sites, or the path it is compiled as (the module's
    // identity) changed since. Said, as clang says of a profile that does not
    // match; nothing is marked cold.
    StringRef Source = Table.sites().front().File;
    errs() << "sampler: warning: " << Path << " has no counts for unit "
           << Sig.hex() << " (" << Source
           << "): not in the program those runs came from, or its sites or "
              "the path it is compiled as differ; its branches keep their "
              "weights\n";
    return 0;
  }
  if (U->NumCells != Table.numCounters())
    return 0; // the signature matched: cannot happen unless the file lies
  unsigned N = 0;
  SmallVector<uint64_t, 8> Estimates;
  // Per function: how often its hottest site ran in all the runs together
  // (a site's cells sum to its executions, but for `bounds`, whose cells are
  // a minimum and a maximum).
  MapVector<Function *, uint64_t> Hottest;
  for (const SiteRecord &R : Table.sites()) {
    auto *I = dyn_cast_or_null<Instruction>(&*R.Before);
    if (!I || R.Scheme == "bounds")
      continue;
    uint64_t Ran = 0;
    for (unsigned K = 0; K < R.NumCounters; ++K)
      Ran = SaturatingAdd(Ran, U->cell(R.Offset + K));
    uint64_t &Max = Hottest.insert({I->getFunction(), 0}).first->second;
    Max = std::max(Max, Ran);
  }
  if (Opts.ColdInPlace || Opts.ColdOptSize) {
    uint64_t Limit =
        SaturatingMultiply(uint64_t(Opts.ColdCount), Counts.runs());
    for (auto &[F, Max] : Hottest) {
      if (Max > Limit)
        continue;
      ++NumCold;
      // Cold code is not worth its bytes, whichever way it is lowered: as a
      // profile-guided build does with what its profile finds cold, optimise
      // it for size (the inliner, the unroller and instruction selection
      // read `optsize`). The sites are the same; a workload that runs the
      // function hot pays the smaller code's speed, not the sampler's.
      if (Opts.ColdOptSize && !F->hasOptNone()) {
        ++NumColdOptSize;
        F->addFnAttr(Attribute::OptimizeForSize);
      }
      if (!Opts.ColdInPlace)
        continue;
      // Cold in those runs, not in every run: a workload unlike theirs may
      // run it hot. In place, each site it crosses then costs a test, where
      // the cloned copy pays a check a region: a loop's sites a test each on
      // every iteration (bzip2's fallbackSort, never run on text, +78% on
      // data that makes the block sort fall back to it), a path of k sites k
      // tests a call (Lua's parser, run once by the training workload). So
      // only a function that no call can cross more than ColdPathSites sites
      // of goes in place.
      std::optional<unsigned> Crossed =
          heaviestPathSites(*F, Opts.ColdLoopsInPlace);
      if (!Crossed) {
        ++NumColdLoops;
        continue;
      }
      if (Opts.ColdPathSites && *Crossed > Opts.ColdPathSites) {
        ++NumColdPaths;
        continue;
      }
      F->addFnAttr(ColdAttr);
    }
  }
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

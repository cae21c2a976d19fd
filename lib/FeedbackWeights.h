//===- FeedbackWeights.h - Branch weights from earlier runs' counts -------===//
//
// The branches scheme counts both ways of every branch it observes, so the
// reports of earlier runs of the same build (merged by `sampler-report
// --merge`) say how often each way was taken: the profile a PGO build would
// get from a training run, without one. With -fsampler-feedback=FILE, each
// branch or switch site of a unit the file names gets those counts as its
// branch weights (replacing any it had, `__builtin_expect`'s included), before
// the sampling transformation runs: its checks on cold heavy ways
// (SamplingTransform.cpp, checksOnColdHeavyEdges) and the optimiser's layout
// read them as they would read a profile's.
//
//   sampler-report --merge=prog.feedback sampler.*.report
//   sampler-cc -O2 -fsampler-feedback=prog.feedback ...
//   opt -load-pass-plugin=SamplerPassLLVM.so -passes=sampler
//       -sampler-feedback=prog.feedback in.ll -S
//
// A unit is found by its signature, which covers its sites' text: a unit
// whose source or flags changed since the runs is not in the file, keeps its
// weights, and is named in a one-line warning.
//
//===----------------------------------------------------------------------===//
#ifndef SAMPLER_FEEDBACKWEIGHTS_H
#define SAMPLER_FEEDBACKWEIGHTS_H

#include "llvm/ADT/StringRef.h"

namespace sampler {

class Feedback;
class SiteTable;

/// Gives the branch and switch sites of \p Table whose runs reached them the
/// weights \p Counts measured; returns how many got them. Call it when every
/// site is in (the signature covers them all) and before SiteTable::emit.
unsigned applyFeedbackWeights(SiteTable &Table, const Feedback &Counts,
                              llvm::StringRef Path);

} // namespace sampler

#endif

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
// A unit is found by its signature, which covers its sites' text and the
// path it is compiled as: a unit that was not in the program the runs came
// from, or whose source, flags or path changed since, is not in the file,
// keeps its weights, and is named in a one-line warning.
//
//===----------------------------------------------------------------------===//
#ifndef SAMPLER_FEEDBACKWEIGHTS_H
#define SAMPLER_FEEDBACKWEIGHTS_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>

namespace sampler {

class Feedback;
class SiteTable;
struct SamplerOptions;

/// The attribute of a function that the feedback's runs found cold, that has
/// no site in a loop (unless -sampler-cold-loops-in-place) and no path through
/// more than -sampler-cold-path-sites sites: the sampling transformation
/// lowers its sites in place rather than clone it (SamplingTransform::run).
inline constexpr char ColdAttr[] = "sampler-cold";

/// Gives the branch and switch sites of \p Table whose runs reached them the
/// weights \p Counts measured; returns how many got them. A function whose
/// hottest site ran at most Opts.ColdCount times a run, on average over the
/// runs (0: never), is cold: with Opts.ColdOptSize it is optimised for size
/// (`optsize`), and with Opts.ColdInPlace it gets ColdAttr, unless one of its
/// sites is in a cycle and not Opts.ColdLoopsInPlace, or a path through it
/// crosses more than Opts.ColdPathSites sites (a cycle's counted once; 0: no
/// limit). The `bounds` scheme's cells, which hold values, do not count. Call
/// it when every site is in (the signature covers them all) and before
/// SiteTable::emit.
unsigned applyFeedbackWeights(SiteTable &Table, const Feedback &Counts,
                              llvm::StringRef Path, const SamplerOptions &Opts);

} // namespace sampler

#endif

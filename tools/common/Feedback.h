//===- Feedback.h - the counts of many runs, merged ------------*- C++ -*-===//
//
// A feedback file sums the estimated counts (count x the run's multiplier,
// Report::scale) of many runs' reports, unit by unit, matched by signature
// (docs/report-format.md, "Feedback files"). `sampler-report --merge` writes
// it; the pass reads it (-fsampler-feedback=FILE) to give the branches of the
// units it names the weights those runs measured, as a profile would.
//
//   sampler-feedback	1
//   runs	N
//   unit	SIG	NCELLS	NAME
//   counts	I:V ...
//   end-of-feedback
//
// Like the report parser, this depends on the C++ standard library only: the
// plugin links it too.
//
//===----------------------------------------------------------------------===//
#ifndef SAMPLER_TOOLS_FEEDBACK_H
#define SAMPLER_TOOLS_FEEDBACK_H

#include "Report.h"
#include "Signature.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace sampler {

inline constexpr unsigned FeedbackVersion = 1;

struct FeedbackUnit {
  Signature Sig;
  uint64_t NumCells = 0;
  std::string Name; // the unit's source name (unescaped)
  /// The non-zero cells: (index, estimated count summed over the runs,
  /// saturating at 2^64 - 1), index ascending. Memory follows the counts,
  /// not the cell count a file claims. Cells that hold values (bounds' min
  /// and max) are summed as well and mean nothing here: only counts are read
  /// back.
  std::vector<std::pair<uint64_t, uint64_t>> Counts;

  /// The sum in cell \p I (0 if absent).
  uint64_t cell(uint64_t I) const;
};

class Feedback {
public:
  /// Runs merged (reports, and the runs of merged feedback files).
  uint64_t runs() const { return Runs; }
  const std::vector<FeedbackUnit> &units() const { return Units; }
  /// The unit with signature \p S, or null.
  const FeedbackUnit *find(const Signature &S) const;

  /// Adds one run's estimates. Fails (with \p Msg) if a unit of the report
  /// has the signature of a unit already here but another cell count.
  bool add(const Report &R, std::string &Msg);
  /// Adds another feedback file's sums and runs.
  bool add(const Feedback &F, std::string &Msg);

  /// The file's text; units in the order they were first seen.
  std::string write() const;

private:
  FeedbackUnit *unitFor(const Signature &S, uint64_t NumCells,
                        const std::string &Name, std::string &Msg);

  uint64_t Runs = 0;
  std::vector<FeedbackUnit> Units;
  std::unordered_map<Signature, size_t, SignatureHash> Index;
  friend bool parseFeedback(std::string_view, Feedback &, ReportError &);
};

/// Whether \p Text starts as a feedback file does (its magic, any version).
bool looksLikeFeedback(std::string_view Text);

/// Parses a whole feedback file into \p Out (cleared first). On failure
/// returns false and fills \p Err with the line at fault.
bool parseFeedback(std::string_view Text, Feedback &Out, ReportError &Err);

/// Adds one input to \p Sum: a feedback file (known by its magic) or else a
/// report. On failure returns false and fills \p Err: the line at fault, or
/// line 0 when the sum refused it (a unit's cell count differs from an
/// earlier input's). What sampler-report --merge and -fsampler-feedback read.
bool addFeedbackInput(std::string_view Text, Feedback &Sum, ReportError &Err);

} // namespace sampler

#endif

//===- Report.h - reading a per-run report ----------------------*- C++ -*-===//
//
// The report every instrumented run writes (docs/report-format.md, version 1):
// TAB-separated text records, one a line, the non-zero cells of every unit.
// The parser makes one pass over the buffer, allocates only for the values it
// keeps, and rejects anything that does not follow the format with the line
// at fault. It depends on the C++ standard library only, so that tools
// aggregating thousands of reports can call it directly.
//
//===----------------------------------------------------------------------===//
#ifndef SAMPLER_TOOLS_REPORT_H
#define SAMPLER_TOOLS_REPORT_H

#include "Signature.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace sampler {

inline constexpr unsigned ReportVersion = 1;

struct ReportUnit {
  Signature Sig;
  uint64_t NumCells = 0;
  uint32_t Flags = 0;          // bit 0: sampled
  std::string Name;            // the unit's source name (unescaped)
  unsigned Line = 0;           // line of the "unit" record, for messages
  /// The non-zero cells: (index, count), index ascending and < NumCells.
  std::vector<std::pair<uint64_t, uint64_t>> Counts;

  bool sampled() const { return Flags & 1; }
};

enum class EndKind { Exit, Signal, Unknown };

/// Free-text fields (program, host, unit name) are unescaped (\t \n \\).
struct Report {
  std::string Program;
  uint64_t Pid = 0;
  std::string Host;
  int64_t Time = 0;            // seconds since the epoch
  EndKind End = EndKind::Unknown;
  int64_t EndValue = 0;        // exit status or signal number
  bool SamplingOff = false;    // "sparsity off"
  uint64_t Sparsity = 1;       // D: density 1/D (meaningless if SamplingOff)
  uint64_t Seed = 0;
  std::vector<ReportUnit> Units;

  /// The multiplier that turns a count of unit U into an estimate: D for a
  /// sampled unit (1 if sampling was off), 1 for an unconditional one.
  uint64_t scale(const ReportUnit &U) const {
    return U.sampled() && !SamplingOff ? Sparsity : 1;
  }
};

struct ReportError {
  unsigned Line = 0;           // 1-based line at fault
  std::string Message;
};

/// Parses a whole report. On failure returns false and fills Err; Out is then
/// unspecified. Out is cleared first, so one Report can be reused across
/// calls to keep its allocations.
bool parseReport(std::string_view Text, Report &Out, ReportError &Err);

/// Whether \p Text starts as a report does ("sampler-report<TAB>"), of any
/// version: what parseReport reads, or refuses with a version message.
bool looksLikeReport(std::string_view Text);

/// Parses a `counts` record's cells ("I:V I:V ...", indices ascending and
/// below \p NumCells) onto \p Out; on failure returns false and says why in
/// \p Msg. Shared by the report and the feedback file (Feedback.h).
bool parseCountList(std::string_view Rest, uint64_t NumCells,
                    std::vector<std::pair<uint64_t, uint64_t>> &Out,
                    std::string &Msg);

} // namespace sampler

#endif

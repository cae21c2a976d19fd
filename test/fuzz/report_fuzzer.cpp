//===- report_fuzzer.cpp - libFuzzer target for the report reader ---------===//
//
// Feeds arbitrary bytes to sampler::parseReport (tools/common/Report.cpp,
// docs/report-format.md) and checks, besides the sanitizers' findings:
//  - a rejected report gets one short printable line naming a line of the
//    input (1 .. lines + 1);
//  - an accepted report obeys the format: header fields set, sparsity >= 1,
//    every unit's counts strictly ascending and below its cell count;
//  - an accepted report, written back in canonical form, reads back the same
//    (and its canonical form is a fixed point).
//
// Built with clang++-19 -fsanitize=fuzzer,address,undefined from
// test/fuzz/CMakeLists.txt; run by test/fuzz/run.sh (ctest fuzz-report).
//
//===----------------------------------------------------------------------===//

#include "FuzzCheck.h"

#include "Escape.h"
#include "Numbers.h"
#include "Report.h"

#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

using namespace sampler;
using namespace sampler_fuzz;

namespace {

std::string canonical(const Report &R) {
  std::string S = "sampler-report\t1\n";
  S += "program\t" + escapeField(R.Program) + "\n";
  S += "pid\t" + std::to_string(R.Pid) + "\n";
  S += "host\t" + escapeField(R.Host) + "\n";
  S += "time\t" + std::to_string(R.Time) + "\n";
  switch (R.End) {
  case EndKind::Exit:
    S += "end\texit\t" + std::to_string(R.EndValue) + "\n";
    break;
  case EndKind::Signal:
    S += "end\tsignal\t" + std::to_string(R.EndValue) + "\n";
    break;
  case EndKind::Unknown:
    S += "end\tunknown\n";
    break;
  }
  S += "sparsity\t" +
       (R.SamplingOff ? std::string("off") : std::to_string(R.Sparsity)) + "\n";
  char Seed[24];
  std::snprintf(Seed, sizeof Seed, "0x%" PRIx64, R.Seed);
  S += std::string("seed\t") + Seed + "\n";
  for (const ReportUnit &U : R.Units) {
    S += "unit\t" + U.Sig.hex() + "\t" + std::to_string(U.NumCells) + "\t" +
         std::to_string(U.Flags) + "\t" + escapeField(U.Name) + "\ncounts\t";
    bool First = true;
    for (const auto &[I, V] : U.Counts) {
      S += (First ? "" : " ") + std::to_string(I) + ":" + std::to_string(V);
      First = false;
    }
    S += "\n";
  }
  S += "end-of-report\n";
  return S;
}

bool sameReport(const Report &A, const Report &B) {
  if (A.Program != B.Program || A.Pid != B.Pid || A.Host != B.Host ||
      A.Time != B.Time || A.End != B.End || A.EndValue != B.EndValue ||
      A.SamplingOff != B.SamplingOff || A.Sparsity != B.Sparsity ||
      A.Seed != B.Seed || A.Units.size() != B.Units.size())
    return false;
  for (size_t I = 0; I < A.Units.size(); ++I) {
    const ReportUnit &X = A.Units[I], &Y = B.Units[I];
    if (X.Sig != Y.Sig || X.NumCells != Y.NumCells || X.Flags != Y.Flags ||
        X.Name != Y.Name || X.Counts != Y.Counts)
      return false;
  }
  return true;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  std::string_view Text(reinterpret_cast<const char *>(Data), Size);
  Report R;
  ReportError Err;
  if (!parseReport(Text, R, Err)) {
    FUZZ_CHECK(isCleanMessage(Err.Message, 200), "message '%s'",
               Err.Message.c_str());
    FUZZ_CHECK(Err.Line >= 1 && Err.Line <= lineCount(Text) + 1,
               "line %u of %zu", Err.Line, lineCount(Text));
    return 0;
  }

  FUZZ_CHECK(R.SamplingOff || R.Sparsity >= 1, "sparsity %" PRIu64, R.Sparsity);
  FUZZ_CHECK(R.End != EndKind::Signal || (R.EndValue >= 1 && R.EndValue <= 1024),
             "signal %" PRId64, R.EndValue);
  for (const ReportUnit &U : R.Units) {
    bool First = true;
    uint64_t Prev = 0;
    for (const auto &[I, V] : U.Counts) {
      FUZZ_CHECK(I < U.NumCells, "cell %" PRIu64 " of %" PRIu64, I, U.NumCells);
      FUZZ_CHECK(First || I > Prev, "cell %" PRIu64 " after %" PRIu64, I, Prev);
      First = false;
      Prev = I;
      (void)V;
    }
    FUZZ_CHECK(U.Line >= 2 && U.Line <= lineCount(Text), "unit line %u",
               U.Line);
    R.scale(U); // the estimate multiplier of every unit
  }

  // Round trip through the canonical form.
  std::string Canon = canonical(R);
  Report Again;
  ReportError Err2;
  FUZZ_CHECK(parseReport(Canon, Again, Err2),
             "canonical form rejected at line %u: %s", Err2.Line,
             Err2.Message.c_str());
  FUZZ_CHECK(sameReport(R, Again), "canonical form reads back differently");
  FUZZ_CHECK(canonical(Again) == Canon, "canonical form is not a fixed point");
  return 0;
}

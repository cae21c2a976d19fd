//===- feedback_fuzzer.cpp - libFuzzer target for the feedback reader -----===//
//
// Feeds arbitrary bytes to sampler::parseFeedback (tools/common/Feedback.cpp,
// docs/report-format.md, "Feedback files") and checks, besides the
// sanitizers' findings:
//  - a rejected file gets one short printable line naming a line of the
//    input (1 .. lines + 1);
//  - an accepted file obeys the format: signatures distinct, every unit's
//    cells non-zero, strictly ascending and below its cell count;
//  - written back, it reads back the same, and its text is a fixed point;
//  - merged with itself, every cell and the run count double (saturating),
//    as sampler-report --merge would sum them.
//
// Built with clang++-19 -fsanitize=fuzzer,address,undefined from
// test/fuzz/CMakeLists.txt; run by test/fuzz/run.sh (ctest fuzz-report).
//
//===----------------------------------------------------------------------===//

#include "FuzzCheck.h"

#include "Feedback.h"

#include <cinttypes>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

using namespace sampler;
using namespace sampler_fuzz;

namespace {

uint64_t doubled(uint64_t V) {
  return V > std::numeric_limits<uint64_t>::max() / 2
             ? std::numeric_limits<uint64_t>::max()
             : 2 * V;
}

bool sameFeedback(const Feedback &A, const Feedback &B) {
  if (A.runs() != B.runs() || A.units().size() != B.units().size())
    return false;
  for (size_t I = 0; I < A.units().size(); ++I) {
    const FeedbackUnit &X = A.units()[I], &Y = B.units()[I];
    if (X.Sig != Y.Sig || X.NumCells != Y.NumCells || X.Name != Y.Name ||
        X.Counts != Y.Counts)
      return false;
  }
  return true;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  std::string_view Text(reinterpret_cast<const char *>(Data), Size);
  Feedback F;
  ReportError Err;
  if (!parseFeedback(Text, F, Err)) {
    FUZZ_CHECK(isCleanMessage(Err.Message, 200), "message '%s'",
               Err.Message.c_str());
    FUZZ_CHECK(Err.Line >= 1 && Err.Line <= lineCount(Text) + 1,
               "line %u of %zu", Err.Line, lineCount(Text));
    return 0;
  }
  for (const FeedbackUnit &U : F.units()) {
    FUZZ_CHECK(F.find(U.Sig) == &U, "unit %s found elsewhere", U.Sig.hex().c_str());
    bool First = true;
    uint64_t Prev = 0;
    for (const auto &[I, V] : U.Counts) {
      FUZZ_CHECK(I < U.NumCells, "cell %" PRIu64 " of %" PRIu64, I, U.NumCells);
      FUZZ_CHECK(First || I > Prev, "cell %" PRIu64 " after %" PRIu64, I, Prev);
      FUZZ_CHECK(V != 0, "zero cell %" PRIu64 " kept", I);
      FUZZ_CHECK(U.cell(I) == V, "cell %" PRIu64 " looked up wrong", I);
      First = false;
      Prev = I;
    }
  }

  // Round trip through the written form.
  std::string Written = F.write();
  Feedback Again;
  ReportError Err2;
  FUZZ_CHECK(parseFeedback(Written, Again, Err2),
             "written form rejected at line %u: %s", Err2.Line,
             Err2.Message.c_str());
  FUZZ_CHECK(sameFeedback(F, Again), "written form reads back differently");
  FUZZ_CHECK(Again.write() == Written, "written form is not a fixed point");

  // Merged with itself: every sum doubles.
  Feedback Sum;
  std::string Msg;
  FUZZ_CHECK(Sum.add(F, Msg) && Sum.add(Again, Msg), "merge refused: %s",
             Msg.c_str());
  FUZZ_CHECK(Sum.runs() == doubled(F.runs()), "runs %" PRIu64, Sum.runs());
  for (const FeedbackUnit &U : F.units()) {
    const FeedbackUnit *S = Sum.find(U.Sig);
    FUZZ_CHECK(S && S->Counts.size() == U.Counts.size(), "unit %s lost cells",
               U.Sig.hex().c_str());
    for (size_t K = 0; K < U.Counts.size(); ++K)
      FUZZ_CHECK(S->Counts[K].first == U.Counts[K].first &&
                     S->Counts[K].second == doubled(U.Counts[K].second),
                 "cell %" PRIu64 " not doubled", U.Counts[K].first);
  }
  return 0;
}

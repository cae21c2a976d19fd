//===- site_table_fuzzer.cpp - libFuzzer target for the site-table reader -===//
//
// Feeds arbitrary bytes, as the contents of a `.sampler_sites` section, to
// sampler::parseSiteSection (tools/common/SiteTable.cpp, docs/internals.md
// §2) and checks, besides the sanitizers' findings:
//  - a rejected table gets one short printable line;
//  - an accepted table obeys §2: sites in counter order, inside the unit's
//    counters, with the cell count of their scheme;
//  - what the tools derive from a site works on any accepted site and needs
//    no memory proportional to the cells it claims: cell labels (a switch's
//    come from its description), the six predicates of comparison sites,
//    the location;
//  - every accepted unit, written back as a record, reads back the same.
//
// Built with clang++-19 -fsanitize=fuzzer,address,undefined from
// test/fuzz/CMakeLists.txt; run by test/fuzz/run.sh (ctest fuzz-report).
//
//===----------------------------------------------------------------------===//

#include "FuzzCheck.h"

#include "Escape.h"
#include "SiteTable.h"

#include <cinttypes>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

using namespace sampler;
using namespace sampler_fuzz;

namespace {

std::string record(const Unit &U) {
  std::string S = "SAMPLER-SITES 1\nunit " + U.Sig.hex() + " " +
                  std::to_string(U.NumCounters) + " " + std::to_string(U.Flags) +
                  "\nsource " + escapeField(U.Source) + "\n";
  for (const Site &T : U.Sites)
    S += "site " + std::to_string(T.Offset) + "\t" + std::to_string(T.NumCells) +
         "\t" + T.Scheme + "\t" + escapeField(T.File) + "\t" +
         std::to_string(T.Line) + "\t" + std::to_string(T.Column) + "\t" +
         escapeField(T.Function) + "\t" + escapeField(T.Description) + "\n";
  return S + "end\n";
}

bool sameSite(const Site &A, const Site &B) {
  return A.Offset == B.Offset && A.NumCells == B.NumCells &&
         A.Scheme == B.Scheme && A.File == B.File && A.Line == B.Line &&
         A.Column == B.Column && A.Function == B.Function &&
         A.Description == B.Description;
}

void checkSite(const Unit &U, const Site &S) {
  FUZZ_CHECK(S.NumCells >= 1, "site with no cells");
  FUZZ_CHECK(S.NumCells <= U.NumCounters &&
                 S.Offset <= U.NumCounters - S.NumCells,
             "site %" PRIu64 "+%" PRIu64 " beyond %" PRIu64, S.Offset,
             S.NumCells, U.NumCounters);
  if (uint64_t Want = schemeCells(S.Scheme))
    FUZZ_CHECK(S.NumCells == Want, "%s site with %" PRIu64 " cells",
               S.Scheme.c_str(), S.NumCells);
  if (S.Scheme == "branches")
    FUZZ_CHECK(S.NumCells >= 2, "branches site with %" PRIu64 " cells",
               S.NumCells);

  // Labels, one cell at a time: the first cells and the last.
  CellLabels L(S);
  FUZZ_CHECK(L.size() == S.NumCells, "labels for %" PRIu64 " cells", L.size());
  for (uint64_t I = 0; I < S.NumCells && I < 64; ++I)
    FUZZ_CHECK(!L[I].empty(), "empty label of cell %" PRIu64, I);
  FUZZ_CHECK(!L[S.NumCells - 1].empty(), "empty label of the last cell");

  std::vector<Predicate> P = sitePredicates(S);
  FUZZ_CHECK(P.size() == (isComparisonSite(S) ? 6u : 0u), "%zu predicates",
             P.size());
  for (const Predicate &Q : P)
    FUZZ_CHECK(Q.Cells >= 1 && Q.Cells <= 6,
               "predicate cells %u", Q.Cells);

  (void)cellsAreValues(S);
  (void)isSwitchSite(S);
  std::string Loc = siteLocation(S, U);
  FUZZ_CHECK(Loc.find('\n') == std::string::npos, "location spans lines");
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  std::string_view Section(reinterpret_cast<const char *>(Data), Size);
  std::vector<Unit> Units;
  std::string Err;
  if (!parseSiteSection(Section, Units, Err)) {
    FUZZ_CHECK(isCleanMessage(Err, 300), "message '%s'", Err.c_str());
    return 0;
  }
  for (const Unit &U : Units) {
    uint64_t NextFree = 0;
    for (const Site &S : U.Sites) {
      FUZZ_CHECK(S.Offset >= NextFree, "sites out of order");
      NextFree = S.Offset + S.NumCells;
      checkSite(U, S);
    }

    std::string Rec = record(U);
    Unit Again;
    unsigned Line;
    std::string Err2;
    FUZZ_CHECK(parseSiteRecord(Rec, Again, Line, Err2),
               "written record rejected at line %u: %s", Line, Err2.c_str());
    FUZZ_CHECK(Again.Sig == U.Sig && Again.NumCounters == U.NumCounters &&
                   Again.Flags == U.Flags && Again.Source == U.Source &&
                   Again.Sites.size() == U.Sites.size(),
               "written record reads back differently");
    for (size_t I = 0; I < U.Sites.size(); ++I)
      FUZZ_CHECK(sameSite(U.Sites[I], Again.Sites[I]),
                 "site %zu reads back differently", I);
  }

  // The index over them (what sampler-report builds).
  SiteTable T;
  T.Units = std::move(Units);
  SiteIndex Index;
  Index.add(T);
  for (const Unit &U : T.Units)
    FUZZ_CHECK(Index.find(U.Sig) != nullptr, "unit not in the index");
  return 0;
}

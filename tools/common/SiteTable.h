//===- SiteTable.h - reading the .sampler_sites section ---------*- C++ -*-===//
//
// The site table is the compiler's description of every instrumentation site
// of a compilation unit, stored in the section `.sampler_sites` of every
// object file and concatenated by the linker (docs/internals.md §2):
//
//   SAMPLER-SITES 1
//   unit <signature: 32 lowercase hex> <num_counters> <flags>
//   source <main source file of the unit>
//   site <offset>\t<ncounters>\t<scheme>\t<file>\t<line>\t<column>\t<function>\t<description>
//   ...
//   end
//
// Records are separated by NUL bytes (and padded with them).
//
// Parsing (SiteTable.cpp) depends on the C++ standard library only; finding
// the section in an ELF file (SiteTableELF.cpp) uses libLLVM.
//
//===----------------------------------------------------------------------===//
#ifndef SAMPLER_TOOLS_SITETABLE_H
#define SAMPLER_TOOLS_SITETABLE_H

#include "Escape.h"
#include "Signature.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace sampler {

inline constexpr const char *SiteSectionName = ".sampler_sites";
inline constexpr unsigned SiteTableVersion = 1;

struct Site {
  uint64_t Offset = 0;    // first cell in the unit's counter vector
  uint64_t NumCells = 0;  // cells Offset .. Offset+NumCells-1
  std::string Scheme;     // "branches", "returns", ...
  std::string File;       // unescaped
  uint32_t Line = 0;      // 0: unknown
  uint32_t Column = 0;    // 0: unknown
  std::string Function;   // unescaped
  std::string Description; // unescaped
};

struct Unit {
  Signature Sig;
  uint64_t NumCounters = 0;
  uint32_t Flags = 0;
  std::string Source;  // unescaped
  std::vector<Site> Sites;

  bool sampled() const { return Flags & 1; }
};

/// The site table of one ELF file: the records of all its units.
struct SiteTable {
  std::string Path;
  std::vector<Unit> Units;
};

/// Parses one record (the text between two NULs). On failure returns false,
/// sets Line to the 1-based line of the record at fault and Err to the problem.
bool parseSiteRecord(std::string_view Record, Unit &Out, unsigned &Line,
                     std::string &Err);

/// Parses the contents of one `.sampler_sites` section: splits at NULs,
/// ignores empty pieces, parses each piece as a record and appends the units.
/// On failure Err says which record (1-based, with its byte offset in the
/// section) and line.
bool parseSiteSection(std::string_view Data, std::vector<Unit> &Out,
                      std::string &Err);

enum class LoadResult {
  Ok,        // Table filled
  NoTable,   // a readable ELF file without a .sampler_sites section
  Error,     // unreadable, not ELF, or a corrupt table: Err says why
};

/// Reads the site table of an ELF object file, executable or shared library
/// (SiteTableELF.cpp: the only part of the readers that needs libLLVM).
LoadResult loadSiteTable(const std::string &Path, SiteTable &Table,
                         std::string &Err);

/// Signature -> unit over the tables of several binaries (the program and its
/// shared libraries). The first table holding a signature wins.
class SiteIndex {
public:
  struct Entry {
    const SiteTable *Table;
    const Unit *U;
  };
  void add(const SiteTable &T);
  const Entry *find(const Signature &S) const {
    auto It = Map.find(S);
    return It == Map.end() ? nullptr : &It->second;
  }

private:
  std::unordered_map<Signature, Entry, SignatureHash> Map;
};

/// The scheme names of docs/internals.md §2 and the number of cells their
/// sites have: 0 for `branches` (2, or cases + 1 for a switch) and for a
/// scheme the tools do not know (any number).
uint64_t schemeCells(std::string_view Scheme);

/// What each cell of a site counts (docs/internals.md §2), computed one cell
/// at a time: a site may claim any number of cells, and the labels of a
/// switch come from its description, so nothing proportional to the number of
/// cells is built.
///   branches, 2 cells        false, true
///   branches, switch site    default, case V... (case values from the
///                            description's "; cases: v1,v2,..." suffix, which
///                            the pass writes, else its last integer literals;
///                            "cell k" when it lists none)
///   returns                  <0, ==0, >0 (the value returned)
///   scalar-pairs             less, equal, greater (the value assigned, compared
///                            with the other variable)
///   float-kinds              -inf, -normal, -denormal, -0, +0, +denormal,
///                            +normal, +inf, NaN
///   bounds                   min, max (values, see cellsAreValues)
///   function-entries         calls
///   checks                   sampled, failed
///   anything else            cell 0, cell 1, ...
class CellLabels {
public:
  explicit CellLabels(const Site &S);
  uint64_t size() const { return NumCells; }
  /// The label of cell I (0 <= I < size()) of the site.
  std::string operator[](uint64_t I) const;

private:
  uint64_t NumCells;
  const char *const *Fixed = nullptr; // labels of a fixed-size site
  bool Switch = false;                // default, then "case " + Cases[k]
  std::vector<std::string> Cases;
};

/// True when a site's cells hold values rather than counts: the `bounds`
/// scheme's [smallest, largest] signed 64-bit value assigned, which start at
/// [INT64_MAX, INT64_MIN] ("never observed"). Estimates do not apply.
bool cellsAreValues(const Site &S);

/// The `bounds` cells [min, max] as the runtime leaves them when the site was
/// never reached: [INT64_MAX, INT64_MIN]. Any other pair was observed (a
/// report omits zero cells: both missing is [0, 0], the value 0 observed).
inline bool boundsNeverObserved(int64_t Min, int64_t Max) {
  return Min == INT64_MAX && Max == INT64_MIN;
}

/// True for a `branches` site that is a switch: more than 2 cells, or a
/// description listing cases ("...; cases: 1,7") or starting with "switch".
bool isSwitchSite(const Site &S);

/// True for a three-cell comparison site, [<, ==, >]: `returns` (the value
/// returned against 0) and `scalar-pairs` (the value assigned against another
/// variable). Such a site stands for six predicates.
bool isComparisonSite(const Site &S);

/// One of the six predicates of a comparison site (docs/internals.md §2).
struct Predicate {
  std::string Text; // in source terms: "fopen(...) <= 0", "n != max_len"
  unsigned Cells;   // bit k set: cell Offset + k counts toward it
};

/// The predicates a site stands for, in the order <, <=, ==, !=, >, >=:
///   <  = c0      <= = c0 + c1    == = c1
///   != = c0 + c2  > = c2         >= = c1 + c2
/// For `returns` with description D: "D < 0" ...; for `scalar-pairs` with
/// description "L <=> R": "L < R" ... (split at the last " <=> "; "D: <" ...
/// if there is none). Empty for every other site: its cells are its
/// predicates.
std::vector<Predicate> sitePredicates(const Site &S);

/// "file:line:col", "file:line" when the column is unknown, "file" when the
/// line is unknown; the unit's source stands in for an empty file name.
std::string siteLocation(const Site &S, const Unit &U);

} // namespace sampler

#endif

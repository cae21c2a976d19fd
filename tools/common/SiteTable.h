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

/// Reads the site table of an ELF object file, executable or shared library.
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

/// What each cell of a site counts, by scheme (docs/internals.md §2):
///   branches, 2 cells        false, true
///   branches, switch site    default, case V... (case values from the
///                            description's "; cases: v1,v2,..." suffix, which
///                            the pass writes, else its last integer literals;
///                            "cell k" when it lists none)
///   returns                  <0, ==0, >0
/// and, for the schemes being added to the pass (lib/*Scheme.cpp), when the
/// site has the expected number of cells:
///   scalar-pairs (3)         less, equal, greater
///   float-kinds (9)          -inf, -normal, -denormal, -0, +0, +denormal,
///                            +normal, +inf, NaN
///   function-entries (1)     calls
///   checks (2)               sampled, failed
///   bounds (2)               min, max (values, see cellsAreValues)
///   anything else            cell 0, cell 1, ...
std::vector<std::string> cellLabels(const Site &S);

/// True when a site's cells hold values rather than counts: the `bounds`
/// scheme's [smallest, largest] signed 64-bit value assigned, which start at
/// [INT64_MAX, INT64_MIN] ("never observed"). Estimates do not apply.
bool cellsAreValues(const Site &S);

/// True for a `branches` site that is a switch: more than 2 cells, or a
/// description listing cases ("...; cases: 1,7") or starting with "switch".
bool isSwitchSite(const Site &S);

/// "file:line:col", "file:line" when the column is unknown, "file" when the
/// line is unknown; the unit's source stands in for an empty file name.
std::string siteLocation(const Site &S, const Unit &U);

} // namespace sampler

#endif

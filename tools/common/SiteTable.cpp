//===- SiteTable.cpp - reading the .sampler_sites section -----------------===//

#include "SiteTable.h"
#include "Numbers.h"

#include <cctype>
#include <cstring>

using namespace sampler;

namespace {

/// Splits S at every Sep into exactly N fields; false if the count differs.
bool splitExact(std::string_view S, char Sep, std::string_view *Fields,
                size_t N) {
  size_t I = 0;
  while (true) {
    size_t P = S.find(Sep);
    if (I == N)
      return false;
    if (P == std::string_view::npos) {
      Fields[I++] = S;
      return I == N;
    }
    Fields[I++] = S.substr(0, P);
    S.remove_prefix(P + 1);
  }
}

bool startsWith(std::string_view S, std::string_view P) {
  return S.substr(0, P.size()) == P;
}

} // namespace

bool sampler::parseSiteRecord(std::string_view Rec, Unit &U, unsigned &LineNo,
                              std::string &Err) {
  U = Unit();
  LineNo = 0;
  enum { Magic, UnitLine, Source, Sites, Done } State = Magic;
  uint64_t NextFree = 0; // first cell not used by an earlier site
  while (!Rec.empty()) {
    ++LineNo;
    size_t NL = Rec.find('\n');
    if (NL == std::string_view::npos) {
      Err = "line not terminated by a newline (truncated record?)";
      return false;
    }
    std::string_view L = Rec.substr(0, NL);
    Rec.remove_prefix(NL + 1);

    switch (State) {
    case Magic: {
      if (L == "SAMPLER-SITES 1") {
        State = UnitLine;
        break;
      }
      if (startsWith(L, "SAMPLER-SITES ")) {
        Err = "unsupported site table version '" +
              excerpt(L.substr(14)) + "' (this reader knows version 1)";
        return false;
      }
      Err = "bad magic: expected 'SAMPLER-SITES 1'";
      return false;
    }
    case UnitLine: {
      std::string_view F[4];
      if (!splitExact(L, ' ', F, 4) || F[0] != "unit") {
        Err = "expected 'unit <signature> <num_counters> <flags>'";
        return false;
      }
      if (!Signature::parse(F[1], U.Sig)) {
        Err = "malformed signature '" + excerpt(F[1]) +
              "' (expected 32 lowercase hex digits)";
        return false;
      }
      if (!parseUnsigned(F[2], U.NumCounters)) {
        Err = "malformed number of counters '" + excerpt(F[2]) + "'";
        return false;
      }
      if (!parseUnsigned32(F[3], U.Flags)) {
        Err = "malformed flags '" + excerpt(F[3]) + "'";
        return false;
      }
      State = Source;
      break;
    }
    case Source: {
      if (!startsWith(L, "source ")) {
        Err = "expected 'source <file>'";
        return false;
      }
      if (!unescapeField(L.substr(7), U.Source)) {
        Err = "bad escape in source name";
        return false;
      }
      State = Sites;
      break;
    }
    case Sites: {
      if (L == "end") {
        State = Done;
        break;
      }
      if (!startsWith(L, "site ")) {
        Err = "expected 'site ...' or 'end'";
        return false;
      }
      std::string_view F[8];
      if (!splitExact(L.substr(5), '\t', F, 8)) {
        Err = "malformed site line: expected 8 TAB-separated fields";
        return false;
      }
      Site S;
      if (!parseUnsigned(F[0], S.Offset)) {
        Err = "malformed site offset '" + excerpt(F[0]) + "'";
        return false;
      }
      if (!parseUnsigned(F[1], S.NumCells) || S.NumCells == 0) {
        Err = "malformed site cell count '" + excerpt(F[1]) + "'";
        return false;
      }
      if (F[2].empty()) {
        Err = "empty scheme name";
        return false;
      }
      S.Scheme = std::string(F[2]);
      if (!unescapeField(F[3], S.File)) {
        Err = "bad escape in file name";
        return false;
      }
      if (!parseUnsigned32(F[4], S.Line)) {
        Err = "malformed line number '" + excerpt(F[4]) + "'";
        return false;
      }
      if (!parseUnsigned32(F[5], S.Column)) {
        Err = "malformed column number '" + excerpt(F[5]) + "'";
        return false;
      }
      if (!unescapeField(F[6], S.Function)) {
        Err = "bad escape in function name";
        return false;
      }
      if (!unescapeField(F[7], S.Description)) {
        Err = "bad escape in description";
        return false;
      }
      if (S.Offset < NextFree) {
        Err = "site at cell " + std::to_string(S.Offset) +
              " overlaps the previous site (sites must be in counter order)";
        return false;
      }
      if (S.NumCells > U.NumCounters || S.Offset > U.NumCounters - S.NumCells) {
        Err = "site cells " + std::to_string(S.Offset) + ".." +
              toDecimal((unsigned __int128)S.Offset + S.NumCells - 1) +
              " beyond the unit's " + std::to_string(U.NumCounters) +
              " counters";
        return false;
      }
      if (S.Scheme == "branches" && S.NumCells < 2) {
        Err = "a branches site needs at least 2 cells";
        return false;
      }
      if (uint64_t Want = schemeCells(S.Scheme); Want && S.NumCells != Want) {
        Err = "a " + S.Scheme + " site has exactly " + std::to_string(Want) +
              (Want == 1 ? " cell" : " cells") + ", not " +
              std::to_string(S.NumCells);
        return false;
      }
      NextFree = S.Offset + S.NumCells;
      U.Sites.push_back(std::move(S));
      break;
    }
    case Done:
      Err = "text after 'end'";
      return false;
    }
  }
  if (State != Done) {
    ++LineNo;
    Err = State == Magic ? "empty record" : "missing 'end' line (truncated record?)";
    return false;
  }
  return true;
}

bool sampler::parseSiteSection(std::string_view Data, std::vector<Unit> &Out,
                               std::string &Err) {
  size_t Pos = 0;
  unsigned RecordNo = 0;
  while (Pos < Data.size()) {
    if (Data[Pos] == '\0') { // padding between (or after) records
      ++Pos;
      continue;
    }
    const void *NulP = std::memchr(Data.data() + Pos, 0, Data.size() - Pos);
    size_t End = NulP ? size_t(static_cast<const char *>(NulP) - Data.data())
                      : Data.size();
    ++RecordNo;
    Unit U;
    unsigned Line;
    std::string E;
    if (!parseSiteRecord(Data.substr(Pos, End - Pos), U, Line, E)) {
      Err = "record " + std::to_string(RecordNo) + " (section offset " +
            std::to_string(Pos) + "), line " + std::to_string(Line) + ": " + E;
      return false;
    }
    Out.push_back(std::move(U));
    Pos = End;
  }
  return true;
}

void SiteIndex::add(const SiteTable &T) {
  for (const Unit &U : T.Units)
    Map.emplace(U.Sig, Entry{&T, &U});
}

static constexpr std::string_view CasesMarker = "; cases: ";

namespace {
// Cell labels of the fixed-size schemes (docs/internals.md §2).
const char *const BranchLabels[] = {"false", "true"};
const char *const ReturnsLabels[] = {"<0", "==0", ">0"};
const char *const PairLabels[] = {"less", "equal", "greater"};
const char *const FloatLabels[] = {"-inf",      "-normal", "-denormal",
                                   "-0",        "+0",      "+denormal",
                                   "+normal",   "+inf",    "NaN"};
const char *const BoundsLabels[] = {"min", "max"};
const char *const EntryLabels[] = {"calls"};
const char *const CheckLabels[] = {"sampled", "failed"};

struct FixedScheme {
  std::string_view Name;
  uint64_t Cells;
  const char *const *Labels;
};
const FixedScheme FixedSchemes[] = {
    {"returns", 3, ReturnsLabels},     {"scalar-pairs", 3, PairLabels},
    {"float-kinds", 9, FloatLabels},   {"bounds", 2, BoundsLabels},
    {"function-entries", 1, EntryLabels}, {"checks", 2, CheckLabels},
};

const FixedScheme *fixedScheme(std::string_view Name) {
  for (const FixedScheme &F : FixedSchemes)
    if (F.Name == Name)
      return &F;
  return nullptr;
}

bool isIdentChar(char C) {
  return std::isalnum((unsigned char)C) || C == '_' || C == '%' || C == '@' ||
         C == '$' || C == '.';
}

/// The integer literals of a description, in order, as written (without
/// C suffixes u/l). A literal glued to an identifier ("i32", "x1") is not one.
std::vector<std::string> integerLiterals(std::string_view D) {
  std::vector<std::string> Out;
  size_t I = 0, N = D.size();
  while (I < N) {
    char C = D[I];
    bool Neg = C == '-' && I + 1 < N && std::isdigit((unsigned char)D[I + 1]);
    if (!(std::isdigit((unsigned char)C) || Neg) ||
        (I > 0 && isIdentChar(D[I - 1]))) {
      ++I;
      continue;
    }
    size_t Start = I;
    if (Neg)
      ++I;
    if (D[I] == '0' && I + 1 < N && (D[I + 1] == 'x' || D[I + 1] == 'X')) {
      I += 2;
      while (I < N && std::isxdigit((unsigned char)D[I]))
        ++I;
    } else {
      while (I < N && std::isdigit((unsigned char)D[I]))
        ++I;
    }
    size_t LitEnd = I;
    while (I < N && (D[I] == 'u' || D[I] == 'U' || D[I] == 'l' || D[I] == 'L'))
      ++I;
    if (I < N && isIdentChar(D[I]) && D[I] != '.') {
      // part of a longer token such as 12abc: skip it
      while (I < N && isIdentChar(D[I]))
        ++I;
      continue;
    }
    Out.emplace_back(D.substr(Start, LitEnd - Start));
  }
  return Out;
}

/// The case values of a switch site with Cases cases: from the description's
/// "; cases: v1,...,vn" suffix (what the pass writes), else its last Cases
/// integer literals. False if it lists fewer.
bool switchCases(std::string_view D, uint64_t Cases,
                 std::vector<std::string> &Out) {
  Out.clear();
  size_t M = D.rfind(CasesMarker);
  if (M != std::string_view::npos) {
    std::string_view List = D.substr(M + CasesMarker.size());
    bool Ok = true;
    while (Ok && Out.size() <= Cases) {
      size_t Comma = List.find(',');
      std::string_view V = List.substr(0, Comma);
      while (!V.empty() && V.front() == ' ')
        V.remove_prefix(1);
      int64_t Dummy;
      Ok = parseSigned(V, Dummy);
      if (Ok)
        Out.emplace_back(V);
      if (Comma == std::string_view::npos)
        break;
      List.remove_prefix(Comma + 1);
    }
    if (Ok && Out.size() == Cases)
      return true;
    Out.clear();
  }
  std::vector<std::string> Lits = integerLiterals(D);
  if (Lits.size() < Cases)
    return false;
  Out.assign(Lits.end() - std::ptrdiff_t(Cases), Lits.end());
  return true;
}
} // namespace

uint64_t sampler::schemeCells(std::string_view Scheme) {
  const FixedScheme *F = fixedScheme(Scheme);
  return F ? F->Cells : 0;
}

bool sampler::isSwitchSite(const Site &S) {
  return S.Scheme == "branches" &&
         (S.NumCells != 2 ||
          S.Description.find(CasesMarker) != std::string::npos ||
          startsWith(S.Description, "switch"));
}

bool sampler::cellsAreValues(const Site &S) {
  return S.Scheme == "bounds" && S.NumCells == 2;
}

bool sampler::isComparisonSite(const Site &S) {
  return (S.Scheme == "returns" || S.Scheme == "scalar-pairs") &&
         S.NumCells == 3;
}

CellLabels::CellLabels(const Site &S) : NumCells(S.NumCells) {
  if (S.Scheme == "branches") {
    if (!isSwitchSite(S)) {
      Fixed = BranchLabels;
      return;
    }
    // cells [default, case 1, ..., case n]
    Switch = switchCases(S.Description, S.NumCells - 1, Cases);
    return;
  }
  if (const FixedScheme *F = fixedScheme(S.Scheme))
    if (S.NumCells == F->Cells)
      Fixed = F->Labels;
}

std::string CellLabels::operator[](uint64_t I) const {
  if (Fixed)
    return Fixed[I];
  if (Switch)
    return I == 0 ? std::string("default") : "case " + Cases[I - 1];
  return "cell " + std::to_string(I);
}

std::vector<Predicate> sampler::sitePredicates(const Site &S) {
  if (!isComparisonSite(S))
    return {};
  // The two sides: the value and what it is compared with.
  std::string Left, Right;
  bool Sides = true;
  if (S.Scheme == "returns") {
    Left = S.Description;
    Right = "0";
  } else {
    static constexpr std::string_view Sep = " <=> ";
    size_t P = S.Description.rfind(Sep);
    if (P == std::string::npos) {
      Sides = false;
    } else {
      Left = S.Description.substr(0, P);
      Right = S.Description.substr(P + Sep.size());
    }
  }
  static const struct {
    const char *Op;
    unsigned Cells;
  } Ops[] = {{"<", 1}, {"<=", 3}, {"==", 2}, {"!=", 5}, {">", 4}, {">=", 6}};
  std::vector<Predicate> Out;
  Out.reserve(6);
  for (const auto &O : Ops)
    Out.push_back({Sides ? Left + " " + O.Op + " " + Right
                         : S.Description + ": " + O.Op,
                   O.Cells});
  return Out;
}

std::string sampler::siteLocation(const Site &S, const Unit &U) {
  std::string Loc = escapeField(S.File.empty() ? U.Source : S.File);
  if (S.Line) {
    Loc += ':' + std::to_string(S.Line);
    if (S.Column)
      Loc += ':' + std::to_string(S.Column);
  }
  return Loc;
}

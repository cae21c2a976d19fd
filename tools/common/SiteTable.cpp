//===- SiteTable.cpp - reading the .sampler_sites section -----------------===//

#include "SiteTable.h"
#include "Numbers.h"

#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Object/ObjectFile.h"
#include "llvm/Support/Error.h"

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
              std::string(L.substr(14)) + "' (this reader knows version 1)";
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
        Err = "malformed signature '" + std::string(F[1]) +
              "' (expected 32 lowercase hex digits)";
        return false;
      }
      if (!parseUnsigned(F[2], U.NumCounters)) {
        Err = "malformed number of counters '" + std::string(F[2]) + "'";
        return false;
      }
      if (!parseUnsigned32(F[3], U.Flags)) {
        Err = "malformed flags '" + std::string(F[3]) + "'";
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
        Err = "malformed site offset '" + std::string(F[0]) + "'";
        return false;
      }
      if (!parseUnsigned(F[1], S.NumCells) || S.NumCells == 0) {
        Err = "malformed site cell count '" + std::string(F[1]) + "'";
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
        Err = "malformed line number '" + std::string(F[4]) + "'";
        return false;
      }
      if (!parseUnsigned32(F[5], S.Column)) {
        Err = "malformed column number '" + std::string(F[5]) + "'";
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
      if (S.Scheme == "returns" && S.NumCells != 3) {
        Err = "a returns site has exactly 3 cells";
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

LoadResult sampler::loadSiteTable(const std::string &Path, SiteTable &Table,
                                  std::string &Err) {
  using namespace llvm;
  using namespace llvm::object;
  Table = SiteTable();
  Table.Path = Path;
  Expected<OwningBinary<ObjectFile>> ObjOrErr =
      ObjectFile::createObjectFile(Path);
  if (!ObjOrErr) {
    Err = toString(ObjOrErr.takeError());
    return LoadResult::Error;
  }
  const ObjectFile &Obj = *ObjOrErr->getBinary();
  if (!isa<ELFObjectFileBase>(&Obj)) {
    Err = "not an ELF file";
    return LoadResult::Error;
  }
  bool Found = false;
  for (const SectionRef &Sec : Obj.sections()) {
    Expected<StringRef> Name = Sec.getName();
    if (!Name) {
      consumeError(Name.takeError());
      continue;
    }
    if (*Name != SiteSectionName)
      continue;
    Found = true;
    Expected<StringRef> Contents = Sec.getContents();
    if (!Contents) {
      Err = "cannot read section " + std::string(SiteSectionName) + ": " +
            toString(Contents.takeError());
      return LoadResult::Error;
    }
    std::string E;
    // An object file may hold several sections of that name (one per group);
    // each is a sequence of whole records.
    if (!parseSiteSection(std::string_view(Contents->data(), Contents->size()),
                          Table.Units, E)) {
      Err = "corrupt site table: " + E;
      return LoadResult::Error;
    }
  }
  return Found ? LoadResult::Ok : LoadResult::NoTable;
}

void SiteIndex::add(const SiteTable &T) {
  for (const Unit &U : T.Units)
    Map.emplace(U.Sig, Entry{&T, &U});
}

static constexpr std::string_view CasesMarker = "; cases: ";

bool sampler::isSwitchSite(const Site &S) {
  return S.Scheme == "branches" &&
         (S.NumCells != 2 ||
          S.Description.find(CasesMarker) != std::string::npos ||
          startsWith(S.Description, "switch"));
}

namespace {
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
} // namespace

bool sampler::cellsAreValues(const Site &S) {
  return S.Scheme == "bounds" && S.NumCells == 2;
}

std::vector<std::string> sampler::cellLabels(const Site &S) {
  std::vector<std::string> L;
  if (S.Scheme == "branches" && !isSwitchSite(S))
    return {"false", "true"};
  if (S.Scheme == "returns")
    return {"<0", "==0", ">0"};
  static const struct {
    const char *Scheme;
    std::vector<std::string> Labels;
  } Fixed[] = {
      {"scalar-pairs", {"less", "equal", "greater"}},
      {"float-kinds",
       {"-inf", "-normal", "-denormal", "-0", "+0", "+denormal", "+normal",
        "+inf", "NaN"}},
      {"function-entries", {"calls"}},
      {"checks", {"sampled", "failed"}},
      {"bounds", {"min", "max"}},
  };
  for (const auto &F : Fixed)
    if (S.Scheme == F.Scheme && S.NumCells == F.Labels.size())
      return F.Labels;
  if (isSwitchSite(S)) {
    // cells [default, case 1, ..., case n]. The pass ends the description
    // with "; cases: v1,v2,...,vn"; otherwise take its last n integer literals.
    uint64_t Cases = S.NumCells - 1;
    size_t M = S.Description.rfind(CasesMarker);
    if (M != std::string::npos) {
      std::string_view List(S.Description);
      List.remove_prefix(M + CasesMarker.size());
      std::vector<std::string> Vals;
      bool Ok = true;
      while (Ok) {
        size_t Comma = List.find(',');
        std::string_view V = List.substr(0, Comma);
        while (!V.empty() && V.front() == ' ')
          V.remove_prefix(1);
        int64_t Dummy;
        Ok = parseSigned(V, Dummy);
        if (Ok)
          Vals.emplace_back(V);
        if (Comma == std::string_view::npos)
          break;
        List.remove_prefix(Comma + 1);
      }
      if (Ok && Vals.size() == Cases) {
        L.push_back("default");
        for (const std::string &V : Vals)
          L.push_back("case " + V);
        return L;
      }
    }
    std::vector<std::string> Lits = integerLiterals(S.Description);
    if (Lits.size() >= Cases) {
      L.push_back("default");
      for (size_t I = Lits.size() - Cases; I < Lits.size(); ++I)
        L.push_back("case " + Lits[I]);
      return L;
    }
  }
  for (uint64_t I = 0; I < S.NumCells; ++I)
    L.push_back("cell " + std::to_string(I));
  return L;
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

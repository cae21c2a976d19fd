//===- Report.cpp - reading a per-run report ------------------------------===//

#include "Report.h"
#include "Escape.h"
#include "Numbers.h"

#include <cstring>

using namespace sampler;

namespace {

/// Splits off the text before the next TAB (or the whole rest).
std::string_view nextField(std::string_view &Rest, bool &HadTab) {
  size_t P = Rest.find('\t');
  std::string_view F = Rest.substr(0, P);
  HadTab = P != std::string_view::npos;
  Rest = HadTab ? Rest.substr(P + 1) : std::string_view();
  return F;
}

enum HeaderBit : unsigned {
  HProgram = 1, HPid = 2, HHost = 4, HTime = 8, HEnd = 16, HSparsity = 32,
  HSeed = 64, HAll = 127
};

const char *headerName(unsigned Bit) {
  switch (Bit) {
  case HProgram: return "program";
  case HPid: return "pid";
  case HHost: return "host";
  case HTime: return "time";
  case HEnd: return "end";
  case HSparsity: return "sparsity";
  default: return "seed";
  }
}

struct Parser {
  Report &R;
  ReportError &Err;
  unsigned Line = 0;
  unsigned Seen = 0;       // header records seen
  bool InUnits = false;    // a unit record was seen
  bool WantCounts = false; // the previous line was a unit record

  bool fail(std::string Msg) {
    Err.Line = Line;
    Err.Message = std::move(Msg);
    return false;
  }

  bool header(unsigned Bit) {
    if (InUnits)
      return fail(std::string("'") + headerName(Bit) +
                  "' record after the first unit");
    if (Seen & Bit)
      return fail(std::string("duplicate '") + headerName(Bit) + "' record");
    Seen |= Bit;
    return true;
  }

  bool requireHeader(const char *What) {
    unsigned Missing = HAll & ~Seen;
    if (!Missing)
      return true;
    for (unsigned B = 1; B < HAll; B <<= 1)
      if (Missing & B)
        return fail(std::string("missing '") + headerName(B) + "' record before " +
                    What);
    return true;
  }

  bool number(std::string_view Field, uint64_t &Out, const char *What) {
    if (!parseUnsigned(Field, Out))
      return fail(std::string("malformed number '") + excerpt(Field) +
                  "' in " + What);
    return true;
  }

  bool counts(std::string_view Rest) {
    std::string Msg;
    ReportUnit &U = R.Units.back();
    return parseCountList(Rest, U.NumCells, U.Counts, Msg) || fail(std::move(Msg));
  }

  bool line(std::string_view L) {
    bool Tab;
    std::string_view Rest = L;
    std::string_view Key = nextField(Rest, Tab);

    if (WantCounts) {
      WantCounts = false;
      if (Key != "counts")
        return fail("expected the 'counts' line of the unit on line " +
                    std::to_string(R.Units.back().Line));
      return counts(Rest);
    }
    if (Key == "counts")
      return fail(R.Units.empty() ? "'counts' line before any 'unit'"
                                  : "'counts' line not right after its 'unit'");

    if (Key == "unit") {
      if (!requireHeader("the first unit"))
        return false;
      InUnits = true;
      ReportUnit U;
      U.Line = Line;
      std::string_view Sig = nextField(Rest, Tab);
      std::string_view N = Tab ? nextField(Rest, Tab) : std::string_view();
      bool HaveN = Tab;
      std::string_view F = Tab ? nextField(Rest, Tab) : std::string_view();
      if (!HaveN || !Tab)
        return fail("malformed 'unit' record (expected unit SIG N FLAGS NAME)");
      if (!Signature::parse(Sig, U.Sig))
        return fail("malformed signature '" + excerpt(Sig) +
                    "' (expected 32 lowercase hex digits)");
      if (!number(N, U.NumCells, "'unit' cell count"))
        return false;
      if (!parseUnsigned32(F, U.Flags))
        return fail("malformed number '" + excerpt(F) + "' in 'unit' flags");
      if (!unescapeField(Rest, U.Name))
        return fail("bad escape in unit name");
      R.Units.push_back(std::move(U));
      WantCounts = true;
      return true;
    }

    if (Key == "program") {
      if (!header(HProgram))
        return false;
      if (!Tab)
        return fail("malformed 'program' record");
      if (!unescapeField(Rest, R.Program))
        return fail("bad escape in 'program'");
      return true;
    }
    if (Key == "host") {
      if (!header(HHost))
        return false;
      if (!Tab)
        return fail("malformed 'host' record");
      if (!unescapeField(Rest, R.Host))
        return fail("bad escape in 'host'");
      return true;
    }
    if (Key == "pid") {
      if (!header(HPid))
        return false;
      return number(Rest, R.Pid, "'pid'");
    }
    if (Key == "time") {
      if (!header(HTime))
        return false;
      if (!parseSigned(Rest, R.Time))
        return fail("malformed number '" + excerpt(Rest) + "' in 'time'");
      return true;
    }
    if (Key == "end") {
      if (!header(HEnd))
        return false;
      std::string_view Kind = nextField(Rest, Tab);
      if (Kind == "unknown" && !Tab) {
        R.End = EndKind::Unknown;
        return true;
      }
      if (Kind == "exit" && Tab) {
        R.End = EndKind::Exit;
        if (!parseSigned(Rest, R.EndValue))
          return fail("malformed number '" + excerpt(Rest) +
                      "' in 'end' exit status");
        return true;
      }
      if (Kind == "signal" && Tab) {
        R.End = EndKind::Signal;
        uint64_t N;
        if (!number(Rest, N, "'end' signal number"))
          return false;
        if (N == 0 || N > 1024)
          return fail("signal number " + std::to_string(N) + " out of range");
        R.EndValue = int64_t(N);
        return true;
      }
      return fail("malformed 'end' record (expected 'exit S', 'signal N' or "
                  "'unknown')");
    }
    if (Key == "sparsity") {
      if (!header(HSparsity))
        return false;
      if (Rest == "off" && Tab) {
        R.SamplingOff = true;
        R.Sparsity = 1;
        return true;
      }
      if (!number(Rest, R.Sparsity, "'sparsity'"))
        return false;
      if (R.Sparsity == 0)
        return fail("sparsity must be at least 1");
      return true;
    }
    if (Key == "seed") {
      if (!header(HSeed))
        return false;
      if (!parseHex64(Rest, R.Seed))
        return fail("malformed number '" + excerpt(Rest) +
                    "' in 'seed' (expected 0x and 1 to 16 hex digits)");
      return true;
    }
    if (Key == "end-of-report")
      return fail("'end-of-report' with extra fields");
    if (Key == "sampler-report")
      return fail("'sampler-report' record not on the first line");
    if (L.empty())
      return fail("empty line");
    return fail("unknown record '" + excerpt(Key) + "'");
  }
};

} // namespace

bool sampler::parseCountList(std::string_view Rest, uint64_t NumCells,
                             std::vector<std::pair<uint64_t, uint64_t>> &Out,
                             std::string &Msg) {
  uint64_t Prev = 0;
  bool First = true;
  const char *P = Rest.data(), *E = P + Rest.size();
  while (P < E) {
    // I:V, separated by one space
    const char *Sp = static_cast<const char *>(std::memchr(P, ' ', size_t(E - P)));
    const char *TokEnd = Sp ? Sp : E;
    std::string_view Tok(P, size_t(TokEnd - P));
    size_t Colon = Tok.find(':');
    uint64_t I, V;
    if (Colon == std::string_view::npos || !parseUnsigned(Tok.substr(0, Colon), I) ||
        !parseUnsigned(Tok.substr(Colon + 1), V)) {
      Msg = "malformed number in count '" + excerpt(Tok) + "' (expected INDEX:VALUE)";
      return false;
    }
    if (I >= NumCells) {
      Msg = "cell index " + std::to_string(I) + " out of range (unit has " +
            std::to_string(NumCells) + " cells)";
      return false;
    }
    if (!First && I <= Prev) {
      Msg = "cell index " + std::to_string(I) + " not in ascending order";
      return false;
    }
    Out.emplace_back(I, V);
    Prev = I;
    First = false;
    if (!Sp)
      break;
    P = Sp + 1;
    if (P == E) {
      Msg = "trailing space in counts";
      return false;
    }
  }
  return true;
}

bool sampler::looksLikeReport(std::string_view Text) {
  constexpr std::string_view Magic = "sampler-report\t";
  return Text.substr(0, Magic.size()) == Magic;
}

bool sampler::parseReport(std::string_view Text, Report &Out, ReportError &Err) {
  Out.Program.clear();
  Out.Host.clear();
  Out.Pid = Out.Seed = 0;
  Out.Time = 0;
  Out.End = EndKind::Unknown;
  Out.EndValue = 0;
  Out.SamplingOff = false;
  Out.Sparsity = 1;
  Out.Units.clear();
  Parser P{Out, Err};

  const char *Cur = Text.data(), *End = Cur + Text.size();
  bool SawEnd = false;
  while (Cur < End) {
    const char *NL = static_cast<const char *>(std::memchr(Cur, '\n', size_t(End - Cur)));
    std::string_view L(Cur, size_t((NL ? NL : End) - Cur));
    Cur = NL ? NL + 1 : End;
    ++P.Line;

    if (SawEnd)
      return P.fail("data after 'end-of-report'");
    if (P.Line == 1) {
      if (L == "sampler-report\t1")
        continue;
      if (looksLikeReport(L))
        return P.fail("unsupported report version '" + excerpt(L.substr(15)) +
                      "' (this reader knows version 1)");
      return P.fail("bad magic: not a sampler report (expected "
                    "'sampler-report<TAB>1' on the first line)");
    }
    if (L == "end-of-report") {
      if (P.WantCounts)
        return P.fail("expected the 'counts' line of the unit on line " +
                      std::to_string(Out.Units.back().Line));
      if (!P.requireHeader("'end-of-report'"))
        return false;
      SawEnd = true;
      continue;
    }
    if (!NL) { // the last line lacks its newline: the write was cut short
      return P.fail("truncated report: last line incomplete and no "
                    "'end-of-report'");
    }
    if (!P.line(L))
      return false;
  }
  if (P.Line == 0) {
    P.Line = 1;
    return P.fail("empty file: not a sampler report");
  }
  if (!SawEnd) {
    ++P.Line;
    return P.fail("truncated report: no 'end-of-report' line");
  }
  return true;
}

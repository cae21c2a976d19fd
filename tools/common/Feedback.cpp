//===- Feedback.cpp - the counts of many runs, merged ---------------------===//

#include "Feedback.h"
#include "Escape.h"
#include "Numbers.h"

#include <algorithm>
#include <cstring>
#include <limits>

using namespace sampler;

namespace {

uint64_t saturatingAdd(uint64_t A, uint64_t B) {
  uint64_t S = A + B;
  return S < A ? std::numeric_limits<uint64_t>::max() : S;
}

uint64_t saturatingMul(uint64_t A, uint64_t B) {
  unsigned __int128 P = (unsigned __int128)A * B;
  return P > std::numeric_limits<uint64_t>::max()
             ? std::numeric_limits<uint64_t>::max()
             : uint64_t(P);
}

constexpr std::string_view Magic = "sampler-feedback\t";

} // namespace

const FeedbackUnit *Feedback::find(const Signature &S) const {
  auto It = Index.find(S);
  return It == Index.end() ? nullptr : &Units[It->second];
}

uint64_t FeedbackUnit::cell(uint64_t I) const {
  auto It = std::lower_bound(
      Counts.begin(), Counts.end(), I,
      [](const std::pair<uint64_t, uint64_t> &P, uint64_t X) { return P.first < X; });
  return It != Counts.end() && It->first == I ? It->second : 0;
}

FeedbackUnit *Feedback::unitFor(const Signature &S, uint64_t NumCells,
                                const std::string &Name, std::string &Msg) {
  auto It = Index.find(S);
  if (It == Index.end()) {
    Index.emplace(S, Units.size());
    FeedbackUnit U;
    U.Sig = S;
    U.NumCells = NumCells;
    U.Name = Name;
    Units.push_back(std::move(U));
    return &Units.back();
  }
  FeedbackUnit &U = Units[It->second];
  if (U.NumCells != NumCells) {
    Msg = "unit " + S.hex() + " (" + Name + ") has " + std::to_string(NumCells) +
          " cells here and " + std::to_string(U.NumCells) + " before";
    return nullptr;
  }
  return &U;
}

/// Adds the sorted cells \p In, each times \p Scale, into \p Into (sorted):
/// one merge of the two lists.
static void addCells(std::vector<std::pair<uint64_t, uint64_t>> &Into,
                     const std::vector<std::pair<uint64_t, uint64_t>> &In,
                     uint64_t Scale) {
  std::vector<std::pair<uint64_t, uint64_t>> Out;
  Out.reserve(Into.size() + In.size());
  auto A = Into.cbegin();
  auto B = In.cbegin();
  while (A != Into.cend() || B != In.cend()) {
    if (B == In.cend() || (A != Into.cend() && A->first < B->first)) {
      Out.push_back(*A++);
      continue;
    }
    uint64_t V = saturatingMul(B->second, Scale);
    if (A != Into.cend() && A->first == B->first)
      V = saturatingAdd(V, (A++)->second);
    if (V) // a report may list a zero cell; the sum never does
      Out.emplace_back(B->first, V);
    ++B;
  }
  Into.swap(Out);
}

bool Feedback::add(const Report &R, std::string &Msg) {
  for (const ReportUnit &RU : R.Units) {
    FeedbackUnit *U = unitFor(RU.Sig, RU.NumCells, RU.Name, Msg);
    if (!U)
      return false;
    addCells(U->Counts, RU.Counts, R.scale(RU));
  }
  Runs = saturatingAdd(Runs, 1);
  return true;
}

bool Feedback::add(const Feedback &F, std::string &Msg) {
  for (const FeedbackUnit &FU : F.Units) {
    FeedbackUnit *U = unitFor(FU.Sig, FU.NumCells, FU.Name, Msg);
    if (!U)
      return false;
    addCells(U->Counts, FU.Counts, 1);
  }
  Runs = saturatingAdd(Runs, F.Runs);
  return true;
}

std::string Feedback::write() const {
  std::string Out = "sampler-feedback\t1\nruns\t" + std::to_string(Runs) + "\n";
  for (const FeedbackUnit &U : Units) {
    Out += "unit\t" + U.Sig.hex() + "\t" + std::to_string(U.NumCells) + "\t" +
           escapeField(U.Name) + "\ncounts\t";
    bool First = true;
    for (const auto &[I, V] : U.Counts) {
      if (!First)
        Out += ' ';
      Out += std::to_string(I) + ":" + std::to_string(V);
      First = false;
    }
    Out += "\n";
  }
  Out += "end-of-feedback\n";
  return Out;
}

bool sampler::looksLikeFeedback(std::string_view Text) {
  return Text.substr(0, Magic.size()) == Magic;
}

bool sampler::parseFeedback(std::string_view Text, Feedback &Out, ReportError &Err) {
  Out = Feedback();
  unsigned Line = 0;
  auto Fail = [&](std::string Msg) {
    Err.Line = Line;
    Err.Message = std::move(Msg);
    return false;
  };
  bool SawRuns = false, SawEnd = false, WantCounts = false;
  unsigned UnitLine = 0;
  const char *Cur = Text.data(), *End = Cur + Text.size();
  while (Cur < End) {
    const char *NL = static_cast<const char *>(std::memchr(Cur, '\n', size_t(End - Cur)));
    std::string_view L(Cur, size_t((NL ? NL : End) - Cur));
    Cur = NL ? NL + 1 : End;
    ++Line;
    if (SawEnd)
      return Fail("data after 'end-of-feedback'");
    if (Line == 1) {
      if (L == "sampler-feedback\t1")
        continue;
      if (looksLikeFeedback(L))
        return Fail("unsupported feedback version '" +
                    excerpt(L.substr(Magic.size())) +
                    "' (this reader knows version 1)");
      return Fail("bad magic: not a sampler feedback file (expected "
                  "'sampler-feedback<TAB>1' on the first line)");
    }
    if (!NL && L != "end-of-feedback")
      return Fail("truncated feedback file: last line incomplete and no "
                  "'end-of-feedback'");
    size_t Tab = L.find('\t');
    std::string_view Key = L.substr(0, Tab);
    std::string_view Rest = Tab == std::string_view::npos ? std::string_view()
                                                          : L.substr(Tab + 1);
    if (WantCounts) {
      WantCounts = false;
      if (Key != "counts" || Tab == std::string_view::npos)
        return Fail("expected the 'counts' line of the unit on line " +
                    std::to_string(UnitLine));
      FeedbackUnit &U = Out.Units.back();
      std::string Msg;
      if (!parseCountList(Rest, U.NumCells, U.Counts, Msg))
        return Fail(std::move(Msg));
      // Zero cells are legal in the list but never stored.
      U.Counts.erase(std::remove_if(U.Counts.begin(), U.Counts.end(),
                                    [](const auto &P) { return P.second == 0; }),
                     U.Counts.end());
      continue;
    }
    if (L == "end-of-feedback") {
      if (!SawRuns)
        return Fail("missing 'runs' record before 'end-of-feedback'");
      SawEnd = true;
      continue;
    }
    if (Key == "runs") {
      if (SawRuns)
        return Fail("duplicate 'runs' record");
      if (!Out.Units.empty())
        return Fail("'runs' record after the first unit");
      if (!parseUnsigned(Rest, Out.Runs))
        return Fail("malformed number '" + excerpt(Rest) + "' in 'runs'");
      SawRuns = true;
      continue;
    }
    if (Key == "unit") {
      if (!SawRuns)
        return Fail("missing 'runs' record before the first unit");
      size_t T1 = Rest.find('\t');
      size_t T2 = T1 == std::string_view::npos ? T1 : Rest.find('\t', T1 + 1);
      if (T2 == std::string_view::npos)
        return Fail("malformed 'unit' record (expected unit SIG N NAME)");
      Signature Sig;
      uint64_t N;
      std::string Name;
      if (!Signature::parse(Rest.substr(0, T1), Sig))
        return Fail("malformed signature '" + excerpt(Rest.substr(0, T1)) +
                    "' (expected 32 lowercase hex digits)");
      if (!parseUnsigned(Rest.substr(T1 + 1, T2 - T1 - 1), N))
        return Fail("malformed number '" +
                    excerpt(Rest.substr(T1 + 1, T2 - T1 - 1)) +
                    "' in 'unit' cell count");
      if (!unescapeField(Rest.substr(T2 + 1), Name))
        return Fail("bad escape in unit name");
      if (Out.find(Sig))
        return Fail("unit " + Sig.hex() + " appears twice");
      std::string Msg;
      if (!Out.unitFor(Sig, N, Name, Msg))
        return Fail(std::move(Msg));
      UnitLine = Line;
      WantCounts = true;
      continue;
    }
    if (Key == "counts")
      return Fail(Out.Units.empty() ? "'counts' line before any 'unit'"
                                    : "'counts' line not right after its 'unit'");
    if (L.empty())
      return Fail("empty line");
    return Fail("unknown record '" + excerpt(Key) + "'");
  }
  if (Line == 0) {
    Line = 1;
    return Fail("empty file: not a sampler feedback file");
  }
  if (WantCounts)
    return Fail("expected the 'counts' line of the unit on line " +
                std::to_string(UnitLine));
  if (!SawEnd) {
    ++Line;
    return Fail("truncated feedback file: no 'end-of-feedback' line");
  }
  return true;
}

bool sampler::addFeedbackInput(std::string_view Text, Feedback &Sum,
                               ReportError &Err) {
  std::string Msg;
  bool Parsed, Added;
  if (looksLikeFeedback(Text)) {
    Feedback Part;
    Parsed = parseFeedback(Text, Part, Err);
    Added = Parsed && Sum.add(Part, Msg);
  } else {
    Report R;
    Parsed = parseReport(Text, R, Err);
    Added = Parsed && Sum.add(R, Msg);
  }
  if (Parsed && !Added) {
    Err.Line = 0;
    Err.Message = std::move(Msg);
  }
  return Added;
}

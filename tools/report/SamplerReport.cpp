//===- SamplerReport.cpp - decode per-run reports -------------------------===//
//
//   sampler-report REPORT... --binary FILE [--binary FILE...] [--json] [--all]
//   sampler-report --merge=OUT REPORT...
//
// Reads reports (docs/report-format.md), matches their units by signature to
// the site tables of the given binaries (docs/internals.md §2) and prints
// every site with its counts, labelled by scheme, and the estimates.
// --merge sums the estimates of many runs, unit by unit, into one feedback
// file (Feedback.h), which -fsampler-feedback reads back as branch weights.
//
//===----------------------------------------------------------------------===//

#include "Feedback.h"
#include "Numbers.h"
#include "Report.h"
#include "SiteTable.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

using namespace sampler;

static const char *const Tool = "sampler-report";

static void usage(FILE *To) {
  std::fprintf(
      To,
      "USAGE: %s REPORT... --binary FILE [--binary FILE...] [--json] [--all]\n"
      "       %s --merge=OUT REPORT...\n"
      "\n"
      "Decodes sampler reports: matches each unit of a report to the site "
      "table of the\n"
      "binaries it came from and prints every site with its counts.\n"
      "\n"
      "OPTIONS:\n"
      "  --merge=OUT    Sum the estimated counts of every REPORT (reports, or "
      "feedback\n"
      "                 files merged before) into the feedback file OUT ('-': "
      "standard\n"
      "                 output), for -fsampler-feedback=OUT. Also --merge "
      "OUT.\n"
      "  --binary FILE  An executable or shared library of the run (repeat "
      "for each;\n"
      "                 at least one). Also --binary=FILE.\n"
      "  --all          Print every site, also those whose counts are all "
      "zero\n"
      "  --json         Print JSON instead of text\n"
      "  --help         Print this help\n"
      "\n"
      "REPORT may be '-' for standard input.\n",
      Tool, Tool);
}

namespace {

struct Options {
  std::vector<std::string> Reports, Binaries;
  bool JSON = false, All = false;
  std::string MergeOut; // --merge=OUT: write a feedback file instead
};

/// A unit of the report and the site table that describes it.
struct UnitView {
  const ReportUnit *RU;
  const SiteIndex::Entry *Match; // null: no usable site table

  /// The count of cell I (the report lists only the non-zero ones).
  uint64_t cell(uint64_t I) const {
    auto It = std::lower_bound(
        RU->Counts.begin(), RU->Counts.end(), I,
        [](const std::pair<uint64_t, uint64_t> &P, uint64_t X) { return P.first < X; });
    return It != RU->Counts.end() && It->first == I ? It->second : 0;
  }
  /// Whether any of cells From .. From+N-1 is non-zero.
  bool anyNonZero(uint64_t From, uint64_t N) const {
    auto It = std::lower_bound(
        RU->Counts.begin(), RU->Counts.end(), From,
        [](const std::pair<uint64_t, uint64_t> &P, uint64_t X) { return P.first < X; });
    return It != RU->Counts.end() && It->first - From < N;
  }
};

std::string endText(const Report &R) {
  switch (R.End) {
  case EndKind::Exit:
    return "exit " + std::to_string(R.EndValue);
  case EndKind::Signal:
    return "signal " + std::to_string(R.EndValue);
  case EndKind::Unknown:
    break;
  }
  return "unknown";
}

std::string hex64(uint64_t V) {
  char Buf[24];
  std::snprintf(Buf, sizeof Buf, "0x%016llx", (unsigned long long)V);
  return Buf;
}

unsigned __int128 estimate(uint64_t Count, uint64_t Scale) {
  return (unsigned __int128)Count * Scale;
}

/// An exact non-negative integer attribute: estimates (and the counts of
/// predicates that add two cells) may exceed 64 bits, which json::Value cannot
/// hold; JSON numbers have no such limit.
void bigNumber(llvm::json::OStream &J, llvm::StringRef Key,
               const std::string &Decimal) {
  J.attributeBegin(Key);
  J.rawValue(Decimal);
  J.attributeEnd();
}

/// A predicate of a comparison site with its count and estimate (the sum of
/// its cells' counts and estimates).
struct PredicateCount {
  std::string Text;
  Sum129 Count, Estimate;
};

std::vector<PredicateCount> predicateCounts(const Site &S, const UnitView &V,
                                            uint64_t Scale) {
  std::vector<PredicateCount> Out;
  for (Predicate &P : sitePredicates(S)) {
    PredicateCount PC{std::move(P.Text), {}, {}};
    for (unsigned K = 0; K < 3; ++K)
      if (P.Cells & (1u << K)) {
        uint64_t C = V.cell(S.Offset + K);
        PC.Count += C;
        PC.Estimate += estimate(C, Scale);
      }
    Out.push_back(std::move(PC));
  }
  return Out;
}

/// Bounds cells: [min, max] values, signed.
struct Bounds {
  int64_t Min, Max;
  bool observed() const { return !boundsNeverObserved(Min, Max); }
};

Bounds boundsOf(const Site &S, const UnitView &V) {
  return {int64_t(V.cell(S.Offset)), int64_t(V.cell(S.Offset + 1))};
}

void printText(llvm::raw_ostream &OS, const std::string &Path, const Report &R,
               const std::vector<UnitView> &Views, bool All) {
  OS << "report " << Path << "\n";
  OS << "  program " << escapeField(R.Program) << "\n";
  OS << "  pid " << R.Pid << "  host " << escapeField(R.Host) << "  time "
     << R.Time << "\n";
  OS << "  end " << endText(R) << "\n";
  OS << "  sparsity " << (R.SamplingOff ? std::string("off") : std::to_string(R.Sparsity))
     << "  seed " << hex64(R.Seed) << "\n";

  for (const UnitView &V : Views) {
    const ReportUnit &U = *V.RU;
    uint64_t Scale = R.scale(U);
    bool ShowEstimate = U.sampled() && !R.SamplingOff;
    bool Any = !U.Counts.empty();
    if (!Any && !All)
      continue;
    OS << "\nunit " << U.Sig.hex() << "  " << escapeField(U.Name) << "  ("
       << (U.sampled() ? "sampled" : "unconditional") << ", " << U.NumCells
       << " cells, ";
    if (V.Match)
      OS << "site table in " << V.Match->Table->Path << ")\n";
    else
      OS << "no site table)\n";

    if (!V.Match) {
      auto Print = [&](uint64_t I, uint64_t C) {
        OS << "  cell " << I << "=" << C;
        if (ShowEstimate)
          OS << "  estimate " << toDecimal(estimate(C, Scale));
        OS << "\n";
      };
      if (All)
        for (uint64_t I = 0; I < U.NumCells; ++I)
          Print(I, V.cell(I));
      else
        for (const auto &[I, C] : U.Counts)
          Print(I, C);
      continue;
    }
    const Unit &TU = *V.Match->U;
    for (const Site &S : TU.Sites) {
      CellLabels Labels(S);
      auto Head = [&] {
        OS << "  " << siteLocation(S, TU) << "  " << escapeField(S.Function)
           << "  " << S.Scheme << "  " << escapeField(S.Description) << "  ";
      };
      if (cellsAreValues(S)) {
        // [min, max] values, not counts: no estimate.
        Bounds B = boundsOf(S, V);
        if (!All && !B.observed())
          continue;
        Head();
        if (B.observed())
          OS << Labels[0] << "=" << B.Min << " " << Labels[1] << "=" << B.Max;
        else
          OS << "never observed";
        OS << "\n";
        continue;
      }
      if (!All && !V.anyNonZero(S.Offset, S.NumCells))
        continue;
      Head();
      for (uint64_t I = 0; I < S.NumCells; ++I)
        OS << (I ? " " : "") << Labels[I] << "=" << V.cell(S.Offset + I);
      if (ShowEstimate) {
        OS << "  estimate";
        for (uint64_t I = 0; I < S.NumCells; ++I)
          OS << " " << Labels[I] << "="
             << toDecimal(estimate(V.cell(S.Offset + I), Scale));
      }
      OS << "\n";
      // The six predicates of a comparison site, one a line, aligned.
      std::vector<PredicateCount> Preds = predicateCounts(S, V, Scale);
      std::vector<std::string> Texts;
      size_t Width = 0;
      for (const PredicateCount &P : Preds) {
        Texts.push_back(escapeField(P.Text));
        Width = std::max(Width, Texts.back().size());
      }
      for (size_t K = 0; K < Preds.size(); ++K) {
        OS << "    " << Texts[K] << std::string(Width - Texts[K].size(), ' ')
           << "  count " << Preds[K].Count.decimal();
        if (ShowEstimate)
          OS << "  estimate " << Preds[K].Estimate.decimal();
        OS << "\n";
      }
    }
  }
}

void printJSON(llvm::json::OStream &J, const std::string &Path,
               const Report &R, const std::vector<UnitView> &Views, bool All) {
  J.object([&] {
    J.attribute("report", Path);
    J.attribute("program", R.Program);
    J.attribute("pid", R.Pid);
    J.attribute("host", R.Host);
    J.attribute("time", R.Time);
    J.attributeObject("end", [&] {
      switch (R.End) {
      case EndKind::Exit:
        J.attribute("kind", "exit");
        J.attribute("status", R.EndValue);
        break;
      case EndKind::Signal:
        J.attribute("kind", "signal");
        J.attribute("signal", R.EndValue);
        break;
      case EndKind::Unknown:
        J.attribute("kind", "unknown");
        break;
      }
    });
    if (R.SamplingOff)
      J.attribute("sparsity", "off");
    else
      J.attribute("sparsity", R.Sparsity);
    J.attribute("seed", hex64(R.Seed));
    J.attributeArray("units", [&] {
      for (const UnitView &V : Views) {
        const ReportUnit &U = *V.RU;
        uint64_t Scale = R.scale(U);
        J.object([&] {
          J.attribute("signature", U.Sig.hex());
          J.attribute("name", U.Name);
          J.attribute("cells", U.NumCells);
          J.attribute("flags", int64_t(U.Flags));
          J.attribute("sampled", U.sampled());
          J.attribute("scale", Scale);
          if (!V.Match) {
            J.attribute("binary", nullptr);
            auto Cell = [&](uint64_t I, uint64_t C) {
              J.object([&] {
                J.attribute("cell", I);
                J.attribute("count", C);
                bigNumber(J, "estimate", toDecimal(estimate(C, Scale)));
              });
            };
            J.attributeArray("raw", [&] {
              if (All)
                for (uint64_t I = 0; I < U.NumCells; ++I)
                  Cell(I, V.cell(I));
              else
                for (const auto &[I, C] : U.Counts)
                  Cell(I, C);
            });
            return;
          }
          const Unit &TU = *V.Match->U;
          J.attribute("binary", V.Match->Table->Path);
          J.attribute("source", TU.Source);
          J.attributeArray("sites", [&] {
            for (const Site &S : TU.Sites) {
              CellLabels Labels(S);
              bool Values = cellsAreValues(S);
              Bounds B = Values ? boundsOf(S, V) : Bounds{0, 0};
              if (!All && (Values ? !B.observed()
                                  : !V.anyNonZero(S.Offset, S.NumCells)))
                continue;
              J.object([&] {
                J.attribute("offset", S.Offset);
                J.attribute("scheme", S.Scheme);
                J.attribute("file", S.File.empty() ? TU.Source : S.File);
                J.attribute("line", int64_t(S.Line));
                J.attribute("column", int64_t(S.Column));
                J.attribute("function", S.Function);
                J.attribute("description", S.Description);
                if (Values) {
                  // [min, max] values (signed), not counts: no estimates.
                  J.attribute("observed", B.observed());
                  J.attributeArray("values", [&] {
                    for (uint64_t I = 0; I < S.NumCells; ++I)
                      J.object([&] {
                        J.attribute("label", Labels[I]);
                        J.attribute("value", int64_t(V.cell(S.Offset + I)));
                      });
                  });
                } else {
                  J.attributeArray("counts", [&] {
                    for (uint64_t I = 0; I < S.NumCells; ++I) {
                      uint64_t C = V.cell(S.Offset + I);
                      J.object([&] {
                        J.attribute("label", Labels[I]);
                        J.attribute("count", C);
                        bigNumber(J, "estimate", toDecimal(estimate(C, Scale)));
                      });
                    }
                  });
                }
                J.attributeArray("predicates", [&] {
                  for (const PredicateCount &P : predicateCounts(S, V, Scale))
                    J.object([&] {
                      J.attribute("text", P.Text);
                      bigNumber(J, "count", P.Count.decimal());
                      bigNumber(J, "estimate", P.Estimate.decimal());
                    });
                });
              });
            }
          });
        });
      }
    });
  });
}

} // namespace

/// A report (or feedback file) to read; on failure says why and returns null.
static std::unique_ptr<llvm::MemoryBuffer> readInput(const std::string &Path) {
  auto BufOrErr = llvm::MemoryBuffer::getFileOrSTDIN(
      Path, /*IsText=*/false, /*RequiresNullTerminator=*/false);
  if (!BufOrErr) {
    std::fprintf(stderr, "%s: %s: cannot read: %s\n", Tool, Path.c_str(),
                 BufOrErr.getError().message().c_str());
    return nullptr;
  }
  return std::move(*BufOrErr);
}

/// --merge: every input is read and checked before OUT is written, so a bad
/// input leaves no half-merged file behind.
static int merge(const Options &Opt) {
  Feedback Sum;
  for (const std::string &Path : Opt.Reports) {
    std::unique_ptr<llvm::MemoryBuffer> Buf = readInput(Path);
    if (!Buf)
      return 1;
    ReportError Err;
    if (!addFeedbackInput({Buf->getBufferStart(), Buf->getBufferSize()}, Sum,
                          Err)) {
      if (Err.Line)
        std::fprintf(stderr, "%s: %s:%u: %s\n", Tool, Path.c_str(), Err.Line,
                     Err.Message.c_str());
      else
        std::fprintf(stderr, "%s: %s: %s\n", Tool, Path.c_str(),
                     Err.Message.c_str());
      return 1;
    }
  }
  std::string Text = Sum.write();
  if (Opt.MergeOut == "-") {
    llvm::outs() << Text;
    return 0;
  }
  // Written beside OUT and renamed over it: readers never see half a file.
  std::string Tmp = Opt.MergeOut + ".tmp";
  std::error_code EC;
  {
    llvm::raw_fd_ostream OS(Tmp, EC, llvm::sys::fs::OF_None);
    if (!EC) {
      OS << Text;
      OS.close();
      EC = OS.error();
    }
  }
  if (!EC)
    EC = llvm::sys::fs::rename(Tmp, Opt.MergeOut);
  if (EC) {
    llvm::sys::fs::remove(Tmp);
    std::fprintf(stderr, "%s: %s: cannot write: %s\n", Tool,
                 Opt.MergeOut.c_str(), EC.message().c_str());
    return 1;
  }
  return 0;
}

int main(int argc, char **argv) {
  Options Opt;
  bool NoMoreOptions = false;
  for (int I = 1; I < argc; ++I) {
    std::string A = argv[I];
    if (NoMoreOptions || A == "-" || A.empty() || A[0] != '-') {
      Opt.Reports.push_back(A);
    } else if (A == "--") {
      NoMoreOptions = true;
    } else if (A == "--binary") {
      if (++I == argc) {
        std::fprintf(stderr, "%s: --binary needs a file name\n", Tool);
        return 1;
      }
      Opt.Binaries.push_back(argv[I]);
    } else if (A.rfind("--binary=", 0) == 0) {
      Opt.Binaries.push_back(A.substr(9));
    } else if (A == "--merge" || A.rfind("--merge=", 0) == 0) {
      if (A == "--merge" && ++I == argc) {
        std::fprintf(stderr, "%s: --merge needs a file name\n", Tool);
        return 1;
      }
      Opt.MergeOut = A == "--merge" ? std::string(argv[I]) : A.substr(8);
      if (Opt.MergeOut.empty()) {
        std::fprintf(stderr, "%s: --merge needs a file name\n", Tool);
        return 1;
      }
    } else if (A == "--json") {
      Opt.JSON = true;
    } else if (A == "--all") {
      Opt.All = true;
    } else if (A == "--help" || A == "-h") {
      usage(stdout);
      return 0;
    } else {
      std::fprintf(stderr, "%s: unknown option '%s' (see --help)\n", Tool,
                   A.c_str());
      return 1;
    }
  }
  if (Opt.Reports.empty()) {
    std::fprintf(stderr, "%s: no report given (see --help)\n", Tool);
    return 1;
  }
  if (!Opt.MergeOut.empty()) {
    if (!Opt.Binaries.empty() || Opt.JSON || Opt.All) {
      std::fprintf(stderr, "%s: --merge takes no --binary, --json or --all\n",
                   Tool);
      return 1;
    }
    return merge(Opt);
  }
  if (Opt.Binaries.empty()) {
    std::fprintf(stderr,
                 "%s: no --binary given (name the program and the shared "
                 "libraries the report came from)\n",
                 Tool);
    return 1;
  }

  // Site tables of every binary; a binary without one is an error.
  std::vector<std::unique_ptr<SiteTable>> Tables;
  SiteIndex Index;
  for (const std::string &B : Opt.Binaries) {
    auto T = std::make_unique<SiteTable>();
    std::string Err;
    switch (loadSiteTable(B, *T, Err)) {
    case LoadResult::Ok:
      break;
    case LoadResult::NoTable:
      std::fprintf(stderr,
                   "%s: %s: no sampler site table (was it built with "
                   "sampler-cc?)\n",
                   Tool, B.c_str());
      return 1;
    case LoadResult::Error:
      std::fprintf(stderr, "%s: %s: %s\n", Tool, B.c_str(), Err.c_str());
      return 1;
    }
    Index.add(*T);
    Tables.push_back(std::move(T));
  }

  llvm::raw_ostream &OS = llvm::outs();
  std::unique_ptr<llvm::json::OStream> J;
  if (Opt.JSON) {
    J = std::make_unique<llvm::json::OStream>(OS, 2);
    J->objectBegin();
    J->attributeBegin("reports");
    J->arrayBegin();
  }

  int Status = 0;
  bool First = true;
  Report R;
  for (const std::string &Path : Opt.Reports) {
    std::unique_ptr<llvm::MemoryBuffer> Buf = readInput(Path);
    if (!Buf) {
      Status = 1;
      continue;
    }
    llvm::StringRef Text = Buf->getBuffer();
    ReportError Err;
    if (!parseReport(std::string_view(Text.data(), Text.size()), R, Err)) {
      std::fprintf(stderr, "%s: %s:%u: %s\n", Tool, Path.c_str(), Err.Line,
                   Err.Message.c_str());
      Status = 1;
      continue;
    }

    std::vector<UnitView> Views;
    Views.reserve(R.Units.size());
    for (const ReportUnit &U : R.Units) {
      UnitView V{&U, Index.find(U.Sig)};
      if (!V.Match) {
        std::fprintf(stderr,
                     "%s: warning: %s:%u: unit %s (%s) is not in the site "
                     "tables of the given binaries; printing its raw cells\n",
                     Tool, Path.c_str(), U.Line, U.Sig.hex().c_str(),
                     escapeField(U.Name).c_str());
      } else if (V.Match->U->NumCounters != U.NumCells) {
        std::fprintf(stderr,
                     "%s: warning: %s:%u: unit %s (%s) has %llu cells but its "
                     "site table in %s has %llu; printing its raw cells\n",
                     Tool, Path.c_str(), U.Line, U.Sig.hex().c_str(),
                     escapeField(U.Name).c_str(), (unsigned long long)U.NumCells,
                     V.Match->Table->Path.c_str(),
                     (unsigned long long)V.Match->U->NumCounters);
        V.Match = nullptr;
      }
      Views.push_back(std::move(V));
    }

    if (J) {
      printJSON(*J, Path, R, Views, Opt.All);
    } else {
      if (!First)
        OS << "\n";
      printText(OS, Path, R, Views, Opt.All);
    }
    First = false;
  }

  if (J) {
    J->arrayEnd();
    J->attributeEnd();
    J->objectEnd();
    OS << "\n";
  }
  OS.flush();
  return Status;
}

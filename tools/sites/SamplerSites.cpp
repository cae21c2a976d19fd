//===- SamplerSites.cpp - print the site table of ELF files ---------------===//
//
//   sampler-sites [--json] [--predicates] FILE...
//
// Prints the `.sampler_sites` table (docs/internals.md §2) of object files,
// executables and shared libraries, and the predicates of comparison sites.
//
//===----------------------------------------------------------------------===//

#include "SiteTable.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

using namespace sampler;

static const char *const Tool = "sampler-sites";

static void usage(FILE *To) {
  std::fprintf(To,
               "USAGE: %s [--json] [--predicates] FILE...\n"
               "\n"
               "Prints the sampler site table (section .sampler_sites) of each "
               "ELF object file,\n"
               "executable or shared library.\n"
               "\n"
               "OPTIONS:\n"
               "  --json         Print JSON instead of a table (with the "
               "predicates)\n"
               "  --predicates   Under each returns / scalar-pairs site, list "
               "the six\n"
               "                 predicates it stands for and the cells they "
               "add up\n"
               "  --help         Print this help\n",
               Tool);
}

/// "cell 3" or "cells 2, 4": the cells of a predicate.
static std::string predicateCells(const Site &S, const Predicate &P) {
  std::string Out;
  unsigned N = 0;
  for (unsigned K = 0; K < 3; ++K)
    if (P.Cells & (1u << K)) {
      Out += (N++ ? ", " : "") + std::to_string(S.Offset + K);
    }
  return (N == 1 ? "cell " : "cells ") + Out;
}

static void printHuman(llvm::raw_ostream &OS, const SiteTable &T,
                       bool Predicates) {
  OS << T.Path << ":\n";
  for (const Unit &U : T.Units) {
    OS << "unit " << U.Sig.hex() << "  source " << escapeField(U.Source)
       << "  counters " << U.NumCounters << "  flags " << U.Flags
       << (U.sampled() ? " (sampled)" : " (unconditional)") << "  sites "
       << U.Sites.size() << "\n";
    for (const Site &S : U.Sites) {
      OS << "  " << siteLocation(S, U) << "  " << escapeField(S.Function)
         << "  " << S.Scheme << "  " << escapeField(S.Description)
         << "  (cells " << S.Offset << ".." << S.Offset + S.NumCells - 1
         << ")\n";
      if (!Predicates)
        continue;
      std::vector<Predicate> Preds = sitePredicates(S);
      std::vector<std::string> Texts;
      size_t Width = 0;
      for (const Predicate &P : Preds) {
        Texts.push_back(escapeField(P.Text));
        Width = std::max(Width, Texts.back().size());
      }
      for (size_t K = 0; K < Preds.size(); ++K)
        OS << "    " << Texts[K] << std::string(Width - Texts[K].size(), ' ')
           << "  (" << predicateCells(S, Preds[K]) << ")\n";
    }
  }
}

static void printJSON(llvm::json::OStream &J, const SiteTable &T) {
  J.object([&] {
    J.attribute("file", T.Path);
    J.attributeArray("units", [&] {
      for (const Unit &U : T.Units) {
        J.object([&] {
          J.attribute("signature", U.Sig.hex());
          J.attribute("source", U.Source);
          J.attribute("counters", uint64_t(U.NumCounters));
          J.attribute("flags", int64_t(U.Flags));
          J.attribute("sampled", U.sampled());
          J.attributeArray("sites", [&] {
            for (const Site &S : U.Sites) {
              J.object([&] {
                J.attribute("offset", uint64_t(S.Offset));
                J.attribute("cells", uint64_t(S.NumCells));
                J.attribute("scheme", S.Scheme);
                J.attribute("file", S.File);
                J.attribute("line", int64_t(S.Line));
                J.attribute("column", int64_t(S.Column));
                J.attribute("function", S.Function);
                J.attribute("description", S.Description);
                J.attributeArray("labels", [&] {
                  CellLabels Labels(S);
                  for (uint64_t I = 0; I < S.NumCells; ++I)
                    J.value(Labels[I]);
                });
                J.attributeArray("predicates", [&] {
                  for (const Predicate &P : sitePredicates(S))
                    J.object([&] {
                      J.attribute("text", P.Text);
                      J.attributeArray("cells", [&] {
                        for (unsigned K = 0; K < 3; ++K)
                          if (P.Cells & (1u << K))
                            J.value(uint64_t(S.Offset + K));
                      });
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

int main(int argc, char **argv) {
  bool JSON = false, Predicates = false;
  std::vector<std::string> Files;
  bool NoMoreOptions = false;
  for (int I = 1; I < argc; ++I) {
    std::string A = argv[I];
    if (!NoMoreOptions && A == "--") {
      NoMoreOptions = true;
    } else if (!NoMoreOptions && A == "--json") {
      JSON = true;
    } else if (!NoMoreOptions && A == "--predicates") {
      Predicates = true;
    } else if (!NoMoreOptions && (A == "--help" || A == "-h")) {
      usage(stdout);
      return 0;
    } else if (!NoMoreOptions && A.size() > 1 && A[0] == '-') {
      std::fprintf(stderr, "%s: unknown option '%s' (see --help)\n", Tool,
                   A.c_str());
      return 1;
    } else {
      Files.push_back(A);
    }
  }
  if (Files.empty()) {
    std::fprintf(stderr, "%s: no input files (see --help)\n", Tool);
    return 1;
  }

  int Status = 0;
  std::vector<SiteTable> Tables;
  for (const std::string &F : Files) {
    SiteTable T;
    std::string Err;
    switch (loadSiteTable(F, T, Err)) {
    case LoadResult::Ok:
      Tables.push_back(std::move(T));
      break;
    case LoadResult::NoTable:
      std::fprintf(stderr,
                   "%s: %s: no sampler site table (was it built with "
                   "sampler-cc?)\n",
                   Tool, F.c_str());
      Status = 1;
      break;
    case LoadResult::Error:
      std::fprintf(stderr, "%s: %s: %s\n", Tool, F.c_str(), Err.c_str());
      Status = 1;
      break;
    }
  }

  llvm::raw_ostream &OS = llvm::outs();
  if (JSON) {
    llvm::json::OStream J(OS, 2);
    J.object([&] {
      J.attribute("version", int64_t(SiteTableVersion));
      J.attributeArray("files", [&] {
        for (const SiteTable &T : Tables)
          printJSON(J, T);
      });
    });
    OS << "\n";
  } else {
    bool First = true;
    for (const SiteTable &T : Tables) {
      if (!First)
        OS << "\n";
      First = false;
      printHuman(OS, T, Predicates);
    }
  }
  OS.flush();
  return Status;
}

//===- FrontEndInfo.h - What the clang front end tells the pass -----------===//
//
// The LLVM pass sees IR; only the AST knows the source text of a condition or
// a call, and which functions come from system headers. The clang plugin
// (ClangPlugin.cpp) walks the AST and fills this table; the pass consults it
// by debug location. With opt there is no front end, and the pass falls back
// to descriptions derived from the IR.
//
//===----------------------------------------------------------------------===//
#ifndef SAMPLER_FRONTENDINFO_H
#define SAMPLER_FRONTENDINFO_H

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include <map>
#include <optional>
#include <string>
#include <tuple>

namespace sampler {

class FrontEndInfo {
public:
  /// What kind of construct a piece of source text belongs to.
  enum class Kind { Branch, Switch, Call };

  /// The key both sides agree on: the absolute, dot-free path. (The AST
  /// names the file as given on the command line; debug info makes it
  /// relative to the compilation directory.)
  static std::string canonicalPath(llvm::StringRef Dir, llvm::StringRef File) {
    llvm::SmallString<256> P(File);
    if (!llvm::sys::path::is_absolute(P)) {
      if (Dir.empty())
        llvm::sys::fs::make_absolute(P);
      else
        P = (Dir + "/" + File).str();
    }
    llvm::sys::path::remove_dots(P, /*remove_dot_dot=*/true);
    return std::string(P);
  }

  /// \p File must be canonical (canonicalPath).
  void addText(llvm::StringRef File, unsigned Line, unsigned Col, Kind K,
               llvm::StringRef Text) {
    Texts.emplace(Key{File.str(), Line, Col, K}, Text.str()); // first one wins
  }
  std::optional<std::string> lookupText(llvm::StringRef File, unsigned Line,
                                        unsigned Col, Kind K) const {
    auto It = Texts.find(Key{File.str(), Line, Col, K});
    if (It == Texts.end())
      return std::nullopt;
    return It->second;
  }

  /// Functions declared in system headers (IR names): weightless unless they
  /// take callbacks (see Weightless.cpp).
  llvm::StringSet<> SystemHeaderFunctions;
  /// Functions the source declares weightless: `#pragma sampler weightless(f)`
  /// or `__attribute__((annotate("sampler_weightless")))`.
  llvm::StringSet<> Weightless;
  /// Functions the source excludes: `__attribute__((annotate("sampler_skip")))`.
  llvm::StringSet<> Skip;

  void clear() {
    Texts.clear();
    SystemHeaderFunctions.clear();
    Weightless.clear();
    Skip.clear();
  }

private:
  using Key = std::tuple<std::string, unsigned, unsigned, Kind>;
  std::map<Key, std::string> Texts;
};

} // namespace sampler

#endif

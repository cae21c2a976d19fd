//===- Scheme.h - What an instrumentation scheme observes -----------------===//
//
// A scheme decides *what* is observed at a site and writes the observation
// (counter updates). It never decides *when*: that is the sampling
// transformation's job, which only sees the site markers (docs/internals.md §3).
//
// Schemes work in two steps so that no scheme instruments another's code:
// every scheme collects its candidate instructions first, then each inserts
// its sites.
//
//===----------------------------------------------------------------------===//
#ifndef SAMPLER_SCHEME_H
#define SAMPLER_SCHEME_H

#include "llvm/ADT/StringRef.h"
#include "llvm/IR/Function.h"
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace sampler {

class FrontEndInfo;
class SiteTable;

class Scheme {
public:
  virtual ~Scheme() = default;
  virtual llvm::StringRef name() const = 0;
  /// Appends to \p Out the instructions of \p F this scheme observes.
  virtual void collect(llvm::Function &F,
                       std::vector<llvm::Instruction *> &Out) = 0;
  /// Inserts the site observing \p I (one of those collected).
  virtual void instrument(llvm::Instruction *I, SiteTable &Table) = 0;
};

struct SamplerOptions;
/// Returns null for an unknown name (SamplerOptions has already checked).
std::unique_ptr<Scheme> createScheme(llvm::StringRef Name,
                                     const SamplerOptions &Opts);

/// The source text for the construct at \p I's location, if the front end
/// recorded one.
std::optional<std::string> sourceTextAt(const llvm::Instruction *I, int Kind,
                                        const FrontEndInfo *FE);
/// A short source-like rendering of an IR value, for descriptions when no
/// front end is there (`x > 10`, `p == null`, `%c`).
std::string describeValue(const llvm::Value *V);

} // namespace sampler

#endif

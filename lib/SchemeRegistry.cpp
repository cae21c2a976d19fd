//===- SchemeRegistry.cpp - Scheme names to scheme objects ----------------===//
//
// Adding a scheme: write its file, declare its factory here, add its name to
// SamplerOptions::knownSchemes() and its cells to docs/internals.md §2.
//
//===----------------------------------------------------------------------===//
#include "SamplerOptions.h"
#include "Scheme.h"

using namespace llvm;

namespace sampler {

std::unique_ptr<Scheme> createBranchesScheme(const FrontEndInfo *FE,
                                             bool Edges);
std::unique_ptr<Scheme> createReturnsScheme(const FrontEndInfo *FE,
                                            bool Edges);
std::unique_ptr<Scheme> createFunctionEntriesScheme(const FrontEndInfo *FE);
std::unique_ptr<Scheme> createScalarPairsScheme(const SamplerOptions &Opts);
std::unique_ptr<Scheme> createFloatKindsScheme(const SamplerOptions &Opts);
std::unique_ptr<Scheme> createBoundsScheme(const SamplerOptions &Opts);
std::unique_ptr<Scheme> createChecksScheme(const FrontEndInfo *FE);

std::unique_ptr<Scheme> createScheme(StringRef Name, const SamplerOptions &Opts) {
  const FrontEndInfo *FE = Opts.FrontEnd;
  if (Name == "branches")
    return createBranchesScheme(FE, Opts.observeEdges());
  if (Name == "returns")
    return createReturnsScheme(FE, Opts.observeEdges());
  if (Name == "function-entries")
    return createFunctionEntriesScheme(FE);
  if (Name == "scalar-pairs")
    return createScalarPairsScheme(Opts);
  if (Name == "float-kinds")
    return createFloatKindsScheme(Opts);
  if (Name == "bounds")
    return createBoundsScheme(Opts);
  if (Name == "checks")
    return createChecksScheme(FE);
  return nullptr;
}

} // namespace sampler

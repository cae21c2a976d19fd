//===- SchemeRegistry.cpp - Scheme names to scheme objects ----------------===//
//
// Adding a scheme: write its file, declare its factory here, add its name to
// SamplerOptions::knownSchemes() and to the table in docs/internals.md §2.
//
//===----------------------------------------------------------------------===//
#include "Scheme.h"

using namespace llvm;

namespace sampler {

std::unique_ptr<Scheme> createBranchesScheme(const FrontEndInfo *FE);
std::unique_ptr<Scheme> createReturnsScheme(const FrontEndInfo *FE);

std::unique_ptr<Scheme> createScheme(StringRef Name, const FrontEndInfo *FE) {
  if (Name == "branches")
    return createBranchesScheme(FE);
  if (Name == "returns")
    return createReturnsScheme(FE);
  return nullptr;
}

} // namespace sampler

//===- PassPlugin.cpp - Entry point for -fpass-plugin and opt -------------===//
//
// `llvmGetPassPluginInfo` is what `opt -load-pass-plugin` and
// `clang -fpass-plugin` look for. Both plugin builds contain it; the options
// come from getDefaultPassOptions(), which each build defines its own way.
//
//===----------------------------------------------------------------------===//
#include "SamplerPass.h"

#include "llvm/Config/llvm-config.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Passes/PassPlugin.h"

using namespace llvm;

extern "C" LLVM_ATTRIBUTE_WEAK LLVM_ATTRIBUTE_VISIBILITY_DEFAULT PassPluginLibraryInfo
llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "sampler", "0.1", [](PassBuilder &PB) {
            sampler::registerSamplerPass(PB, sampler::getDefaultPassOptions);
          }};
}

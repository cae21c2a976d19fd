//===- SamplerPass.cpp - The sampler module pass --------------------------===//
#include "SamplerPass.h"
#include "FrontEndInfo.h"
#include "RuntimeABI.h"
#include "SamplingTransform.h"
#include "Scheme.h"
#include "SiteTable.h"
#include "Weightless.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/ErrorHandling.h"

using namespace llvm;
using namespace sampler;

namespace sampler {
void lowerUnselectedChecks(Module &M); // ChecksScheme.cpp
}

#define DEBUG_TYPE "sampler"

STATISTIC(NumSites, "Sites inserted");
STATISTIC(NumFunctions, "Functions with sites");

namespace {

/// The worker: one module, one run.
class ModuleInstrumenter {
public:
  ModuleInstrumenter(Module &M, const SamplerOptions &Opts) : M(M), Opts(Opts) {}

  bool run() {
    std::vector<std::unique_ptr<Scheme>> Schemes;
    for (const std::string &Name : Opts.Schemes)
      if (auto S = createScheme(Name, Opts))
        Schemes.push_back(std::move(S));

    // Collect everything first, so that no scheme observes another's code.
    std::vector<std::pair<Scheme *, std::vector<Instruction *>>> Work;
    for (Function &F : M) {
      if (!shouldInstrument(F))
        continue;
      for (auto &S : Schemes) {
        std::vector<Instruction *> Sites;
        S->collect(F, Sites);
        if (!Sites.empty())
          Work.push_back({S.get(), std::move(Sites)});
      }
    }
    SiteTable Table(M);
    for (auto &[S, Sites] : Work)
      for (Instruction *I : Sites)
        S->instrument(I, Table);
    // sampler.h's checks in functions the checks scheme did not take (not
    // selected, or skipped) run every time, as in a plain build.
    lowerUnselectedChecks(M);
    NumSites += Table.sites().size();
    bool Changed = !Table.empty();
    Table.emit(Opts.Sampling);
    if (!Changed)
      return false;

    DenseSet<const Function *> HasSites;
    for (Function &F : M)
      if (!F.isDeclaration() && !SiteTable::markersIn(F).empty())
        HasSites.insert(&F);
    NumFunctions += HasSites.size();
    if (!Opts.Sampling) {
      for (const Function *F : HasSites)
        SamplingTransform::lowerUnconditional(const_cast<Function &>(*F));
    } else {
      WeightlessInfo WI(M, Opts, HasSites);
      SamplingTransform T(M, WI, Opts.CloneThreshold);
      for (const Function *F : HasSites)
        T.run(const_cast<Function &>(*F));
    }
    if (Function *Marker = M.getFunction(abi::SiteMarker)) {
      if (!Marker->use_empty())
        report_fatal_error("sampler: internal error: a site marker was not lowered");
      Marker->eraseFromParent();
    }
    return true;
  }

private:
  bool shouldInstrument(const Function &F) const {
    if (F.isDeclaration() || F.hasAvailableExternallyLinkage() ||
        F.hasFnAttribute(Attribute::Naked) ||
        F.hasFnAttribute(Attribute::DisableSanitizerInstrumentation) ||
        F.hasFnAttribute("sampler-skip") || F.getName().starts_with(abi::Prefix))
      return false;
    if (Opts.SkipFunctions.count(F.getName().str()) || !Opts.selects(F))
      return false;
    if (Opts.FrontEnd && Opts.FrontEnd->Skip.contains(F.getName()))
      return false;
    return true;
  }

  Module &M;
  const SamplerOptions &Opts;
};

} // namespace

PreservedAnalyses SamplerPass::run(Module &M, ModuleAnalysisManager &) {
  // Loading the pass twice (e.g. -fplugin and -fpass-plugin) must not
  // instrument twice.
  if (M.getModuleFlag(abi::InstrumentedFlag))
    return PreservedAnalyses::all();
  M.addModuleFlag(Module::Max, abi::InstrumentedFlag, 1);
  ModuleInstrumenter(M, Opts).run();
  return PreservedAnalyses::none();
}

void sampler::registerSamplerPass(PassBuilder &PB,
                                  std::function<SamplerOptions()> GetOptions) {
  PB.registerPipelineParsingCallback(
      [GetOptions](StringRef Name, ModulePassManager &MPM,
                   ArrayRef<PassBuilder::PipelineElement>) {
        if (Name != "sampler")
          return false;
        MPM.addPass(SamplerPass(GetOptions()));
        return true;
      });
  PB.registerPipelineStartEPCallback(
      [GetOptions](ModulePassManager &MPM, OptimizationLevel) {
        MPM.addPass(SamplerPass(GetOptions()));
      });
}

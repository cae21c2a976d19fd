//===- SamplerPass.cpp - The sampler module pass --------------------------===//
#include "SamplerPass.h"
#include "CheckMerge.h"
#include "CheckStride.h"
#include "CopyComdat.h"
#include "ContinuationTwin.h"
#include "EntryTwin.h"
#include "IndirectTLS.h"
#include "LoopBoundCheck.h"
#include "LoopCountdownPromotion.h"
#include "LoopExitPayment.h"
#include "PreInliner.h"
#include "FrontEndInfo.h"
#include "RuntimeABI.h"
#include "SamplingTransform.h"
#include "FeedbackWeights.h"
#include "SingleCallLocals.h"
#include "Scheme.h"
#include "SiteTable.h"
#include "ThreadCopies.h"
#include "Weightless.h"
#include "WeightyEffects.h"

#include "llvm/ADT/Statistic.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/InstCombine/InstCombine.h"
#include "llvm/Transforms/Scalar/LowerExpectIntrinsic.h"
#include "llvm/Transforms/Scalar/SimplifyCFG.h"

using namespace llvm;
using namespace sampler;

namespace sampler {
void lowerUnselectedChecks(Module &M); // ChecksScheme.cpp
}

#define DEBUG_TYPE "sampler"

STATISTIC(NumSites, "Sites inserted");
STATISTIC(NumFunctions, "Functions with sites");

namespace {

/// The functions that hold site markers.
DenseSet<const Function *> functionsWithSites(Function &Marker) {
  DenseSet<const Function *> HasSites;
  for (User *U : Marker.users())
    if (auto *CI = dyn_cast<CallInst>(U))
      HasSites.insert(CI->getFunction());
  return HasSites;
}

/// Phase 1's worker: one module, one run.
class ModuleInstrumenter {
public:
  ModuleInstrumenter(Module &M, const SamplerOptions &Opts) : M(M), Opts(Opts) {}

  void run() {
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
    SiteTable Table(M, Opts.AtomicCounters);
    for (auto &[S, Sites] : Work)
      for (Instruction *I : Sites)
        S->instrument(I, Table);
    // Functions with sites, and the calls that may reach them, write memory
    // whatever the program declared (`const`, `pure`): before any optimiser
    // merges, hoists or drops such a call, or moves the countdown across it
    // (and before the unconditional build's lowering leaves no markers). In
    // a unit without sites too: its calls of another unit's `const` function
    // with sites then stay the calls the source makes.
    Function *Marker = M.getFunction(abi::SiteMarker);
    declareWeightyEffects(
        M, WeightlessInfo(M, Opts,
                          Marker ? functionsWithSites(*Marker)
                                 : DenseSet<const Function *>()));
    // sampler.h's checks in functions the checks scheme did not take (not
    // selected, or skipped) run every time, as in a plain build.
    lowerUnselectedChecks(M);
    // Weights from earlier runs of these same sites, before the transform
    // and the optimiser read them.
    if (Opts.FeedbackCounts)
      applyFeedbackWeights(Table, *Opts.FeedbackCounts, Opts.FeedbackPath, Opts);
    NumSites += Table.sites().size();
    Table.emit(Opts.Sampling, Opts.ThreadCopies,
               Opts.Sampling && Opts.SingleThreaded);
    if (!Opts.Sampling)
      for (Function &F : M)
        SamplingTransform::lowerUnconditional(F);
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

/// Phase 2: returns the functions it transformed.
SmallVector<Function *, 32> lowerMarkers(Module &M, const SamplerOptions &Opts) {
  SmallVector<Function *, 32> Changed;
  Function *Marker = M.getFunction(abi::SiteMarker);
  if (!Marker)
    return Changed;
  // Before the inliner has run (sampling late, it has), small functions with
  // loops go into their callers while they are still one copy.
  if (!Opts.SampleLate)
    preInlineSmallLoopFunctions(M, Opts.PreInlineLimit, Opts.PreInlineLargeCaller);
  DenseSet<const Function *> HasSites = functionsWithSites(*Marker);
  NumFunctions += HasSites.size();
  WeightlessInfo WI(M, Opts, HasSites);
  // Again, sampling late: the inliner and the attribute inference have run
  // since the instrumentation. (Sampling early only the pre-inliner has,
  // which copies calls already widened.)
  if (Opts.SampleLate)
    declareWeightyEffects(M, WI);
  SamplingTransform T(M, WI, Opts.CloneThreshold, Opts.OutlineLimit,
                      Opts.CountdownTLS == SamplerOptions::TLSModel::Auto,
                      Opts.NaturalNests, Opts.CheckDiscount,
                      Opts.CountdownSlotSites, Opts.ColdHeavyPercent,
                      Opts.SingleThreaded);
  // The inliner runs after this (sampling early): the local functions it
  // could take at their one call are found before the callers are copied.
  bool Redirect = Opts.SingleCallCopies && !Opts.SampleLate;
  SmallVector<SingleCall, 16> SingleCalls;
  if (Redirect)
    SingleCalls = findSingleCallLocals(M, Opts.SingleCallSizeLimit,
                                       Opts.SingleCallMaxSize);
  T.setSlowOptSize(Opts.SlowOptSize);
  if (Opts.OpenNests) {
    SmallVector<Function *, 16> Once;
    for (const SingleCall &SC : SingleCalls)
      Once.push_back(SC.Callee);
    T.setNestOpeners(Once);
  }
  // Leaf callees whose trials their callers' regions pay (their bodies are
  // made before any caller is cloned). A local one called once needs no copy
  // for its one call to stay the last (SingleCallLocals.h): the fast copy
  // calls its body, the instrumented copy the function, once each.
  if (Opts.PaidCalleeWeight && !Opts.SampleLate) {
    T.choosePaidCallees(HasSites, Opts.PaidCalleeWeight);
    erase_if(SingleCalls,
             [&](const SingleCall &SC) { return T.isPaidCallee(*SC.Callee); });
  }
  for (Function &F : M)
    if (HasSites.contains(&F)) {
      T.run(F);
      Changed.push_back(&F);
    }
  T.dropUnusedEntries();
  Changed.append(T.created().begin(), T.created().end());
  if (Redirect)
    redirectCopiedCalls(SingleCalls, Changed);
  if (Triple(M.getTargetTriple()).getArch() == Triple::x86_64)
    markNoRedZone(M);
  if (!Marker->use_empty())
    report_fatal_error("sampler: internal error: a site marker was not lowered");
  Marker->eraseFromParent();
  return Changed;
}

bool markOnce(Module &M, StringRef Flag) {
  // Loading the pass twice (e.g. -fplugin and -fpass-plugin) must not
  // instrument or lower twice.
  if (M.getModuleFlag(Flag))
    return false;
  M.addModuleFlag(Module::Max, Flag, 1);
  return true;
}

} // namespace

PreservedAnalyses SamplerInstrumentPass::run(Module &M, ModuleAnalysisManager &MAM) {
  if (!markOnce(M, abi::InstrumentedFlag))
    return PreservedAnalyses::all();
  // `__builtin_expect` first becomes branch weights, as the pipeline's first
  // function pass would make it. That pass turns `br (icmp (llvm.expect X,
  // C), 0)` into weights on the branch block by block, in order, and drops
  // each block's expect calls as it goes; a site puts its observation
  // between the compare and the branch (a block of its own, after the
  // compare's block), so the call was gone when it reached the branch, and
  // every likely/unlikely of the program was lost (Lua's l_likely), in the
  // fast copy too.
  FunctionAnalysisManager &FAM =
      MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  for (Function &F : M)
    if (!F.isDeclaration())
      FAM.invalidate(F, LowerExpectIntrinsicPass().run(F, FAM));
  ModuleInstrumenter(M, Opts).run();
  return PreservedAnalyses::none();
}

PreservedAnalyses SamplerLowerPass::run(Module &M, ModuleAnalysisManager &MAM) {
  if (!markOnce(M, abi::LoweredFlag))
    return PreservedAnalyses::all();
  SmallVector<Function *, 32> Changed = lowerMarkers(M, Opts);
  if (Changed.empty())
    return PreservedAnalyses::all();
  if (Cleanup) {
    // Nothing else optimises after this point: fold the fast copy's
    // decrements and drop what the lowering made dead.
    FunctionAnalysisManager &FAM =
        MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
    FunctionPassManager FPM;
    FPM.addPass(InstCombinePass());
    FPM.addPass(SimplifyCFGPass());
    for (Function *F : Changed) {
      FAM.invalidate(*F, PreservedAnalyses::none());
      if (!F->hasOptNone())
        FPM.run(*F, FAM);
    }
  }
  return PreservedAnalyses::none();
}

PreservedAnalyses SamplerPass::run(Module &M, ModuleAnalysisManager &MAM) {
  PreservedAnalyses PA = SamplerInstrumentPass(Opts).run(M, MAM);
  if (PA.areAllPreserved())
    return PA;
  SamplerLowerPass(Opts, /*Cleanup=*/false).run(M, MAM);
  return PreservedAnalyses::none();
}

void sampler::registerSamplerPass(PassBuilder &PB,
                                  std::function<SamplerOptions()> GetOptions) {
  PB.registerPipelineParsingCallback(
      [GetOptions](StringRef Name, ModulePassManager &MPM,
                   ArrayRef<PassBuilder::PipelineElement>) {
        if (Name == "sampler")
          MPM.addPass(SamplerPass(GetOptions()));
        else if (Name == "sampler-entry-twin")
          MPM.addPass(SamplerEntryTwinPass(GetOptions().EntryTwinLimit));
        else if (Name == "sampler-continuation-twin")
          MPM.addPass(
              SamplerContinuationTwinPass(GetOptions().ContinuationLimit,
                                          GetOptions().ContinuationCopies));
        else if (Name == "sampler-instrument")
          MPM.addPass(SamplerInstrumentPass(GetOptions()));
        else if (Name == "sampler-lower")
          MPM.addPass(SamplerLowerPass(GetOptions(), /*Cleanup=*/true));
        else if (Name == "sampler-copy-comdat")
          MPM.addPass(SamplerCopyComdatPass());
        else if (Name == "sampler-single-call-merge")
          MPM.addPass(SamplerSingleCallMergePass());
        else if (Name == "sampler-thread-copies")
          MPM.addPass(SamplerThreadCopiesPass());
        else if (Name == "sampler-indirect-tls")
          MPM.addPass(SamplerIndirectTLSPass(GetOptions().HoldPercent));
        else
          return false;
        return true;
      });
  // Both phases at the start of the pipeline: the optimiser then folds the
  // fast copy's decrements. (Sampling at the end, after inlining, is what
  // `sampler-instrument` ... `sampler-lower` allow; measured on Lua it bought
  // no instructions and cost code size, docs/benchmarks.md.)
  PB.registerPipelineStartEPCallback(
      [GetOptions](ModulePassManager &MPM, OptimizationLevel) {
        SamplerOptions Opts = GetOptions();
        if (Opts.SampleLate)
          MPM.addPass(SamplerInstrumentPass(Opts));
        else
          MPM.addPass(SamplerPass(Opts));
      });
  // Loops whose trip count is bounded on entry pay for their back edges'
  // checks there (LoopBoundCheck.h): where loops are rotated and before the
  // vectoriser, which the copy without checks lets in.
  PB.registerPipelineParsingCallback(
      [](StringRef Name, FunctionPassManager &FPM,
         ArrayRef<PassBuilder::PipelineElement>) {
        // sampler-check-stride<K>; without <K>, the default stride.
        if (Name.consume_front("sampler-check-stride")) {
          unsigned K = SamplerOptions().CheckStride;
          if (!Name.empty() &&
              (!Name.consume_front("<") || !Name.consume_back(">") ||
               Name.getAsInteger(10, K) || K < 1))
            return false;
          FPM.addPass(SamplerCheckStridePass(K));
          return true;
        }
        if (Name == "sampler-loop-bound")
          FPM.addPass(SamplerLoopBoundPass());
        else if (Name == "sampler-loop-bound-reserve")
          FPM.addPass(SamplerLoopBoundPass(/*Reserve=*/true));
        else if (Name == "sampler-loop-bound-chunks")
          FPM.addPass(SamplerLoopBoundPass(/*Reserve=*/true, /*Chunks=*/true));
        else if (Name == "sampler-loop-promote")
          FPM.addPass(SamplerLoopPromotePass());
        else if (Name == "sampler-loop-promote-one-by-one")
          FPM.addPass(SamplerLoopPromotePass(/*NaturalNests=*/true,
                                             /*WholeNests=*/false));
        else if (Name == "sampler-loop-exit-pay")
          FPM.addPass(SamplerLoopExitPayPass());
        else if (Name == "sampler-check-merge")
          FPM.addPass(SamplerCheckMergePass());
        else
          return false;
        return true;
      });
  // Then loops without calls carry the countdown in a register
  // (LoopCountdownPromotion.h), the versioned ones' remaining checks too;
  // loops left without checks then pay on their exits (LoopExitPayment.h).
  PB.registerVectorizerStartEPCallback(
      [GetOptions](FunctionPassManager &FPM, OptimizationLevel) {
        SamplerOptions Opts = GetOptions();
        if (Opts.Sampling && Opts.LoopBounds)
          FPM.addPass(SamplerLoopBoundPass(Opts.LoopReserve, Opts.LoopChunks));
        if (Opts.Sampling && Opts.LoopPromote)
          FPM.addPass(
              SamplerLoopPromotePass(Opts.NaturalNests, Opts.NestPromote));
        if (Opts.Sampling && Opts.LoopPromote && Opts.LoopExitPay)
          FPM.addPass(SamplerLoopExitPayPass());
        // Then the loops left with a check on their back edge test it once
        // every few iterations (CheckStride.h; with a stride of 1 this only
        // drops the tags the loop passes went by).
        if (Opts.Sampling)
          FPM.addPass(SamplerCheckStridePass(Opts.CheckStride));
      });
  PB.registerOptimizerLastEPCallback(
      [GetOptions](ModulePassManager &MPM, OptimizationLevel) {
        SamplerOptions Opts = GetOptions();
        if (Opts.SampleLate)
          MPM.addPass(SamplerLowerPass(Opts, /*Cleanup=*/true));
        // After the inliner: the copies of local functions called once whose
        // original the inliner did not take go back into it
        // (SingleCallLocals.h).
        if (Opts.SingleCallCopies && !Opts.SampleLate)
          MPM.addPass(SamplerSingleCallMergePass());
        // After the inliner: a check right after another's fast edge (an
        // inlined function's entry) is paid by the first (CheckMerge.h).
        if (Opts.Sampling && Opts.CheckMerge)
          MPM.addPass(createModuleToFunctionPassAdaptor(
              SamplerCheckMergePass(Opts.CheckMergeGiveBack)));
        // Then functions that may return early tail-call a twin on their
        // entry check's slow way (EntryTwin.h).
        if (Opts.Sampling && Opts.EntryTwinLimit)
          MPM.addPass(SamplerEntryTwinPass(Opts.EntryTwinLimit));
        // And functions that call nothing take their instrumented copy out
        // of their frame: a continuation their ways into it tail-call
        // (ContinuationTwin.h).
        if (Opts.Sampling && Opts.ContinuationLimit)
          MPM.addPass(SamplerContinuationTwinPass(Opts.ContinuationLimit,
                                                  Opts.ContinuationCopies));
        // Last, when no pass will copy a call any more: the private copies
        // that only one comdat group's functions call join that group, so
        // that the linker keeps them only with it (CopyComdat.h).
        if (Opts.Sampling && Opts.CopyComdat)
          MPM.addPass(SamplerCopyComdatPass());
        // And every function that touches the countdown reaches it through
        // the thread pointer, not the segment register (IndirectTLS.h).
        if (Opts.Sampling && Opts.IndirectTLS)
          MPM.addPass(SamplerIndirectTLSPass(Opts.HoldPercent));
        // Unconditional builds test glibc's thread flag once a call, not
        // once an add (ThreadCopies.h).
        if (!Opts.Sampling && Opts.ThreadCopies)
          MPM.addPass(SamplerThreadCopiesPass());
      });
}

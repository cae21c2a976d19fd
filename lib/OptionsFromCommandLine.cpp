//===- OptionsFromCommandLine.cpp - cl::opt options (LLVM-only plugin) ----===//
//
// Only the LLVM-only plugin (SamplerPassLLVM.so, for opt) defines cl::opts:
// if the clang plugin defined them too, loading both into one clang would
// abort with "Option registered more than once".
//
//===----------------------------------------------------------------------===//
#include "SamplerPass.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

static cl::opt<std::string>
    ClSchemes("sampler-schemes", cl::desc("Comma-separated schemes to apply"),
              cl::init("branches,returns,checks"));
static cl::opt<std::string>
    ClSampling("sampler-sampling",
               cl::desc("on: sample sites; off: observe every execution"),
               cl::init("on"));
static cl::opt<std::string>
    ClWeightless("sampler-weightless",
                 cl::desc("Functions to treat as weightless: f,g or @FILE"),
                 cl::init(""));
static cl::opt<std::string>
    ClInclude("sampler-include",
              cl::desc("Instrument only matching functions: globs, file:GLOB, or @FILE"),
              cl::init(""));
static cl::opt<std::string>
    ClExclude("sampler-exclude",
              cl::desc("Do not instrument matching functions: globs, file:GLOB, or @FILE"),
              cl::init(""));
static cl::opt<bool> ClElements(
    "sampler-elements",
    cl::desc("Value schemes also observe fields and array elements"));
static cl::opt<bool> ClCompareConstants(
    "sampler-compare-constants",
    cl::desc("scalar-pairs also compares with the function's constants"));
static cl::opt<unsigned> ClCloneThreshold(
    "sampler-clone-threshold",
    cl::desc("Clone only functions with a region of at least N sites"),
    cl::init(1));
static cl::opt<unsigned> ClOutlineLimit(
    "sampler-outline-limit",
    cl::desc("Functions of at most N instructions cloned with loops get their "
             "instrumented copy as a function of its own (0: never)"),
    cl::init(sampler::SamplerOptions().OutlineLimit));
static cl::opt<unsigned> ClPreInlineLimit(
    "sampler-preinline-limit",
    cl::desc("Functions with sites and a loop of at most N instructions are "
             "inlined into their callers before cloning (0: never)"),
    cl::init(sampler::SamplerOptions().PreInlineLimit));
static cl::opt<unsigned> ClPreInlineLargeCaller(
    "sampler-preinline-large-caller",
    cl::desc("Callers of more than N instructions take only the calls inside "
             "their loops when small functions are inlined before cloning"),
    cl::init(sampler::SamplerOptions().PreInlineLargeCaller), cl::Hidden);
static cl::opt<bool> ClSampleLate(
    "sampler-sample-late",
    cl::desc("Sample at the end of the pipeline (after inlining)"));
static cl::opt<bool> ClLoopBounds(
    "sampler-loop-bounds",
    cl::desc("Loops with a trip count bounded on entry are checked once"),
    cl::init(true));
static cl::opt<bool> ClLoopPromote(
    "sampler-loop-promote",
    cl::desc("Loops without calls carry the countdown in a register"),
    cl::init(true));
static cl::opt<bool> ClLoopExitPay(
    "sampler-loop-exit-pay",
    cl::desc("Loops without checks compute the countdown on their exits"),
    cl::init(true));
static cl::opt<bool> ClNaturalNests(
    "sampler-natural-nests",
    cl::desc("Every loop of the fast copy is a natural loop (the instrumented "
             "copy returns to inner loops through copies of outer loops)"),
    cl::init(sampler::SamplerOptions().NaturalNests));
static cl::opt<bool> ClOpenNests(
    "sampler-open-nests",
    cl::desc("With natural nests, nests that call a local function with a "
             "loop, inlined at its one call, get no copies of their outer "
             "loops"),
    cl::init(sampler::SamplerOptions().OpenNests));
static cl::opt<bool> ClSlowOptSize(
    "sampler-slow-optsize",
    cl::desc("Instrumented copies that are functions of their own "
             "(F.sampler.slow) are optimised for size"),
    cl::init(sampler::SamplerOptions().SlowOptSize));
static cl::opt<bool> ClNestPromote(
    "sampler-nest-promote",
    cl::desc("Loops without calls whose inner loops check carry the "
             "countdown in a register through the whole nest"),
    cl::init(sampler::SamplerOptions().NestPromote));
static cl::opt<bool> ClLoopReserve(
    "sampler-loop-reserve",
    cl::desc("Loops whose inner loops check reserve their back edges' trials "
             "on entry"),
    cl::init(sampler::SamplerOptions().LoopReserve));
static cl::opt<bool> ClLoopChunks(
    "sampler-loop-chunks",
    cl::desc("Loops with a reserve whose countdown does not cover all their "
             "back edges reserve those it covers, then check"),
    cl::init(sampler::SamplerOptions().LoopChunks));
static cl::opt<bool> ClCheckMerge(
    "sampler-check-merge",
    cl::desc("A check right after another's fast edge is paid by the first"),
    cl::init(sampler::SamplerOptions().CheckMerge));
static cl::opt<unsigned> ClCheckMergeGiveBack(
    "sampler-check-merge-give-back",
    cl::desc("A check only some paths from the check before reach is paid by "
             "that check when the ways that miss it run at most N% as often "
             "as it does (0: only checks every path reaches)"),
    cl::init(sampler::SamplerOptions().CheckMergeGiveBack));
static cl::opt<bool> ClCheckDiscount(
    "sampler-check-discount",
    cl::desc("The inliner charges nothing for a one-region function's check "
             "and its call to the instrumented copy"),
    cl::init(sampler::SamplerOptions().CheckDiscount));
static cl::opt<bool> ClSingleCallCopies(
    "sampler-single-call-copies",
    cl::desc("A local function called once, in a loop of its caller, keeps "
             "that call as its only one: the caller's copies call a copy of it"),
    cl::init(sampler::SamplerOptions().SingleCallCopies));
static cl::opt<unsigned> ClSingleCallSizeLimit(
    "sampler-single-call-size-limit",
    cl::desc("With single-call copies, a local function of at most N "
             "instructions keeps its one call outside its caller's loops too "
             "(0: only calls in loops)"),
    cl::init(sampler::SamplerOptions().SingleCallSizeLimit));
static cl::opt<unsigned> ClSingleCallMaxSize(
    "sampler-single-call-max-size",
    cl::desc("With single-call copies, a local function of more than N "
             "instructions gets no copy (0: no cap)"),
    cl::init(sampler::SamplerOptions().SingleCallMaxSize));
static cl::opt<bool> ClCopyComdat(
    "sampler-copy-comdat",
    cl::desc("A private copy that only one comdat group's functions call "
             "joins that group"),
    cl::init(sampler::SamplerOptions().CopyComdat));
static cl::opt<bool> ClIndirectTLS(
    "sampler-indirect-tls",
    cl::desc("On x86, functions that touch the countdown reach it through "
             "the thread pointer, not the segment register"),
    cl::init(sampler::SamplerOptions().IndirectTLS));
static cl::opt<bool> ClSingleThreaded(
    "sampler-single-threaded",
    cl::desc("The program runs one thread: one countdown for the process, a "
             "plain global, where it is otherwise the thread's"),
    cl::init(sampler::SamplerOptions().SingleThreaded));
static cl::opt<unsigned> ClHoldPercent(
    "sampler-hold-percent",
    cl::desc("With -sampler-indirect-tls, hold the countdown's address in a "
             "register only where the blocks that touch it run at least N% "
             "as often as the function's entry (0: wherever two blocks do)"),
    cl::init(sampler::SamplerOptions().HoldPercent));
static cl::opt<std::string> ClAtomicCounters(
    "sampler-atomic-counters",
    cl::desc("How sites update their counters: when-threaded (plain while "
             "the process has one thread, relaxed atomics once it has "
             "started another), 1 (always atomic) or 0 (always plain)"),
    cl::init("when-threaded"));
static cl::opt<unsigned> ClEntryTwinLimit(
    "sampler-entry-twin-limit",
    cl::desc("Functions of at most N instructions that may return early get "
             "a twin their entry check's slow way tail-calls (0: never)"),
    cl::init(sampler::SamplerOptions().EntryTwinLimit));
static cl::opt<unsigned> ClContinuationLimit(
    "sampler-continuation-limit",
    cl::desc("Functions of at most N instructions that call nothing get a "
             "continuation their ways into the instrumented copy tail-call "
             "(0: never)"),
    cl::init(sampler::SamplerOptions().ContinuationLimit));
static cl::opt<unsigned> ClContinuationCopies(
    "sampler-continuation-copies",
    cl::desc("At most N continuations a function; a function whose ways "
             "need more keeps its instrumented copy (0: no cap)"),
    cl::init(sampler::SamplerOptions().ContinuationCopies));
static cl::opt<unsigned> ClPaidCalleeWeight(
    "sampler-paid-callee-weight",
    cl::desc("Leaf functions of one region of at most N sites are paid for "
             "by their callers' regions, whose fast copies call them without "
             "their check (0: none)"),
    cl::init(sampler::SamplerOptions().PaidCalleeWeight));
static cl::opt<unsigned> ClColdHeavyPercent(
    "sampler-cold-heavy-percent",
    cl::desc("Where a profile weighs a branch, a way of 3 or more sites "
             "beyond the other's, taken at most N% of the time, gets a check "
             "of its own (0: never)"),
    cl::init(sampler::SamplerOptions().ColdHeavyPercent));
static cl::opt<unsigned> ClCountdownSlotSites(
    "sampler-countdown-slot-sites",
    cl::desc("Functions with at least N sites keep their instrumented copy's "
             "countdown in a stack slot, not a register (0: never)"),
    cl::init(sampler::SamplerOptions().CountdownSlotSites));
static cl::opt<unsigned> ClCheckStride(
    "sampler-check-stride",
    cl::desc("An unbounded loop's back-edge check is tested once every N "
             "iterations (the loop unrolled N times; 1: every iteration)"),
    cl::init(sampler::SamplerOptions().CheckStride));
static cl::opt<std::string> ClTLSModel(
    "sampler-tls-model",
    cl::desc("The countdown's TLS model: auto (local-exec in executables) or "
             "initial-exec"),
    cl::init("auto"));
static cl::opt<std::string> ClObserveEdges(
    "sampler-observe-edges",
    cl::desc("Branch and returns sites add 1 to a constant cell on each way "
             "of a test of the value: auto (in unconditional builds), 1 or 0"),
    cl::init("auto"));
static cl::opt<bool> ClThreadCopies(
    "sampler-thread-copies",
    cl::desc("Unconditional builds: functions are copied in two, plain and "
             "atomic adds, glibc's thread flag tested once on entry"),
    cl::init(sampler::SamplerOptions().ThreadCopies));
static cl::opt<std::string> ClFeedback(
    "sampler-feedback",
    cl::desc("Branch weights from earlier runs' counts: a report, or the "
             "merge of many (sampler-report --merge)"),
    cl::init(""));
static cl::opt<bool> ClColdInPlace(
    "sampler-cold-in-place",
    cl::desc("With feedback, cold functions are not cloned: their sites are "
             "lowered in place"),
    cl::init(sampler::SamplerOptions().ColdInPlace));
static cl::opt<bool> ClColdLoopsInPlace(
    "sampler-cold-loops-in-place",
    cl::desc("With feedback, cold functions with sites in loops are lowered "
             "in place too (off: cloned)"),
    cl::init(sampler::SamplerOptions().ColdLoopsInPlace));
static cl::opt<unsigned> ClColdCount(
    "sampler-cold-count",
    cl::desc("With feedback, a function is cold when its hottest site ran at "
             "most N times a run (0: never ran)"),
    cl::init(sampler::SamplerOptions().ColdCount));
static cl::opt<unsigned> ClColdPathSites(
    "sampler-cold-path-sites",
    cl::desc("With feedback, a cold function is lowered in place only if no "
             "path through it crosses more than N sites (0: no limit)"),
    cl::init(sampler::SamplerOptions().ColdPathSites));
static cl::opt<bool> ClColdOptSize(
    "sampler-cold-optsize",
    cl::desc("With feedback, cold functions are optimised for size (optsize)"),
    cl::init(sampler::SamplerOptions().ColdOptSize));
static cl::opt<std::string>
    ClSkip("sampler-skip", cl::desc("Functions not to instrument: f,g or @FILE"),
           cl::init(""));

sampler::SamplerOptions sampler::getDefaultPassOptions() {
  SamplerOptions Opts;
  auto Apply = [&](StringRef Name, StringRef Value) {
    if (Error E = Opts.set(Name, Value)) {
      errs() << toString(std::move(E)) << "\n";
      exit(1);
    }
  };
  Apply("schemes", ClSchemes);
  Apply("sampling", ClSampling);
  if (!ClWeightless.empty())
    Apply("weightless", ClWeightless);
  if (!ClSkip.empty())
    Apply("skip", ClSkip);
  if (!ClInclude.empty())
    Apply("include", ClInclude);
  if (!ClExclude.empty())
    Apply("exclude", ClExclude);
  Apply("elements", ClElements ? "1" : "0");
  Apply("compare-constants", ClCompareConstants ? "1" : "0");
  Apply("clone-threshold", std::to_string(ClCloneThreshold));
  Apply("outline-limit", std::to_string(ClOutlineLimit));
  Apply("preinline-limit", std::to_string(ClPreInlineLimit));
  Apply("preinline-large-caller", std::to_string(ClPreInlineLargeCaller));
  Apply("sample-late", ClSampleLate ? "1" : "0");
  Apply("loop-bounds", ClLoopBounds ? "1" : "0");
  Apply("loop-promote", ClLoopPromote ? "1" : "0");
  Apply("loop-exit-pay", ClLoopExitPay ? "1" : "0");
  Apply("natural-nests", ClNaturalNests ? "1" : "0");
  Apply("open-nests", ClOpenNests ? "1" : "0");
  Apply("slow-optsize", ClSlowOptSize ? "1" : "0");
  Apply("nest-promote", ClNestPromote ? "1" : "0");
  Apply("loop-reserve", ClLoopReserve ? "1" : "0");
  Apply("loop-chunks", ClLoopChunks ? "1" : "0");
  Apply("check-merge", ClCheckMerge ? "1" : "0");
  Apply("check-merge-give-back", std::to_string(ClCheckMergeGiveBack));
  Apply("check-discount", ClCheckDiscount ? "1" : "0");
  Apply("single-call-copies", ClSingleCallCopies ? "1" : "0");
  Apply("single-call-size-limit", std::to_string(ClSingleCallSizeLimit));
  Apply("single-call-max-size", std::to_string(ClSingleCallMaxSize));
  Apply("copy-comdat", ClCopyComdat ? "1" : "0");
  Apply("indirect-tls", ClIndirectTLS ? "1" : "0");
  Apply("hold-percent", std::to_string(ClHoldPercent));
  Apply("single-threaded", ClSingleThreaded ? "1" : "0");
  Apply("atomic-counters", ClAtomicCounters);
  Apply("entry-twin-limit", std::to_string(ClEntryTwinLimit));
  Apply("continuation-limit", std::to_string(ClContinuationLimit));
  Apply("continuation-copies", std::to_string(ClContinuationCopies));
  Apply("paid-callee-weight", std::to_string(ClPaidCalleeWeight));
  Apply("cold-heavy-percent", std::to_string(ClColdHeavyPercent));
  if (!ClFeedback.empty())
    Apply("feedback", ClFeedback);
  Apply("cold-in-place", ClColdInPlace ? "1" : "0");
  Apply("cold-count", std::to_string(ClColdCount));
  Apply("cold-loops-in-place", ClColdLoopsInPlace ? "1" : "0");
  Apply("cold-path-sites", std::to_string(ClColdPathSites));
  Apply("cold-optsize", ClColdOptSize ? "1" : "0");
  Apply("countdown-slot-sites", std::to_string(ClCountdownSlotSites));
  Apply("check-stride", std::to_string(ClCheckStride));
  Apply("tls-model", ClTLSModel);
  Apply("observe-edges", ClObserveEdges);
  Apply("thread-copies", ClThreadCopies ? "1" : "0");
  return Opts;
}

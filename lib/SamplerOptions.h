//===- SamplerOptions.h - Options of the sampler pass ---------------------===//
//
// One options struct for every entry point: the clang plugin fills it from
// -fplugin-arg-sampler-NAME=VALUE, opt from -sampler-NAME=VALUE (cl::opt, only
// in the LLVM-only plugin, see OptionsFromCommandLine.cpp). parse() is the one
// place where names and values are checked, so every entry point gives the
// same one-line errors.
//
//===----------------------------------------------------------------------===//
#ifndef SAMPLER_SAMPLEROPTIONS_H
#define SAMPLER_SAMPLEROPTIONS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/IR/Function.h"
#include "llvm/Support/Error.h"
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace sampler {

class FrontEndInfo;
class Feedback;

struct SamplerOptions {
  /// Instrumentation schemes, in the order they are applied.
  std::vector<std::string> Schemes = {"branches", "returns", "checks"};
  /// true: sites are sampled (fast/instrumented copies, countdown);
  /// false: every site execution is observed (the "unconditional" build).
  bool Sampling = true;
  /// Functions declared weightless by the user (names as in the IR).
  std::set<std::string> Weightless;
  /// Functions that must not be instrumented.
  std::set<std::string> SkipFunctions;
  /// Patterns (glob) selecting what is instrumented: a plain pattern matches
  /// the function's name (IR or demangled), `file:PATTERN` its source file.
  /// With any include pattern, only matching functions are instrumented;
  /// exclude patterns always win.
  std::vector<std::string> Include, Exclude;
  /// Value schemes also observe assignments to fields and array elements.
  bool Elements = false;
  /// scalar-pairs also compares with the function's integer constants.
  bool CompareConstants = false;
  /// Clone a function (fast and instrumented copies) only when some region
  /// has at least this many sites; 1 clones every function with sites.
  unsigned CloneThreshold = 1;
  /// A function cloned in place (it has loops or heavy regions) of at most
  /// this many instructions gets its instrumented copy as a function of its
  /// own (SlowCopyOutliner.h), meant to keep it small enough to inline; 0:
  /// never. Off by default: measured no better (limit 200, sampling off: Lua
  /// 1.127 -> 1.124, zlib 1.193 -> 1.196, bzip2 1.154 -> 1.142), because the
  /// checks and the calls to the outlined copy still weigh too much for the
  /// inliner (docs/benchmarks.md).
  unsigned OutlineLimit = 0;
  /// Functions with sites and a loop of at most this many instructions (as
  /// the schemes leave them, at the start of the pipeline) are inlined into
  /// their callers before the transformation (PreInliner.h), where cloning
  /// would have made them too big for the inliner; 0: never.
  unsigned PreInlineLimit = 100;
  /// Callers of more than this many instructions take only the calls inside
  /// one of their loops (PreInliner.h).
  unsigned PreInlineLargeCaller = 2000;
  /// Insert sites at the pipeline start but sample at its end (after
  /// inlining). Off by default: on Lua it bought nothing (docs/benchmarks.md).
  bool SampleLate = false;
  /// Loops whose trip count ScalarEvolution bounds on entry pay for all
  /// their back edges' checks at once, in a copy without them
  /// (LoopBoundCheck.h). On by default; off to measure what it buys.
  bool LoopBounds = true;
  /// Loops without calls carry the countdown in a register, stored on their
  /// exits (LoopCountdownPromotion.h). On by default; off to measure.
  bool LoopPromote = true;
  /// Loops left without checks compute the countdown on their exits from an
  /// induction variable instead of paying every iteration
  /// (LoopExitPayment.h). On by default; off to measure.
  bool LoopExitPay = true;
  /// Loops whose inner loops check, and some of whose iterations run none of
  /// them, reserve their back edges' trials on entry (LoopBoundCheck.h). On by
  /// default (zlib -8.6% with sampling off, docs/benchmarks.md); off to
  /// measure.
  bool LoopReserve = true;
  /// A loop with a reserve (LoopReserve) whose countdown does not cover all
  /// its back edges on entry reserves the back edges it covers, runs them in
  /// the copy without the latch's check, and then goes on checking, instead
  /// of checking every iteration (LoopBoundCheck.h, "chunks"). Off to measure.
  bool LoopChunks = true;
  /// Every loop of the fast copy is a natural loop: the instrumented copy
  /// returns at the header of an inner loop through a copy of its outer loop
  /// (LoopTails.h), not into the fast outer loop, which that return would
  /// make an irreducible cycle. On by default (docs/benchmarks.md, "What each
  /// change bought"); off to measure.
  bool NaturalNests = true;
  /// With natural nests, a nest whose loops call a local function with a
  /// loop, one the inliner takes at its one call (SingleCallLocals.h), gets
  /// no tails: the instrumented copy goes back into it at its inner loops'
  /// headers (LoopTails.h says why and which nests). On by default; off:
  /// every nest gets tails.
  bool OpenNests = true;
  /// An instrumented copy that is a function of its own (F.sampler.slow) is
  /// optimised for size (`optsize`): it runs only when a sample falls in its
  /// region (SamplingTransform.cpp, outline()). On by default; off to measure.
  bool SlowOptSize = true;
  /// A loop without calls whose inner loops have checks carries the
  /// countdown in a register through the whole nest, each inner loop's
  /// countdown on the way out hidden from ScalarEvolution
  /// (LoopCountdownPromotion.h). On by default; off: with natural nests,
  /// such a loop leaves its inner loops to be promoted one by one.
  bool NestPromote = true;
  /// A check entered only through the fast edge of the check before it, with
  /// nothing that touches the countdown between them (after inlining), is
  /// paid by that check (CheckMerge.h). On by default; off to measure.
  bool CheckMerge = true;
  /// A check that only some paths from the check before it reach is paid by
  /// that check too when the ways that miss it, which then give its trials
  /// back, run at most this percentage of the times it runs, by the static
  /// block frequencies (CheckMerge.h); 0: only checks every path reaches.
  unsigned CheckMergeGiveBack = 50;
  /// The inliner is told to charge nothing for a function of one region's
  /// check and its call to the instrumented copy, so that it inlines that
  /// function where it would without sampler (SamplingTransform.cpp,
  /// chargeNothingForTheCheck). On by default; off to measure.
  bool CheckDiscount = true;
  /// A local function that had one call before the transformation, in a
  /// loop of its caller, keeps it as its only call; the copies of that call
  /// (in the caller's instrumented copy) call a copy of the function, so
  /// that the inliner still takes it as the last call to a static function
  /// (SingleCallLocals.h). On by default; off to measure.
  bool SingleCallCopies = true;
  /// With SingleCallCopies, a local function of at most this many
  /// instructions (as the schemes left it) keeps its one call even outside
  /// its caller's loops (SingleCallLocals.h); 0: only calls in loops.
  unsigned SingleCallSizeLimit = 0;
  /// With SingleCallCopies, a local function of more than this many
  /// instructions gets no copy, wherever its call (SingleCallLocals.h); 0: no
  /// cap.
  unsigned SingleCallMaxSize = 1000;
  /// A private copy (F.sampler.slow, F.sampler.twin) that only functions of
  /// one comdat group call joins that group, so that the linker keeps it only
  /// with them (CopyComdat.h). On by default; off to measure.
  bool CopyComdat = true;
  /// On x86, every function that touches the countdown reaches it through
  /// the thread pointer loaded from %fs:0 rather than through the segment
  /// register, which keeps the checks' chain through memory short
  /// (IndirectTLS.h). On by default; off to measure.
  bool IndirectTLS = true;
  /// The program runs one thread: the countdown is one plain global for the
  /// process (abi::ProcessCountdown), reached by an instruction-pointer-
  /// relative operand, where it is otherwise the thread's. Off by default:
  /// threads would share it, and race on it (the runtime says so at exit).
  bool SingleThreaded = false;
  /// With IndirectTLS, a function holds the countdown's address in a
  /// register only if the blocks that touch the countdown run, by the static
  /// block frequencies, at least this percentage of its entry's runs (not
  /// only an entry check and its cold ways); 0: wherever two blocks touch it.
  unsigned HoldPercent = 150;
  /// How sites update their counters (docs/internals.md, "Counters").
  ///  - WhenThreaded (the default): while the process has one thread, a
  ///    plain load, operation and store; once it has started another, a
  ///    relaxed atomic operation. The test is glibc's __libc_single_threaded
  ///    (glibc 2.32 and later: false from the first pthread_create on, set
  ///    in the creating thread before the new one exists), read before each
  ///    update. Exact like Always, without the `lock` (some 20 cycles on x86:
  ///    most of the time at d = 1 and in the unconditional build) in
  ///    single-threaded programs. Only on Linux with glibc; elsewhere Always.
  ///  - Always: a relaxed atomic operation, whatever the threads.
  ///  - Never: a plain load, operation and store, as clang's
  ///    `-fprofile-update=single`, for programs whose threads share no
  ///    unit's counters.
  enum class CounterAtomicity { WhenThreaded, Always, Never };
  CounterAtomicity AtomicCounters = CounterAtomicity::WhenThreaded;
  /// A function of at most this many instructions (at the end of the
  /// pipeline) that calls nothing and whose fast copy may return before it
  /// touches the countdown again gets a twin that its entry check's slow way
  /// tail-calls (EntryTwin.h), so that its early returns save no registers;
  /// 0: never.
  unsigned EntryTwinLimit = 2000;
  /// A function of at most this many instructions (at the end of the
  /// pipeline) that calls nothing and keeps nothing in its frame: its ways
  /// into its instrumented copy tail-call a continuation, a private copy
  /// that begins where each way leads (ContinuationTwin.h), so that its fast
  /// copy needs no register the instrumented copy needs; 0: never.
  unsigned ContinuationLimit = 2000;
  /// At most this many continuations a function (each copies what its ways
  /// reach of the instrumented copy); a function whose ways need more keeps
  /// its instrumented copy. 0: no cap.
  unsigned ContinuationCopies = 0;
  /// A leaf function whose body is one region of at most this many sites is
  /// a paid callee: a cloned caller's region pays for its trials where they
  /// fit, and the fast copy calls its body without its check
  /// (SamplingTransform::choosePaidCallees()); 0: none. Off by default: on
  /// the corpus it moved instructions by -0.07% to +0.11% (docs/benchmarks.md,
  /// "Callees paid by their callers").
  unsigned PaidCalleeWeight = 0;
  /// Where a profile gives a branch its weights (clang's -fprofile-instr-use,
  /// applied by the front end; -fprofile-use's IR profile comes after the
  /// pass), a branch one of whose ways leads to at least 3 more sites than
  /// the other, and whose heavy way is taken at most this percentage of the
  /// time, gets a check on its heavy edge, so that the light ways' regions
  /// pay for fewer trials (SamplingTransform.cpp, checksOnColdHeavyEdges);
  /// 0: never. Without weights nothing changes.
  unsigned ColdHeavyPercent = 20;
  /// Counts of earlier runs (-fsampler-feedback=FILE: a report, or the
  /// merge of many that `sampler-report --merge` writes), read when the
  /// option is given. The branch and switch sites of a unit they name get
  /// the weights those runs measured (FeedbackWeights.h), which then serve
  /// ColdHeavyPercent, and the optimiser, as a profile's would.
  std::shared_ptr<const Feedback> FeedbackCounts;
  std::string FeedbackPath;
  /// With feedback, a cold function is not cloned: its sites are lowered in
  /// place (one countdown test each), which keeps it about its original
  /// size. Exact either way. Cold: its hottest site ran at most ColdCount
  /// times a run, on average over those runs (0: never ran).
  bool ColdInPlace = true;
  unsigned ColdCount = 1000;
  /// Whether a cold function with a site in a loop is lowered in place too.
  /// Off: it is cloned. The runs found it cold, but a workload unlike theirs
  /// may run it hot, and in place its loop would pay a test a site on every
  /// iteration (bzip2's fallbackSort, +78%; docs/benchmarks.md, "Workloads
  /// unlike the training one").
  bool ColdLoopsInPlace = false;
  /// The most sites a path through a cold function may cross for it to be
  /// lowered in place (a cycle's counted once; 0: no limit). In place, a call
  /// pays a test for each site it crosses, where the cloned copy pays one
  /// check a region; at 1 a call in place never pays more tests than the
  /// clone's entry check, whatever workload runs it (Lua's parser, cold in
  /// one workload and hot in another: docs/benchmarks.md, "Workloads unlike
  /// the training one").
  unsigned ColdPathSites = 1;
  /// With feedback, every function the runs found cold (lowered in place or
  /// kept cloned) is optimised for size (`optsize`), as clang's profile-guided
  /// builds do with the functions their profile finds cold: fewer callees
  /// inlined into it, no unrolling, smaller code choices. Its sites and what
  /// they observe are the same.
  bool ColdOptSize = true;
  /// In an unconditional build whose adds test glibc's thread flag
  /// (WhenThreaded, x86-64), functions with adds in loops or several on a
  /// way through are copied in two, one with plain adds and one with atomic
  /// adds into a second half of the counters, and the flag is tested once on
  /// entry (ThreadCopies.h). On by default; off to measure.
  bool ThreadCopies = true;
  /// A function cloned in place with at least this many sites keeps its
  /// instrumented copy's countdown in a stack slot (volatile: never promoted
  /// to a register) instead of a web of PHIs, one at least per site: the
  /// register coalescer's time grows faster than linearly with that web
  /// (SamplingTransform.cpp, run()); 0: never. 1000: SQLite's sqlite3.c with
  /// every scheme compiles in 586 s instead of 942 s (CPU), and no function of
  /// the corpus has that many sites with the default schemes (their code is
  /// unchanged: sqlite3.o byte for byte); docs/benchmarks.md.
  unsigned CountdownSlotSites = 1000;
  /// An unbounded loop's back-edge check in the fast copy is tested once
  /// every this many iterations: the loop is unrolled that many times and
  /// the first copy's check tests for the others (CheckStride.h; exact);
  /// 1: every iteration.
  unsigned CheckStride = 4;
  /// How instrumented code reaches the thread-local countdown. Auto: the
  /// local-exec model (`%fs:offset`, no GOT load, no register held) in
  /// executables (PIE or non-PIC code), whose runtime is linked in; the
  /// initial-exec model otherwise. InitialExec: always initial-exec, for
  /// executables linked with the shared runtime (sampler-cc
  /// -fsampler-runtime=shared passes it).
  enum class TLSModel { Auto, InitialExec } CountdownTLS = TLSModel::Auto;
  /// How branch and returns sites find their cell. Edges: the observation
  /// tests the value as the program would (a branch's condition; a returned
  /// value against 0), each way adding 1 to a constant cell, and jump
  /// threading merges those tests with the program's own (`jg; addq $1,
  /// cell(%rip)`); otherwise the cell is computed from the value (`setl;
  /// leaq`) and one add takes it. Edges cost 19-31% fewer instructions in
  /// unconditional builds, but in sampled builds their blocks change the
  /// register allocation of the fast copy, which shares the function (zlib
  /// +5.75% with sampling off: docs/benchmarks.md, "Branch sites observed on
  /// their edges"). Auto: edges in unconditional builds only.
  enum class ObserveEdgesMode { Auto, On, Off } ObserveEdges = ObserveEdgesMode::Auto;
  /// Whether sites observe on edges (ObserveEdges resolved).
  bool observeEdges() const {
    return ObserveEdges == ObserveEdgesMode::On ||
           (ObserveEdges == ObserveEdgesMode::Auto && !Sampling);
  }
  /// What the clang front end learned from the AST (source text of sites,
  /// functions declared in system headers, pragmas); null with opt.
  const FrontEndInfo *FrontEnd = nullptr;

  /// The schemes that exist.
  static const std::vector<std::string> &knownSchemes();
  /// Applies one NAME=VALUE setting. Errors are one line that names the
  /// option and the value.
  llvm::Error set(llvm::StringRef Name, llvm::StringRef Value);
  /// Reads a file of function names (one per line, '#' comments).
  static llvm::Error readNameList(llvm::StringRef Path,
                                  std::set<std::string> &Out);
  bool hasScheme(llvm::StringRef S) const;
  /// Whether the include/exclude patterns select \p F.
  bool selects(const llvm::Function &F) const;
};

} // namespace sampler

#endif

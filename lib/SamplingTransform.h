//===- SamplingTransform.h - Fast and instrumented copies, stitched -------===//
//
// The sampling transformation of Liblit et al. (PLDI 2003), on LLVM IR, with
// regions that pay for their trials up front (docs/sampling.md). For a
// function with sites (markers, docs/internals.md §3):
//
//   * check edges (loop back edges, computed-goto edges, the entries of heavy
//     loops, the cold heavy ways of branches where a profile gives weights,
//     splits of regions heavier than 8 sites, the return of setjmp) cut the
//     CFG into regions; a region's weight W is the most sites on a path from
//     its start to the next check edge or a return;
//   * at each region start a check `countdown -= W; if (countdown >= 0)`
//     chooses the *fast copy* (the original code: none of the region's W
//     trials succeeds) or the *instrumented copy*, where the site with r sites
//     left to the region's end owns the region's trial W - r + 1 and fires when
//     the countdown relative to the region's end is -r;
//   * calls do not end regions: the callee's trials come after the region's,
//     but for a paid callee (a leaf of one region, choosePaidCallees()),
//     whose trials the caller's region pays as if they were its own sites:
//     the fast copy calls its body, without its check;
//   * a function of one region keeps its body behind the entry check and gets
//     its instrumented copy as a separate function (F.sampler.slow), so it
//     stays small enough to inline; other functions are cloned in place
//     (original blocks = fast copy, clones with suffix .slow = instrumented).
//
// Functions that cannot be cloned (callbr, funclet EH, token values,
// convergent/noduplicate calls, coroutines) keep a single copy in which every
// site consumes its own trial on the thread-local countdown: slower, equally
// fair.
//
//===----------------------------------------------------------------------===//
#ifndef SAMPLER_SAMPLINGTRANSFORM_H
#define SAMPLER_SAMPLINGTRANSFORM_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

#include "RuntimeABI.h"

namespace llvm {
class Loop;
class ScalarEvolution;
class SCEVAddRecExpr;
} // namespace llvm

namespace sampler {

/// Metadata on the branch of a fast-copy loop's back-edge check, its operand
/// the region's weight: what LoopBoundCheck looks for after the optimiser has
/// reshaped the loop (a tag lost on the way only means no bounded version).
inline constexpr char BackEdgeCheckMD[] = "sampler.backedge.check";
/// What LoopBoundCheck leaves on the back-edge check of a loop it found no
/// bound for (it drops BackEdgeCheckMD as it goes), for CheckStride.h.
inline constexpr char UnboundedBackEdgeMD[] = "sampler.backedge.unbounded";
/// The same on the fast copy's other checks (loop entries, splits of heavy
/// regions): a bounded loop's copy drops those of its own body too.
inline constexpr char CheckMD[] = "sampler.check";
/// On the volatile load of a site lowered in place (its `countdown - 1` and
/// sign test look like a check of weight 1): it is not a check, whose slow
/// way a merged payment or an entry twin may take with a countdown still
/// positive; the site's cold code assumes it negative (CheckShape.h).
inline constexpr char InPlaceSiteMD[] = "sampler.inplace.site";

/// W, from a check's tag of kind \p Kind (BackEdgeCheckMD, CheckMD or
/// UnboundedBackEdgeMD) on \p Term; 0 without.
inline uint64_t tagWeight(const llvm::Instruction *Term,
                          llvm::StringRef Kind = BackEdgeCheckMD) {
  llvm::MDNode *MD = Term ? Term->getMetadata(Kind) : nullptr;
  if (!MD || MD->getNumOperands() != 1)
    return 0;
  if (auto *C = llvm::mdconst::dyn_extract<llvm::ConstantInt>(MD->getOperand(0)))
    return C->getZExtValue();
  return 0;
}

/// The countdown global the sampling transformation gave \p M: the
/// thread's (abi::Countdown), or the process's (abi::ProcessCountdown, built
/// -fsampler-single-threaded); null in a module without sampled code.
inline llvm::GlobalVariable *countdownIn(llvm::Module &M) {
  if (llvm::GlobalVariable *G = M.getGlobalVariable(abi::Countdown))
    return G;
  return M.getGlobalVariable(abi::ProcessCountdown);
}

/// Whether \p Ptr is the countdown \p Countdown (the thread's or the
/// process's), directly or through llvm.threadlocal.address (how clang writes
/// TLS accesses).
inline bool isCountdownAddress(const llvm::Value *Ptr,
                               const llvm::GlobalVariable *Countdown) {
  if (auto *II = llvm::dyn_cast<llvm::IntrinsicInst>(Ptr))
    if (II->getIntrinsicID() == llvm::Intrinsic::threadlocal_address)
      Ptr = II->getArgOperand(0);
  return Ptr == Countdown;
}

/// The address through which \p F's code reaches \p Countdown: one
/// `llvm.threadlocal.address` call at the top of the entry block, created if
/// there is none yet. Every access in a function goes through it, so the
/// global itself has a handful of uses rather than one per access in the
/// module: LICM's promotion walks all uses of the pointer it promotes, once per
/// loop, which on a large unit (sqlite's amalgamation) made the optimiser
/// quadratic. Presplit coroutines keep the global (a thread-local address
/// taken before a suspension is not valid after it); so does a function
/// without a body.
llvm::Value *countdownAddressFor(llvm::Function &F,
                                 llvm::GlobalVariable *Countdown);

/// Makes every access to \p Countdown in \p F go through
/// countdownAddressFor(F).
void localizeCountdownAddress(llvm::Function &F,
                              llvm::GlobalVariable *Countdown);

/// The suffixes of the private copies of a function F: its outlined
/// instrumented copy (SamplingTransform, SlowCopyOutliner), its twin
/// (EntryTwin) and its continuations (ContinuationTwin), for the reader of
/// the IR and of the symbols.
inline constexpr char SlowCopySuffix[] = ".sampler.slow";
inline constexpr char TwinSuffix[] = ".sampler.twin";
inline constexpr char ContinuationSuffix[] = ".sampler.cont";

/// Whether \p F is one of those copies: internal, and marked
/// abi::InstrumentedCopyAttr (CopyComdat.h finds them so; a name can be
/// changed by other passes, or chosen by the program).
inline bool isPrivateCopy(const llvm::Function &F) {
  return F.hasLocalLinkage() && F.hasFnAttribute(abi::InstrumentedCopyAttr);
}

/// A private copy of \p F named F + \p Suffix (makePrivateCopy()), \p VMap
/// mapping F's values to it.
llvm::Function *clonePrivate(llvm::Function &F, llvm::ValueToValueMapTy &VMap,
                             const llvm::Twine &Suffix);

/// Makes \p G, a copy of a function, private: internal, no comdat, never
/// inlined, marked abi::InstrumentedCopyAttr.
void makePrivateCopy(llvm::Function &G);

/// At \p B, the end of a block of \p F: a call of \p Callee (a copy of F, or
/// one whose parameters begin with F's) with F's own arguments and then
/// \p Extra, F's calling convention and argument and return attributes, and
/// a return of what it returns. Returns the call.
llvm::CallInst *forwardCall(llvm::IRBuilder<> &B, llvm::Function &F,
                            llvm::Function *Callee,
                            llvm::ArrayRef<llvm::Value *> Extra = {});

/// How a site calls the runtime's draw: a function of the argument, i64 (i64)
/// (abi::Fire; abi::FirePreserveMost on x86-64 under the large code model),
/// or on x86-64 inline assembly that calls abi::FireRax (SamplingTransform.cpp's
/// fireAsm), directly in an executable, which links the runtime in, and
/// elsewhere through the GOT.
struct FireEntry {
  llvm::FunctionCallee Fn;
  bool InAsm = false;
  bool ViaGOT = false;
};

/// x86-64: keeps every function of \p M that calls fireAsm()'s inline
/// assembly, or any function, which an instrumented one may be inlined into,
/// from keeping data below its stack pointer: the assembly's call pushes
/// there. LLVM uses the red zone only in functions without calls, and it does
/// not count an inline assembly's call; a function that makes other calls
/// loses nothing.
void markNoRedZone(llvm::Module &M);

/// Whether \p F is the runtime's draw (any of its entry points), which reads
/// nothing of the countdown and stores nothing into it (runtime/sampler_abi.h).
inline bool isCountdownDraw(const llvm::Function *F) {
  return F && (F->getName() == abi::NextCountdown ||
               F->getName() == abi::NextCountdownPreserveMost ||
               F->getName() == abi::Fire ||
               F->getName() == abi::FirePreserveMost ||
               F->getName() == abi::FreshCountdownPreserveMost ||
               F->getName() == abi::FireTLSPreserveMost);
}

/// Whether \p CB is inline assembly that calls the runtime's entry \p Entry.
inline bool asmCalls(const llvm::CallBase *CB, const char *Entry) {
  const auto *IA =
      CB ? llvm::dyn_cast<llvm::InlineAsm>(CB->getCalledOperand()) : nullptr;
  return IA && llvm::StringRef(IA->getAsmString()).contains(Entry);
}

/// Whether \p CB calls the runtime's draw: one of its entry points, or the
/// inline assembly that calls abi::FireRax (x86-64, a site's, since ABI 6) or
/// abi::FreshRax (a check's, since ABI 8).
inline bool isCountdownDraw(const llvm::CallBase *CB) {
  if (!CB)
    return false;
  if (CB->isInlineAsm())
    return asmCalls(CB, abi::FireRax) || asmCalls(CB, abi::FreshRax);
  return isCountdownDraw(CB->getCalledFunction());
}

/// Whether \p CB is a check's fresh countdown drawn in inline assembly
/// (freshAsm() in SamplingTransform.cpp, x86-64 since ABI 8).
inline bool isFreshDrawAsm(const llvm::CallBase *CB) {
  return asmCalls(CB, abi::FreshRax);
}

/// Whether \p CB is a draw that also stores the thread-local countdown (a
/// site's, fireAsm() in SamplingTransform.cpp, or a check's fresh countdown,
/// freshAsm(): on the draw's way only, the address its first argument). Such
/// a draw counts as a store of the countdown; the countdown it leaves is its
/// result (a site's: the first of its results).
inline bool drawStoresCountdown(const llvm::CallBase *CB) {
  return CB && CB->isInlineAsm() && isCountdownDraw(CB) &&
         CB->arg_size() == 2;
}

/// Whether \p I is a call that may read or write the countdown: a call into
/// code that may be instrumented. The program never has the countdown's
/// address, so memory reached through pointers (its loads, stores, calls
/// that access only their arguments' memory) is never the countdown. Calls to
/// memory the module cannot see (malloc, as LLVM knows it) may run
/// instrumented code (a program's own allocator): they count. (So would a
/// program's own strlen with sites, which LLVM takes for libc's, argument
/// memory only: the weightless analysis makes the same assumption,
/// docs/weightless.md.) Intrinsics and the runtime's draw do not, unless the
/// draw stores the countdown itself (drawStoresCountdown()).
inline bool mayTouchCountdown(const llvm::Instruction &I) {
  const auto *CB = llvm::dyn_cast<llvm::CallBase>(&I);
  if (!CB)
    return false;
  if (isCountdownDraw(CB))
    return drawStoresCountdown(CB);
  if (const llvm::Function *Callee = CB->getCalledFunction()) {
    // A paid callee's body: no countdown, and no call that touches it.
    if (Callee->hasFnAttribute(abi::PaidBodyAttr))
      return false;
    // Intrinsics run no program code: memcpy, lifetime, assume, debug info,
    // threadlocal.address, trap...
    if (Callee->isIntrinsic() &&
        (CB->onlyAccessesInaccessibleMemory() ||
         CB->onlyAccessesInaccessibleMemOrArgMem()))
      return false;
  }
  return !(CB->doesNotAccessMemory() || CB->onlyAccessesArgMemory());
}

/// Whether \p I loads or stores the countdown, or is a call that may (a
/// callee's checks and sites take trials).
inline bool touchesCountdown(const llvm::Instruction &I,
                             const llvm::GlobalVariable *Countdown) {
  if (const llvm::Value *Ptr = llvm::getLoadStorePointerOperand(&I))
    return isCountdownAddress(Ptr, Countdown);
  return mayTouchCountdown(I);
}

/// The values computed from the countdown in \p F: its loads, the runtime's
/// draws, and everything computed from them, found forwards from their
/// sources. Program values never mix with them (LoopBoundCheck and
/// LoopExitPayment tell the countdown's arithmetic from the program's).
llvm::SmallPtrSet<const llvm::Value *, 32>
countdownValues(llvm::Function &F, const llvm::GlobalVariable *Countdown);

/// A header PHI of a loop that counts its iterations: {Start,+,Step}, Step a
/// constant (not 0, within 63 bits).
struct LoopCounter {
  llvm::PHINode *Phi;
  const llvm::SCEVAddRecExpr *Rec;
  int64_t Step;
};

/// The program's counters of \p L (integer header PHIs of at most 64 bits
/// that ScalarEvolution finds affine in L; none computed from the countdown,
/// \p FromCountdown): what the loop passes compute the countdown from at a
/// way out (LoopExitPayment, LoopBoundCheck's reserve).
llvm::SmallVector<LoopCounter, 4>
loopCounters(const llvm::Loop &L, llvm::ScalarEvolution &SE,
             const llvm::SmallPtrSetImpl<const llvm::Value *> &FromCountdown);

class WeightlessInfo;
/// Where a site's trial is (SamplingTransform.cpp).
struct SiteKey;
/// Calls whose callees' trials a caller's region pays, with their weights, in
/// the order of the caller's blocks.
using PaidCallMap = llvm::SmallMapVector<llvm::CallInst *, uint64_t, 8>;

class SamplingTransform {
public:
  /// Functions whose heaviest region has fewer than \p CloneThreshold sites
  /// keep a single copy; cloned ones of at most \p OutlineLimit instructions
  /// get their instrumented copy outlined (SlowCopyOutliner.h).
  /// With \p LocalExecInExecutables, code built for an executable (PIE or
  /// non-PIC) reaches the countdown with the local-exec TLS model.
  /// With \p NaturalNests, the instrumented copy returns to the fast one only
  /// at the headers of outermost loops (and outside loops), so that outer
  /// loops are natural loops of the fast copy too (SamplerOptions.h).
  /// With \p CheckDiscount, the inliner charges nothing for a function of
  /// one region's check and its call to the instrumented copy
  /// (chargeNothingForTheCheck in SamplingTransform.cpp).
  /// A function cloned in place with at least \p CountdownSlotSites sites
  /// (0: none) keeps its instrumented copy's countdown in a stack slot.
  /// A branch whose profile weights say its heavy way is taken at most
  /// \p ColdHeavyPercent percent of the time gets a check on that way
  /// (0: never; checksOnColdHeavyEdges in SamplingTransform.cpp).
  /// With \p ProcessCountdown the countdown is one plain global for the
  /// process (abi::ProcessCountdown), for programs that run one thread.
  SamplingTransform(llvm::Module &M, const WeightlessInfo &WI,
                    unsigned CloneThreshold, unsigned OutlineLimit,
                    bool LocalExecInExecutables, bool NaturalNests = true,
                    bool CheckDiscount = true, unsigned CountdownSlotSites = 0,
                    unsigned ColdHeavyPercent = 0, bool ProcessCountdown = false);
  /// Rewrites \p F's markers. Returns false if F was lowered in place
  /// (single copy) rather than cloned.
  bool run(llvm::Function &F);

  /// Erases the declarations of the runtime's entry points that no code
  /// calls (on x86-64 a check's fresh countdown is drawn in inline assembly:
  /// the entry declared for the rare fallback stays unused).
  void dropUnusedEntries();
  /// The functions run() has created (instrumented copies of their own).
  llvm::ArrayRef<llvm::Function *> created() const { return Created; }
  /// Of \p Fs, the functions the inliner is expected to take at their one
  /// call (their other calls, in copies, go to out-of-line copies:
  /// SingleCallLocals.h), those with a loop of their own open the nests
  /// that call them, in nests of at most MaxOpenNestLoops loops, with
  /// natural nests (LoopTails.h). Not called: no nest is open.
  void setNestOpeners(llvm::ArrayRef<llvm::Function *> Fs);
  /// Whether instrumented copies that are functions of their own are
  /// optimised for size (`optsize`; on unless set off).
  void setSlowOptSize(bool On) { SlowOptSize = On; }
  /// An open nest gets an entry from the instrumented copy at each inner
  /// loop's header; a nest of more loops than this (an interpreter's
  /// dispatch loop, whose iterations are short) keeps its tails.
  static constexpr unsigned MaxOpenNestLoops = 12;

  /// Callees paid by their callers. Of the functions with sites (\p
  /// HasSites), each leaf whose whole body is one region of at most \p
  /// MaxWeight sites (a function outline() transforms: its entry check pays
  /// for W trials whatever path it takes) that calls nothing that may touch
  /// the countdown and no weighty function, is not declared to write no
  /// memory (`const`, `pure`), and is defined here exactly as it runs (not
  /// interposable), gets a body: a private copy with its sites folded
  /// away and no check (abi::PaidBodyAttr). A cloned caller's region then
  /// pays for such a call's W trials as for W sites of its own: its fast copy
  /// calls the body, which needs no check and touches no countdown, and its
  /// instrumented copy calls the function itself with the thread-local
  /// countdown set to where the callee's W trials lie in the region, and
  /// takes back what it leaves (lowerPaidCall() in SamplingTransform.cpp).
  /// Call before run(); 0 chooses none.
  void choosePaidCallees(const llvm::DenseSet<const llvm::Function *> &HasSites,
                         unsigned MaxWeight);
  bool isPaidCallee(const llvm::Function &F) const { return Paid.count(&F); }

  /// Lowering for the unconditional build: every marker becomes `true`.
  static void lowerUnconditional(llvm::Function &F);

private:
  bool canClone(llvm::Function &F) const;
  /// One region, and arguments a call can pass on: the instrumented copy can
  /// be a function of its own (outline()).
  bool canOutline(llvm::Function &F) const;
  void outline(llvm::Function &F, llvm::ArrayRef<llvm::CallInst *> Markers);
  llvm::BasicBlock *resolveUnknown(llvm::BasicBlock *ToSlow, uint64_t W,
                                   llvm::BasicBlock *FastTarget,
                                   llvm::Value *&L, bool Volatile = true);
  /// The most sites on a path between two points where cloning would place
  /// checks (entry, back edges, weighty calls, landing pads).
  uint64_t heaviestRegion(llvm::Function &F) const;
  void lowerInPlace(llvm::Function &F);

  llvm::Module &M;
  const WeightlessInfo &WI;
  unsigned CloneThreshold;
  unsigned OutlineLimit;
  bool NaturalNests;
  bool CheckDiscount;
  unsigned CountdownSlotSites;
  unsigned ColdHeavyPercent;
  llvm::GlobalVariable *Countdown;
  llvm::FunctionCallee Next;
  /// What a site that may own a success calls (Next is what a check calls
  /// for a fresh countdown).
  FireEntry Fire;
  llvm::SmallVector<llvm::Function *, 16> Created;
  llvm::SmallPtrSet<const llvm::Function *, 16> NestOpeners;
  bool SlowOptSize = true;
  /// A paid callee's weight and body (choosePaidCallees()).
  struct PaidCallee {
    uint64_t Weight;
    llvm::Function *Body;
  };
  llvm::DenseMap<const llvm::Function *, PaidCallee> Paid;
  /// The trials a cloned caller's region pays for call \p CB (0: none, the
  /// callee takes its own after the region's).
  uint64_t paidWeight(const llvm::CallBase &CB) const;
  /// \p F's calls that paidWeight() would pay.
  PaidCallMap paidCandidates(llvm::Function &F) const;
  /// The paid calls \p Calls of a function whose instrumented copy \p VMap
  /// maps it to, its countdown in \p Local: each clone sets and takes back
  /// the thread-local countdown around the callee (lowerPaidCall() in
  /// SamplingTransform.cpp, by its key in \p Keys), each original (the fast
  /// copy) calls the callee's body.
  void payCalls(const PaidCallMap &Calls,
                const llvm::DenseMap<llvm::CallInst *, SiteKey> &Keys,
                llvm::ValueToValueMapTy &VMap, llvm::Value *Local) const;
};

} // namespace sampler

#endif

//===- SamplingTransform.cpp - Fast and instrumented copies, stitched -----===//
//
// See SamplingTransform.h and docs/sampling.md for what this does and why.
// run() takes one of three routes:
//   * in place (lowerInPlace): one copy, each site a decrement and a test;
//   * outline(): one region, the instrumented copy a function of its own;
//   * cloning in place, in steps:
//     1. prologue: the entry block keeps the static allocas;
//     2. blocks split after calls that return twice (those edges get checks);
//     3. PHIs and values live across blocks are demoted to stack slots, so the
//        copies can be cloned and stitched without repairing SSA by hand;
//     4. check edges (the splits of step 2, back edges, computed-goto edges,
//        heavy loops' entries, splits of heavy regions) and region weights on
//        the DAG that remains when check edges are cut; each site's key;
//     5. clone, lower the markers of each copy, insert the checks, redirect the
//        check edges of both copies to them;
//     6. with -sampler-outline-limit, a small function's instrumented copy
//        moves into a function of its own (SlowCopyOutliner.h);
//     7. drop unreachable blocks and promote the stack slots back to registers.
//
//===----------------------------------------------------------------------===//
#include "SamplingTransform.h"
#include "FeedbackWeights.h"
#include "RuntimeABI.h"
#include "SiteTable.h"
#include "LoopTails.h"
#include "PreInliner.h"
#include "SlowCopyOutliner.h"
#include "Weightless.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/CFG.h"
#include "llvm/Analysis/InlineCost.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/ScalarEvolutionExpressions.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/ProfDataUtils.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/Local.h"
#include "llvm/Transforms/Utils/PromoteMemToReg.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

using namespace llvm;
using namespace sampler;

#define DEBUG_TYPE "sampler"

/// A loop whose region (from its header to the next check) weighs at least
/// this many sites gets a check on its entry edges too, and no region weighs
/// more than MaxRegionWeight where a check can split it (see run()). Measured
/// on Lua, zlib and bzip2 (docs/benchmarks.md): 8 and 8 keep the sampling-off
/// cost within 1-2% of no such checks on Lua and zlib (more on bzip2, whose
/// short inner loops are entered often) and divide the d = 100 cost of zlib
/// and bzip2 by 1.7 and 4.
static constexpr uint64_t LoopEntryCheckWeight = 8;
static constexpr uint64_t MaxRegionWeight = 8;
/// With profile weights, a branch one of whose ways leads to at least this
/// many more sites than the other may get a check on that way (see
/// checksOnColdHeavyEdges).
static constexpr uint64_t ColdHeavyGap = 3;

STATISTIC(NumCloned, "Functions given fast and instrumented copies");
STATISTIC(NumInPlace, "Functions lowered in place (single copy)");
STATISTIC(NumOutlined,
          "Functions of one region whose instrumented copy is a function");
STATISTIC(NumSlowOutlined,
          "Functions cloned in place whose instrumented copy was outlined");
STATISTIC(NumChecks, "Threshold checks inserted");
STATISTIC(NumPaidCallees, "Leaf callees whose trials their callers pay");
STATISTIC(NumZeroWeightChecks, "Regions of weight 0 (no check needed)");
STATISTIC(NumCountdownSlots,
          "Instrumented copies whose countdown stays in a stack slot");

SamplingTransform::SamplingTransform(Module &M, const WeightlessInfo &WI,
                                     unsigned CloneThreshold,
                                     unsigned OutlineLimit,
                                     bool LocalExecInExecutables,
                                     bool NaturalNests, bool CheckDiscount,
                                     unsigned CountdownSlotSites,
                                     unsigned ColdHeavyPercent,
                                     bool ProcessCountdown)
    : M(M), WI(WI), CloneThreshold(CloneThreshold), OutlineLimit(OutlineLimit),
      NaturalNests(NaturalNests), CheckDiscount(CheckDiscount),
      CountdownSlotSites(CountdownSlotSites),
      ColdHeavyPercent(ColdHeavyPercent) {
  LLVMContext &C = M.getContext();
  auto *I64 = Type::getInt64Ty(C);
  // Single-threaded, the countdown is a plain global (`addq $-W,
  // __sampler_countdown_process(%rip)`): no thread pointer to load or hold in
  // a register, no segment base in the checks' chain (docs/sampling.md, "One
  // countdown for the process").
  const char *Name = ProcessCountdown ? abi::ProcessCountdown : abi::Countdown;
  Countdown = M.getGlobalVariable(Name);
  if (!Countdown) {
    Countdown = new GlobalVariable(
        M, I64, false, GlobalValue::ExternalLinkage, nullptr, Name, nullptr,
        ProcessCountdown ? GlobalValue::NotThreadLocal
                         : GlobalValue::InitialExecTLSModel);
  }
  // In an executable the runtime (and the countdown) is linked in, so the
  // countdown is at a constant offset from the thread pointer: `%fs:offset`
  // instead of loading the offset from the GOT into a register that the
  // function then keeps (measured on Lua: 4% fewer instructions in all).
  // The process's countdown is then at a constant offset from the code.
  bool InExecutable = LocalExecInExecutables && compiledForExecutable(M);
  if (InExecutable) {
    if (Countdown->isThreadLocal())
      Countdown->setThreadLocalMode(GlobalValue::LocalExecTLSModel);
    Countdown->setDSOLocal(true);
  }
  // On x86-64 the runtime has preserve_most entry points (assembly): with
  // them, a leaf function's fast path saves no registers. A check's takes no
  // argument register (ABI 5), so that what the function keeps in rdi need
  // not move to a callee-saved register for the rare call (EntryTwin.h). A
  // site calls its draw from inline assembly (ABI 6, fireAsm()): its argument
  // and answer in rax, its test the flag the runtime sets.
  bool PreserveMost = Triple(M.getTargetTriple()).getArch() == Triple::x86_64;
  if (PreserveMost) {
    Next = M.getOrInsertFunction(abi::FreshCountdownPreserveMost,
                                 FunctionType::get(I64, false));
    // The large code model assumes nothing about distances, and the
    // assembly's call is a 32-bit displacement (to the entry or its GOT
    // slot): such code calls the preserve_most entry with the argument in
    // rdi, as a function, which the backend calls as the model requires.
    std::optional<CodeModel::Model> CM = M.getCodeModel();
    if (CM && *CM == CodeModel::Large) {
      Fire.Fn = M.getOrInsertFunction(abi::FirePreserveMost,
                                      FunctionType::get(I64, {I64}, false));
    } else {
      Fire.InAsm = true;
      Fire.ViaGOT = !InExecutable;
    }
  } else {
    Next = M.getOrInsertFunction(abi::NextCountdown,
                                 FunctionType::get(I64, {I64}, false));
    Fire.Fn =
        M.getOrInsertFunction(abi::Fire, FunctionType::get(I64, {I64}, false));
  }
  for (FunctionCallee Entry : {Next, Fire.Fn}) {
    auto *F = dyn_cast_or_null<Function>(Entry.getCallee());
    if (!F)
      continue;
    // Reached once per sample: keep it out of the fast path's way.
    F->addFnAttr(Attribute::Cold);
    F->addFnAttr(Attribute::NoUnwind);
    if (PreserveMost) {
      F->setCallingConv(CallingConv::PreserveMost);
      // Never through a lazily bound PLT slot: glibc's lazy resolver does not
      // preserve r10, which preserve_most callers may keep live across the
      // call (wrong results in instrumented shared libraries). nonlazybind
      // calls through a GOT entry resolved when the library is loaded. In an
      // executable, which links the runtime in, the call is direct: a GOT
      // load is a register the optimiser hoists out of loops and keeps, a
      // callee-saved one to push on entry (Lua: 0.3% fewer instructions).
      if (InExecutable)
        F->setDSOLocal(true);
      else
        F->addFnAttr(Attribute::NonLazyBind);
    }
  }
}

void SamplingTransform::setNestOpeners(ArrayRef<Function *> Fs) {
  // A callee with a loop makes its caller's outer iteration long (bzip2's
  // mainQSort3 sorts a bucket), so a sample falls in most of them; one
  // without (a helper of one opcode) leaves it short, and the tail cheap.
  for (Function *G : Fs)
    if (!G->isDeclaration() && hasLoop(*G))
      NestOpeners.insert(G);
}

void SamplingTransform::dropUnusedEntries() {
  for (FunctionCallee Entry : {Next, Fire.Fn})
    if (auto *F = dyn_cast_or_null<Function>(Entry.getCallee());
        F && F->isDeclaration() && F->use_empty())
      F->eraseFromParent();
  Next = FunctionCallee();
  Fire.Fn = FunctionCallee();
}

/// The branch a marker feeds as the schemes built it,
/// `br i1 %marker, label %observe, label %cont` in the marker's block; null
/// when the optimiser has reshaped it (the marker's value then goes through
/// the general lowering below).
static BranchInst *markerBranch(CallInst *Marker) {
  if (!Marker->hasOneUse())
    return nullptr;
  auto *BI = dyn_cast<BranchInst>(Marker->user_back());
  if (!BI || !BI->isConditional() || BI->getParent() != Marker->getParent() ||
      BI->getSuccessor(0) == BI->getSuccessor(1) ||
      !BI->getSuccessor(0)->getSinglePredecessor())
    return nullptr;
  return BI;
}

/// Replaces the marker's conditional branch by an unconditional one to
/// successor \p Succ (0: observe, 1: skip), and deletes the marker.
static void foldMarker(CallInst *Marker, unsigned Succ) {
  BranchInst *BI = markerBranch(Marker);
  if (!BI) {
    Marker->replaceAllUsesWith(
        ConstantInt::getBool(Marker->getContext(), Succ == 0));
    Marker->eraseFromParent();
    return;
  }
  BasicBlock *Keep = BI->getSuccessor(Succ);
  BasicBlock *Drop = BI->getSuccessor(1 - Succ);
  Drop->removePredecessor(BI->getParent());
  BranchInst::Create(Keep, BI->getIterator())->setDebugLoc(BI->getDebugLoc());
  BI->eraseFromParent();
  Marker->eraseFromParent();
}

void SamplingTransform::lowerUnconditional(Function &F) {
  for (CallInst *Marker : SiteTable::markersIn(F))
    foldMarker(Marker, 0);
}

/// Calls the runtime's entry \p Entry (with its calling convention).
static CallInst *callRuntime(IRBuilder<> &B, FunctionCallee Entry,
                             ArrayRef<Value *> Args, const Twine &Name) {
  CallInst *R = B.CreateCall(Entry, Args, Name);
  if (auto *F = dyn_cast<Function>(Entry.getCallee()))
    R->setCallingConv(F->getCallingConv());
  return R;
}

namespace {
/// How a site reads the countdown stored at Cd. The countdown is the number
/// of trials that fail before the next success (>= 0), or negative when the
/// success has passed without a site owning it (docs/sampling.md).
struct SiteForm {
  /// In place (one copy, or the thread-local itself): the site consumes the
  /// next trial, `cd = *Cd - 1`, and owns the success when cd reaches
  /// Key = -1 (x86: `decq mem; js`).
  /// Cloned (the instrumented copy): the local holds the countdown relative
  /// to the end of the region, which the check already paid for; the site
  /// owns the success when it is Key = -r (r: the most sites from it to the
  /// region's end, itself included), and changes nothing unless cd <= Key.
  bool Decrement;
  int64_t Key;
  /// Cloned only: the thread-local countdown, when the site's new countdown
  /// is also to be stored there (no weighty call can have run since its
  /// region began, so the thread-local still holds the region's value);
  /// null otherwise.
  Value *Mirror = nullptr;
};
} // namespace

/// Loads (and in place decrements) the countdown at \p Cd before \p Marker;
/// returns `cd <= Key`, true when the site may fire.
static Value *siteMayFire(IRBuilder<> &B, Value *Cd, SiteForm Form,
                          Value *&CdOut) {
  auto *I64 = B.getInt64Ty();
  // In place the load is volatile and the decrement has no `nsw`, as a
  // check's payment (payForRegion()): otherwise GVN carries one site's stored
  // value to the next site's load, and InstCombine turns `cd - 1 < 0` into
  // `cd < 1`, which keeps the loaded value live past the store. As it is, the
  // sign of the result is all the test needs, and x86 folds load, decrement,
  // store and test into `decq mem; js` when the countdown is the
  // thread-local itself.
  LoadInst *Load =
      B.CreateLoad(I64, Cd, /*isVolatile=*/Form.Decrement, "countdown");
  Value *V = Load;
  if (Form.Decrement) {
    Load->setMetadata(InPlaceSiteMD, MDNode::get(B.getContext(), {}));
    V = B.CreateAdd(V, B.getInt64(-1), "countdown.dec");
    B.CreateStore(V, Cd);
  }
  CdOut = V;
  return B.CreateICmpSLT(V, B.getInt64(Form.Key + 1), "countdown.fire");
}

/// Whether a countdown known to be negative is an ordinary one, and not the
/// d = 1 answer below abi::EveryBelow (bit 62 clear: one `btq` on x86).
static Value *countdownAsks(IRBuilder<> &B, Value *Negative, const Twine &Name) {
  return B.CreateICmpNE(B.CreateAnd(Negative, B.getInt64(abi::EveryBit)),
                        B.getInt64(0), Name);
}

/// The assembly's call of the runtime's entry \p Entry: direct in an
/// executable, which links the runtime in; elsewhere through the GOT, resolved
/// at load time (a lazy PLT slot's resolver would clobber registers the
/// entries keep).
static std::string runtimeCall(const char *Entry, bool ViaGOT) {
  return ViaGOT ? std::string("call *") + Entry + "@GOTPCREL(%rip)"
                : std::string("call ") + Entry;
}

/// What a draw's inline assembly touches: the runtime's state and, given \p
/// StoresThreadLocal, the thread-local countdown, its first argument (a
/// memory operand; its TBAA tag: tagCountdownAccesses()). Program memory (the
/// counters too) is left alone.
static void setDrawEffects(CallInst *R, bool StoresThreadLocal) {
  if (StoresThreadLocal) {
    R->addParamAttr(0, Attribute::get(R->getContext(), Attribute::ElementType,
                                      Type::getInt64Ty(R->getContext())));
    R->setMemoryEffects(MemoryEffects::inaccessibleOrArgMemOnly());
  } else {
    R->setMemoryEffects(MemoryEffects::inaccessibleMemOnly());
  }
  R->setDoesNotThrow();
}

/// A site's draw on x86-64: one statement of inline assembly, given a countdown
/// known to be negative (the site may fire). `btq $62` tells the d = 1 answer
/// (bit 62 clear: abi::EveryBelow) from an ordinary countdown. At d = 1 the
/// site is sampled and the countdown kept, without a call or a store.
/// Otherwise the assembly calls abi::FireRax (since ABI 6) with the argument
/// negated in rax (cd - Key: one lea from the countdown's register), takes its
/// answer |r| in rax and r > 0 in CF, leaves the new countdown Key + |r| in
/// the countdown's register (one lea, which keeps the flags) and, given \p
/// ThreadLocal (the site keeps the thread-local countdown up to date), stores
/// it there (a memory operand: `%fs:offset` in an executable). The answer's CF
/// is complemented (`cmc`), so that on both ways "no carry" means sampled and
/// the site's branch is one jump on the flag.
///  - One statement keeps the site's cold code in one block where an IR branch
///    on bit 62 made three (the test; the draw and its store; the join where
///    the draw's and the d = 1 answer's countdowns meet in a PHI): 9% fewer
///    blocks in sqlite3.c, 8% fewer instructions compiling Lua's lvm.c. The
///    price is at d = 1, a jump more per observation (docs/benchmarks.md,
///    "Compile time: a site's cold code in one block").
///  - Where a call of the function took the argument's computation and store,
///    the call, and a shift, an add, a test and two copies after it: with the
///    stores of the new countdown and the jump, 39 bytes a site of Lua's lvm.c,
///    20 with ABI 6.
///  - The runtime keeps every register but rax, r11 and the flags (ABI 7: the
///    vector registers too, so that the assembly names none of them: each
///    named clobber costs the backend a search of every register of every
///    class, at every site, and sixteen of them were 12% of what compiling
///    Lua's lvm.c executed), and needs no stack alignment; the call pushes
///    below the stack pointer, so the function must not keep data in a red
///    zone (markNoRedZone()). No `dirflag` or `fpsr` either: the runtime's
///    code leaves the direction flag clear, as the ABI has it, and uses no x87
///    instruction.
/// Given \p OwnsUndrawn (ownsWithoutDraw()), a countdown equal to the key
/// owns the success and is sampled with no call (`cmpq $Key; je`: equal
/// leaves CF clear, "sampled" below). The test comes after the d = 1 one,
/// so that d = 1, where every execution of the site comes here, does not
/// pay its two instructions.
/// Returns the new countdown; \p Sampled is whether the site is sampled.
static Value *fireAsm(IRBuilder<> &B, Value *Cd, int64_t Key, bool ViaGOT,
                      Value *ThreadLocal, bool OwnsUndrawn, Value *&Sampled) {
  auto *I64 = B.getInt64Ty();
  std::string Call = runtimeCall(abi::FireRax, ViaGOT);
  static_assert(abi::EveryBit == int64_t(1) << 62, "btq $62 below");
  std::string Asm = "btq $$62, $0\n\tjnc 1f\n\t";
  if (OwnsUndrawn)
    Asm += "cmpq $$" + std::to_string(Key) + ", $0\n\tje 1f\n\t";
  Asm += "leaq " + std::to_string(-Key) + "($0), %rax\n\t" + Call +
         "\n\tleaq " + std::to_string(Key) + "(%rax), $0\n\t";
  if (ThreadLocal)
    Asm += "movq $0, $2\n\t";
  Asm += "cmc\n1:";
  std::string Constraints = ThreadLocal
                                ? "=r,={@ccnc},=*m,0,~{rax},~{r11},~{flags}"
                                : "=r,={@ccnc},0,~{rax},~{r11},~{flags}";
  SmallVector<Value *, 2> Args;
  if (ThreadLocal)
    Args.push_back(ThreadLocal);
  Args.push_back(Cd);
  SmallVector<Type *, 2> Params;
  for (Value *A : Args)
    Params.push_back(A->getType());
  auto *Ty = FunctionType::get(StructType::get(I64, B.getInt8Ty()), Params,
                               false);
  InlineAsm *IA = InlineAsm::get(Ty, Asm, Constraints, /*hasSideEffects=*/true);
  CallInst *R = B.CreateCall(IA, Args, "countdown.fired");
  // Without ThreadLocal the countdown is the caller's to store.
  setDrawEffects(R, ThreadLocal != nullptr);
  Sampled = B.CreateTrunc(B.CreateExtractValue(R, 1), B.getInt1Ty(), "sample");
  return B.CreateExtractValue(R, 0, "countdown.next");
}

void sampler::markNoRedZone(Module &M) {
  for (Function &F : M) {
    if (F.isDeclaration() || F.hasFnAttribute(Attribute::NoRedZone))
      continue;
    // The draw's assembly is a call that is not an intrinsic, too; a
    // counter's add in assembly pushes nothing.
    bool Calls = any_of(instructions(F), [](const Instruction &I) {
      return isa<CallBase>(I) && !isa<IntrinsicInst>(I) &&
             !isCounterAddAsm(cast<CallBase>(&I));
    });
    if (Calls)
      F.addFnAttr(Attribute::NoRedZone);
  }
}

/// Whether a site of the instrumented copy that owns its region's success
/// (cd == Key) may be sampled without a draw. The draw gives the gap to the
/// next success, and it is needed where that gap is read: by a later site of
/// the region (the trials left before its end), or after the region, from the
/// thread-local countdown. A site with Key -1 has no site after it in its
/// region on any path (Key = -r, r the most sites left, itself included), and
/// one that a weighty call may precede (no Mirror) leaves the thread-local as
/// the callee left it, for the trials after the region: every region start
/// reads the thread-local again. So its draw would be read by nobody (Lua at
/// d = 100: 548K draws fewer of 7.0M, 76K of them in `lua_geti`'s
/// instrumented copy). Every other use of the countdown is as before, and so
/// is every site execution's trial. (Not the in-place form, Decrement: its
/// countdown is the thread-local itself.)
static bool ownsWithoutDraw(SiteForm Form) {
  return !Form.Decrement && !Form.Mirror && Form.Key == -1;
}

/// The cold part of a site, at \p B: `f = fire(Key - cd); *Cd = Key + (f >> 1)`
/// (the runtime's draw, next(Key - cd) = r, answered as |r| and whether r > 0
/// in one word: runtime/sampler_abi.h); returns r > 0, true when the site
/// execution is sampled. At d = 1 the countdown is below abi::EveryBelow and
/// the site is sampled without a call (nothing to store either): the countdown
/// being negative here, bit 62 says which. On x86-64 fireAsm() does both in one
/// statement and stores the thread-local itself. B is left in the block that
/// has the result.
static Value *siteDraw(IRBuilder<> &B, Value *Cd, Value *CdVal, SiteForm Form,
                       const FireEntry &Fire) {
  bool OwnsUndrawn = ownsWithoutDraw(Form);
  // In place the countdown is the thread-local, just decremented and stored:
  // read it again here, on the cold way, so that the hot way keeps no copy of
  // it in a register and folds to `decq mem; js` (with the decremented value
  // live past the store it took a load, a lea, the store and a test). The
  // load is volatile so that it is not forwarded from the store above.
  if (Form.Decrement) {
    LoadInst *Again = B.CreateLoad(B.getInt64Ty(), Cd, /*isVolatile=*/true,
                                   "countdown.again");
    CdVal = Again;
  }
  if (Fire.InAsm) {
    // The thread-local holds CdVal here, so the d = 1 answer, which keeps the
    // countdown, has nothing to store: the assembly stores the thread-local
    // on the draw's way only. A local is stored in IR (a value once promoted).
    bool Local = isa<AllocaInst>(Cd);
    Value *Sampled;
    Value *NewCd = fireAsm(B, CdVal, Form.Key, Fire.ViaGOT,
                           Local ? Form.Mirror : Cd, OwnsUndrawn, Sampled);
    if (Local)
      B.CreateStore(NewCd, Cd);
    return Sampled;
  }
  MDBuilder MDB(B.getContext());
  Value *NotEvery = countdownAsks(B, CdVal, "countdown.drawn");
  BasicBlock *Head = B.GetInsertBlock();
  Instruction *DrawTerm = SplitBlockAndInsertIfThen(
      NotEvery, B.GetInsertPoint(), false, MDB.createLikelyBranchWeights());
  DrawTerm->getParent()->setName("site.draw");
  BasicBlock *Tail = DrawTerm->getSuccessor(0);
  Tail->setName("site.drawn");
  // With OwnsUndrawn, after the d = 1 test as in fireAsm(): cd == Key is
  // sampled from site.draw itself, and the call is made below it only when
  // the success passed unowned.
  BasicBlock *Owner = nullptr;
  if (OwnsUndrawn) {
    Owner = DrawTerm->getParent();
    auto *Unowned = BasicBlock::Create(B.getContext(), "site.unowned",
                                       Owner->getParent(), Tail);
    B.SetInsertPoint(DrawTerm);
    Value *Passed =
        B.CreateICmpNE(CdVal, B.getInt64(Form.Key), "countdown.passed");
    B.CreateCondBr(Passed, Unowned, Tail);
    DrawTerm->removeFromParent();
    DrawTerm->insertInto(Unowned, Unowned->end());
  }
  B.SetInsertPoint(DrawTerm);
  Value *Key = B.getInt64(Form.Key);
  Value *Unknown = B.CreateSub(Key, CdVal, "countdown.unknown");
  Value *R = callRuntime(B, Fire.Fn, {Unknown}, "countdown.fired");
  Value *NewCd = B.CreateAdd(Key, B.CreateLShr(R, 1), "countdown.next");
  Value *Drawn = B.CreateTrunc(R, B.getInt1Ty(), "sample");
  B.CreateStore(NewCd, Cd);
  if (Form.Mirror)
    B.CreateStore(NewCd, Form.Mirror);
  B.SetInsertPoint(Tail, Tail->getFirstInsertionPt());
  PHINode *Take = B.CreatePHI(B.getInt1Ty(), 3, "site.take");
  Take->addIncoming(B.getTrue(), Head);
  if (Owner)
    Take->addIncoming(B.getTrue(), Owner);
  Take->addIncoming(Drawn, DrawTerm->getParent());
  return Take;
}

/// The instrumented form of a site whose marker's value is used in some other
/// way than the schemes' branch: the marker becomes the value
///   taken = false; if (cd <= Key) taken = draw();
static void lowerInstrumentedMarkerValue(CallInst *Marker, Value *Cd,
                                         SiteForm Form, const FireEntry &Fire) {
  IRBuilder<> B(Marker);
  Value *CdVal;
  Value *MayFire = siteMayFire(B, Cd, Form, CdVal);
  MDBuilder MDB(Marker->getContext());
  Instruction *Then = SplitBlockAndInsertIfThen(
      MayFire, Marker->getIterator(), false, MDB.createUnlikelyBranchWeights());
  BasicBlock *Skip = Then->getParent()->getSinglePredecessor();
  B.SetInsertPoint(Then);
  Value *Take = siteDraw(B, Cd, CdVal, Form, Fire);
  B.SetInsertPoint(Marker);
  PHINode *Taken = B.CreatePHI(B.getInt1Ty(), 2, "site.taken");
  Taken->addIncoming(B.getFalse(), Skip);
  Taken->addIncoming(Take, Then->getParent());
  Marker->replaceAllUsesWith(Taken);
  Marker->eraseFromParent();
}

/// The instrumented form of one site, on the countdown stored at \p Cd (the
/// function's local, or the thread-local itself):
///   [in place: cd = --*Cd] if (cd <= Key) {
///     r = next(Key - cd); *Cd = Key + |r|; if (r > 0) observe; }
static void lowerInstrumentedMarker(CallInst *Marker, Value *Cd, SiteForm Form,
                                    const FireEntry &Fire) {
  BranchInst *BI = markerBranch(Marker);
  if (!BI)
    return lowerInstrumentedMarkerValue(Marker, Cd, Form, Fire);
  BasicBlock *Observe = BI->getSuccessor(0);
  BasicBlock *Cont = BI->getSuccessor(1);
  IRBuilder<> B(Marker);
  Value *CdVal;
  Value *MayFire = siteMayFire(B, Cd, Form, CdVal);
  Marker->replaceAllUsesWith(MayFire);
  Marker->eraseFromParent();
  MDBuilder MDB(BI->getContext());
  BI->setMetadata(LLVMContext::MD_prof, MDB.createUnlikelyBranchWeights());

  // site.observe: ask the runtime; observe only if it says so.
  BasicBlock *Sampled =
      Observe->splitBasicBlock(Observe->getFirstNonPHIIt(), "site.sampled");
  Instruction *OldTerm = Observe->getTerminator();
  B.SetInsertPoint(OldTerm);
  Value *Take = siteDraw(B, Cd, CdVal, Form, Fire);
  B.CreateCondBr(Take, Sampled, Cont);
  OldTerm->eraseFromParent();
  // Not sampled: Cont sees what it sees when the site is skipped.
  for (PHINode &P : Cont->phis())
    P.addIncoming(P.getIncomingValueForBlock(BI->getParent()),
                  B.GetInsertBlock());
}

/// Gives every access to the thread-local countdown in \p F a TBAA type of its
/// own under C/C++'s root, so that alias analysis knows the program's typed
/// loads and stores do not touch it (the program never names it) and keeps
/// them in registers across the countdown's updates. Accesses of type char
/// still may alias; code without TBAA is unaffected.
static void tagCountdownAccesses(Function &F, GlobalVariable *Countdown) {
  MDBuilder MDB(F.getContext());
  MDNode *Root = MDB.createTBAARoot("Simple C/C++ TBAA");
  MDNode *Char = MDB.createTBAAScalarTypeNode("omnipotent char", Root);
  MDNode *Ty = MDB.createTBAAScalarTypeNode(abi::Countdown, Char);
  MDNode *Tag = MDB.createTBAAStructTagNode(Ty, Ty, 0);
  for (BasicBlock &BB : F)
    for (Instruction &I : BB) {
      if (Value *Ptr = getLoadStorePointerOperand(&I);
          Ptr && isCountdownAddress(Ptr, Countdown))
        I.setMetadata(LLVMContext::MD_tbaa, Tag);
      // A site's draw that stores the countdown (fireAsm()): TBAA reads a
      // call's tag as what the call may touch.
      if (drawStoresCountdown(dyn_cast<CallInst>(&I)))
        I.setMetadata(LLVMContext::MD_tbaa, Tag);
    }
  localizeCountdownAddress(F, Countdown);
}

SmallPtrSet<const Value *, 32>
sampler::countdownValues(Function &F, const GlobalVariable *Countdown) {
  SmallPtrSet<const Value *, 32> Set;
  SmallVector<const Instruction *, 32> Work;
  for (Instruction &I : instructions(F)) {
    bool Source = false;
    if (auto *LI = dyn_cast<LoadInst>(&I))
      Source = isCountdownAddress(LI->getPointerOperand(), Countdown);
    else if (auto *CB = dyn_cast<CallBase>(&I))
      Source = isCountdownDraw(CB);
    if (Source && Set.insert(&I).second)
      Work.push_back(&I);
  }
  while (!Work.empty()) {
    const Instruction *I = Work.pop_back_val();
    for (const User *U : I->users())
      if (auto *UI = dyn_cast<Instruction>(U);
          UI && !UI->getType()->isVoidTy() && Set.insert(UI).second)
        Work.push_back(UI);
  }
  return Set;
}

SmallVector<LoopCounter, 4>
sampler::loopCounters(const Loop &L, ScalarEvolution &SE,
                      const SmallPtrSetImpl<const Value *> &FromCountdown) {
  SmallVector<LoopCounter, 4> Counters;
  for (PHINode &J : L.getHeader()->phis()) {
    if (FromCountdown.count(&J) || !J.getType()->isIntegerTy() ||
        J.getType()->getIntegerBitWidth() > 64)
      continue;
    auto *AR = dyn_cast<SCEVAddRecExpr>(SE.getSCEV(&J));
    if (!AR || AR->getLoop() != &L || !AR->isAffine())
      continue;
    auto *Step = dyn_cast<SCEVConstant>(AR->getStepRecurrence(SE));
    if (!Step || Step->getAPInt().isZero() ||
        Step->getAPInt().getSignificantBits() > 63)
      continue;
    Counters.push_back({&J, AR, Step->getAPInt().getSExtValue()});
  }
  return Counters;
}

Value *sampler::countdownAddressFor(Function &F, GlobalVariable *Countdown) {
  // The process's countdown is a constant address: nothing to compute.
  if (F.isDeclaration() || F.isPresplitCoroutine() || !Countdown->isThreadLocal())
    return Countdown;
  BasicBlock &Entry = F.getEntryBlock();
  for (Instruction &I : Entry)
    if (isCountdownAddress(&I, Countdown)) // a threadlocal.address call on it
      return &I;
  IRBuilder<> B(&Entry, Entry.getFirstInsertionPt());
  CallInst *Addr = B.CreateThreadLocalAddress(Countdown);
  Addr->setName("countdown.addr");
  return Addr;
}

void sampler::localizeCountdownAddress(Function &F, GlobalVariable *Countdown) {
  Value *Addr = countdownAddressFor(F, Countdown);
  if (Addr == Countdown)
    return;
  // The function's own instructions, not the global's use list: that list is
  // the whole module's.
  for (BasicBlock &BB : F)
    for (Instruction &I : BB) {
      // Other such calls stay as they are (an inlined callee's: the
      // optimiser merges them with this one).
      if (auto *II = dyn_cast<IntrinsicInst>(&I);
          II && II->getIntrinsicID() == Intrinsic::threadlocal_address)
        continue;
      for (Use &U : I.operands())
        if (U.get() == Countdown)
          U.set(Addr);
    }
}

bool SamplingTransform::canClone(Function &F) const {
  if (F.hasFnAttribute(Attribute::PresplitCoroutine))
    return false;
  for (BasicBlock &BB : F) {
    // Address-taken blocks and indirectbr are fine (computed goto: every
    // dispatch goes through a check, see run()); asm goto is not.
    if (BB.isEHPad() && !BB.isLandingPad())
      return false;
    for (Instruction &I : BB) {
      if (isa<CallBrInst>(I) || I.getType()->isTokenTy())
        return false;
      if (auto *CB = dyn_cast<CallBase>(&I)) {
        auto *II = dyn_cast<IntrinsicInst>(CB);
        // llvm.is.constant (__builtin_constant_p, in glibc's tolower,
        // strcmp... macros) is convergent so that no transformation makes
        // one execution see both answers; either answer is correct, so a
        // copy of the function may get its own.
        if (II && II->getIntrinsicID() == Intrinsic::is_constant)
          continue;
        if (CB->cannotDuplicate() || CB->isConvergent())
          return false;
        if (II && II->getIntrinsicID() == Intrinsic::localescape)
          return false;
      }
    }
  }
  return true;
}

void SamplingTransform::lowerInPlace(Function &F) {
  ++NumInPlace;
  for (CallInst *Marker : SiteTable::markersIn(F))
    lowerInstrumentedMarker(Marker, Countdown, SiteForm{true, -1}, Fire);
  tagCountdownAccesses(F, Countdown);
}

/// A call after which a new region must begin, in both copies: a call that
/// returns twice (setjmp). Its second return re-executes the code after it,
/// whose trials the region before it has already handed out.
static bool returnsTwice(const Instruction &I) {
  auto *CB = dyn_cast<CallBase>(&I);
  return CB && CB->hasFnAttr(Attribute::ReturnsTwice);
}

/// Whether \p I is a site's marker (docs/internals.md §3).
static bool isSiteMarker(const Instruction &I) {
  auto *CI = dyn_cast<CallInst>(&I);
  return CI && CI->getCalledFunction() &&
         CI->getCalledFunction()->getName() == abi::SiteMarker;
}

namespace {
/// The regions of a function: the DAG left when the check edges are cut,
/// walked from the blocks that begin regions.
struct Regions {
  /// The most sites on a path from the block's start to a region's end.
  DenseMap<BasicBlock *, uint64_t> Weight;
  /// Post-order of the DAG (its reverse is a topological order).
  SmallVector<BasicBlock *, 64> PostOrder;
};
} // namespace

/// Where a site's trial is and what its instrumented form may touch.
struct sampler::SiteKey {
  int64_t Key = 0;
  /// No weighty call can have run between its region's check and the site.
  bool Mirror = false;
};

static Regions
computeRegions(ArrayRef<BasicBlock *> Starts,
               const SmallSetVector<std::pair<BasicBlock *, BasicBlock *>, 16>
                   &CheckEdges,
               const DenseMap<BasicBlock *, unsigned> &SitesIn) {
  Regions R;
  SmallVector<std::pair<BasicBlock *, unsigned>, 32> Stack;
  DenseSet<BasicBlock *> Seen;
  for (BasicBlock *Start : Starts) {
    if (!Seen.insert(Start).second)
      continue;
    Stack.push_back({Start, 0});
    while (!Stack.empty()) {
      auto &[BB, NextSucc] = Stack.back();
      Instruction *Term = BB->getTerminator();
      if (NextSucc < Term->getNumSuccessors()) {
        BasicBlock *S = Term->getSuccessor(NextSucc++);
        if (!CheckEdges.count({BB, S}) && Seen.insert(S).second)
          Stack.push_back({S, 0});
        continue;
      }
      uint64_t Heaviest = 0;
      for (BasicBlock *S : successors(BB))
        if (!CheckEdges.count({BB, S}))
          Heaviest = std::max(Heaviest, R.Weight.lookup(S));
      R.Weight[BB] = SitesIn.lookup(BB) + Heaviest;
      R.PostOrder.push_back(BB);
      Stack.pop_back();
    }
  }
  return R;
}

/// Which trial of its region each site owns: a region entered with weight
/// W owns the next W trials, numbered 1..W, and a site from which at most r
/// sites (itself included) remain to the region's end owns trial W - r + 1.
/// Along any path r decreases, so no two site executions share a trial,
/// and r depends on where the site is, not on which check entered the
/// region nor on which copy runs. The instrumented copy holds the countdown
/// relative to the region's end (failures before the next success, minus W),
/// so the site owns the success when that value is -r.
///
/// Calls inside a region do not end it: the trials a callee consumes come
/// after the region's W, which the check has already taken from the
/// thread-local countdown. A site that a weighty call may precede in its
/// region therefore keeps its region's countdown in a local only.
///
/// A paid call of weight w (SamplingTransform::choosePaidCallees()) is w
/// sites in a row: with r trials of the region left after them, the callee's
/// trials are W - r - w + 1 .. W - r, and its key is -r (lowerPaidCall()).
/// It is no weighty call: the instrumented copy puts back what the
/// thread-local held.
static DenseMap<CallInst *, SiteKey>
assignKeys(ArrayRef<CallInst *> Markers, const Regions &R,
           const SmallSetVector<std::pair<BasicBlock *, BasicBlock *>, 16>
               &CheckEdges,
           const WeightlessInfo &WI, const PaidCallMap &Paid) {
  SmallPtrSet<CallInst *, 16> IsMarker(Markers.begin(), Markers.end());
  DenseMap<CallInst *, SiteKey> Keys;
  DenseSet<BasicBlock *> AfterCall; // a weighty call may precede its start
  for (BasicBlock *BB : reverse(R.PostOrder)) {
    bool Called = AfterCall.contains(BB);
    uint64_t Remaining = R.Weight.lookup(BB);
    for (Instruction &I : *BB) {
      auto *CB = dyn_cast<CallBase>(&I);
      if (!CB)
        continue;
      if (auto *CI = dyn_cast<CallInst>(CB); CI && IsMarker.count(CI)) {
        Keys[CI] = {-static_cast<int64_t>(Remaining--), !Called};
      } else if (uint64_t W = Paid.lookup(dyn_cast<CallInst>(CB))) {
        assert(Remaining >= W && "a paid call outweighs its region");
        Remaining -= W;
        Keys[cast<CallInst>(CB)] = {-static_cast<int64_t>(Remaining), !Called};
      } else if (WI.isWeightyCall(*CB)) {
        Called = true;
      }
    }
    if (Called)
      for (BasicBlock *S : successors(BB))
        if (!CheckEdges.count({BB, S}))
          AfterCall.insert(S);
  }
  return Keys;
}

/// Whether the edges out of \p BB may become check edges: not those of a
/// site's branch to its observation (the lowering rewrites that branch), nor
/// those of terminators whose successors a check block cannot replace.
static bool canEndRegion(BasicBlock *BB) {
  Instruction *T = BB->getTerminator();
  if (isa<IndirectBrInst>(T) || isa<CallBrInst>(T) || isa<InvokeInst>(T))
    return false;
  return none_of(*BB, isSiteMarker);
}

/// Checks on the cold heavy ways of unbalanced branches. A region pays for
/// the trials of its heaviest path, so the paths that cross few of its sites
/// pay for trials that no site owns, and each success among those costs a
/// draw and a run of the instrumented copy. Where a branch's profile weights
/// say that its heavy way (leading to ColdHeavyGap or more sites beyond the
/// other way's heaviest path to the region's end) is taken at most
/// \p Percent percent of the time, that edge becomes a check edge: the light
/// ways' region ends there and weighs less, and only the cold way pays a
/// check more. Only check edges are added, so the accounting is unchanged.
/// zlib's longest_match pays 4 trials a chain step instead of 7 (with a PGO
/// profile: zlib -9.1% instructions at d = 100, -0.4% with sampling off).
/// Without weights nothing is done: by the sites alone the heavy ways are
/// often the hot ones (bzip2's mainGtU, whose chain of compares usually goes
/// on: +9.8% with sampling off). docs/benchmarks.md, "Checks on the heavy
/// side of unbalanced branches".
static void checksOnColdHeavyEdges(
    Function &F, unsigned Percent, BasicBlock *Prologue, BasicBlock *Body,
    SmallVectorImpl<BasicBlock *> &Starts,
    SmallSetVector<std::pair<BasicBlock *, BasicBlock *>, 16> &CheckEdges,
    MapVector<BasicBlock *, uint64_t> &Targets,
    const DenseMap<BasicBlock *, unsigned> &SitesIn) {
  // Most builds have no profile: no walk of the regions for them.
  if (none_of(F, [](BasicBlock &BB) {
        return hasBranchWeightMD(*BB.getTerminator());
      }))
    return;
  Regions Pre = computeRegions(Starts, CheckEdges, SitesIn);
  struct Found {
    BasicBlock *From, *To;
    uint64_t Gap, Taken; // sites beyond the other way's; percent of the time
  };
  SmallVector<Found, 8> New;
  // In topological order, so that the edges (and the check blocks made from
  // them) come in an order that does not depend on addresses.
  for (BasicBlock *BB : reverse(Pre.PostOrder)) {
    auto *BI = dyn_cast<BranchInst>(BB->getTerminator());
    if (BB == Prologue || !BI || !BI->isConditional() || !canEndRegion(BB))
      continue;
    BasicBlock *S0 = BI->getSuccessor(0), *S1 = BI->getSuccessor(1);
    uint64_t T, E;
    if (S0 == S1 || !extractBranchWeights(*BI, T, E) || T + E == 0)
      continue;
    uint64_t W0 = CheckEdges.count({BB, S0}) ? 0 : Pre.Weight.lookup(S0);
    uint64_t W1 = CheckEdges.count({BB, S1}) ? 0 : Pre.Weight.lookup(S1);
    bool HeavyIs0 = W0 >= W1;
    BasicBlock *H = HeavyIs0 ? S0 : S1;
    uint64_t Gap = HeavyIs0 ? W0 - W1 : W1 - W0;
    uint64_t HeavyTaken = HeavyIs0 ? T : E;
    if (Gap < ColdHeavyGap || H->isEHPad() || H == Body ||
        CheckEdges.count({BB, H}) ||
        HeavyTaken * 100 > uint64_t(Percent) * (T + E))
      continue;
    New.push_back({BB, H, Gap, HeavyTaken * 100 / (T + E)});
  }
  if (New.empty())
    return;
  OptimizationRemarkEmitter ORE(&F);
  for (const Found &N : New) {
    CheckEdges.insert({N.From, N.To});
    if (!Targets.count(N.To)) {
      Targets[N.To];
      Starts.push_back(N.To);
    }
    ORE.emit([&] {
      return OptimizationRemark("sampler-cold-heavy", "ColdHeavyCheck",
                                N.From->getTerminator())
             << "a branch's way of " << ore::NV("Gap", N.Gap)
             << " sites more, taken " << ore::NV("Percent", N.Taken)
             << "% of the time, gets a check of its own";
    });
  }
}

uint64_t SamplingTransform::heaviestRegion(Function &F) const {
  // The regions cloning would create: a region ends at a loop back edge (a
  // call that returns twice ends one too; ignored here, this is an estimate).
  SmallVector<std::pair<const BasicBlock *, const BasicBlock *>, 16> BackEdges;
  FindFunctionBackedges(F, BackEdges);
  SmallSetVector<std::pair<BasicBlock *, BasicBlock *>, 16> CheckEdges;
  SmallVector<BasicBlock *, 16> Starts = {&F.getEntryBlock()};
  for (auto &E : BackEdges)
    CheckEdges.insert({const_cast<BasicBlock *>(E.first),
                       const_cast<BasicBlock *>(E.second)});
  DenseMap<BasicBlock *, unsigned> SitesIn;
  uint64_t Heaviest = 0;
  for (BasicBlock &BB : F) {
    if (BB.hasAddressTaken())
      Starts.push_back(&BB);
    SitesIn[&BB] += count_if(BB, isSiteMarker);
  }
  Regions R = computeRegions(Starts, CheckEdges, SitesIn);
  for (auto &[BB, W] : R.Weight)
    Heaviest = std::max(Heaviest, W);
  return Heaviest;
}

bool SamplingTransform::canOutline(Function &F) const {
  // One region (no loop, computed goto or setjmp), and arguments that a plain
  // call can pass on unchanged.
  if (F.isVarArg() || F.hasFnAttribute(Attribute::Naked))
    return false;
  for (Argument &A : F.args())
    if (A.hasInAllocaAttr() || A.hasPreallocatedAttr() ||
        A.hasAttribute(Attribute::SwiftError) ||
        A.hasAttribute(Attribute::SwiftSelf) ||
        A.hasAttribute(Attribute::SwiftAsync) || A.hasNestAttr())
      return false;
  for (BasicBlock &BB : F) {
    if (BB.hasAddressTaken() || isa<IndirectBrInst>(BB.getTerminator()))
      return false;
    for (Instruction &I : BB)
      if (returnsTwice(I))
        return false;
  }
  SmallVector<std::pair<const BasicBlock *, const BasicBlock *>, 1> BackEdges;
  FindFunctionBackedges(F, BackEdges);
  return BackEdges.empty();
}

/// The check of a region of weight W > 0, at the end of \p B: pay for the
/// region's W trials now, in both copies, so that the countdown becomes
/// relative to the region's end. If it stays >= 0, none of the W trials
/// succeeds and the fast copy runs: `subq $W, %fs:...; js`, the sign being
/// all the test needs. No `nsw`: a countdown whose success has passed unowned
/// (< 0) keeps going down, region after region, until a site of the
/// instrumented copy draws again. The load is volatile: otherwise GVN carries
/// the value one check stored to the next check's load (round a loop, a PHI),
/// and the countdown then lives in a register that each check stores: three
/// instructions instead of two, and one register fewer for the program (bzip2's
/// mainGtU, zlib's longest_match; measured: 3-6% fewer instructions with
/// sampling off, docs/benchmarks.md). x86 still folds the volatile load,
/// subtract and store into one `subq`. Returns the condition "fast".
static Value *payForRegion(IRBuilder<> &B, GlobalVariable *Countdown,
                           uint64_t W) {
  auto *I64 = B.getInt64Ty();
  Value *Old = B.CreateLoad(I64, Countdown, /*isVolatile=*/true, "countdown");
  Value *Rel = B.CreateSub(Old, B.getInt64(W), "countdown.paid");
  B.CreateStore(Rel, Countdown);
  return B.CreateICmpSGE(Rel, B.getInt64(0), "countdown.enough");
}

/// A check's way into the instrumented copy on x86-64, after the check found
/// the region's trials not all failing: one statement of inline assembly,
/// given the countdown \p Rel that the check left (relative to the region's
/// end, W trials paid). If the countdown was unknown before the check (Rel + W
/// < 0) and is not the d = 1 answer (bit 62 set), it calls abi::FreshRax
/// (since ABI 8) for a fresh countdown, pays the region's W trials from it
/// and stores it into \p ThreadLocal (a memory operand); otherwise it leaves
/// Rel as it is. Returns the countdown the instrumented copy starts with: the
/// same answers as resolveUnknown()'s three blocks, in one block with one
/// edge to the instrumented copy. Each edge into the instrumented copy is an
/// incoming value for every value live there, and the register coalescer
/// shrinks those values' intervals once a copy it removes: three edges a
/// check made eight values of SQLite's interpreter loop cost nine tenths of
/// what it walks (docs/benchmarks.md, "Compile time: one edge a check"). The
/// runtime keeps every register but rax, r11 and the flags, the vector
/// registers included, and needs no stack alignment (as abi::FireRax: see
/// fireAsm()).
static Value *freshAsm(IRBuilder<> &B, Value *Rel, uint64_t W, bool ViaGOT,
                       Value *ThreadLocal) {
  auto *I64 = B.getInt64Ty();
  std::string Call = runtimeCall(abi::FreshRax, ViaGOT);
  static_assert(abi::EveryBit == int64_t(1) << 62, "btq $62 below");
  std::string Asm = "cmpq $$" + std::to_string(-int64_t(W)) +
                    ", $0\n\tjge 1f\n\t"
                    "leaq " + std::to_string(W) + "($0), %rax\n\t"
                    "btq $$62, %rax\n\tjnc 1f\n\t" + Call +
                    "\n\tleaq " + std::to_string(-int64_t(W)) +
                    "(%rax), $0\n\tmovq $0, $1\n1:";
  auto *Ty = FunctionType::get(I64, {ThreadLocal->getType(), I64}, false);
  InlineAsm *IA = InlineAsm::get(Ty, Asm, "=r,=*m,0,~{rax},~{r11},~{flags}",
                                 /*hasSideEffects=*/true);
  CallInst *R = B.CreateCall(IA, {ThreadLocal, Rel}, "countdown.region");
  setDrawEffects(R, /*StoresThreadLocal=*/true);
  return R;
}

/// The start of a check's way to the instrumented copy, at \p ToSlow: the
/// countdown the check left, relative to the region's end (read again, with a
/// volatile load: otherwise GVN hands the check's stored value to it, whose
/// extra use keeps x86 from folding load, subtract, store and test into
/// `subq $W, mem; js`). If the countdown was unknown before the check (< 0:
/// a success passed that no site owned), nothing is known of the region's
/// trials yet: ask the runtime for a fresh countdown and check again, so that
/// a region goes to its instrumented copy only when one of its trials does
/// succeed. (Otherwise an unknown countdown stays unknown through regions
/// whose sites all follow weighty calls, and each of them runs its
/// instrumented copy and draws: bc at d = 10000 cost twice as much as with
/// sampling off.) The trials discarded this way are chosen from the past
/// alone, so the trials the sites own stay independent. Returns the block
/// that goes on to the instrumented copy, where \p L is the countdown: on
/// x86-64 \p ToSlow itself, whose one statement (freshAsm()) does all of it;
/// elsewhere a join of three blocks.
BasicBlock *SamplingTransform::resolveUnknown(BasicBlock *ToSlow, uint64_t W,
                                              BasicBlock *FastTarget,
                                              Value *&L, bool Volatile) {
  LLVMContext &C = ToSlow->getContext();
  Function *F = ToSlow->getParent();
  auto *I64 = Type::getInt64Ty(C);
  MDBuilder MDB(C);
  if (Fire.InAsm && W <= uint64_t(INT32_MAX)) {
    // One block: the assembly's displacements are 32-bit (a region of 2^31
    // sites or more takes the blocks below).
    IRBuilder<> B(ToSlow);
    Value *Rel = B.CreateLoad(I64, Countdown, Volatile, "countdown.region");
    L = freshAsm(B, Rel, W, Fire.ViaGOT, Countdown);
    return ToSlow;
  }
  BasicBlock *Unknown = BasicBlock::Create(C, "sampler.unknown", F, FastTarget);
  BasicBlock *Fresh = BasicBlock::Create(C, "sampler.fresh", F, FastTarget);
  BasicBlock *Go = BasicBlock::Create(C, "sampler.slow.region", F, FastTarget);
  IRBuilder<> B(ToSlow);
  Value *Rel = B.CreateLoad(I64, Countdown, Volatile, "countdown.region");
  Value *Before = B.CreateAdd(Rel, B.getInt64(W), "countdown.before");
  B.CreateCondBr(B.CreateICmpSLT(Before, B.getInt64(0), "countdown.unknown"),
                 Unknown, Go, MDB.createUnlikelyBranchWeights());
  // Below abi::EveryBelow (bit 62 clear, Before being negative): d = 1,
  // every trial succeeds, nothing to ask.
  B.SetInsertPoint(Unknown);
  Value *NotEvery = countdownAsks(B, Before, "countdown.ask");
  B.CreateCondBr(NotEvery, Fresh, Go, MDB.createLikelyBranchWeights());
  B.SetInsertPoint(Fresh);
  Value *Drawn = Next.getFunctionType()->getNumParams() == 0
                     ? callRuntime(B, Next, {}, "countdown.next")
                     : callRuntime(B, Next, {B.getInt64(abi::FreshCountdown)},
                                   "countdown.next");
  Value *Rel2 = B.CreateSub(Drawn, B.getInt64(W), "countdown.paid.fresh");
  B.CreateStore(Rel2, Countdown);
  // Even when none of the region's trials succeeds (Rel2 >= 0), this run
  // stays in the instrumented copy, where no site fires: an edge from here
  // into the fast copy changes how the optimiser lays out the fast path
  // (measured: 9% more instructions on zlib with sampling off).
  (void)FastTarget;
  B.CreateBr(Go);
  B.SetInsertPoint(Go);
  PHINode *Phi = B.CreatePHI(I64, 3, "countdown.region");
  Phi->addIncoming(Rel, ToSlow);
  Phi->addIncoming(Rel, Unknown);
  Phi->addIncoming(Rel2, Fresh);
  L = Phi;
  return Go;
}

/// The inliner judges a function of one region by what it costs inlined, and
/// it counts the check and the call to the instrumented copy like the
/// function's own code: a call with its arguments (25 + 5 an argument) and
/// about 5 an instruction of the check. A getter of 5 (SQLite's
/// sqlite3BtreePayloadFetch, in the loop of sqlite3VdbeExec where the
/// threshold is 45) then costs 135 and stays out of line: a call, a return
/// and the callee's check where the build without sampler has none.
/// Attributes on \p Slow, which the inliner reads where a function it weighs
/// calls it, take that cost back: the call costs nothing
/// (`call-inline-cost`), and the threshold rises by what the check's
/// instructions in \p Entry cost (`call-threshold-bonus`). The inliner then
/// decides as it would without sampler; the check comes along where it
/// inlines (a few bytes and, on the fast path, one subtract and a branch).
/// A function into which such a function was inlined calls \p Slow in turn,
/// and is weighed the same way.
static void chargeNothingForTheCheck(Function &Slow, BasicBlock &Entry) {
  int Instructions = 0;
  for (Instruction &I : Entry)
    if (!isa<AllocaInst>(I) && !isa<IntrinsicInst>(I))
      ++Instructions;
  Slow.addFnAttr("call-inline-cost", "0");
  Slow.addFnAttr("call-threshold-bonus",
                 std::to_string(Instructions *
                                InlineConstants::getInstrCost()));
}

/// A copy of a function, \p G, made local to the unit: internal, no comdat,
/// its address not significant.
static void makeInternalCopy(Function &G) {
  G.setLinkage(GlobalValue::InternalLinkage);
  G.setVisibility(GlobalValue::DefaultVisibility);
  G.setDLLStorageClass(GlobalValue::DefaultStorageClass);
  G.setComdat(nullptr);
  G.setUnnamedAddr(GlobalValue::UnnamedAddr::Global);
}

/// The instrumented form of a paid call \p Call of weight \p W whose key
/// (assignKeys()) is \p Key = -r: the callee's trials are the W before the
/// region's last r, so it is called with the thread-local countdown set to
/// what it is before them, its local value (relative to the region's end)
/// plus r + W. The callee's check takes its W; its instrumented copy, if a
/// trial of them succeeds, observes and draws as at any call. What it leaves
/// is the countdown relative to the end of its trials, r before the region's
/// end: the local becomes that minus r. The thread-local then gets back the
/// region's countdown (\p Mirror: no weighty call has run in the region yet,
/// the sites after this one store their draws there too), or what it held
/// before the call (a weighty callee's, whose trials come after the
/// region's).
static void lowerPaidCall(CallInst *Call, Value *Local, GlobalVariable *Countdown,
                          int64_t Key, uint64_t W, bool Mirror) {
  IRBuilder<> B(Call);
  auto *I64 = B.getInt64Ty();
  uint64_t After = static_cast<uint64_t>(-Key);
  Value *Cd = B.CreateLoad(I64, Local, "countdown");
  Value *Saved =
      Mirror ? nullptr : B.CreateLoad(I64, Countdown, "countdown.saved");
  B.CreateStore(B.CreateAdd(Cd, B.getInt64(After + W), "countdown.callee"),
                Countdown);
  B.SetInsertPoint(Call->getNextNode());
  Value *Left = B.CreateLoad(I64, Countdown, "countdown.left");
  Value *Back = B.CreateSub(Left, B.getInt64(After), "countdown.back");
  B.CreateStore(Back, Local);
  B.CreateStore(Mirror ? Back : Saved, Countdown);
}

PaidCallMap SamplingTransform::paidCandidates(Function &F) const {
  PaidCallMap Calls;
  if (Paid.empty())
    return Calls;
  for (BasicBlock &BB : F)
    for (Instruction &I : BB)
      if (auto *CI = dyn_cast<CallInst>(&I))
        if (uint64_t W = paidWeight(*CI))
          Calls.insert({CI, W});
  return Calls;
}

/// Of the paid calls \p Calls (with their weights), those whose trials the
/// regions that begin at \p Starts can pay without weighing more than
/// MaxRegionWeight, or than they weighed without them; their weights are
/// added to \p SitesIn. A call
/// that would make a region heavier is left to its callee's check. Weighed
/// before the checks were placed, the calls made regions heavier than a
/// region may be, and the checks that split them were paid by the paths
/// without the calls too (SQLite's sqlite3BtreeTableMoveto, whose loop calls
/// sqlite3GetVarint, of 8 sites: 9 checks more; speedtest1 1.5% more
/// instructions with sampling off). Allowed to grow to 12 or 16 without a
/// check, the regions paid for trials that no site owns on their paths
/// without the calls: speedtest1 0.7% and 2.0% more instructions at d = 100
/// (docs/benchmarks.md, "Callees paid by their callers").
static PaidCallMap
fitPaidCalls(const PaidCallMap &Calls, ArrayRef<BasicBlock *> Starts,
             const SmallSetVector<std::pair<BasicBlock *, BasicBlock *>, 16>
                 &CheckEdges,
             DenseMap<BasicBlock *, unsigned> &SitesIn) {
  PaidCallMap Fit;
  if (Calls.empty())
    return Fit;
  Regions Before = computeRegions(Starts, CheckEdges, SitesIn);
  for (auto [Call, W] : Calls) {
    BasicBlock *BB = Call->getParent();
    SitesIn[BB] += W;
    Regions After = computeRegions(Starts, CheckEdges, SitesIn);
    if (all_of(Starts, [&](BasicBlock *S) {
          return After.Weight.lookup(S) <=
                 std::max(MaxRegionWeight, Before.Weight.lookup(S));
        }))
      Fit.insert({Call, W});
    else
      SitesIn[BB] -= W;
  }
  return Fit;
}

uint64_t SamplingTransform::paidWeight(const CallBase &CB) const {
  if (Paid.empty() || !isa<CallInst>(CB) || cast<CallInst>(CB).isMustTailCall())
    return 0;
  auto *Callee = dyn_cast<Function>(CB.getCalledOperand());
  if (!Callee || CB.getFunctionType() != Callee->getFunctionType() ||
      CB.getCallingConv() != Callee->getCallingConv() ||
      CB.getMemoryEffects() != MemoryEffects::unknown())
    return 0;
  auto It = Paid.find(Callee);
  return It == Paid.end() ? 0 : It->second.Weight;
}

void SamplingTransform::payCalls(const PaidCallMap &Calls,
                                 const DenseMap<CallInst *, SiteKey> &Keys,
                                 ValueToValueMapTy &VMap, Value *Local) const {
  for (auto [Call, W] : Calls) {
    SiteKey K = Keys.lookup(Call);
    lowerPaidCall(cast<CallInst>(VMap[Call]), Local, Countdown, K.Key, W,
                  K.Mirror);
    Call->setCalledFunction(
        Paid.lookup(cast<Function>(Call->getCalledOperand())).Body);
  }
}

void SamplingTransform::choosePaidCallees(
    const DenseSet<const Function *> &HasSites, unsigned MaxWeight) {
  if (!MaxWeight)
    return;
  SmallVector<std::pair<Function *, uint64_t>, 32> Chosen;
  for (Function &F : M) {
    if (!HasSites.contains(&F) || !F.hasExactDefinition() || F.isInterposable() ||
        F.hasFnAttribute(ColdAttr) || !canClone(F) || !canOutline(F))
      continue;
    // A leaf: its check and its sites are all it does to the countdown. Not
    // one of memory effects the program declared (`const`, `pure`): those
    // are widened to the countdown's memory (WeightyEffects.h), which would
    // do for its calls, but the option was measured without them. (A call of
    // a function with sites declared `const` is weighty all the same.)
    bool Leaf =
        F.getMemoryEffects() == MemoryEffects::unknown() &&
        all_of(instructions(F), [this](Instruction &I) {
          if (isSiteMarker(I))
            return true;
          auto *CB = dyn_cast<CallBase>(&I);
          return !mayTouchCountdown(I) && !(CB && WI.isWeightyCall(*CB));
        });
    if (!Leaf)
      continue;
    // The weight outline() gives its check (run()'s choice of it).
    uint64_t W = heaviestRegion(F);
    if (W < CloneThreshold || W > MaxRegionWeight || W > MaxWeight)
      continue;
    Chosen.push_back({&F, W});
  }
  for (auto &[F, W] : Chosen) {
    ValueToValueMapTy VMap;
    Function *Body = CloneFunction(F, VMap);
    Body->setName(F->getName() + ".sampler.body");
    // Inlined like F where the inliner would take it (not a private copy's
    // noinline).
    makeInternalCopy(*Body);
    Body->addFnAttr(abi::PaidBodyAttr);
    for (CallInst *Marker : SiteTable::markersIn(*Body))
      foldMarker(Marker, 1);
    removeUnreachableBlocks(*Body);
    Paid[F] = {W, Body};
    ++NumPaidCallees;
  }
}

void SamplingTransform::outline(Function &F, ArrayRef<CallInst *> Markers) {
  ++NumOutlined;
  LLVMContext &C = F.getContext();
  auto *I64 = Type::getInt64Ty(C);
  DenseMap<BasicBlock *, unsigned> SitesIn;
  for (CallInst *Marker : Markers)
    ++SitesIn[Marker->getParent()];
  SmallSetVector<std::pair<BasicBlock *, BasicBlock *>, 16> NoCheckEdges;
  BasicBlock *Entry = &F.getEntryBlock();
  PaidCallMap PaidCalls =
      fitPaidCalls(paidCandidates(F), {Entry}, NoCheckEdges, SitesIn);
  Regions R = computeRegions({Entry}, NoCheckEdges, SitesIn);
  uint64_t W = R.Weight.lookup(Entry);
  DenseMap<CallInst *, SiteKey> Keys =
      assignKeys(Markers, R, NoCheckEdges, WI, PaidCalls);

  // The instrumented copy: a private function, entered from the check below
  // with the region already paid for.
  ValueToValueMapTy VMap;
  Function *Slow = clonePrivate(F, VMap, SlowCopySuffix);
  Slow->addFnAttr(Attribute::Cold);
  // It runs only when a sample falls in its region, and its code is the
  // function's over again plus each site's draw and observation: optimised
  // for size, as clang optimises the code a profile finds cold (the inliner
  // takes less into it, instruction selection picks shorter forms). What it
  // observes and when is the same. Lua's `.text` -4.1%, 0.1% more
  // instructions at d = 100 (docs/benchmarks.md, "Instrumented copies
  // optimised for size").
  if (SlowOptSize)
    Slow->addFnAttr(Attribute::OptimizeForSize);
  Created.push_back(Slow);
  {
    // Its entry resolves an unknown countdown (resolveUnknown), here rather
    // than in the caller's check, which stays small for the inliner.
    BasicBlock *SlowEntry = &Slow->getEntryBlock();
    BasicBlock::iterator AfterAllocas = SlowEntry->begin();
    while (isa<AllocaInst>(*AfterAllocas))
      ++AfterAllocas;
    BasicBlock *SlowBody =
        SlowEntry->splitBasicBlock(AfterAllocas, "sampler.slow.body");
    SlowEntry->getTerminator()->eraseFromParent();
    BasicBlock *Resolve =
        BasicBlock::Create(C, "sampler.resolve", Slow, SlowBody);
    BranchInst::Create(Resolve, SlowEntry);
    Value *L;
    BasicBlock *Go = resolveUnknown(Resolve, W, SlowBody, L, /*Volatile=*/false);
    BranchInst::Create(SlowBody, Go);
    IRBuilder<> B(SlowEntry, SlowEntry->begin());
    AllocaInst *Local = B.CreateAlloca(I64, nullptr, "sampler.cd");
    B.SetInsertPoint(Go->getTerminator());
    B.CreateStore(L, Local);
    for (CallInst *Marker : Markers) {
      SiteKey K = Keys.lookup(Marker);
      lowerInstrumentedMarker(cast<CallInst>(VMap[Marker]), Local,
                              SiteForm{false, K.Key,
                                       K.Mirror ? Countdown : nullptr},
                              Fire);
    }
    // Paid calls: the instrumented copy's, and the fast copy's to the bodies.
    payCalls(PaidCalls, Keys, VMap, Local);
    DominatorTree DT(*Slow);
    PromoteMemToReg({Local}, DT);
    tagCountdownAccesses(*Slow, Countdown);
  }

  // The fast copy: the function itself, its sites gone, behind the check.
  for (CallInst *Marker : Markers)
    foldMarker(Marker, 1);
  removeUnreachableBlocks(F);
  BasicBlock::iterator Split = Entry->begin();
  while (isa<AllocaInst>(*Split))
    ++Split;
  BasicBlock *Body = Entry->splitBasicBlock(Split, "sampler.body");
  Entry->getTerminator()->eraseFromParent();
  BasicBlock *ToSlow = BasicBlock::Create(C, "sampler.to.slow", &F, Body);
  IRBuilder<> B(Entry);
  ++NumChecks;
  Value *Enough = payForRegion(B, Countdown, W);
  MDBuilder MDB(C);
  B.CreateCondBr(Enough, Body, ToSlow, MDB.createLikelyBranchWeights());
  // The instrumented copy reads the thread-local countdown itself.
  B.SetInsertPoint(ToSlow);
  forwardCall(B, F, Slow);
  tagCountdownAccesses(F, Countdown);
  if (CheckDiscount)
    chargeNothingForTheCheck(*Slow, *Entry);
}

Function *sampler::clonePrivate(Function &F, ValueToValueMapTy &VMap,
                                const Twine &Suffix) {
  Function *G = CloneFunction(&F, VMap);
  G->setName(F.getName() + Suffix);
  makePrivateCopy(*G);
  return G;
}

void sampler::makePrivateCopy(Function &G) {
  makeInternalCopy(G);
  G.removeFnAttr(Attribute::AlwaysInline);
  G.removeFnAttr(Attribute::InlineHint);
  G.addFnAttr(Attribute::NoInline);
  G.addFnAttr(abi::InstrumentedCopyAttr);
}

CallInst *sampler::forwardCall(IRBuilder<> &B, Function &F, Function *Callee,
                               ArrayRef<Value *> Extra) {
  LLVMContext &C = F.getContext();
  SmallVector<Value *, 8> Args;
  for (Argument &A : F.args())
    Args.push_back(&A);
  append_range(Args, Extra);
  CallInst *Call = B.CreateCall(Callee, Args);
  Call->setCallingConv(F.getCallingConv());
  // The attributes that make the call match the callee's ABI (sret, byval,
  // zeroext...), not the caller's function attributes.
  AttributeList FA = F.getAttributes();
  SmallVector<AttributeSet, 8> ParamAttrs;
  for (unsigned I = 0, E = F.arg_size(); I != E; ++I)
    ParamAttrs.push_back(FA.getParamAttrs(I));
  Call->setAttributes(
      AttributeList::get(C, AttributeSet(), FA.getRetAttrs(), ParamAttrs));
  if (DISubprogram *SP = F.getSubprogram())
    Call->setDebugLoc(DILocation::get(C, SP->getLine(), 0, SP));
  if (F.getReturnType()->isVoidTy())
    B.CreateRetVoid();
  else
    B.CreateRet(Call);
  return Call;
}

bool SamplingTransform::run(Function &F) {
  SmallVector<CallInst *, 16> Markers = SiteTable::markersIn(F);
  if (Markers.empty())
    return true;
  // Cloning pays when regions are heavy: a check, then one subtract for many
  // sites. For light ones a single copy may be cheaper (a site in place is
  // one `decq %fs:...; js`) and keeps the function small enough to inline.
  // A function the feedback's runs found cold: its sites stay in place, and
  // its .text is not doubled (FeedbackWeights.h). A run that does call it
  // often pays no more than the clone would: by default it has no loop with
  // a site and no path through two sites (those stay cloned), so a call
  // tests at most one site, where the clone would test its entry check.
  if (!canClone(F) || F.hasFnAttribute(ColdAttr) ||
      heaviestRegion(F) < CloneThreshold) {
    lowerInPlace(F);
    return false;
  }
  // One region, not heavier than a region may be: the instrumented copy is a
  // function of its own. (A heavier one is cloned in place, where checks can
  // split it.)
  if (canOutline(F) && heaviestRegion(F) <= MaxRegionWeight) {
    outline(F, Markers);
    return true;
  }
  ++NumCloned;
  // Decided on the function as the schemes left it, before cloning doubles it.
  bool OutlineSlow = canOutlineSlowCopy(F, OutlineLimit);
  LLVMContext &C = F.getContext();
  auto *I64 = Type::getInt64Ty(C);

  // 1. Prologue: the static allocas (and, below, the stack slots of step 3).
  BasicBlock *Prologue = &F.getEntryBlock();
  {
    Instruction *FirstNonAlloca = nullptr;
    SmallVector<AllocaInst *, 16> LateAllocas;
    for (Instruction &I : *Prologue) {
      auto *AI = dyn_cast<AllocaInst>(&I);
      if (!AI) {
        if (!FirstNonAlloca)
          FirstNonAlloca = &I;
      } else if (FirstNonAlloca && AI->isStaticAlloca()) {
        LateAllocas.push_back(AI);
      }
    }
    for (AllocaInst *AI : LateAllocas)
      AI->moveBefore(FirstNonAlloca);
  }
  BasicBlock::iterator Split = Prologue->begin();
  while (isa<AllocaInst>(*Split))
    ++Split;
  BasicBlock *Body = Prologue->splitBasicBlock(Split, "sampler.body");

  // 2. Splits after calls that return twice: new regions. Other calls,
  // weighty or not, stay inside their region (assignKeys says why), and so
  // do landing pads: unwinding keeps to the copy it started in.
  SmallVector<std::pair<BasicBlock *, BasicBlock *>, 4> AfterEdges;
  SmallVector<Instruction *, 4> Work;
  for (BasicBlock &BB : F)
    if (&BB != Prologue)
      for (Instruction &I : BB)
        if (returnsTwice(I))
          Work.push_back(&I);
  for (Instruction *I : Work) {
    if (auto *II = dyn_cast<InvokeInst>(I)) {
      // Two blocks on the normal edge: the first receives what step 3 stores
      // of the invoke's value (it must be stored before the copies join);
      // the edge out of it is the one that gets the check.
      BasicBlock *Land = SplitEdge(II->getParent(), II->getNormalDest());
      Land->setName("sampler.invoke.cont");
      BasicBlock *Rest = SplitEdge(Land, Land->getSingleSuccessor());
      Rest->setName("sampler.after.call");
      AfterEdges.push_back({Land, Rest});
    } else {
      BasicBlock *From = I->getParent();
      BasicBlock *Rest = SplitBlock(From, I->getNextNode(),
                                    static_cast<DominatorTree *>(nullptr),
                                    nullptr, nullptr, "sampler.after.call");
      AfterEdges.push_back({From, Rest});
    }
  }

  // 3. Demote PHIs and cross-block values to stack slots in the prologue.
  // Only those slots are promoted back at the end:
  // the program's own allocas stay as they were (at -O0 the debugger needs them).
  SmallPtrSet<AllocaInst *, 32> ProgramAllocas;
  for (Instruction &I : *Prologue)
    if (auto *AI = dyn_cast<AllocaInst>(&I))
      ProgramAllocas.insert(AI);
  BasicBlock::iterator AllocaPt = Prologue->getFirstNonPHIOrDbgOrAlloca();
  {
    SmallVector<PHINode *, 32> Phis;
    for (BasicBlock &BB : F)
      for (PHINode &P : BB.phis())
        Phis.push_back(&P);
    for (PHINode *P : Phis)
      DemotePHIToStack(P, AllocaPt);
    SmallVector<Instruction *, 64> Live;
    for (BasicBlock &BB : F) {
      if (&BB == Prologue)
        continue;
      for (Instruction &I : BB)
        if (!I.use_empty() && I.isUsedOutsideOfBlock(&BB))
          Live.push_back(&I);
    }
    for (Instruction *I : Live)
      DemoteRegToStack(*I, false, AllocaPt);
  }
  SmallVector<AllocaInst *, 64> Slots;
  for (Instruction &I : *Prologue)
    if (auto *AI = dyn_cast<AllocaInst>(&I); AI && !ProgramAllocas.count(AI))
      Slots.push_back(AI);
  // The instrumented copy's countdown, relative to its region's end.
  AllocaInst *Local =
      new AllocaInst(I64, 0, "sampler.cd", Prologue->getFirstNonPHIOrDbgOrAlloca());
  Slots.push_back(Local);

  // 4. Check edges and region weights.
  MapVector<BasicBlock *, uint64_t> Targets; // region starts, their weights
  Targets[Body];
  SmallSetVector<std::pair<BasicBlock *, BasicBlock *>, 16> CheckEdges;
  for (auto &E : AfterEdges) {
    CheckEdges.insert(E);
    Targets[E.second];
  }
  // Computed goto: a block whose address is taken may be entered from either
  // copy (the address is data, e.g. a dispatch table), so it begins a region,
  // and every indirectbr edge is a check edge. run() redirects the addresses
  // to the check blocks.
  for (BasicBlock &BB : F) {
    if (BB.hasAddressTaken())
      Targets[&BB];
    if (auto *IBr = dyn_cast<IndirectBrInst>(BB.getTerminator()))
      for (BasicBlock *To : IBr->successors()) {
        CheckEdges.insert({&BB, To});
        Targets[To];
      }
  }
  SmallVector<std::pair<const BasicBlock *, const BasicBlock *>, 16> BackEdges;
  FindFunctionBackedges(F, BackEdges);
  for (auto &E : BackEdges) {
    auto *To = const_cast<BasicBlock *>(E.second);
    if (To->isEHPad()) { // no check can stand before a pad: one copy only
      lowerInPlace(F);
      return false;
    }
    CheckEdges.insert({const_cast<BasicBlock *>(E.first), To});
    Targets[To];
  }
  DenseMap<BasicBlock *, unsigned> SitesIn;
  for (CallInst *Marker : Markers)
    ++SitesIn[Marker->getParent()];
  SmallVector<BasicBlock *, 16> Starts;
  for (auto &T : Targets)
    Starts.push_back(T.first);
  // Heavy loops are checked on entry too. Otherwise the region that enters
  // the loop weighs its own sites plus the loop's first iteration, and the
  // paths that skip the loop pay for it, in trials and in instrumented-copy
  // runs that own none of them: zlib's longest_match (an inner loop of nine
  // sites per iteration, entered by few iterations of the outer one) made 4.5
  // runtime calls per observation at d = 100. A check costs its entry two
  // instructions; for a light loop (short loops in small functions, Lua) the
  // trials it would save are not worth them. Entry checks only add check
  // edges, so the trial accounting is unchanged (any edge may be one).
  {
    Regions Pre = computeRegions(Starts, CheckEdges, SitesIn);
    // In a fixed order (not a pointer-keyed set's): the checks are created in
    // the order of the check edges, and the output must not depend on where
    // the blocks lie in memory (test/sampling/deterministic-order.c).
    SmallSetVector<BasicBlock *, 16> Heavy;
    for (auto &E : BackEdges) {
      auto *H = const_cast<BasicBlock *>(E.second);
      if (Pre.Weight.lookup(H) >= LoopEntryCheckWeight)
        Heavy.insert(H);
    }
    for (BasicBlock *H : Heavy)
      for (BasicBlock *P : predecessors(H))
        if (P != Prologue && !CheckEdges.count({P, H}) && canEndRegion(P))
          CheckEdges.insert({P, H});
  }
  // Where a profile says which way is cold, the heavy ways of unbalanced
  // branches get checks of their own, before the splits below weigh the
  // regions.
  if (ColdHeavyPercent)
    checksOnColdHeavyEdges(F, ColdHeavyPercent, Prologue, Body, Starts,
                           CheckEdges, Targets, SitesIn);
  // No region heavier than MaxRegionWeight where a check can split it: a
  // check costs every path through it two instructions, while a region's
  // excess weight costs the paths that cross few of its sites trials (each
  // success among them a runtime call, and runs of the instrumented copy):
  // bzip2's mainGtU is 12 early-return tests and a loop of 16 more, and most
  // calls return after two or three. Walked in topological order, a block is
  // made a region start when the heaviest path into it plus its own sites
  // would pass the limit.
  if (uint64_t K = MaxRegionWeight) {
    Regions Pre = computeRegions(Starts, CheckEdges, SitesIn);
    DenseMap<BasicBlock *, uint64_t> Out;
    for (BasicBlock *BB : reverse(Pre.PostOrder)) {
      uint64_t In = 0;
      SmallVector<BasicBlock *, 4> DagPreds;
      for (BasicBlock *P : predecessors(BB))
        if (!CheckEdges.count({P, BB}) && Out.count(P)) {
          In = std::max(In, Out.lookup(P));
          DagPreds.push_back(P);
        }
      uint64_t Here = SitesIn.lookup(BB);
      bool Splittable = !BB->isEHPad() && BB != Body &&
                        all_of(DagPreds, [&](BasicBlock *P) {
                          return P != Prologue && canEndRegion(P);
                        });
      if (In > 0 && In + Here > K && Splittable) {
        for (BasicBlock *P : DagPreds)
          CheckEdges.insert({P, BB});
        if (!Targets.count(BB)) {
          Targets[BB];
          Starts.push_back(BB);
        }
        In = 0;
      }
      Out[BB] = In + Here;
    }
  }
  // Paid calls last, where they fit in the regions as the checks above cut
  // them: no check is added for them.
  PaidCallMap PaidCalls =
      fitPaidCalls(paidCandidates(F), Starts, CheckEdges, SitesIn);
  Regions R = computeRegions(Starts, CheckEdges, SitesIn);
  for (auto &T : Targets)
    T.second = R.Weight.lookup(T.first);
  DenseMap<CallInst *, SiteKey> Keys =
      assignKeys(Markers, R, CheckEdges, WI, PaidCalls);

  // Loops of the function as it is (the fast copy): where the instrumented
  // copy may return to the fast one (see the checks below), and the tails.
  DominatorTree FastDT(F);
  LoopInfo FastLI(FastDT);
  DenseSet<std::pair<BasicBlock *, BasicBlock *>> IsBackEdge;
  for (auto &E : BackEdges)
    IsBackEdge.insert({const_cast<BasicBlock *>(E.first),
                       const_cast<BasicBlock *>(E.second)});

  // 5. Clone: the original blocks are the fast copy, the clones the slow one.
  ValueToValueMapTy VMap;
  SmallVector<BasicBlock *, 64> Fast, Slow;
  for (BasicBlock &BB : F)
    if (&BB != Prologue)
      Fast.push_back(&BB);
  for (BasicBlock *BB : Fast) {
    BasicBlock *Clone = CloneBasicBlock(BB, VMap, ".slow", &F);
    VMap[BB] = Clone;
    Slow.push_back(Clone);
  }
  remapInstructionsInBlocks(Slow, VMap);
  for (CallInst *Marker : Markers) {
    auto *SlowMarker = cast<CallInst>(VMap[Marker]);
    SiteKey K = Keys.lookup(Marker);
    // Fast copy: the original code (the check paid for the region's trials
    // and none of them succeeds).
    foldMarker(Marker, 1);
    lowerInstrumentedMarker(
        SlowMarker, Local,
        SiteForm{false, K.Key, K.Mirror ? Countdown : nullptr}, Fire);
  }
  payCalls(PaidCalls, Keys, VMap, Local);

  // With NaturalNests, the instrumented copy returns to the fast copy at the
  // header of a loop inside another through a tail (LoopTails.h) instead, so
  // that the fast outer loop keeps a single entry.
  // A back edge to a block inside a loop that heads no loop of its own enters
  // an irreducible cycle there; the tail of that loop gives the way back.
  LoopTails Tails;
  if (NaturalNests && !OutlineSlow &&
      none_of(F, [](BasicBlock &BB) { return BB.hasAddressTaken(); })) {
    SmallSetVector<BasicBlock *, 8> BackTargets;
    for (auto &E : BackEdges)
      BackTargets.insert(const_cast<BasicBlock *>(E.second));
    // Nests of at most MaxOpenNestLoops loops that call a function with a
    // loop, one the inliner takes at its one call, stay open (LoopTails.h).
    SmallPtrSet<const Loop *, 4> Open;
    auto OpenerIn = [&](const Loop *Top) -> const CallBase * {
      for (const BasicBlock *BB : Top->blocks())
        for (const Instruction &I : *BB)
          if (auto *CB = dyn_cast<CallBase>(&I);
              CB && WI.isWeightyCall(*CB) &&
              NestOpeners.contains(CB->getCalledFunction()))
            return CB;
      return nullptr;
    };
    OptimizationRemarkEmitter ORE(&F);
    for (const Loop *Top : FastLI) {
      unsigned Loops = Top->getLoopsInPreorder().size();
      if (Loops == 1 || Loops > MaxOpenNestLoops)
        continue;
      if (const CallBase *CB = OpenerIn(Top)) {
        Open.insert(Top);
        ORE.emit([&] {
          return OptimizationRemark("sampler-open-nest", "OpenNest",
                                    Top->getHeader()->getTerminator())
                 << "a nest of " << ore::NV("Loops", Loops)
                 << " loops calls "
                 << ore::NV("Callee", CB->getCalledFunction()->getName())
                 << ", a function with a loop inlined at its one call: no "
                    "tails";
        });
      }
    }
    Tails.build(F, FastLI, BackTargets.getArrayRef(), Open);
  }

  // The checks. Each copy gets check blocks of its own, so that every loop of
  // the fast copy stays a natural loop (one entry, its header) that LoopInfo,
  // LICM, the unroller and the vectoriser see: a check block shared by both
  // copies' latches made each fast loop a cycle entered from the instrumented
  // copy at its latch, an irreducible one. Per target:
  //   * the fast copy's back edges share one check (the loop's latch, tagged
  //     for LoopBoundCheck);
  //   * its other edges (entry, splits) share another, with the instrumented
  //     copy's edges to a loop header or to a block in no loop: these may
  //     return to the fast copy (measured: one such check rather than one
  //     per copy saves 5% of zlib's instructions);
  //   * the instrumented copy's edges to a block inside a loop's body pay for
  //     the region and stay in the instrumented copy (entering the fast loop
  //     there would make it irreducible again) until the next loop header or
  //     the end;
  //   * a block whose address is taken (computed goto) has one check for
  //     both copies: the address is data, the same for either.
  MDBuilder MDB(C);
  enum CheckKind { FastEntry, FastBack, SlowStay, Shared };
  DenseMap<std::pair<BasicBlock *, unsigned>, BasicBlock *> Checks;
  SmallPtrSet<BasicBlock *, 16> FastChecks; // where the slow copy may leave
  DenseMap<BasicBlock *, BasicBlock *> SharedToSlow;
  // A check of Target's region; where it finds the region's trials all fail,
  // it goes on to Dest: Target, or its copy in a tail.
  auto CheckFor = [&](BasicBlock *Target, CheckKind Kind,
                      BasicBlock *Dest = nullptr) -> BasicBlock * {
    if (!Dest)
      Dest = Target;
    BasicBlock *&Check = Checks[{Dest, unsigned(Kind)}];
    if (Check)
      return Check;
    uint64_t Weight = Targets.lookup(Target);
    auto *SlowTarget = cast<BasicBlock>(VMap[Target]);
    Check = BasicBlock::Create(C, Kind == SlowStay ? "sampler.pay" : "sampler.check",
                               &F, Kind == SlowStay ? SlowTarget : Dest);
    if (Kind != SlowStay)
      FastChecks.insert(Check);
    IRBuilder<> CB(Check);
    if (Weight == 0 && Kind != SlowStay) {
      ++NumZeroWeightChecks;
      CB.CreateBr(Dest);
      return Check;
    }
    ++NumChecks;
    Value *Enough = payForRegion(CB, Countdown, Weight);
    // Outlined, a target's entry and back-edge checks share their way to the
    // instrumented copy: one call block instead of two (the inliner counts
    // them). In place, sharing measured mixed (docs/benchmarks.md: Lua and
    // bzip2 gained, ccrypt lost more), so each check keeps its own.
    bool Share = OutlineSlow && Kind != SlowStay;
    BasicBlock *ToSlow = Share ? SharedToSlow.lookup(Target) : nullptr;
    if (!ToSlow) {
      ToSlow = BasicBlock::Create(C, "sampler.to.slow", &F, Target);
      if (Share)
        SharedToSlow[Target] = ToSlow;
      Value *L;
      BasicBlock *Go = resolveUnknown(ToSlow, Weight, Target, L,
                                      /*Volatile=*/Kind != SlowStay);
      IRBuilder<> TB(Go);
      TB.CreateStore(L, Local);
      TB.CreateBr(SlowTarget);
    }
    if (Kind == SlowStay) {
      cast<Instruction>(Enough)->eraseFromParent();
      CB.CreateBr(ToSlow);
    } else {
      BranchInst *BI = CB.CreateCondBr(Enough, Dest, ToSlow,
                                       MDB.createLikelyBranchWeights());
      if (Kind == FastBack || Kind == FastEntry)
        BI->setMetadata(Kind == FastBack ? BackEdgeCheckMD : CheckMD,
                        MDNode::get(C, ConstantAsMetadata::get(
                                           CB.getInt64(Weight))));
    }
    return Check;
  };
  Prologue->getTerminator()->replaceSuccessorWith(Body,
                                                  CheckFor(Body, FastEntry));
  for (auto &[From, To] : CheckEdges) {
    auto *SlowFrom = cast<BasicBlock>(VMap[From]);
    auto *SlowTo = cast<BasicBlock>(VMap[To]);
    if (To->hasAddressTaken()) {
      From->getTerminator()->replaceSuccessorWith(To, CheckFor(To, Shared));
      SlowFrom->getTerminator()->replaceSuccessorWith(SlowTo,
                                                      CheckFor(To, Shared));
      continue;
    }
    bool Back = IsBackEdge.count({From, To});
    BasicBlock *Check = CheckFor(To, Back ? FastBack : FastEntry);
    From->getTerminator()->replaceSuccessorWith(To, Check);
    // The check is the loop's latch now: the loop's metadata (the program's
    // `#pragma clang loop`, `mustprogress`) is read from the latch's branch,
    // so it moves there, or the loop loses it (vectorize(disable) ignored).
    if (Back)
      if (MDNode *LoopMD = From->getTerminator()->getMetadata(LLVMContext::MD_loop))
        if (!Check->getTerminator()->getMetadata(LLVMContext::MD_loop))
          Check->getTerminator()->setMetadata(LLVMContext::MD_loop, LoopMD);
    // Back to fast code at a loop header or outside loops; with
    // NaturalNests, at an inner loop's header only through its outer loop's
    // tail, or directly in an open nest (or, without tails, not at all), and
    // at an irreducible cycle's entry inside a loop through that loop's tail
    // (or not at all: the cycle may never pass the loop's header again).
    const Loop *L = FastLI.getLoopFor(To);
    bool MayReturnToFast =
        !L || (L->getHeader() == To && (!NaturalNests || Tails.mayEnter(L)));
    BasicBlock *CycleTail = Back && !MayReturnToFast ? Tails.cycleEntry(To)
                                                     : nullptr;
    SlowFrom->getTerminator()->replaceSuccessorWith(
        SlowTo, MayReturnToFast ? CheckFor(To, FastEntry, Tails.entry(To))
                : CycleTail     ? CheckFor(To, FastEntry, CycleTail)
                                : CheckFor(To, SlowStay));
  }
  // The tails' edges: checks where the fast copy has them, and every way out
  // of a tail's loop where an edge from inside that loop may go (LoopTails.h).
  for (const LoopTails::Block &TB : Tails.blocks()) {
    Instruction *Term = TB.Copy->getTerminator();
    SmallPtrSet<BasicBlock *, 4> Seen;
    for (BasicBlock *Succ : successors(TB.Copy)) {
      if (!Seen.insert(Succ).second)
        continue;
      BasicBlock *To = Tails.original(Succ);
      BasicBlock *Dest = Tails.dest(TB.X, To);
      if (CheckEdges.count({TB.Fast, To})) {
        // A back edge within the tail keeps its latch's check; the tail's
        // way to the header of its own loop is an entry of that loop.
        bool Back = IsBackEdge.count({TB.Fast, To}) && To != TB.X->getHeader();
        Term->replaceSuccessorWith(Succ, CheckFor(To, Back ? FastBack : FastEntry, Dest));
      } else if (Dest != Succ) {
        Term->replaceSuccessorWith(Succ, Dest);
      }
    }
  }
  // Every address of a region's first block, in either copy (clones map
  // blockaddress constants to the clone), now names the region's check.
  for (auto &[Target, Weight] : Targets)
    for (BasicBlock *BB : {Target, cast<BasicBlock>(VMap[Target])})
      if (BB->hasAddressTaken())
        if (BlockAddress *BA = BlockAddress::lookup(BB))
          BA->replaceAllUsesWith(BlockAddress::get(&F, CheckFor(Target, Shared)));

  // 6. A small function's instrumented copy becomes a function of its own
  // (SlowCopyOutliner.h): its clones, the fast checks' ways there (the
  // re-read, the fresh draw: a check of the fast copy is then a payment and a
  // call), and every block they reach before a check that returns to the
  // fast copy (the sites' observations, the checks only they reach).
  if (OutlineSlow) {
    SmallPtrSet<BasicBlock *, 32> SlowSet(Slow.begin(), Slow.end());
    SmallVector<BasicBlock *, 64> Work(Slow.begin(), Slow.end());
    for (BasicBlock *Check : FastChecks)
      if (auto *BI = dyn_cast<BranchInst>(Check->getTerminator());
          BI && BI->isConditional() && SlowSet.insert(BI->getSuccessor(1)).second)
        Work.push_back(BI->getSuccessor(1));
    while (!Work.empty())
      for (BasicBlock *Succ : successors(Work.pop_back_val()))
        if (!FastChecks.contains(Succ) && SlowSet.insert(Succ).second)
          Work.push_back(Succ);
    bool Separate = none_of(Fast, [&](BasicBlock *BB) { return SlowSet.contains(BB); });
    if (Separate)
      if (Function *Out = outlineSlowCopy(F, Prologue, SlowSet)) {
        ++NumSlowOutlined;
        if (SlowOptSize) // as outline()'s copy
          Out->addFnAttr(Attribute::OptimizeForSize);
        // Its checks and calls to the instrumented copy are cold, but the
        // inliner counts them like the function's own code: the hint raises
        // its threshold (225 -> 325 at -O2) by about what they add.
        if (!F.hasFnAttribute(Attribute::NoInline))
          F.addFnAttr(Attribute::InlineHint);
        tagCountdownAccesses(*Out, Countdown);
        Created.push_back(Out);
      }
  }

  // 7. Clean up and back to SSA. In a function with very many sites, the
  // instrumented copy's countdown stays in its stack slot: promoted, it is a
  // web of PHIs (one per site at least, where a draw may have changed it)
  // that PHI elimination turns into copies, and the register coalescer, which
  // shrinks the web's live interval after each join, takes time that grows
  // faster than linearly with it (with every scheme, sqlite3VdbeExec has
  // 6,642 sites, and sqlite3.c spent 332 of its 942 s in the coalescer, 92 s
  // with slots; docs/benchmarks.md). Volatile, so that no later pass promotes
  // it; a site then compares with memory, in the instrumented copy only.
  removeUnreachableBlocks(F);
  if (CountdownSlotSites && !OutlineSlow && Markers.size() >= CountdownSlotSites) {
    ++NumCountdownSlots;
    for (User *U : Local->users())
      if (auto *LI = dyn_cast<LoadInst>(U))
        LI->setVolatile(true);
      else if (auto *SI = dyn_cast<StoreInst>(U))
        SI->setVolatile(true);
  }
  SmallVector<AllocaInst *, 64> Promotable;
  for (AllocaInst *AI : Slots)
    if (isAllocaPromotable(AI))
      Promotable.push_back(AI);
  if (!Promotable.empty()) {
    DominatorTree DT(F);
    PromoteMemToReg(Promotable, DT);
  }
  tagCountdownAccesses(F, Countdown);
  return true;
}

//===- IndirectTLS.cpp - The countdown reached through the thread pointer -===//
//
// See IndirectTLS.h. For each function that touches the countdown:
//   1. mark it "indirect-tls-seg-refs";
//   2. if it touches the countdown in two blocks or more, and those blocks
//      run, by the static block frequencies, at least 1.5 times a call (not
//      only a check on entry and its cold ways), or are more than four, or the
//      function is optimised for size, hold what the accesses need in a
//      register, computed once rather than again in every block: in an
//      x86-64 executable (the countdown local-exec) and a function of at most
//      MaxThreadPointerUses accesses not optimised for size, the thread
//      pointer itself, a load from
//      %fs:0 that each access adds the countdown's offset to in its own
//      block, which the backend folds into the access (`addq $-W,
//      __sampler_countdown@TPOFF(%reg)`); otherwise a `freeze` of the
//      address (its llvm.threadlocal.address call: an instruction, not a
//      constant), at the cost of a `leaq` each call. Either is held from the
//      entry block, or lower, outside loops, where the accesses that are not
//      cold all lie below a block the entry does not always reach
//      (holdingBlocks()).
//
//===----------------------------------------------------------------------===//
#include "IndirectTLS.h"
#include "RuntimeABI.h"
#include "SamplingTransform.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/BlockFrequencyInfo.h"
#include "llvm/Analysis/CFG.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/TargetParser/Triple.h"

using namespace llvm;
using namespace sampler;

#define DEBUG_TYPE "sampler-indirect-tls"

STATISTIC(NumMarked, "Functions that reach the countdown through %fs:0");
STATISTIC(NumHeld, "Functions that keep the countdown's address in a register");
STATISTIC(NumHeldThreadPointer,
          "Functions that keep the thread pointer in a register, for it");

/// The attribute clang's -mno-tls-direct-seg-refs gives every function; the
/// x86 instruction selector reads it (X86ISelDAGToDAG.cpp).
static constexpr char IndirectAttr[] = "indirect-tls-seg-refs";

/// The most blocks that may touch the countdown in a function that does not
/// hold its address (their runs permitting): the entry's check and three
/// cold ways.
static constexpr unsigned MaxUnheldBlocks = 4;

/// A block that runs less often than once in this many calls is cold, when it
/// comes to where the address is held (holdingBlocks()).
static constexpr uint64_t ColdFraction = 1000;

/// The most accesses of the countdown in a function that holds the thread
/// pointer rather than the address (heldThreadPointer()): each access
/// addresses the countdown with a 4-byte offset from it, where the held
/// address needs none, so a function with many (one cloned in place, its
/// sites each an access) holds the address, whose `leaq` on each call is a
/// small share of its cost. 64: Lua's instructions −0.43% with sampling off,
/// `.text` +1.75%; without a limit −0.44% and +2.6% (zlib +4.3%, bzip2
/// +5.1%, for −0.19% and −0.12%) (docs/benchmarks.md, "The thread pointer
/// held instead of the address").
static constexpr unsigned MaxThreadPointerUses = 64;

/// The most cold blocks that may load the thread pointer each in a function
/// that holds the address below its entry (holdingBlocks()).
static constexpr unsigned MaxUnheldColdBlocks = 2;

/// The block that dominates every block of \p Set (not empty), moved up out
/// of every loop: a freeze in a loop would be a `leaq` an iteration.
static BasicBlock *commonDominatorOutsideLoops(
    ArrayRef<BasicBlock *> Set, const DominatorTree &DT, const LoopInfo &LI) {
  BasicBlock *At = Set.front();
  for (BasicBlock *BB : Set.drop_front())
    At = DT.findNearestCommonDominator(At, BB);
  while (Loop *L = LI.getLoopFor(At))
    At = DT.getNode(L->getOutermostLoop()->getHeader())->getIDom()->getBlock();
  return At;
}

/// Where \p F computes the held address (one freeze in each block returned;
/// no block of them dominates another). The entry block, unless the blocks
/// other than the entry that touch the countdown and are not cold all lie
/// below some later block, outside every loop. Then the `leaq` of the address
/// runs only on the calls that take that way (bzip2's `mainGtU`: its entry
/// check, then eight byte compares, most calls returning after the first;
/// then the loop that checks), and the entry's own check reaches the
/// countdown from the thread pointer as an unheld function's does. The cold
/// blocks that way does not cover (the instrumented copy the entry's check
/// goes to) load the thread pointer each if they are MaxUnheldColdBlocks at
/// most; more get a freeze of their own where they meet (or, where that
/// block also dominates the first, one freeze there; where it is the entry,
/// one freeze there as before), for their bytes. Given \p ThreadPointer
/// (what is held is the thread pointer, heldThreadPointer()), lower than the
/// entry only where a loop runs before the held part.
static SmallVector<BasicBlock *, 2>
holdingBlocks(Function &F, const SmallPtrSetImpl<BasicBlock *> &Blocks,
              FunctionAnalysisManager &FAM, bool ThreadPointer) {
  BasicBlock *Entry = &F.getEntryBlock();
  if (F.hasOptSize())
    return {Entry}; // its cold ways hold it too, for their bytes
  auto &BFI = FAM.getResult<BlockFrequencyAnalysis>(F);
  auto &DT = FAM.getResult<DominatorTreeAnalysis>(F);
  auto &LI = FAM.getResult<LoopAnalysis>(F);
  uint64_t EntryFreq = BFI.getEntryFreq().getFrequency();
  SmallVector<BasicBlock *, 8> Warm, Rest;
  for (BasicBlock *BB : Blocks) {
    if (BB == Entry)
      continue;
    // Cold: a way to the instrumented copy or a site's draw, below its
    // unlikely branch weight (1 in 2001); the hot ways of a chain of ten
    // even branches are still above.
    if (BFI.getBlockFreq(BB).getFrequency() * ColdFraction >= EntryFreq)
      Warm.push_back(BB);
    else
      Rest.push_back(BB);
  }
  auto Usable = [&](BasicBlock *At) {
    return At != Entry && !At->isEHPad() &&
           At->getFirstInsertionPt() != At->end();
  };
  if (Warm.empty())
    std::swap(Warm, Rest); // all cold: the same, for their bytes
  BasicBlock *At = commonDominatorOutsideLoops(Warm, DT, LI);
  if (!Usable(At))
    return {Entry};
  // Holding the thread pointer costs no `leaq`: held from the entry, where
  // the entry's check loads it anyway, it costs nothing but its register
  // until the held part, and lower it costs a load of it again. Lower only if
  // a loop runs before the held part, through which the register would be
  // live.
  if (ThreadPointer &&
      none_of(LI.getTopLevelLoops(), [&](const Loop *L) {
        return !DT.dominates(At, L->getHeader()) &&
               isPotentiallyReachable(L->getHeader(), At, nullptr, &DT, &LI);
      }))
    return {Entry};
  SmallVector<BasicBlock *, 8> Uncovered;
  for (BasicBlock *BB : Rest)
    if (!DT.dominates(At, BB))
      Uncovered.push_back(BB);
  if (Uncovered.size() <= MaxUnheldColdBlocks)
    return {At};
  BasicBlock *Cold = commonDominatorOutsideLoops(Uncovered, DT, LI);
  if (!Usable(Cold))
    return {Entry};
  if (DT.dominates(Cold, At))
    return {Cold};
  return {At, Cold};
}

/// Whether, in module \p M, a function that holds the countdown's address may
/// hold the thread pointer instead (x86-64 ELF): the address is the thread pointer plus an
/// offset the backend folds into each access, `addq $-W,
/// __sampler_countdown@TPOFF(%reg)`, so holding it costs no `leaq`.
/// Not in a module for LTO (clang's "EnableSplitLTOUnit" flag, full and
/// thin): the link optimises the IR again, and there GVN and LICM merged each
/// block's llvm.threadlocal.address into one held address and left the
/// subtraction of the thread pointer in every block (a `subq %fs:0` an
/// access, measured on test/e2e/Inputs/sum); the held address is robust.
static bool heldThreadPointer(const Module &M, const GlobalVariable *Countdown) {
  const Triple T(M.getTargetTriple());
  return T.getArch() == Triple::x86_64 && !T.isX32() &&
         T.isOSBinFormatELF() &&
         Countdown->getThreadLocalMode() == GlobalValue::LocalExecTLSModel &&
         !M.getModuleFlag("EnableSplitLTOUnit");
}

/// The thread pointer, loaded from %fs:0 (address space 257 is %fs), before
/// \p Pt.
static Instruction *loadThreadPointer(LLVMContext &C, const Twine &Name,
                                      BasicBlock::iterator Pt) {
  auto *FS = ConstantPointerNull::get(PointerType::get(C, 257));
  return new LoadInst(PointerType::get(C, 0), FS, Name, false, Align(8), Pt);
}

/// The countdown's address in \p BB from the held thread pointer \p TP:
/// TP + (Addr - the thread pointer loaded again in BB), at the top of BB (or
/// right after TP in its own block). The instruction selector lowers Addr
/// (a constant to it) as that same load plus the offset, in BB's DAG, with
/// the entry's chain; the two loads are one node, the difference folds to
/// the offset, and the access is `op __sampler_countdown@TPOFF(%TP)`. If
/// anything kept them apart the value would still be the countdown's
/// address, one load and subtraction slower.
static Value *addressFrom(Instruction *TP, GlobalVariable *Countdown,
                          BasicBlock *BB) {
  Instruction *Here =
      BB == TP->getParent()
          ? TP
          : loadThreadPointer(BB->getContext(), "countdown.tp.here",
                              BB->getFirstInsertionPt());
  IRBuilder<> B(BB, std::next(Here->getIterator()));
  Type *IntPtr = B.getInt64Ty();
  // A call of its own in BB: the entry's would reach BB as a register.
  CallInst *Addr = B.CreateThreadLocalAddress(Countdown);
  Addr->setName("countdown.addr.here");
  Value *AddrInt = B.CreatePtrToInt(Addr, IntPtr);
  Value *HereInt = B.CreatePtrToInt(Here, IntPtr);
  Value *Off = B.CreateSub(AddrInt, HereInt, "countdown.tpoff");
  return B.CreateGEP(B.getInt8Ty(), TP, Off, "countdown.held");
}

/// Step 2 for \p F: its loads, stores and draws' memory operands of the
/// countdown use a held thread pointer (heldThreadPointer()) or frozen
/// address when they are in two blocks or more that run at least
/// \p HoldPercent% as often as the entry (0: always), or more than
/// MaxUnheldBlocks blocks, or in code optimised for size.
/// (A constant address, which llvm.threadlocal.address is to the instruction
/// selector, is computed again in every block that uses it: with the
/// attribute, a load of the thread pointer from %fs:0 a block. One
/// instruction a check more, and measured slower than the register:
/// docs/benchmarks.md.)
/// \p TPForm: the module allows the held thread pointer (heldThreadPointer()).
static bool holdAddress(Function &F, GlobalVariable *Countdown,
                        FunctionAnalysisManager &FAM, unsigned HoldPercent,
                        bool TPForm) {
  SmallVector<Use *, 16> Uses;
  SmallPtrSet<BasicBlock *, 4> Blocks;
  for (BasicBlock &BB : F)
    for (Instruction &I : BB) {
      Use *Addr = nullptr;
      if (auto *LI = dyn_cast<LoadInst>(&I))
        Addr = &LI->getOperandUse(LoadInst::getPointerOperandIndex());
      else if (auto *SI = dyn_cast<StoreInst>(&I))
        Addr = &SI->getOperandUse(StoreInst::getPointerOperandIndex());
      else if (auto *CB = dyn_cast<CallBase>(&I); CB && drawStoresCountdown(CB))
        Addr = &CB->getArgOperandUse(0); // its memory operand
      if (Addr && isCountdownAddress(Addr->get(), Countdown)) {
        Uses.push_back(Addr);
        Blocks.insert(&BB);
      }
    }
  if (Blocks.size() < 2)
    return false;
  // Held, the address costs every call a `leaq` (the thread pointer plus the
  // countdown's offset; not where the thread pointer is held instead) and a
  // register for the whole function; not held, each
  // block that touches the countdown loads the thread pointer again (9 bytes)
  // and folds the offset into its access (4 bytes more). When the blocks are
  // the entry's check and a few cold ways (to the instrumented copy, a merged
  // check's way back), the `leaq` is all the register buys: Lua's
  // lua_pushvalue ran `movq %fs:0, %rax; leaq -0x60(%rax), %rax; addq $-6,
  // (%rax); js` on every call, 49.3M `leaq`s in Lua's run (1% of its
  // instructions). Where the other blocks run about as often as the entry (a
  // check after a call on every call's way, a loop's back edge), the register
  // keeps each check off a load of the thread pointer: holding only from 400%
  // on cut more instructions and measured 2% slower on Lua. Where many cold
  // blocks touch it (a function cloned in place, whose instrumented copy's
  // sites each store it), the loads cost bytes (zlib's `.text` +2.1%) for no
  // instruction zlib runs. Code optimised for size (the instrumented copies,
  // cold functions) holds it wherever two blocks touch it. (docs/benchmarks.md,
  // "The countdown's address held where it pays".)
  if (HoldPercent && !F.hasOptSize() && Blocks.size() <= MaxUnheldBlocks) {
    auto &BFI = FAM.getResult<BlockFrequencyAnalysis>(F);
    double Entry = BFI.getEntryFreq().getFrequency();
    double Runs = 0;
    for (BasicBlock *BB : Blocks)
      Runs += BFI.getBlockFreq(BB).getFrequency();
    if (Runs * 100 < Entry * HoldPercent)
      return false;
  }
  auto *Addr = dyn_cast<Instruction>(countdownAddressFor(F, Countdown));
  if (!Addr)
    return false; // the global itself: a presplit coroutine
  bool ThreadPointer =
      TPForm && !F.hasOptSize() && Uses.size() <= MaxThreadPointerUses;
  NumHeldThreadPointer += ThreadPointer;
  SmallVector<BasicBlock *, 2> Where =
      holdingBlocks(F, Blocks, FAM, ThreadPointer);
  SmallVector<Instruction *, 2> Held;
  for (BasicBlock *At : Where) {
    BasicBlock::iterator Pt = At == Addr->getParent()
                                  ? std::next(Addr->getIterator())
                                  : At->getFirstInsertionPt();
    if (ThreadPointer)
      Held.push_back(loadThreadPointer(F.getContext(), "countdown.tp", Pt));
    else
      Held.push_back(new FreezeInst(Addr, "countdown.held", Pt));
  }
  // The uses nothing held dominates (the entry's check, a few cold ways taken
  // before the held part) keep the address the backend computes in their own
  // block.
  auto &DT = FAM.getResult<DominatorTreeAnalysis>(F);
  DenseMap<std::pair<BasicBlock *, Instruction *>, Value *> Local;
  for (Use *U : Uses) {
    auto H = find_if(Held, [&](Instruction *H) { return DT.dominates(H, *U); });
    if (H == Held.end())
      continue;
    if (!ThreadPointer) {
      U->set(*H);
      continue;
    }
    BasicBlock *BB = cast<Instruction>(U->getUser())->getParent();
    Value *&A = Local[{BB, *H}];
    if (!A)
      A = addressFrom(*H, Countdown, BB);
    U->set(A);
  }
  return true;
}

PreservedAnalyses SamplerIndirectTLSPass::run(Module &M,
                                              ModuleAnalysisManager &MAM) {
  GlobalVariable *Countdown = countdownIn(M);
  // The process's countdown (-fsampler-single-threaded) has no thread
  // pointer to hold: its accesses are already one RIP-relative operand.
  if (!Countdown || !Countdown->isThreadLocal() ||
      !Triple(M.getTargetTriple()).isX86())
    return PreservedAnalyses::all();
  auto &FAM = MAM.getResult<FunctionAnalysisManagerModuleProxy>(M).getManager();
  // The functions that use the global: through their llvm.threadlocal.address
  // call (SamplingTransform.h, countdownAddressFor) or directly, and through
  // constant expressions.
  SmallPtrSet<Function *, 32> Users;
  SmallVector<User *, 16> Work(Countdown->users());
  SmallPtrSet<User *, 16> Seen;
  while (!Work.empty()) {
    User *U = Work.pop_back_val();
    if (!Seen.insert(U).second)
      continue;
    if (auto *I = dyn_cast<Instruction>(U))
      Users.insert(I->getFunction());
    else if (isa<ConstantExpr>(U))
      Work.append(U->user_begin(), U->user_end());
  }
  bool TPForm = heldThreadPointer(M, Countdown);
  bool Changed = false;
  for (Function *F : Users) {
    if (!F->hasFnAttribute(IndirectAttr)) {
      F->addFnAttr(IndirectAttr);
      ++NumMarked;
      Changed = true;
    }
    // At -O0 (optnone) every value lives in memory anyway.
    if (!F->hasOptNone() && holdAddress(*F, Countdown, FAM, HoldPercent, TPForm)) {
      ++NumHeld;
      Changed = true;
    }
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

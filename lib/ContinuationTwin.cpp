//===- ContinuationTwin.cpp - A leaf's slow ways as tail calls ------------===//
//
// See ContinuationTwin.h.
//
//===----------------------------------------------------------------------===//
#include "ContinuationTwin.h"
#include "EntryTwin.h"
#include "RuntimeABI.h"
#include "SamplingTransform.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/InstructionSimplify.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/Local.h"
#include "llvm/Transforms/Utils/SSAUpdater.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

#include <memory>

using namespace llvm;
using namespace sampler;

#define DEBUG_TYPE "sampler-continuation-twin"

STATISTIC(NumContinuations,
          "Functions whose ways into their instrumented copy tail-call a "
          "continuation");
STATISTIC(NumWaysIn, "Ways into an instrumented copy made tail calls");

/// How deep an expression C computes again at its start may be.
static constexpr unsigned RecomputeDepth = 4;

namespace {
/// An edge from F's fast code into a block that calls the runtime's draw.
struct WayIn {
  BasicBlock *From;
  BasicBlock *To;
  SmallPtrSet<Instruction *, 8> Live; // F's values live on it
};
} // namespace

static bool callsDraw(const BasicBlock &BB) {
  return any_of(BB, [](const Instruction &I) {
    const auto *CB = dyn_cast<CallBase>(&I);
    return CB && isCountdownDraw(CB);
  });
}

/// Whether \p I is a call in tail position: its block returns what it
/// returns, at once or through a return block's PHI. The backend makes it a
/// jump, which needs no frame (SQLite's btreeParseCellPtr ends in one).
static bool tailCallThenReturn(const Instruction &I) {
  const auto *CI = dyn_cast<CallInst>(&I);
  if (!CI || !CI->isTailCall())
    return false;
  const Instruction *Next = CI->getNextNode();
  const BasicBlock *From = CI->getParent();
  const Value *Returned = CI->getType()->isVoidTy() ? nullptr : CI;
  if (const auto *Br = dyn_cast_or_null<BranchInst>(Next);
      Br && Br->isUnconditional()) {
    const BasicBlock *R = Br->getSuccessor(0);
    Next = R->getFirstNonPHIOrDbg();
    const auto *Ret = dyn_cast_or_null<ReturnInst>(Next);
    if (!Ret)
      return false;
    if (!Returned)
      return true;
    const auto *PN = dyn_cast_or_null<PHINode>(Ret->getReturnValue());
    return PN && PN->getParent() == R &&
           PN->getIncomingValueForBlock(From) == Returned;
  }
  const auto *Ret = dyn_cast_or_null<ReturnInst>(Next);
  return Ret && Ret->getReturnValue() == Returned;
}

/// Whether F calls nothing but in tail position (its musttail call of its
/// own twin among them) and keeps nothing in its frame: a continuation that
/// a tail call enters must not reach into the frame the call leaves.
static bool leafWithoutFrame(const Function &F) {
  for (const BasicBlock &BB : F)
    for (const Instruction &I : BB) {
      if (isa<AllocaInst>(I))
        return false;
      if (isCallOnceLowered(I) && !tailCallThenReturn(I))
        return false;
    }
  return true;
}

/// Whether a value of type \p T goes in an integer register (and can travel
/// in a slot of i64).
static bool slotable(Type *T) {
  return T->isPointerTy() ||
         (T->isIntegerTy() && T->getIntegerBitWidth() <= 64);
}

/// Whether a call of \p FT passes every argument in a register, so that a
/// tail call of it is a jump (x86-64: six integers or pointers and eight
/// floating-point values; AArch64: eight of each). Arguments on the stack
/// would need a frame on every way in, and the frame's setup goes to the
/// entry with the callee-saved registers' saves (bzip2's mainGtU, 17 values:
/// six registers saved before its entry check, where its twin had them
/// after its early returns).
static bool passesInRegisters(const FunctionType *FT, const Triple &T) {
  unsigned Ints, Floats;
  if (T.getArch() == Triple::x86_64)
    Ints = 6, Floats = 8;
  else if (T.isAArch64())
    Ints = 8, Floats = 8;
  else
    return false;
  for (Type *P : FT->params()) {
    if (slotable(P)) {
      if (Ints-- == 0)
        return false;
    } else if (P->isFloatTy() || P->isDoubleTy()) {
      if (Floats-- == 0)
        return false;
    } else {
      return false;
    }
  }
  return true;
}

/// Whether C can compute \p V again at its start instead of taking it as an
/// argument: a constant, an argument, a thread-local's address or the thread
/// pointer (the same in the continuation, on the same thread), or an
/// operation without side effects on such values (the countdown's address
/// held as the thread pointer plus an offset).
static bool recomputable(const Value *V, unsigned Depth = 0) {
  if (isa<Constant>(V) || isa<Argument>(V))
    return true;
  const auto *I = dyn_cast<Instruction>(V);
  if (!I || Depth > RecomputeDepth)
    return false;
  if (const auto *II = dyn_cast<IntrinsicInst>(I))
    return II->getIntrinsicID() == Intrinsic::threadlocal_address;
  if (const auto *LI = dyn_cast<LoadInst>(I)) // x86-64's thread pointer
    return !LI->isVolatile() && LI->getPointerAddressSpace() == 257 &&
           isa<ConstantPointerNull>(LI->getPointerOperand());
  if (isa<PHINode>(I) || I->mayReadOrWriteMemory() ||
      !isSafeToSpeculativelyExecute(I))
    return false;
  return all_of(I->operands(),
                [&](const Use &U) { return recomputable(U.get(), Depth + 1); });
}

namespace {
/// A value of F's fast code and where it is used: the blocks of its uses
/// (a PHI's at the end of the incoming block) that come before its
/// definition on some path, that is, outside its own block.
struct FastValue {
  Instruction *X;
  SmallPtrSet<BasicBlock *, 8> UseBlocks;
};
} // namespace

static FastValue usesOf(Instruction *X) {
  FastValue V{X, {}};
  BasicBlock *Def = X->getParent();
  for (Use &U : X->uses()) {
    auto *UI = cast<Instruction>(U.getUser());
    auto *PN = dyn_cast<PHINode>(UI);
    BasicBlock *At = PN ? PN->getIncomingBlock(U) : UI->getParent();
    if (At != Def) // in its own block, a use comes after the definition
      V.UseBlocks.insert(At);
  }
  return V;
}

/// Whether \p V is live on the way into \p To: some use of it is reachable
/// from To without passing its definition.
static bool liveInto(const FastValue &V, BasicBlock *To) {
  if (V.UseBlocks.empty())
    return false;
  BasicBlock *Def = V.X->getParent();
  SmallPtrSet<BasicBlock *, 32> Seen;
  SmallVector<BasicBlock *, 32> Work{To};
  while (!Work.empty()) {
    BasicBlock *BB = Work.pop_back_val();
    if (BB == Def || !Seen.insert(BB).second)
      continue;
    if (V.UseBlocks.contains(BB))
      return true;
    append_range(Work, successors(BB));
  }
  return false;
}

namespace {
/// Builds C for one function F and its ways in, then rewrites F.
///
/// The values F passes travel in slots: the k-th value a way passes in the
/// k-th slot after F's arguments and the index, so that C takes as many as
/// the way that passes most, not all the ways' values together. A slot has
/// the type of its values when they agree, i64 otherwise (integers extended,
/// pointers converted).
class Continuation {
public:
  Continuation(Function &F, GlobalVariable *CD, ArrayRef<WayIn *> Ways,
               ArrayRef<Instruction *> Live)
      : F(F), CD(CD), Ways(Ways), Live(Live) {}
  /// C's type, or null when its arguments would not all be passed in
  /// registers (or a value cannot travel in a slot).
  FunctionType *signature();
  /// C, or null (F unchanged) when it cannot be built.
  Function *build();
  /// F's ways in become tail calls of C (the blocks F no longer reaches are
  /// left to the caller to remove, once every continuation is built).
  void rewriteCaller(Function *C);

private:
  /// Whether C takes the way's index: only when there is more than one.
  unsigned Indexed() const { return Ways.size() > 1; }
  bool chooseSlots();
  Value *recompute(Value *V, IRBuilder<> &B);
  Value *onWay(unsigned K, Value *V);
  bool joinValues(Function &C, BasicBlock *Begin);

  Function &F;
  GlobalVariable *CD; // the countdown
  SmallVector<WayIn *, 8> Ways;
  ArrayRef<Instruction *> Live;
  /// For each way, the values it passes, in slot order.
  SmallVector<SmallVector<Instruction *, 8>, 8> Passed;
  /// For each way, the value it passes in the countdown, or null.
  SmallVector<Instruction *, 8> ViaCountdown;
  SmallVector<Type *, 8> SlotTypes;
  ValueToValueMapTy VMap; // F to C
  /// F's values that C computes again, as C has them at its start.
  DenseMap<Value *, Value *> Recomputed;
  /// For each way, F's values it passes as C has them on entering it.
  SmallVector<DenseMap<Value *, Value *>, 8> Received;
  SmallVector<BasicBlock *, 8> Cases; // C's block for each way
};
} // namespace

/// The value the block \p To stores into the countdown before it does
/// anything else (a loop that carried the countdown in a register leaves it
/// so for its instrumented copy), or null.
static Value *countdownStoredFirst(BasicBlock *To, const GlobalVariable *CD) {
  for (Instruction &I : *To) {
    if (isa<PHINode>(I) || isa<DbgInfoIntrinsic>(I) || recomputable(&I))
      continue;
    auto *SI = dyn_cast<StoreInst>(&I);
    bool Countdown = SI && !SI->isVolatile() &&
                     isCountdownAddress(SI->getPointerOperand(), CD);
    return Countdown ? SI->getValueOperand() : nullptr;
  }
  return nullptr;
}

bool Continuation::chooseSlots() {
  LLVMContext &Ctx = F.getContext();
  Passed.clear();
  SlotTypes.clear();
  ViaCountdown.clear();
  for (WayIn *W : Ways) {
    Passed.emplace_back();
    // The countdown a way's first block stores travels where it goes, in
    // the countdown: F stores it there before the call, and C loads it.
    Value *Stored = countdownStoredFirst(W->To, CD);
    ViaCountdown.push_back(nullptr);
    for (Instruction *X : Live)
      if (W->Live.contains(X) && !recomputable(X)) {
        if (X == Stored) {
          ViaCountdown.back() = X;
          continue;
        }
        if (!slotable(X->getType()))
          return false;
        Passed.back().push_back(X);
      }
    for (auto [J, X] : enumerate(Passed.back())) {
      if (J == SlotTypes.size())
        SlotTypes.push_back(X->getType());
      else if (SlotTypes[J] != X->getType())
        SlotTypes[J] = Type::getInt64Ty(Ctx);
    }
  }
  return true;
}

/// \p V, of the slot's type or converted back from it.
static Value *convert(IRBuilder<> &B, Value *V, Type *To) {
  Type *From = V->getType();
  if (From == To)
    return V;
  if (From->isPointerTy())
    return B.CreatePtrToInt(V, To);
  if (To->isPointerTy())
    return B.CreateIntToPtr(V, To);
  return B.CreateZExtOrTrunc(V, To);
}

Value *Continuation::recompute(Value *V, IRBuilder<> &B) {
  if (isa<Constant>(V))
    return V;
  if (isa<Argument>(V))
    return VMap[V];
  if (Value *Known = Recomputed.lookup(V))
    return Known;
  auto *I = cast<Instruction>(V); // recomputable()
  Instruction *Copy = I->clone();
  for (unsigned Op = 0, E = I->getNumOperands(); Op != E; ++Op)
    Copy->setOperand(Op, recompute(I->getOperand(Op), B));
  Copy->setDebugLoc(DebugLoc()); // F's scope is not C's
  B.Insert(Copy, I->getName());
  Recomputed[V] = Copy;
  return Copy;
}

/// F's value \p V as C has it on entering way \p K.
Value *Continuation::onWay(unsigned K, Value *V) {
  if (Value *Got = Received[K].lookup(V))
    return Got;
  if (isa<Argument>(V))
    return VMap[V];
  if (isa<Constant>(V))
    return V;
  return Recomputed.lookup(V); // null if neither: the way does not carry it
}

FunctionType *Continuation::signature() {
  if (!chooseSlots())
    return nullptr;
  // F's arguments, the way's index (of several), the slots.
  SmallVector<Type *, 16> Params;
  for (Argument &A : F.args())
    Params.push_back(A.getType());
  if (Indexed())
    Params.push_back(Type::getInt32Ty(F.getContext()));
  append_range(Params, SlotTypes);
  auto *FT = FunctionType::get(F.getReturnType(), Params, /*isVarArg=*/false);
  if (!passesInRegisters(FT, Triple(F.getParent()->getTargetTriple())))
    return nullptr;
  return FT;
}

Function *Continuation::build() {
  LLVMContext &Ctx = F.getContext();
  FunctionType *FT = signature();
  if (!FT)
    return nullptr;
  Function *C = Function::Create(FT, GlobalValue::InternalLinkage,
                                 F.getAddressSpace(),
                                 F.getName() + ContinuationSuffix,
                                 F.getParent());
  for (Argument &A : F.args()) {
    C->getArg(A.getArgNo())->setName(A.getName());
    VMap[&A] = C->getArg(A.getArgNo());
  }
  unsigned WayArg = F.arg_size(); // the index, when there is one
  unsigned FirstSlot = WayArg + Indexed();
  if (Indexed())
    C->getArg(WayArg)->setName("sampler.way");
  for (unsigned J = 0; J < SlotTypes.size(); ++J)
    C->getArg(FirstSlot + J)->setName("sampler.slot");
  SmallVector<ReturnInst *, 8> Returns;
  CloneFunctionInto(C, &F, VMap, CloneFunctionChangeType::LocalChangesOnly,
                    Returns);
  makePrivateCopy(*C);

  // C's start: the values it computes again, and a switch to a block for
  // each way, which takes that way's values out of the slots and goes where
  // the way leads.
  BasicBlock *OldEntry = &C->getEntryBlock();
  BasicBlock *Begin = BasicBlock::Create(Ctx, "sampler.resume", C, OldEntry);
  IRBuilder<> B(Begin);
  for (Instruction *X : Live)
    if (recomputable(X))
      recompute(X, B);
  for (auto [K, W] : enumerate(Ways)) {
    BasicBlock *Case =
        BasicBlock::Create(Ctx, "sampler.resume.way", C, OldEntry);
    IRBuilder<> CB(Case);
    Received.emplace_back();
    for (auto [J, X] : enumerate(Passed[K]))
      Received.back()[X] =
          convert(CB, C->getArg(FirstSlot + J), X->getType());
    if (Instruction *X = ViaCountdown[K])
      Received.back()[X] = CB.CreateLoad(
          X->getType(), countdownAddressFor(*C, CD), X->getName());
    auto *To = cast<BasicBlock>(VMap[W->To]);
    CB.CreateBr(To);
    for (PHINode &PN : W->To->phis())
      cast<PHINode>(VMap[&PN])->addIncoming(
          onWay(K, PN.getIncomingValueForBlock(W->From)), Case);
    Cases.push_back(Case);
  }
  if (Indexed()) {
    SwitchInst *SW =
        B.CreateSwitch(C->getArg(WayArg), Cases[0], Cases.size() - 1);
    for (unsigned K = 1; K < Cases.size(); ++K)
      SW->addCase(B.getInt32(K), Cases[K]);
  } else {
    B.CreateBr(Cases[0]);
  }

  if (!joinValues(*C, Begin)) {
    C->eraseFromParent();
    return nullptr;
  }
  return C;
}

/// In C, every use of a live value takes, where C's own definition does not
/// reach it, the value C computed at its start or the one its way brought;
/// then what C cannot reach goes.
bool Continuation::joinValues(Function &C, BasicBlock *Begin) {
  SmallPtrSet<BasicBlock *, 32> Reach;
  SmallVector<BasicBlock *, 64> Work{Begin};
  while (!Work.empty()) {
    BasicBlock *BB = Work.pop_back_val();
    if (Reach.insert(BB).second)
      append_range(Work, successors(BB));
  }
  // Where a use needs its value: a PHI's at the end of the incoming block.
  // A use C cannot reach there goes with its block.
  auto Reached = [&](Use &U) {
    auto *UI = cast<Instruction>(U.getUser());
    if (!Reach.contains(UI->getParent()))
      return false;
    auto *PN = dyn_cast<PHINode>(UI);
    return !PN || Reach.contains(PN->getIncomingBlock(U));
  };
  // Before the blocks C cannot reach go: a PHI that kept only its own value
  // once they are gone (a loop-invariant value of a loop that the way
  // enters from inside) would become poison.
  SmallVector<PHINode *, 16> Inserted;
  for (Instruction *X : Live) {
    auto *XC = cast<Instruction>(VMap[X]);
    SmallVector<Use *, 8> Uses;
    for (Use &U : XC->uses())
      if (Reached(U))
        Uses.push_back(&U);
    if (Uses.empty())
      continue;
    bool DefReached = Reach.contains(XC->getParent());
    // One value that C's start gives every block: no join needed.
    Value *Only = Recomputed.lookup(X);
    if (!Only && Cases.size() == 1)
      Only = Received[0].lookup(X);
    if (Only && !DefReached) {
      for (Use *U : Uses)
        U->set(Only);
      continue;
    }
    SSAUpdater SSA(&Inserted);
    SSA.Initialize(XC->getType(), XC->getName());
    if (Value *R = Recomputed.lookup(X)) {
      SSA.AddAvailableValue(Begin, R);
    } else {
      for (auto [K, Case] : enumerate(Cases)) {
        Value *V = Received[K].lookup(X); // none: dead on that way
        SSA.AddAvailableValue(Case, V ? V : PoisonValue::get(XC->getType()));
      }
    }
    if (DefReached)
      SSA.AddAvailableValue(XC->getParent(), XC);
    for (Use *U : Uses) {
      auto *UI = cast<Instruction>(U->getUser());
      if (DefReached && !isa<PHINode>(UI) && UI->getParent() == XC->getParent())
        continue; // after the definition, in its block
      SSA.RewriteUse(*U);
    }
  }
  // The joins of a value with itself around a loop go.
  const DataLayout &DL = C.getDataLayout();
  for (bool Again = true; Again;) {
    Again = false;
    for (PHINode *&PN : Inserted)
      if (PN)
        if (Value *V = simplifyInstruction(PN, SimplifyQuery(DL))) {
          PN->replaceAllUsesWith(V);
          PN->eraseFromParent();
          PN = nullptr;
          Again = true;
        }
  }
  // Any other value of a block C cannot reach, used where it can, would
  // mean a use F's liveness did not see: leave F as it is.
  for (BasicBlock &BB : C)
    if (!Reach.contains(&BB))
      for (Instruction &I : BB)
        for (Use &U : I.uses())
          if (Reached(U))
            return false;
  removeUnreachableBlocks(C);
  // A musttail call (F's twin's) left in C would not match C's signature.
  for (BasicBlock &BB : C)
    for (Instruction &I : BB)
      if (auto *CI = dyn_cast<CallInst>(&I); CI && CI->isMustTailCall())
        return false;
  return true;
}

void Continuation::rewriteCaller(Function *C) {
  for (auto [K, W] : enumerate(Ways)) {
    BasicBlock *Call =
        BasicBlock::Create(F.getContext(), "sampler.cont", &F, W->To);
    IRBuilder<> B(Call);
    SmallVector<Value *, 8> Extra;
    if (Indexed())
      Extra.push_back(B.getInt32(K));
    for (auto [J, T] : enumerate(SlotTypes))
      Extra.push_back(J < Passed[K].size() ? convert(B, Passed[K][J], T)
                                           : PoisonValue::get(T));
    if (Instruction *X = ViaCountdown[K])
      B.CreateStore(X, countdownAddressFor(F, CD));
    forwardCall(B, F, C, Extra)->setTailCallKind(CallInst::TCK_Tail);
    W->From->getTerminator()->replaceSuccessorWith(W->To, Call);
  }
}

/// F's fast code: what its entry reaches without entering a block that calls
/// the runtime's draw; and the ways from it into such blocks.
static SmallVector<WayIn, 8> waysIn(Function &F,
                                    SmallPtrSetImpl<BasicBlock *> &Fast) {
  SmallVector<WayIn, 8> Ways;
  if (callsDraw(F.getEntryBlock()))
    return Ways;
  SmallVector<BasicBlock *, 64> Work{&F.getEntryBlock()};
  while (!Work.empty()) {
    BasicBlock *BB = Work.pop_back_val();
    if (callsDraw(*BB) || !Fast.insert(BB).second)
      continue;
    append_range(Work, successors(BB));
  }
  for (BasicBlock &BB : F) {
    if (!Fast.contains(&BB))
      continue;
    SmallPtrSet<BasicBlock *, 4> Seen;
    for (BasicBlock *S : successors(&BB))
      if (!Fast.contains(S) && Seen.insert(S).second)
        Ways.push_back({&BB, S, {}});
  }
  return Ways;
}

PreservedAnalyses SamplerContinuationTwinPass::run(Module &M,
                                                   ModuleAnalysisManager &) {
  GlobalVariable *CD = countdownIn(M);
  if (Limit == 0 || !CD)
    return PreservedAnalyses::all();
  SmallVector<Function *, 32> Candidates; // continuations made below are not
  for (Function &F : M)
    if (!F.isDeclaration() && !F.hasOptNone() && !isPrivateCopy(F) &&
        canTwin(F) && F.getInstructionCount() <= Limit && leafWithoutFrame(F))
      Candidates.push_back(&F);
  bool Changed = false;
  for (Function *F : Candidates) {
    SmallPtrSet<BasicBlock *, 32> Fast;
    SmallVector<WayIn, 8> Ways = waysIn(*F, Fast);
    if (Ways.empty())
      continue;
    // The values live on each way: those a PHI there takes from it, and
    // those used past it before their definition. Only the fast code's can
    // be: a value live on an edge is defined in a block that dominates it.
    SetVector<Instruction *> Live;
    SmallVector<FastValue, 64> Values; // their uses found once, for every way
    for (BasicBlock &BB : *F)
      if (Fast.contains(&BB))
        for (Instruction &I : BB)
          if (!I.getType()->isVoidTy() && !I.use_empty())
            Values.push_back(usesOf(&I));
    for (WayIn &W : Ways) {
      for (PHINode &PN : W.To->phis())
        if (auto *I =
                dyn_cast<Instruction>(PN.getIncomingValueForBlock(W.From)))
          W.Live.insert(I);
      for (const FastValue &V : Values)
        if (!W.Live.contains(V.X) && liveInto(V, W.To))
          W.Live.insert(V.X);
      for (const FastValue &V : Values) // in F's order, for a stable signature
        if (W.Live.contains(V.X))
          Live.insert(V.X);
    }
    // The ways share continuations as far as each one's arguments still
    // fit in registers (a way joins the first that takes it): each
    // continuation copies what its ways reach of F.
    SmallVector<SmallVector<WayIn *, 8>, 4> Groups;
    bool Fits = true;
    for (WayIn &W : Ways) {
      bool Placed = false;
      for (auto &G : Groups) {
        G.push_back(&W);
        if ((Placed = Continuation(*F, CD, G, Live.getArrayRef()).signature()))
          break;
        G.pop_back();
      }
      if (!Placed) {
        if (MaxCopies && Groups.size() == MaxCopies) {
          Fits = false; // one more copy of what the ways reach: not worth it
          break;
        }
        Groups.push_back({&W});
        if (!Continuation(*F, CD, Groups.back(), Live.getArrayRef()).signature()) {
          Fits = false; // this way alone passes too much: F stays as it is
          break;
        }
      }
    }
    if (!Fits)
      continue;
    // Every continuation is a copy of F as it is; then F's ways change.
    SmallVector<std::pair<std::unique_ptr<Continuation>, Function *>, 4> Built;
    for (auto &G : Groups) {
      auto Cont = std::make_unique<Continuation>(*F, CD, G, Live.getArrayRef());
      Function *C = Cont->build();
      if (!C)
        break;
      Built.emplace_back(std::move(Cont), C);
    }
    if (Built.size() != Groups.size()) {
      for (auto &B : Built)
        B.second->eraseFromParent();
      continue;
    }
    unsigned Copied = 0;
    for (auto &[Cont, C] : Built) {
      Cont->rewriteCaller(C);
      Copied += C->getInstructionCount();
    }
    // The instrumented copy is now the continuations' alone.
    removeUnreachableBlocks(*F);
    ++NumContinuations;
    NumWaysIn += Ways.size();
    OptimizationRemarkEmitter ORE(F);
    ORE.emit([&] {
      return OptimizationRemark(DEBUG_TYPE, "Continuation", F->getSubprogram(),
                                &F->getEntryBlock())
             << "ways into the instrumented copy tail-call continuations of "
             << ore::NV("Function", F) << " ("
             << ore::NV("Continuations", static_cast<unsigned>(Groups.size()))
             << " copies of " << ore::NV("Instructions", Copied)
             << " instructions in all, "
             << ore::NV("Ways", static_cast<unsigned>(Ways.size()))
             << " ways, " << ore::NV("Live", static_cast<unsigned>(Live.size()))
             << " live values)";
    });
    Changed = true;
  }
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

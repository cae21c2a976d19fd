//===- SlowCopyOutliner.cpp - A cloned function's instrumented copy, outlined //
//
// See SlowCopyOutliner.h. In steps:
//   1. the ways into the instrumented copy (edges from outside it to it) and
//      out of it (edges to the checks where it returns to the fast copy);
//      bail out if a value crosses between the two other than through a
//      prologue slot;
//   2. the state record: an index, the prologue's promotable slots by value,
//      its other allocas by address;
//   3. F cloned whole into F.sampler.slow(args..., ptr state) (CloneFunctionInto
//      keeps the debug info right); there the prologue reads the state and
//      switches to the entry, the ways out write it and return, and the fast
//      copy, unreachable now, goes;
//   4. in F, every way in goes to one block that fills the record, calls,
//      reads the record back and switches to the exit (or returns).
//
//===----------------------------------------------------------------------===//
#include "SlowCopyOutliner.h"
#include "RuntimeABI.h"
#include "SamplingTransform.h"

#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/IR/AttributeMask.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/Local.h"
#include "llvm/Transforms/Utils/PromoteMemToReg.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

using namespace llvm;

bool sampler::canOutlineSlowCopy(const Function &F, unsigned SizeLimit) {
  if (!SizeLimit || F.hasOptNone() || F.isVarArg() ||
      F.hasFnAttribute(Attribute::Naked) || F.isPresplitCoroutine())
    return false;
  for (const Argument &A : F.args())
    if (A.hasInAllocaAttr() || A.hasPreallocatedAttr() ||
        A.hasAttribute(Attribute::SwiftError) ||
        A.hasAttribute(Attribute::SwiftSelf) ||
        A.hasAttribute(Attribute::SwiftAsync) || A.hasNestAttr())
      return false;
  unsigned Size = 0;
  for (const BasicBlock &BB : F) {
    if (BB.hasAddressTaken() || BB.isEHPad())
      return false;
    const Instruction *T = BB.getTerminator();
    if (isa<InvokeInst, CallBrInst, IndirectBrInst, ResumeInst>(T))
      return false;
    for (const Instruction &I : BB) {
      if (I.isDebugOrPseudoInst())
        continue;
      if (++Size > SizeLimit)
        return false;
      if (auto *AI = dyn_cast<AllocaInst>(&I); AI && !AI->isStaticAlloca())
        return false; // its memory would die with the outlined frame
      const auto *CB = dyn_cast<CallBase>(&I);
      if (!CB)
        continue;
      if (CB->isMustTailCall() || CB->hasFnAttr(Attribute::ReturnsTwice))
        return false;
      if (const Function *Callee = CB->getCalledFunction())
        switch (Callee->getIntrinsicID()) {
        case Intrinsic::stacksave:
        case Intrinsic::stackrestore:
        case Intrinsic::frameaddress:
        case Intrinsic::returnaddress:
        case Intrinsic::addressofreturnaddress:
        case Intrinsic::sponentry:
        case Intrinsic::localescape:
        case Intrinsic::vastart:
          return false;
        default:
          break;
        }
    }
  }
  return true;
}

Function *
sampler::outlineSlowCopy(Function &F, BasicBlock *Prologue,
                         const SmallPtrSetImpl<BasicBlock *> &Slow) {
  LLVMContext &C = F.getContext();
  Module &M = *F.getParent();
  auto *I32 = Type::getInt32Ty(C);

  // 1. Ways in and out.
  MapVector<BasicBlock *, unsigned> EntryIndex, ExitIndex; // exits from 1
  SmallVector<std::pair<BasicBlock *, BasicBlock *>, 8> WaysIn;
  for (BasicBlock &BB : F) {
    bool IsSlow = Slow.contains(&BB);
    for (BasicBlock *Succ : successors(&BB)) {
      if (Slow.contains(Succ) == IsSlow)
        continue;
      if (IsSlow) {
        ExitIndex.insert({Succ, ExitIndex.size() + 1});
        continue;
      }
      if (&BB == Prologue)
        return nullptr;
      WaysIn.push_back({&BB, Succ});
      EntryIndex.insert({Succ, EntryIndex.size()});
    }
  }
  if (EntryIndex.empty())
    return nullptr;
  for (auto *Map : {&EntryIndex, &ExitIndex})
    for (auto &KV : *Map)
      if (isa<PHINode>(KV.first->front()))
        return nullptr;
  for (BasicBlock *BB : Slow)
    for (Instruction &I : *BB) {
      for (Value *Op : I.operands())
        if (auto *OI = dyn_cast<Instruction>(Op);
            OI && !Slow.contains(OI->getParent()) &&
            !(isa<AllocaInst>(OI) && OI->getParent() == Prologue))
          return nullptr;
      for (User *U : I.users())
        if (!Slow.contains(cast<Instruction>(U)->getParent()))
          return nullptr;
    }

  // 2. What travels: the slots the instrumented copy uses, by value (those it
  // stores to, back too); the program's other locals by address.
  SmallVector<AllocaInst *, 16> ByValue, ByAddress;
  SmallPtrSet<AllocaInst *, 16> StoredBySlow;
  for (Instruction &I : *Prologue) {
    auto *AI = dyn_cast<AllocaInst>(&I);
    if (!AI)
      continue;
    bool Used = false;
    for (User *U : AI->users())
      if (auto *UI = dyn_cast<Instruction>(U); UI && Slow.contains(UI->getParent())) {
        Used = true;
        if (auto *SI = dyn_cast<StoreInst>(UI); SI && SI->getPointerOperand() == AI)
          StoredBySlow.insert(AI);
      }
    if (!Used)
      continue;
    if (isAllocaPromotable(AI) && !AI->getAllocatedType()->isScalableTy())
      ByValue.push_back(AI);
    else
      ByAddress.push_back(AI); // the program's memory: shared, never copied
  }
  // Which slots are live where (a backward dataflow over F's blocks): an
  // entry passes only the slots live into it, a way out only those live into
  // its exit. Passing every slot would keep each one alive round the fast
  // copy's loops, just to hand it over (registers the fast path needs).
  DenseMap<AllocaInst *, unsigned> SlotIndex;
  for (auto [I, AI] : enumerate(ByValue))
    SlotIndex[AI] = I;
  DenseMap<BasicBlock *, BitVector> Gen, Kill, LiveIn;
  for (BasicBlock &BB : F) {
    BitVector G(ByValue.size()), K(ByValue.size());
    for (Instruction &I : BB) {
      if (auto *LI = dyn_cast<LoadInst>(&I)) {
        if (auto *AI = dyn_cast<AllocaInst>(LI->getPointerOperand()))
          if (auto It = SlotIndex.find(AI); It != SlotIndex.end() && !K.test(It->second))
            G.set(It->second);
      } else if (auto *SI = dyn_cast<StoreInst>(&I)) {
        if (auto *AI = dyn_cast<AllocaInst>(SI->getPointerOperand()))
          if (auto It = SlotIndex.find(AI); It != SlotIndex.end())
            K.set(It->second);
      }
    }
    LiveIn[&BB] = G;
    Gen[&BB] = std::move(G);
    Kill[&BB] = std::move(K);
  }
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (BasicBlock &BB : reverse(F)) {
      BitVector Out(ByValue.size());
      for (BasicBlock *Succ : successors(&BB))
        Out |= LiveIn[Succ];
      Out.reset(Kill[&BB]);
      Out |= Gen[&BB];
      if (Out != LiveIn[&BB]) {
        LiveIn[&BB] = std::move(Out);
        Changed = true;
      }
    }
  }
  BitVector LiveAtSomeEntry(ByValue.size());
  for (auto &[T, I] : EntryIndex)
    LiveAtSomeEntry |= LiveIn[T];
  auto PassedBack = [&](unsigned I, BasicBlock *Exit) {
    return StoredBySlow.contains(ByValue[I]) && LiveIn[Exit].test(I);
  };

  // The values that travel: in, the slots live into some entry; back, the
  // slots the copy may store that are live into some exit.
  SmallVector<unsigned, 16> InSlots, BackSlots;
  for (unsigned I = 0, E = ByValue.size(); I != E; ++I) {
    if (LiveAtSomeEntry.test(I))
      InSlots.push_back(I);
    if (any_of(ExitIndex, [&](auto &KV) { return PassedBack(I, KV.first); }))
      BackSlots.push_back(I);
  }

  // 3. The outlined function: F's arguments, the entry's index, the slots in,
  // the program's other locals' addresses; it returns {exit index, F's value,
  // the slots back}, in registers where they fit.
  SmallVector<Type *, 16> Params(F.getFunctionType()->params());
  Params.push_back(I32);
  for (unsigned I : InSlots)
    Params.push_back(ByValue[I]->getAllocatedType());
  for (AllocaInst *AI : ByAddress)
    Params.push_back(AI->getType());
  SmallVector<Type *, 16> Results{I32};
  bool HasValue = !F.getReturnType()->isVoidTy();
  if (HasValue)
    Results.push_back(F.getReturnType());
  unsigned FirstBack = Results.size();
  for (unsigned I : BackSlots)
    Results.push_back(ByValue[I]->getAllocatedType());
  auto *ResultTy = StructType::get(C, Results);
  auto *FT = FunctionType::get(ResultTy, Params, false);
  Function *Out = Function::Create(FT, GlobalValue::InternalLinkage,
                                   F.getAddressSpace(),
                                   F.getName() + SlowCopySuffix, &M);
  Out->setIsNewDbgInfoFormat(F.IsNewDbgInfoFormat);
  ValueToValueMapTy VMap;
  for (auto [A, NA] : zip(F.args(), Out->args())) {
    VMap[&A] = &NA;
    NA.setName(A.getName());
  }
  Argument *EntryArg = Out->getArg(F.arg_size());
  EntryArg->setName("sampler.entry");
  auto InArg = [&](unsigned K) { return Out->getArg(F.arg_size() + 1 + K); };
  auto AddressArg = [&](unsigned K) {
    return Out->getArg(F.arg_size() + 1 + InSlots.size() + K);
  };
  SmallVector<ReturnInst *, 8> Returns;
  CloneFunctionInto(Out, &F, VMap, CloneFunctionChangeType::LocalChangesOnly,
                    Returns);
  Out->setLinkage(GlobalValue::InternalLinkage);
  Out->setVisibility(GlobalValue::DefaultVisibility);
  Out->setDLLStorageClass(GlobalValue::DefaultStorageClass);
  Out->setComdat(nullptr);
  Out->setUnnamedAddr(GlobalValue::UnnamedAddr::Global);
  {
    // Arguments are F's own, passed on: a byval or sret copy is F's memory,
    // and its pointer is what goes. The result is not F's: no attributes.
    AttributeList AL = Out->getAttributes();
    SmallVector<AttributeSet, 16> ParamAttrs;
    for (unsigned I = 0, E = F.arg_size(); I != E; ++I)
      ParamAttrs.push_back(AL.getParamAttrs(I).removeAttributes(
          C, AttributeMask()
                 .addAttribute(Attribute::ByVal)
                 .addAttribute(Attribute::StructRet)
                 .addAttribute(Attribute::Returned)));
    AttributeSet FnAttrs = AL.getFnAttrs().removeAttributes(
        C, AttributeMask()
               .addAttribute(Attribute::AlwaysInline)
               .addAttribute(Attribute::InlineHint)
               .addAttribute(Attribute::Memory));
    Out->setAttributes(AttributeList::get(C, FnAttrs, AttributeSet(), ParamAttrs));
    Out->addFnAttr(Attribute::NoInline);
    Out->addFnAttr(Attribute::Cold);
    Out->addFnAttr(abi::InstrumentedCopyAttr);
    // On x86-64 the callee saves the registers (preserve_most, as the
    // runtime's entry): values live across the rare call need no callee-saved
    // register of F's, so F's fast path saves none.
    if (Triple(M.getTargetTriple()).getArch() == Triple::x86_64)
      Out->setCallingConv(CallingConv::PreserveMost);
  }
  SmallPtrSet<BasicBlock *, 32> SlowClones;
  for (BasicBlock *BB : Slow)
    SlowClones.insert(cast<BasicBlock>(VMap[BB]));
  {
    auto *OutPrologue = cast<BasicBlock>(VMap[Prologue]);
    OutPrologue->getTerminator()->eraseFromParent();
    IRBuilder<> B(OutPrologue);
    for (auto [K, I] : enumerate(InSlots)) {
      InArg(K)->setName(ByValue[I]->getName());
      B.CreateStore(InArg(K), VMap[ByValue[I]]);
    }
    for (auto [K, AI] : enumerate(ByAddress)) {
      auto *Copy = cast<AllocaInst>(VMap[AI]);
      AddressArg(K)->setName(AI->getName());
      Copy->replaceAllUsesWith(AddressArg(K));
      Copy->eraseFromParent();
    }
    SwitchInst *SI = B.CreateSwitch(
        EntryArg, cast<BasicBlock>(VMap[EntryIndex.front().first]),
        EntryIndex.size() - 1);
    for (auto &[BB, I] : EntryIndex)
      if (I)
        SI->addCase(B.getInt32(I), cast<BasicBlock>(VMap[BB]));
  }
  DenseMap<BasicBlock *, BasicBlock *> Back;
  for (auto &[X, K] : ExitIndex) {
    BasicBlock *BB = BasicBlock::Create(C, "sampler.back", Out);
    IRBuilder<> B(BB);
    Value *R = B.CreateInsertValue(PoisonValue::get(ResultTy), B.getInt32(K), 0);
    for (auto [J, I] : enumerate(BackSlots))
      if (PassedBack(I, X))
        R = B.CreateInsertValue(
            R, B.CreateLoad(ByValue[I]->getAllocatedType(), VMap[ByValue[I]]),
            FirstBack + J);
    B.CreateRet(R);
    Back[X] = BB;
  }
  for (BasicBlock *BB : Slow) {
    Instruction *T = BB->getTerminator();
    Instruction *TC = cast<BasicBlock>(VMap[BB])->getTerminator();
    for (unsigned S = 0, E = T->getNumSuccessors(); S != E; ++S)
      if (BasicBlock *To = Back.lookup(T->getSuccessor(S)))
        TC->setSuccessor(S, To);
  }
  for (ReturnInst *R : Returns)
    if (SlowClones.contains(R->getParent())) {
      IRBuilder<> B(R);
      Value *V = B.CreateInsertValue(PoisonValue::get(ResultTy), B.getInt32(0), 0);
      if (HasValue)
        V = B.CreateInsertValue(V, R->getReturnValue(), 1);
      B.CreateRet(V);
      R->eraseFromParent();
    }
  removeUnreachableBlocks(*Out);
  {
    SmallVector<AllocaInst *, 16> Promotable;
    for (Instruction &I : Out->getEntryBlock())
      if (auto *AI = dyn_cast<AllocaInst>(&I); AI && isAllocaPromotable(AI))
        Promotable.push_back(AI);
    if (!Promotable.empty()) {
      DominatorTree DT(*Out);
      PromoteMemToReg(Promotable, DT);
    }
  }

  // 4. F: a call block per entry, switching to the exits that entry can
  // reach. (One call block for all would join the ways out of every loop:
  // each loop would be entered at its header's check and at that block,
  // an irreducible cycle that LoopInfo does not see.)
  AttributeList OA = Out->getAttributes();
  SmallVector<AttributeSet, 16> CallParamAttrs;
  for (unsigned I = 0, E = Out->arg_size(); I != E; ++I)
    CallParamAttrs.push_back(OA.getParamAttrs(I));
  AttributeList CallAttrs =
      AttributeList::get(C, AttributeSet(), AttributeSet(), CallParamAttrs);
  for (auto &[Target, Index] : EntryIndex) {
    // What this entry reaches: its exits, and whether it may return.
    SmallVector<BasicBlock *, 16> Work{Target};
    SmallPtrSet<BasicBlock *, 32> Seen{Target};
    SetVector<BasicBlock *> Exits;
    bool Returns = false;
    while (!Work.empty()) {
      BasicBlock *BB = Work.pop_back_val();
      Returns |= isa<ReturnInst>(BB->getTerminator());
      for (BasicBlock *Succ : successors(BB)) {
        if (!Slow.contains(Succ))
          Exits.insert(Succ);
        else if (Seen.insert(Succ).second)
          Work.push_back(Succ);
      }
    }
    BasicBlock *CallBB = BasicBlock::Create(C, "sampler.call.slow", &F);
    for (auto &[From, To] : WaysIn)
      if (To == Target)
        From->getTerminator()->replaceSuccessorWith(To, CallBB);
    IRBuilder<> B(CallBB);
    SmallVector<Value *, 16> Args;
    for (Argument &A : F.args())
      Args.push_back(&A);
    Args.push_back(B.getInt32(Index));
    for (unsigned I : InSlots) {
      Type *Ty = ByValue[I]->getAllocatedType();
      Args.push_back(LiveIn[Target].test(I) ? static_cast<Value *>(B.CreateLoad(Ty, ByValue[I]))
                                            : PoisonValue::get(Ty));
    }
    for (AllocaInst *AI : ByAddress)
      Args.push_back(AI);
    CallInst *Call = B.CreateCall(Out, Args);
    Call->setCallingConv(Out->getCallingConv());
    Call->setAttributes(CallAttrs);
    if (DISubprogram *SP = F.getSubprogram())
      Call->setDebugLoc(DILocation::get(C, SP->getLine(), 0, SP));
    for (auto [J, I] : enumerate(BackSlots))
      if (any_of(Exits, [&](BasicBlock *X) { return PassedBack(I, X); }))
        B.CreateStore(B.CreateExtractValue(Call, FirstBack + J), ByValue[I]);
    auto Return = [&](IRBuilder<> &RB) {
      if (HasValue)
        RB.CreateRet(RB.CreateExtractValue(Call, 1));
      else
        RB.CreateRetVoid();
    };
    if (Exits.empty()) {
      if (Returns)
        Return(B);
      else
        B.CreateUnreachable(); // the instrumented copy never comes back
      continue;
    }
    Value *Exit = B.CreateExtractValue(Call, 0, "sampler.exit");
    BasicBlock *Default = Exits.back();
    if (Returns) {
      Default = BasicBlock::Create(C, "sampler.slow.returned", &F);
      IRBuilder<> RB(Default);
      Return(RB);
    }
    SwitchInst *SW = B.CreateSwitch(Exit, Default, Exits.size());
    for (BasicBlock *X : Exits)
      if (X != Default)
        SW->addCase(B.getInt32(ExitIndex.lookup(X)), X);
  }
  removeUnreachableBlocks(F);
  return Out;
}

//===- ThreadCopies.cpp - Glibc's thread flag tested once a call ----------===//
//
// See ThreadCopies.h.
//
//===----------------------------------------------------------------------===//
#include "ThreadCopies.h"
#include "RuntimeABI.h"
#include "SiteTable.h"

#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/ADT/Statistic.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

using namespace llvm;
using namespace sampler;

#define DEBUG_TYPE "sampler-thread-copies"

STATISTIC(NumCopied, "Functions copied in two on the thread flag");
STATISTIC(NumAdds, "Counter adds made plain or atomic for good");

namespace {

/// A function needs this many adds on some way through it, or one inside a
/// loop, to be copied: the test on entry costs two instructions a call, and
/// each add saves two.
constexpr unsigned MinAddsOnAWay = 2;

/// One add of F: its call, and where its cell's second half starts.
struct Add {
  CallBase *Call;
  uint64_t Half;
};

/// The second half's offset of the counters \p Cell points into, or 0 if
/// they have no second half.
uint64_t halfOf(Value *Cell) {
  auto *GV = dyn_cast<GlobalVariable>(getUnderlyingObject(Cell));
  MDNode *MD = GV ? GV->getMetadata(abi::HalvesMD) : nullptr;
  if (!MD)
    return 0;
  return mdconst::extract<ConstantInt>(MD->getOperand(0))->getZExtValue();
}

/// The table whose initializer holds \p U (a constant holding a block's
/// address), if it is a private or internal constant that only \p F's
/// instructions read, directly or through constant expressions.
GlobalVariable *tableOf(User *U, Function &F) {
  SmallVector<User *, 4> Work{U};
  GlobalVariable *Table = nullptr;
  while (!Work.empty()) {
    User *X = Work.pop_back_val();
    if (auto *GV = dyn_cast<GlobalVariable>(X)) {
      if (Table && Table != GV)
        return nullptr;
      Table = GV;
      continue;
    }
    if (!isa<Constant>(X) || isa<GlobalValue>(X))
      return nullptr;
    append_range(Work, X->users());
  }
  if (!Table || !Table->isConstant() || !Table->hasLocalLinkage() ||
      !Table->hasInitializer())
    return nullptr;
  // Its readers: F's instructions only.
  SmallVector<const User *, 8> Readers(Table->users());
  while (!Readers.empty()) {
    const User *R = Readers.pop_back_val();
    if (auto *I = dyn_cast<Instruction>(R)) {
      if (I->getFunction() != &F)
        return nullptr;
    } else if (isa<ConstantExpr>(R)) {
      append_range(Readers, R->users());
    } else {
      return nullptr;
    }
  }
  return Table;
}

/// The most adds on a way from F's entry that takes no back edge.
unsigned mostAddsOnAWay(Function &F,
                        const DenseMap<BasicBlock *, unsigned> &In) {
  DenseMap<BasicBlock *, unsigned> Most;
  unsigned Best = 0;
  ReversePostOrderTraversal<Function *> RPO(&F);
  DenseSet<BasicBlock *> Done;
  for (BasicBlock *BB : RPO) {
    unsigned Before = 0;
    for (BasicBlock *P : predecessors(BB))
      if (Done.contains(P)) // not a back edge
        Before = std::max(Before, Most.lookup(P));
    unsigned Here = Before + In.lookup(BB);
    Most[BB] = Here;
    Best = std::max(Best, Here);
    Done.insert(BB);
  }
  return Best;
}

/// `addq V, cell` as one statement (with \p Lock, `lock addq`): one
/// instruction, so a signal cannot land inside it.
CallInst *addAsm(CallBase *Old, Value *Cell, bool Lock) {
  IRBuilder<> B(Old);
  Value *V = Old->getArgOperand(1);
  auto *Ty = FunctionType::get(B.getVoidTy(),
                               {Cell->getType(), V->getType(), Cell->getType()},
                               false);
  InlineAsm *IA = InlineAsm::get(Ty, Lock ? "lock addq $1, $0" : "addq $1, $0",
                                 "=*m,re,*m,~{flags}", /*hasSideEffects=*/true);
  CallInst *CI = B.CreateCall(IA, {Cell, V, Cell});
  for (unsigned Arg : {0u, 2u})
    CI->addParamAttr(Arg, Attribute::get(B.getContext(), Attribute::ElementType,
                                         B.getInt64Ty()));
  CI->setMemoryEffects(MemoryEffects::argMemOnly());
  CI->setDoesNotThrow();
  CI->setDebugLoc(Old->getDebugLoc());
  return CI;
}

bool copyOnThreadFlag(Function &F) {
  SmallVector<Add, 32> Adds;
  DenseMap<BasicBlock *, unsigned> AddsIn;
  Value *Flag = nullptr;
  SmallVector<BasicBlock *, 16> Taken;
  for (BasicBlock &BB : F) {
    if (BB.hasAddressTaken())
      Taken.push_back(&BB);
    for (Instruction &I : BB) {
      auto *CB = dyn_cast<CallBase>(&I);
      if (!CB || !isCounterAddAsm(CB))
        continue;
      uint64_t Half = halfOf(CB->getArgOperand(0));
      if (!Half)
        return false;
      Adds.push_back({CB, Half});
      ++AddsIn[&BB];
      Flag = CB->getArgOperand(2);
    }
  }
  if (Adds.empty())
    return false;
  // Blocks whose address is taken (a computed goto: Lua's luaV_execute) are
  // reached in the copy through the copy's addresses: from F's own
  // instructions, or from a table that only F reads, which the copy reads a
  // copy of. Anything else could send the copy into F's blocks.
  SmallVector<GlobalVariable *, 2> Tables;
  for (BasicBlock *BB : Taken) {
    BlockAddress *BA = BlockAddress::lookup(BB);
    if (!BA)
      continue;
    for (User *U : BA->users()) {
      if (auto *I = dyn_cast<Instruction>(U)) {
        if (I->getFunction() != &F)
          return false;
        continue;
      }
      GlobalVariable *Table = tableOf(U, F);
      if (!Table)
        return false;
      if (!is_contained(Tables, Table))
        Tables.push_back(Table);
    }
  }
  DominatorTree DT(F);
  LoopInfo LI(DT);
  bool InLoop = any_of(Adds, [&](const Add &A) {
    return LI.getLoopFor(A.Call->getParent()) != nullptr;
  });
  if (!InLoop && mostAddsOnAWay(F, AddsIn) < MinAddsOnAWay)
    return false;

  // The new entry: the static allocas (the frame's fixed objects, which
  // both copies share) and the test.
  LLVMContext &C = F.getContext();
  BasicBlock *Entry = &F.getEntryBlock();
  BasicBlock *Test = BasicBlock::Create(C, "thread.test", &F, Entry);
  for (Instruction &I : make_early_inc_range(*Entry))
    if (auto *AI = dyn_cast<AllocaInst>(&I); AI && AI->isStaticAlloca())
      AI->moveBefore(*Test, Test->end());

  SmallVector<BasicBlock *, 64> Blocks;
  for (BasicBlock &BB : F)
    if (&BB != Test)
      Blocks.push_back(&BB);
  ValueToValueMapTy VMap;
  SmallVector<BasicBlock *, 64> Copies;
  for (BasicBlock *BB : Blocks) {
    BasicBlock *Copy = CloneBasicBlock(BB, VMap, ".threads", &F);
    VMap[BB] = Copy;
    Copies.push_back(Copy);
  }
  for (BasicBlock *BB : Taken)
    if (BlockAddress *BA = BlockAddress::lookup(BB))
      VMap[BA] = BlockAddress::get(&F, cast<BasicBlock>(VMap[BB]));
  for (GlobalVariable *Table : Tables) {
    auto *Copy = new GlobalVariable(
        *F.getParent(), Table->getValueType(), Table->isConstant(),
        Table->getLinkage(), MapValue(Table->getInitializer(), VMap),
        Table->getName() + ".threads", Table);
    Copy->copyAttributesFrom(Table);
    VMap[Table] = Copy;
  }
  remapInstructionsInBlocks(Copies, VMap);

  IRBuilder<> B(Test);
  LoadInst *Single = B.CreateAlignedLoad(B.getInt8Ty(), Flag, Align(1),
                                         "single.threaded");
  // Another thread's pthread_create may write it meanwhile.
  Single->setAtomic(AtomicOrdering::Unordered);
  B.CreateCondBr(B.CreateICmpNE(Single, B.getInt8(0)), Entry,
                 cast<BasicBlock>(VMap[Entry]));

  for (const Add &A : Adds) {
    auto *Copy = cast<CallBase>(VMap[A.Call]);
    Value *Cell = Copy->getArgOperand(0);
    IRBuilder<> CB(Copy);
    Value *Second = CB.CreateConstInBoundsGEP1_64(CB.getInt64Ty(), Cell,
                                                  A.Half, "cell.threads");
    addAsm(Copy, Second, /*Lock=*/true);
    Copy->eraseFromParent();
    addAsm(A.Call, A.Call->getArgOperand(0), /*Lock=*/false);
    A.Call->eraseFromParent();
  }
  NumAdds += Adds.size();
  ++NumCopied;
  return true;
}

} // namespace

PreservedAnalyses SamplerThreadCopiesPass::run(Module &M,
                                               ModuleAnalysisManager &) {
  bool Changed = false;
  for (Function &F : M)
    if (!F.isDeclaration() && !F.hasOptNone())
      Changed |= copyOnThreadFlag(F);
  return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
}

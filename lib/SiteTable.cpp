//===- SiteTable.cpp - Sites, counters and the per-unit site table --------===//
#include "SiteTable.h"

#include "RuntimeABI.h"

#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/InlineAsm.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/MD5.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

using namespace llvm;
using namespace sampler;

std::string sampler::escapeField(StringRef S) {
  std::string Out;
  Out.reserve(S.size());
  for (char C : S) {
    switch (C) {
    case '\t': Out += "\\t"; break;
    case '\n': Out += "\\n"; break;
    case '\\': Out += "\\\\"; break;
    case '\0': break; // a NUL would split the record
    default: Out += C;
    }
  }
  return Out;
}

/// Whether the unit's target links with glibc, whose `__libc_single_threaded`
/// the WhenThreaded updates read (musl, Bionic and other systems have none).
static bool hasGlibcThreadFlag(const Module &M) {
  Triple T(M.getTargetTriple());
  return T.isOSLinux() && T.isGNUEnvironment() && !T.isAndroid();
}

SiteTable::SiteTable(Module &M, SamplerOptions::CounterAtomicity Atomicity)
    : M(M), Atomicity(Atomicity) {
  if (Atomicity == SamplerOptions::CounterAtomicity::WhenThreaded &&
      !hasGlibcThreadFlag(M))
    this->Atomicity = SamplerOptions::CounterAtomicity::Always;
  AddInAsm = Triple(M.getTargetTriple()).getArch() == Triple::x86_64;
  Placeholder = new GlobalVariable(M, Type::getInt64Ty(M.getContext()),
                                   /*isConstant=*/false,
                                   GlobalValue::ExternalLinkage, nullptr,
                                   "__sampler_counters.placeholder");
}

Function *SiteTable::getMarker(Module &M) {
  LLVMContext &C = M.getContext();
  FunctionCallee FC = M.getOrInsertFunction(
      abi::SiteMarker,
      FunctionType::get(Type::getInt1Ty(C), {Type::getInt32Ty(C)}, false));
  auto *F = cast<Function>(FC.getCallee());
  // The marker stands for "is this execution observed?" from the schemes
  // (start of the pipeline) to the sampling transformation (its end). The
  // optimiser must keep it (it writes memory nobody else can see) but may move
  // user memory operations across it; inlining and unrolling may copy it,
  // which is right: every dynamic execution still crosses one marker.
  F->addFnAttr(Attribute::NoUnwind);
  F->addFnAttr(Attribute::WillReturn);
  F->setMemoryEffects(MemoryEffects::inaccessibleMemOnly());
  return F;
}

SmallVector<CallInst *, 16> SiteTable::markersIn(Function &F) {
  SmallVector<CallInst *, 16> Out;
  Function *Marker = F.getParent()->getFunction(abi::SiteMarker);
  if (!Marker)
    return Out;
  // F's own calls, in IR order. (Not the marker's users: they are every site of
  // the module, and walking them once per function was quadratic: 46% of the
  // sampler pass on SQLite's sqlite3.c with every scheme, docs/benchmarks.md.)
  for (Instruction &I : instructions(F))
    if (auto *CI = dyn_cast<CallInst>(&I); CI && CI->getCalledOperand() == Marker)
      Out.push_back(CI);
  return Out;
}

Value *InsertedSite::cell(IRBuilder<> &B, unsigned Index) const {
  return B.CreateConstInBoundsGEP1_64(B.getInt64Ty(), Counters, Offset + Index);
}

void InsertedSite::bump(IRBuilder<> &B, Value *Index) const {
  Value *Idx = B.CreateAdd(B.CreateZExtOrTrunc(Index, B.getInt64Ty()),
                           B.getInt64(Offset));
  Value *Ptr = B.CreateInBoundsGEP(B.getInt64Ty(), Counters, Idx);
  update(B, AtomicRMWInst::Add, Ptr, B.getInt64(1));
}

Instruction *InsertedSite::bumpIf(Instruction *At, Value *Cond, uint64_t Cell,
                                  const Twine &Name, MDNode *Weights) const {
  Instruction *Then, *Else;
  SplitBlockAndInsertIfThenElse(Cond, At, &Then, &Else, Weights);
  Then->getParent()->setName(Name);
  Else->getParent()->setName("site.else");
  Then->getSuccessor(0)->setName("site.join");
  IRBuilder<> B(Then);
  bump(B, B.getInt64(Cell));
  return Else;
}

/// The plain form of an update: a load, the operation and a store.
static void updatePlain(IRBuilder<> &B, AtomicRMWInst::BinOp Op, Value *Cell,
                        Value *V) {
  Value *Old = B.CreateAlignedLoad(B.getInt64Ty(), Cell, MaybeAlign(8));
  Value *New;
  switch (Op) {
  case AtomicRMWInst::Add:
    New = B.CreateAdd(Old, V);
    break;
  case AtomicRMWInst::Min:
    New = B.CreateSelect(B.CreateICmpSLT(V, Old), V, Old);
    break;
  case AtomicRMWInst::Max:
    New = B.CreateSelect(B.CreateICmpSGT(V, Old), V, Old);
    break;
  default:
    llvm_unreachable("a counter is added to, or keeps a minimum or maximum");
  }
  B.CreateAlignedStore(New, Cell, MaybeAlign(8));
}

bool sampler::isCounterAddAsm(const CallBase *CB) {
  const auto *IA = CB ? dyn_cast<InlineAsm>(CB->getCalledOperand()) : nullptr;
  return IA && IA->getAsmString() == CounterAddAsm;
}

/// WhenThreaded's add on x86-64, one statement of inline assembly
/// (CounterAddAsm):
///   cmpb $0, flag; jne 1f; lock; 1: addq V, cell
/// Single-threaded, the jump lands after the `lock` prefix and the add is a
/// plain one; otherwise the add runs with its prefix (glibc's own atomics on
/// i386 were written this way). One block where the IR's if/else made three:
/// compiling Lua's lvm.c and lstrlib.c took 9.5% and 15.5% more instructions
/// with the IR's form, 2.2% and 3.9% with this one; 9 bytes an update
/// (docs/benchmarks.md, "Counters without the lock").
static void updateAddAsm(IRBuilder<> &B, Value *Cell, Value *V,
                         GlobalVariable *Flag) {
  LLVMContext &C = B.getContext();
  auto *Ty = FunctionType::get(B.getVoidTy(),
                               {Cell->getType(), B.getInt64Ty(),
                                Flag->getType(), Cell->getType()},
                               false);
  // Operands: the cell (written), V (a register or a 32-bit immediate), the
  // flag (read: a PC-relative operand where it is dso_local, else through a
  // register the GOT load fills), the cell (read).
  InlineAsm *IA = InlineAsm::get(Ty, CounterAddAsm, "=*m,re,*m,*m,~{flags}",
                                 /*hasSideEffects=*/true);
  CallInst *CI = B.CreateCall(IA, {Cell, V, Flag, Cell});
  for (unsigned Arg : {0u, 3u})
    CI->addParamAttr(
        Arg, Attribute::get(C, Attribute::ElementType, B.getInt64Ty()));
  CI->addParamAttr(2, Attribute::get(C, Attribute::ElementType, B.getInt8Ty()));
  // It touches the cell and the flag only: the optimiser may keep program
  // values in registers across it, as across the atomic add.
  CI->setMemoryEffects(MemoryEffects::argMemOnly());
  CI->setDoesNotThrow();
}

void InsertedSite::update(IRBuilder<> &B, AtomicRMWInst::BinOp Op, Value *Cell,
                          Value *V) const {
  using CA = SamplerOptions::CounterAtomicity;
  switch (Atomicity) {
  case CA::Never:
    return updatePlain(B, Op, Cell, V);
  case CA::Always:
    // Relaxed atomics: threads may share a unit's counters (docs/internals.md).
    B.CreateAtomicRMW(Op, Cell, V, MaybeAlign(8), AtomicOrdering::Monotonic);
    return;
  case CA::WhenThreaded:
    break;
  }
  // if (__libc_single_threaded) plain; else atomic. glibc clears the flag in
  // the thread that calls pthread_create, before the new thread exists, so a
  // thread that reads it set is the only one, and no update is lost.
  if (Op == AtomicRMWInst::Add && AddInAsm)
    return updateAddAsm(B, Cell, V, SingleThreaded);
  // Elsewhere (and for the bounds' min and max) in IR. The load is atomic
  // (unordered) because another thread's pthread_create may write the flag
  // meanwhile (a plain load racing with a store would be undefined); the
  // optimiser may still reuse or hoist it where no call intervenes (no thread
  // can start there).
  Instruction *At = &*B.GetInsertPoint();
  LoadInst *Flag = B.CreateAlignedLoad(B.getInt8Ty(), SingleThreaded, Align(1),
                                       "single.threaded");
  Flag->setAtomic(AtomicOrdering::Unordered);
  Value *Single = B.CreateICmpNE(Flag, B.getInt8(0), "single");
  // The plain way falls through to the join: in a program with threads the
  // `lock` costs far more than the jump.
  Instruction *PlainT, *AtomicT;
  MDBuilder MDB(B.getContext());
  SplitBlockAndInsertIfThenElse(Single, At->getIterator(), &PlainT, &AtomicT,
                                MDB.createLikelyBranchWeights());
  PlainT->getParent()->setName("counter.plain");
  AtomicT->getParent()->setName("counter.atomic");
  B.SetInsertPoint(PlainT);
  updatePlain(B, Op, Cell, V);
  B.SetInsertPoint(AtomicT);
  B.CreateAtomicRMW(Op, Cell, V, MaybeAlign(8), AtomicOrdering::Monotonic);
  B.SetInsertPoint(At);
}

static std::string functionName(const Function &F) {
  if (const DISubprogram *SP = F.getSubprogram())
    if (!SP->getName().empty() && SP->getLinkageName().empty())
      return SP->getName().str();
  return llvm::demangle(F.getName().str());
}

InsertedSite SiteTable::addSite(Instruction *Before, StringRef Scheme,
                                unsigned NumCounters, StringRef Description,
                                const Instruction *Origin) {
  LLVMContext &C = M.getContext();
  Function *F = Before->getFunction();
  unsigned Id = Sites.size();

  SiteRecord R;
  R.Scheme = Scheme.str();
  R.Function = functionName(*F);
  R.Description = Description.str();
  R.NumCounters = NumCounters;
  R.Offset = NextOffset;
  R.File = M.getSourceFileName();
  R.Before = Before;
  DebugLoc Loc = (Origin ? Origin : Before)->getDebugLoc();
  if (const DebugLoc &DL = Loc; DL && DL.getLine()) {
    R.Line = DL.getLine();
    R.Column = DL.getCol();
    if (auto *Scope = dyn_cast_or_null<DIScope>(DL.getScope()))
      if (!Scope->getFilename().empty())
        R.File = Scope->getFilename().str();
  } else if (const DISubprogram *SP = F->getSubprogram()) {
    // No location of its own (a parameter's spill, a function entry): the
    // function's line is the best a person can be given.
    R.Line = SP->getLine();
    if (!SP->getFilename().empty())
      R.File = SP->getFilename().str();
  }
  Sites.push_back(R);
  NextOffset += NumCounters;

  // BB: ... marker; br take, observe, cont   observe: br cont   cont: Before...
  BasicBlock *BB = Before->getParent();
  BasicBlock *Cont = SplitBlock(BB, Before, static_cast<DominatorTree *>(nullptr),
                                nullptr, nullptr, "site.cont");
  BasicBlock *Observe = BasicBlock::Create(C, "site.observe", F, Cont);
  BranchInst::Create(Cont, Observe)->setDebugLoc(Loc);
  Instruction *OldTerm = BB->getTerminator();
  IRBuilder<> B(OldTerm);
  B.SetCurrentDebugLocation(Loc);
  CallInst *Marker = B.CreateCall(getMarker(M), {B.getInt32(Id)}, "site.take");
  B.CreateCondBr(Marker, Observe, Cont);
  OldTerm->eraseFromParent();
  if (Atomicity == SamplerOptions::CounterAtomicity::WhenThreaded &&
      !SingleThreaded) {
    SingleThreaded = M.getGlobalVariable(abi::GlibcSingleThreaded);
    if (!SingleThreaded)
      SingleThreaded = new GlobalVariable(
          M, Type::getInt8Ty(C), /*isConstant=*/false,
          GlobalValue::ExternalLinkage, nullptr, abi::GlibcSingleThreaded);
    // In an executable (PIE or not PIC) a PC-relative `cmpb` on the linker's
    // copy of the flag, where a GOT load would take a register at each site.
    // glibc's pthread_create clears the exported flag (the copy) as well as
    // its own.
    if (compiledForExecutable(M))
      SingleThreaded->setDSOLocal(true);
  }
  return InsertedSite{Id,       Marker,    Observe,        Cont,    Placeholder,
                      R.Offset, Atomicity, SingleThreaded, AddInAsm};
}

void SiteTable::setInitialValue(const InsertedSite &S, unsigned Cell,
                                int64_t Value) {
  InitialValues[S.Offset + Cell] = Value;
}

std::string SiteTable::recordText(const std::string &Signature) const {
  std::string S = "SAMPLER-SITES 1\n";
  S += "unit " + Signature + " " + std::to_string(NextOffset) + " ";
  return S; // completed by emit(), which knows the flags
}

static std::string siteLines(const std::vector<SiteRecord> &Sites) {
  std::string S;
  for (const SiteRecord &R : Sites) {
    S += "site " + std::to_string(R.Offset) + "\t" +
         std::to_string(R.NumCounters) + "\t" + R.Scheme + "\t" +
         escapeField(R.File) + "\t" + std::to_string(R.Line) + "\t" +
         std::to_string(R.Column) + "\t" + escapeField(R.Function) + "\t" +
         escapeField(R.Description) + "\n";
  }
  return S;
}

MD5::MD5Result SiteTable::signature() const {
  // The signature names the unit in reports: it covers what the sites are,
  // the source, and the module's identity.
  MD5 Hash;
  Hash.update(M.getSourceFileName());
  Hash.update("\n");
  Hash.update(M.getModuleIdentifier());
  Hash.update("\n");
  Hash.update(siteLines(Sites));
  return Hash.final();
}

void SiteTable::emit(bool Sampled, bool WantHalves, bool ProcessCountdown) {
  LLVMContext &C = M.getContext();
  if (Sites.empty()) {
    Placeholder->eraseFromParent();
    if (Function *Marker = M.getFunction(abi::SiteMarker))
      if (Marker->use_empty())
        Marker->eraseFromParent();
    return;
  }
  auto *I64 = Type::getInt64Ty(C);
  // An unconditional build whose adds test glibc's flag may have each
  // function copied in two, the flag tested once on entry (ThreadCopies.h):
  // the copy with atomic adds adds to a second half of the counters.
  bool Halves = WantHalves && !Sampled && AddInAsm &&
                Atomicity == SamplerOptions::CounterAtomicity::WhenThreaded;
  uint64_t NumCells = Halves ? 2 * NextOffset : NextOffset;
  auto *CountersTy = ArrayType::get(I64, NumCells);
  Constant *Init = Constant::getNullValue(CountersTy);
  if (!InitialValues.empty()) {
    std::vector<uint64_t> Cells(NumCells, 0);
    for (auto &[Cell, Value] : InitialValues)
      Cells[Cell] = static_cast<uint64_t>(Value);
    Init = ConstantDataArray::get(C, Cells);
  }
  auto *Counters = new GlobalVariable(M, CountersTy, false,
                                      GlobalValue::InternalLinkage, Init,
                                      "__sampler_counters");
  Counters->setAlignment(Align(64)); // its own cache lines
  if (Halves)
    Counters->setMetadata(abi::HalvesMD,
                          MDNode::get(C, ConstantAsMetadata::get(ConstantInt::get(
                                             I64, NextOffset))));
  Placeholder->replaceAllUsesWith(Counters);
  Placeholder->eraseFromParent();

  std::string Lines = siteLines(Sites);
  MD5::MD5Result Digest = signature();
  std::string Signature = Digest.digest().str().str();
  unsigned Flags = Sampled ? abi::FlagSampled : 0;

  std::string Record = recordText(Signature) + std::to_string(Flags) + "\n" +
                       "source " + escapeField(M.getSourceFileName()) + "\n" +
                       Lines + "end\n";
  // The record lives in its own section; the NUL ends it (readers split the
  // section at NULs, so alignment padding between units is harmless).
  auto *TableInit = ConstantDataArray::getString(C, Record, /*AddNull=*/true);
  auto *Table = new GlobalVariable(M, TableInit->getType(), true,
                                   GlobalValue::PrivateLinkage, TableInit,
                                   "__sampler_site_table");
  Table->setSection(abi::SiteSection);
  Table->setAlignment(Align(1));
  appendToUsed(M, {Table});

  auto *NameInit = ConstantDataArray::getString(C, M.getSourceFileName(), true);
  auto *Name = new GlobalVariable(M, NameInit->getType(), true,
                                  GlobalValue::PrivateLinkage, NameInit,
                                  "__sampler_unit_name");

  SmallVector<Constant *, 16> SigBytes;
  for (uint8_t Byte : Digest)
    SigBytes.push_back(ConstantInt::get(Type::getInt8Ty(C), Byte));
  StructType *UnitTy = abi::getUnitType(C);
  auto *Ptr = PointerType::getUnqual(C);
  Constant *UnitInit = ConstantStruct::get(
      UnitTy, {ConstantInt::get(Type::getInt32Ty(C), abi::Version),
               ConstantInt::get(Type::getInt32Ty(C),
                                Flags | (Halves ? abi::FlagHalves : 0) |
                                    (ProcessCountdown ? abi::FlagProcessCountdown
                                                      : 0)),
               ConstantInt::get(I64, NextOffset),
               ConstantArray::get(ArrayType::get(Type::getInt8Ty(C), 16),
                                  SigBytes),
               Counters, Name, ConstantPointerNull::get(Ptr)});
  auto *Unit = new GlobalVariable(M, UnitTy, false, GlobalValue::InternalLinkage,
                                  UnitInit, "__sampler_unit");

  auto MakeCall = [&](StringRef FnName, StringRef Callee) {
    auto *FTy = FunctionType::get(Type::getVoidTy(C), false);
    Function *Fn = Function::Create(FTy, GlobalValue::InternalLinkage, FnName, M);
    Fn->addFnAttr(Attribute::NoUnwind);
    IRBuilder<> B(BasicBlock::Create(C, "", Fn));
    FunctionCallee RT = M.getOrInsertFunction(
        Callee, FunctionType::get(Type::getVoidTy(C), {Ptr}, false));
    B.CreateCall(RT, {Unit});
    B.CreateRetVoid();
    return Fn;
  };
  // Priority 1: register before user constructors run, like sanitizers do.
  appendToGlobalCtors(M, MakeCall("sampler.register_unit", abi::RegisterUnit), 1);
  appendToGlobalDtors(M, MakeCall("sampler.unregister_unit", abi::UnregisterUnit), 1);
}

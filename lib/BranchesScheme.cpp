//===- BranchesScheme.cpp - The `branches` scheme -------------------------===//
//
// Observes every conditional branch of the source: if, loop tests, &&, ||,
// ?: (when clang emits a branch for it) and switch.
//   two-way branch: 2 cells [false, true]; with SamplerOptions::ObserveEdges
//                   each way of an if/else on the condition adds 1 to its
//                   own constant cell
//   switch:         1 + cases cells [default, case 1, ..., case n]; the
//                   description ends with "; cases: v1,v2,..."
// Branches the compiler made up (debug line 0 in a function with debug info)
// are not sites.
//
//===----------------------------------------------------------------------===//
#include "FrontEndInfo.h"
#include "RuntimeABI.h"
#include "Scheme.h"
#include "SiteTable.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

#include <algorithm>

using namespace llvm;
using namespace sampler;

namespace {

bool isMarker(const Value *V) {
  if (auto *CI = dyn_cast<CallInst>(V))
    if (Function *F = CI->getCalledFunction())
      return F->getName() == abi::SiteMarker;
  return false;
}

/// sampler.h's `if (__sampler_check_begin(...))` is plumbing of the checks
/// scheme, not a branch of the program.
bool isCheckPlumbing(const Value *V) {
  for (int Depth = 0; Depth < 4 && V; ++Depth) {
    if (auto *CI = dyn_cast<CallInst>(V)) {
      const Function *F = CI->getCalledFunction();
      return F && F->getName() == "__sampler_check_begin";
    }
    if (auto *Cmp = dyn_cast<CmpInst>(V))
      V = isa<Constant>(Cmp->getOperand(1)) ? Cmp->getOperand(0) : nullptr;
    else if (auto *Cast = dyn_cast<CastInst>(V))
      V = Cast->getOperand(0);
    else
      return false;
  }
  return false;
}

bool isArtificial(const Instruction *I) {
  if (!I->getFunction()->getSubprogram())
    return false; // no debug info at all: every branch counts
  const DebugLoc &DL = I->getDebugLoc();
  return !DL || DL.getLine() == 0;
}

class BranchesScheme : public Scheme {
public:
  BranchesScheme(const FrontEndInfo *FE, bool Edges) : FE(FE), Edges(Edges) {}
  StringRef name() const override { return "branches"; }

  void collect(Function &F, std::vector<Instruction *> &Out) override {
    for (BasicBlock &BB : F) {
      Instruction *T = BB.getTerminator();
      if (auto *BI = dyn_cast<BranchInst>(T)) {
        if (BI->isConditional() && !isa<Constant>(BI->getCondition()) &&
            !isMarker(BI->getCondition()) && !isArtificial(BI) &&
            !isCheckPlumbing(BI->getCondition()))
          Out.push_back(BI);
      } else if (auto *SI = dyn_cast<SwitchInst>(T)) {
        if (SI->getNumCases() > 0 && !isa<Constant>(SI->getCondition()) &&
            !isArtificial(SI))
          Out.push_back(SI);
      }
    }
  }

  void instrument(Instruction *I, SiteTable &Table) override {
    if (auto *BI = dyn_cast<BranchInst>(I))
      return instrumentBranch(BI, Table);
    instrumentSwitch(cast<SwitchInst>(I), Table);
  }

private:
  void instrumentBranch(BranchInst *BI, SiteTable &Table) {
    Value *Cond = BI->getCondition();
    std::string Desc =
        sourceTextAt(BI, int(FrontEndInfo::Kind::Branch), FE)
            .value_or(describeValue(Cond));
    InsertedSite S = Table.addSite(BI, "branches", 2, Desc);
    if (!Edges) {
      IRBuilder<> B(S.Observe->getTerminator());
      S.bump(B, B.CreateZExt(Cond, B.getInt64Ty())); // false: 0, true: 1
      return;
    }
    // The edges' form. The if/else takes the program branch's weights, so
    // that its likely way is laid out as the program's.
    Instruction *OnFalse =
        S.bumpIf(S.Observe->getTerminator(), Cond, 1, "site.true",
                 BI->getMetadata(LLVMContext::MD_prof));
    OnFalse->getParent()->setName("site.false");
    IRBuilder<> F(OnFalse);
    S.bump(F, F.getInt64(0));
  }

  void instrumentSwitch(SwitchInst *SI, SiteTable &Table) {
    std::string Desc =
        sourceTextAt(SI, int(FrontEndInfo::Kind::Switch), FE)
            .value_or(describeValue(SI->getCondition()));
    Desc += "; cases: ";
    bool First = true;
    for (auto &Case : SI->cases()) {
      if (!First)
        Desc += ",";
      First = false;
      Desc += std::to_string(Case.getCaseValue()->getSExtValue());
    }
    InsertedSite S = Table.addSite(SI, "branches", SI->getNumCases() + 1, Desc);
    IRBuilder<> B(S.Observe->getTerminator());
    S.bump(B, caseIndex(B, SI));
  }

  /// The cell of the case \p SI takes (0: the default; case k in IR order:
  /// k), computed in the site's observation at \p B (left after it). The
  /// cost is paid at every observation, so it must not grow with the cases:
  /// a compare and a select per case made each of SQLite's opcode dispatches
  /// (180 cases) cost about 536 instructions more when observed
  /// (docs/benchmarks.md, "Switches observed by table").
  ///  - up to MaxSelectCases cases: a select per case, which is cheapest;
  ///  - values in a dense range: a constant table indexed by the value less
  ///    the smallest (one more entry, 0, for every value outside the range);
  ///  - otherwise a switch of its own on the value, each case a block that
  ///    gives its index to a phi: code generation makes it a search tree.
  static Value *caseIndex(IRBuilder<> &B, SwitchInst *SI) {
    Value *Cond = SI->getCondition();
    unsigned K = SI->getNumCases();
    SmallVector<ConstantInt *, 16> Values;
    for (auto &Case : SI->cases())
      Values.push_back(Case.getCaseValue());
    if (K <= MaxSelectCases) {
      Value *Index = B.getInt64(0);
      for (unsigned J = K; J-- > 0;)
        Index = B.CreateSelect(B.CreateICmpEQ(Cond, Values[J]),
                               B.getInt64(J + 1), Index);
      return Index;
    }
    if (Value *Index = tableIndex(B, SI, Values))
      return Index;
    return switchIndex(B, SI, Values);
  }

  /// The table's form, or null where the values are too sparse for it.
  static Value *tableIndex(IRBuilder<> &B, SwitchInst *SI,
                           ArrayRef<ConstantInt *> Values) {
    Value *Cond = SI->getCondition();
    unsigned Bits = Cond->getType()->getIntegerBitWidth();
    if (Bits > 64)
      return nullptr;
    // The range in the value's own width, as a switch compares: Range =
    // Max - Min + 1 of the values, both taken as signed.
    APInt Min = Values[0]->getValue(), Max = Min;
    for (ConstantInt *V : Values) {
      if (V->getValue().slt(Min))
        Min = V->getValue();
      if (V->getValue().sgt(Max))
        Max = V->getValue();
    }
    // Max - Min is below 2^Bits: exact in the value's width, read unsigned.
    APInt Span = (Max - Min).zext(65);
    uint64_t K = Values.size();
    uint64_t Limit = std::max<uint64_t>(MinTableEntries, TableEntriesPerCase * K);
    if (Span.uge(Limit))
      return nullptr;
    uint64_t Range = Span.getZExtValue() + 1;
    // Some value of the type is outside the range: test for it.
    bool Outside = Span.ult(APInt::getMaxValue(Bits).zext(65));
    SmallVector<uint64_t, 64> Entries(Range + Outside, 0);
    for (unsigned J = 0; J < K; ++J)
      Entries[(Values[J]->getValue() - Min).getZExtValue()] = J + 1;
    // Entries as narrow as the case count allows: 1 byte below 255 cases.
    Constant *Init = K < 0xff     ? entries<uint8_t>(B, Entries)
                     : K < 0xffff ? entries<uint16_t>(B, Entries)
                                  : entries<uint32_t>(B, Entries);
    Type *EltTy = cast<ArrayType>(Init->getType())->getElementType();
    Module &M = *SI->getModule();
    auto *Table = new GlobalVariable(M, Init->getType(), /*isConstant=*/true,
                                     GlobalValue::PrivateLinkage, Init,
                                     "__sampler_switch_cells");
    Table->setUnnamedAddr(GlobalValue::UnnamedAddr::Global);
    // Off = Cond - Min wraps like the switch's own compare; outside the
    // range, the last entry (0, the default). The select keeps the load in
    // bounds, so it may be speculated. (A range of every value of the type
    // needs no test.)
    Value *Off = B.CreateSub(Cond, ConstantInt::get(Cond->getType(), Min));
    Value *Slot = B.CreateZExt(Off, B.getInt64Ty());
    if (Outside)
      Slot = B.CreateSelect(
          B.CreateICmpULE(Off, ConstantInt::get(Cond->getType(), Range - 1)),
          Slot, B.getInt64(Range));
    Value *Entry = B.CreateLoad(
        EltTy, B.CreateInBoundsGEP(Init->getType(), Table, {B.getInt64(0), Slot}));
    return B.CreateZExt(Entry, B.getInt64Ty());
  }

  template <typename T>
  static Constant *entries(IRBuilder<> &B, ArrayRef<uint64_t> Entries) {
    SmallVector<T, 64> Narrow(Entries.begin(), Entries.end());
    return ConstantDataArray::get(B.getContext(), Narrow);
  }

  /// The switch's form: `switch Cond` to a block per case, joined by a phi.
  static Value *switchIndex(IRBuilder<> &B, SwitchInst *SI,
                            ArrayRef<ConstantInt *> Values) {
    Instruction *At = &*B.GetInsertPoint();
    BasicBlock *Head = At->getParent();
    BasicBlock *Join = Head->splitBasicBlock(At, "site.case.join");
    Head->getTerminator()->eraseFromParent();
    IRBuilder<> HB(Head);
    SwitchInst *Cells = HB.CreateSwitch(SI->getCondition(), Join, Values.size());
    PHINode *Index = PHINode::Create(B.getInt64Ty(), Values.size() + 1, "cell",
                                     Join->begin());
    Index->addIncoming(B.getInt64(0), Head);
    for (unsigned J = 0; J < Values.size(); ++J) {
      BasicBlock *Case = BasicBlock::Create(B.getContext(), "site.case",
                                            Head->getParent(), Join);
      BranchInst::Create(Join, Case);
      Cells->addCase(Values[J], Case);
      Index->addIncoming(B.getInt64(J + 1), Case);
    }
    B.SetInsertPoint(Join->getTerminator());
    return Index;
  }

  /// Switches of at most this many cases find their cell by selects.
  static constexpr unsigned MaxSelectCases = 3;
  /// A table may have this many entries, or TableEntriesPerCase per case.
  static constexpr uint64_t MinTableEntries = 256;
  static constexpr uint64_t TableEntriesPerCase = 8;

  const FrontEndInfo *FE;
  /// SamplerOptions::observeEdges().
  bool Edges;
};

} // namespace

namespace sampler {
std::unique_ptr<Scheme> createBranchesScheme(const FrontEndInfo *FE,
                                             bool Edges) {
  return std::make_unique<BranchesScheme>(FE, Edges);
}
} // namespace sampler

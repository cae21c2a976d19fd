//===- SiteTable.h - The sites of one compilation unit --------------------===//
//
// Schemes ask the table for a new site: it hands out the site's counter cells
// and inserts the site's marker into the IR (docs/internals.md §3). When all
// schemes have run, emit() creates the unit's counters, its site-table record
// in section .sampler_sites, its descriptor and the constructor that registers
// it with the runtime.
//
//===----------------------------------------------------------------------===//
#ifndef SAMPLER_SITETABLE_H
#define SAMPLER_SITETABLE_H

#include "SamplerOptions.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/ValueHandle.h"
#include "llvm/Support/MD5.h"
#include <map>
#include <string>
#include <vector>

namespace sampler {

/// One row of the site table.
struct SiteRecord {
  std::string Scheme;
  std::string File;
  unsigned Line = 0, Column = 0;
  std::string Function;
  std::string Description;
  unsigned NumCounters = 0;
  uint64_t Offset = 0; // first counter cell
  /// The instruction the site was inserted before (a branch site's branch),
  /// until emit(); null once it is deleted. Not part of the table's text.
  llvm::WeakVH Before;
};

/// Whether \p M is compiled for an executable (a PIE level, or code that is
/// not position-independent): what it references is linked in or copied into
/// the program, so it may be reached PC-relatively (dso_local).
inline bool compiledForExecutable(const llvm::Module &M) {
  return M.getPIELevel() != llvm::PIELevel::Default ||
         M.getPICLevel() == llvm::PICLevel::NotPIC;
}

/// The inline assembly of a counter's add on x86-64 when the counters are
/// atomic only once the process has threads (InsertedSite::update()).
inline constexpr char CounterAddAsm[] =
    "cmpb $$0, $2\n\tjne 1f\n\tlock\n1:\n\taddq $1, $0";
/// Whether \p CB is that assembly: it touches its counter and glibc's flag,
/// and calls nothing (EntryTwin.cpp asks).
bool isCounterAddAsm(const llvm::CallBase *CB);

/// A site just inserted: the scheme writes its observation into Observe
/// (before its terminator, which falls through to Cont).
struct InsertedSite {
  unsigned Id;
  llvm::CallInst *Marker;
  llvm::BasicBlock *Observe;
  llvm::BasicBlock *Cont;
  /// Address of the site's first counter cell.
  llvm::Value *cell(llvm::IRBuilder<> &B, unsigned Index) const;
  /// Adds 1 to cell Base + Index (Index is an i64 value), as update() does.
  void bump(llvm::IRBuilder<> &B, llvm::Value *Index) const;
  /// Where \p Cond holds, adds 1 to the constant cell \p Cell, on a way of
  /// its own (block NAME) of an if/else at \p At, with \p Weights if any;
  /// returns the terminator of the other way, where the caller observes
  /// the other outcomes. The schemes' edges' form: no cell is computed, and
  /// the optimiser can thread the program's own tests of the same value
  /// through these (SamplerOptions::ObserveEdges).
  llvm::Instruction *bumpIf(llvm::Instruction *At, llvm::Value *Cond,
                            uint64_t Cell, const llvm::Twine &Name,
                            llvm::MDNode *Weights = nullptr) const;
  /// Cell \p Cell = Cell op \p V (Add, Min or Max), as the unit's counters
  /// are updated (SamplerOptions::CounterAtomicity): a relaxed atomic
  /// read-modify-write (Always); a load, the operation and a store (Never),
  /// as `-fprofile-update=single` counts; or, WhenThreaded, the plain form
  /// while glibc's `__libc_single_threaded` says the process has one thread
  /// and the atomic one otherwise (docs/internals.md, "Counters"). B is left
  /// where the update ends (after the join, WhenThreaded).
  void update(llvm::IRBuilder<> &B, llvm::AtomicRMWInst::BinOp Op,
              llvm::Value *Cell, llvm::Value *V) const;
  llvm::GlobalVariable *Counters;
  uint64_t Offset;
  SamplerOptions::CounterAtomicity Atomicity =
      SamplerOptions::CounterAtomicity::Always;
  /// glibc's flag (WhenThreaded only).
  llvm::GlobalVariable *SingleThreaded = nullptr;
  /// WhenThreaded adds are one statement of inline assembly (x86-64).
  bool AddInAsm = false;
};

class SiteTable {
public:
  /// \p Atomicity: how the sites update their counters
  /// (SamplerOptions::AtomicCounters); WhenThreaded is Always unless the
  /// unit's target is Linux with glibc.
  explicit SiteTable(llvm::Module &M,
                     SamplerOptions::CounterAtomicity Atomicity =
                         SamplerOptions::CounterAtomicity::Always);

  /// Inserts a new site immediately before \p Before, with \p NumCounters
  /// cells. The site's location is \p Origin's debug location (the observed
  /// instruction), or \p Before's when Origin is null.
  InsertedSite addSite(llvm::Instruction *Before, llvm::StringRef Scheme,
                       unsigned NumCounters, llvm::StringRef Description,
                       const llvm::Instruction *Origin = nullptr);
  /// Sets the value a cell holds before the run (0 unless set): schemes that
  /// record values rather than counts (bounds) start from sentinels.
  void setInitialValue(const InsertedSite &S, unsigned Cell, int64_t Value);

  bool empty() const { return Sites.empty(); }
  const std::vector<SiteRecord> &sites() const { return Sites; }
  uint64_t numCounters() const { return NextOffset; }

  /// Creates the counters, the site-table record, the unit descriptor and
  /// its constructor/destructor. \p Sampled goes into the unit's flags.
  /// \p Halves: the counters get a second half for ThreadCopies.h (only
  /// unconditional, WhenThreaded, x86-64). \p ProcessCountdown: the unit's
  /// code counts down the process's countdown (-fsampler-single-threaded),
  /// a flag for the runtime only.
  void emit(bool Sampled, bool Halves = false, bool ProcessCountdown = false);

  /// The marker function (declared on first use).
  static llvm::Function *getMarker(llvm::Module &M);
  /// All marker calls in \p F.
  static llvm::SmallVector<llvm::CallInst *, 16> markersIn(llvm::Function &F);
  /// The text of the record, as stored in the section (without the NUL).
  std::string recordText(const std::string &Signature) const;
  /// The unit's signature (the MD5 of its source's name, the module's
  /// identity and its site lines), which names it in reports: known once
  /// every site is in.
  llvm::MD5::MD5Result signature() const;

private:
  llvm::Module &M;
  SamplerOptions::CounterAtomicity Atomicity;
  /// glibc's `__libc_single_threaded`, declared with the first site
  /// (WhenThreaded only).
  llvm::GlobalVariable *SingleThreaded = nullptr;
  /// The target is x86-64 (InsertedSite::AddInAsm), decided once.
  bool AddInAsm;
  std::vector<SiteRecord> Sites;
  uint64_t NextOffset = 0;
  std::map<uint64_t, int64_t> InitialValues; // cell -> non-zero initial value
  /// Stands for the counters array until its size is known; emit() replaces it.
  llvm::GlobalVariable *Placeholder;
};

/// Escapes TAB, newline and backslash as the site-table format requires.
std::string escapeField(llvm::StringRef S);

} // namespace sampler

#endif

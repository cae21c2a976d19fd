//===- LoopTails.h - Copies of outer loops for the way back to fast code ---===//
//
// DESCRIPTION
//   After a sample, the instrumented copy goes back to the fast copy at a
//   loop header (SamplingTransform.h). By default it may do so at the header
//   of any loop; for a loop inside another, the fast outer loop is then
//   entered at its inner loop's header as well as at its own: an irreducible
//   cycle, which LoopInfo does not report, so that the optimiser's loop
//   passes (and sampler's LoopBoundCheck and LoopCountdownPromotion) see only
//   its inner loops. With SamplerOptions::NaturalNests it goes back only at
//   outermost headers, and a long inner loop then runs instrumented until its
//   outer loop's next iteration (bzip2 at d = 1000: +25%).
//
//   A tail gives both. Every loop of the fast copy that has loops inside it
//   gets a copy of its blocks (suffix `.tail`), entered only from the
//   instrumented copy, at the headers of its inner loops: in the tail these
//   are loops again, entered at their headers, and the tail leaves for the
//   loop's next iteration, or through its exits, the way an edge from inside
//   the loop must: the fast header of an outermost loop, a block outside all
//   loops, or the tail of the loop around. So every loop of the fast copy, and
//   every loop of a tail, has one entry, its header.
//
//   Tails hold the fast copy's code (sites folded away, checks of their own);
//   they cost code size: a copy of each loop that contains loops.
//
//   A nest that calls a local function which the inliner will take at its
//   one call (SingleCallLocals.h) and which has a loop of its own gets no
//   tail: it stays open, and the instrumented copy goes back to its inner
//   loops' headers directly, as without natural nests. Such a call makes an
//   outer iteration long (bzip2's `mainSort` sorts a bucket an iteration
//   through `mainQSort3`), so at d = 1000 a sample falls in nearly every
//   one, and the rest of it ran in the tail: 99.8% of `mainSort`'s quadrant
//   loop did, in code whose registers are allocated as for cold code (the
//   instrumented copy enters it, 1 in 2^20 by its branch weights), and 497
//   of `mainQSort3`'s 1,122 calls went to its out-of-line copy, since the
//   tail is a copy of the caller. Open, bzip2 ran 2.2% fewer instructions at
//   d = 1000, 3.0% fewer at d = 100 and 0.7% fewer with sampling off. The
//   price is the fast outer loop: entered at each inner loop's header, it is
//   an irreducible cycle, not a loop, to the optimisers. So not every nest
//   with a call: with every nest that calls a function which takes trials
//   open, SQLite ran 4.9% more instructions with sampling off and zlib 2.0%
//   more (short outer iterations: an interpreter's dispatch loop, deflate's
//   loop over its input); with every nest that calls a function inlined at
//   its one call, SQLite 5.0% more (its `sqlite3VdbeExec`, whose dispatch
//   loop holds 30 inner loops and calls 39 such helpers, most without a
//   loop). A nest of more than SamplingTransform::MaxOpenNestLoops loops
//   keeps its tails whatever it calls.
//
//   A loop whose body holds an irreducible cycle (a back edge to a block that
//   heads no loop: bzip2's `unRLE_obuf_to_output_FAST`, whose `goto` into
//   its run's last byte makes its hottest cycle one that never passes the
//   loop's header) gets a tail too, entered at that block as well. Without it
//   the instrumented copy could go back to fast code only at the loop's
//   header, which such a cycle may not reach before the function returns. In
//   the tail, entered at that block only, the cycle is a natural loop; the
//   block is in no inner loop, so the tail's inner loops keep their one entry.
//
// USAGE
//   Part of SamplingTransform, with -fsampler-natural-nests
//   (opt-19 ... -sampler-natural-nests): test/sampling/natural-nests.ll.
//
//===----------------------------------------------------------------------===//
#ifndef SAMPLER_LOOPTAILS_H
#define SAMPLER_LOOPTAILS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Function.h"

namespace sampler {

class LoopTails {
public:
  /// Clones, in \p F, every loop of \p LI that has loops inside it, and every
  /// loop that is the innermost around one of \p BackTargets (the blocks back
  /// edges lead to) without being its header: that block is an irreducible
  /// cycle's entry. The clones' edges still lead where the fast copy's do:
  /// redirect() them once the check edges are known.
  /// Nests whose outermost loop is in \p Open get no tails.
  void build(llvm::Function &F, const llvm::LoopInfo &LI,
             llvm::ArrayRef<llvm::BasicBlock *> BackTargets,
             const llvm::SmallPtrSetImpl<const llvm::Loop *> &Open);
  bool empty() const { return Tails.empty(); }

  /// Whether the instrumented copy may go back to fast code at the header of
  /// \p L: an outermost loop, a loop of an open nest (entered directly), or
  /// a loop whose outer loop has a tail (entered there). Before build() (no
  /// tails), outermost loops only.
  bool mayEnter(const llvm::Loop *L) const;

  /// Where the instrumented copy goes back to fast code at \p Header, a loop
  /// header of the fast copy: the copy of it in the tail of the loop around,
  /// or the header itself for an outermost loop (and when there are no
  /// tails).
  llvm::BasicBlock *entry(llvm::BasicBlock *Header) const;

  /// Where the instrumented copy goes back to fast code at \p Entry, a back
  /// edge's target that heads no loop: its copy in the tail of its innermost
  /// loop, or null where there is none (no tails, or \p Entry in no loop,
  /// where the fast block itself will do: no loop is entered there).
  llvm::BasicBlock *cycleEntry(llvm::BasicBlock *Entry) const;

  /// Where an edge of the tail of \p X to the fast block \p To leads: the
  /// tail's own copy of To inside X, entry() for a loop header (X's own, for
  /// its next iteration), the tail of the loop around for an exit into its
  /// body, or To itself outside all loops.
  llvm::BasicBlock *dest(const llvm::Loop *X, llvm::BasicBlock *To) const;

  /// One block of a tail: the loop, the fast block and its copy.
  struct Block {
    const llvm::Loop *X;
    llvm::BasicBlock *Fast, *Copy;
  };
  llvm::ArrayRef<Block> blocks() const { return Blocks; }

  /// The fast block that \p BB copies in a tail, or BB itself.
  llvm::BasicBlock *original(llvm::BasicBlock *BB) const;

private:
  const llvm::LoopInfo *LI = nullptr;
  llvm::SmallPtrSet<const llvm::Loop *, 4> OpenNests;
  // Per loop with a tail: fast block -> its copy.
  llvm::DenseMap<const llvm::Loop *,
                 llvm::DenseMap<llvm::BasicBlock *, llvm::BasicBlock *>>
      Tails;
  llvm::DenseMap<llvm::BasicBlock *, llvm::BasicBlock *> CopyToFast;
  llvm::SmallVector<Block, 64> Blocks;
};

} // namespace sampler

#endif

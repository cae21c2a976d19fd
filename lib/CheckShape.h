//===- CheckShape.h - A check as the optimiser leaves it --------*- C++ -*-===//
//
// DESCRIPTION
//   The passes that run at the end of the pipeline (CheckMerge.h,
//   EntryTwin.h) find the checks SamplingTransform placed by their shape:
//
//     %c = load volatile i64, countdown
//     %p = add i64 %c, -W
//     store i64 %p, countdown
//     br (%p >= 0), Fast, Slow
//
//   in one block, the load, payment and compare serving nothing else. A site
//   lowered in place has that shape with W = 1, and its load is tagged
//   (InPlaceSiteMD) so that it does not match: its cold code is no region's
//   slow way. Checks
//   whose countdown the loop passes carry in a register, and anything the
//   optimiser reshaped beyond that form, do not match (they are left alone).
//
//===----------------------------------------------------------------------===//
#ifndef SAMPLER_CHECKSHAPE_H
#define SAMPLER_CHECKSHAPE_H

#include "llvm/IR/Instructions.h"

#include <cstdint>
#include <optional>

namespace sampler {

/// The parts of a check: its load, payment, store, compare and branch, the
/// region's weight W, and its two ways on.
struct PaidCheck {
  llvm::LoadInst *Load;
  llvm::BinaryOperator *Paid;
  llvm::StoreInst *Store;
  llvm::ICmpInst *Cmp;
  llvm::BranchInst *Br;
  uint64_t W;
  llvm::BasicBlock *Fast;
  llvm::BasicBlock *Slow;
};

/// Whether \p Cmp tests its first operand X for X >= 0 (`X > -1` or
/// `X >= 0`: true; `X < 0` or `X <= -1`, so X >= 0 on its false edge:
/// false), the test every check makes of the countdown it has paid; nullopt
/// for any other compare.
std::optional<bool> nonNegativeOnTrue(const llvm::ICmpInst &Cmp);

/// The check that ends \p BB, if it has exactly that shape and its values
/// serve nothing else; \p CD is the thread-local countdown.
std::optional<PaidCheck> matchPaidCheck(llvm::BasicBlock *BB,
                                        const llvm::GlobalVariable *CD);

} // namespace sampler

#endif

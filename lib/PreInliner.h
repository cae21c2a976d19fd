//===- PreInliner.h - Small functions with loops, inlined before cloning --===//
//
// The sampling transformation clones a function with loops in place (a fast
// copy, an instrumented copy, the bounded loops' copies). A small function
// with a loop that the inliner would have put into its callers (ccrypt's
// `static inline` xMixAdd, xKeyAddition, xInvMixColumn; Lua's luaS_hash) is
// then three times its size and stays out of line: every call pays a call,
// the callee's own entry check and the callee-saved registers, and the
// caller's loop around it can no longer be unrolled or kept in registers.
//
// So, after the schemes have put their site markers in (which inlining may
// copy: every dynamic execution still crosses one marker, and a copy
// observes the same site, the same counters) and before the transformation,
// each direct call to such a function is inlined, bottom-up over the call
// graph: the callee has sites and a loop (a back edge), at most N
// instructions as it stands then (allocas, loads and stores not yet
// promoted; 2N if declared `inline`), no `noinline` or `optnone`, a definition that cannot be
// replaced at link time, not recursive, and isInlineViable. The caller has
// a loop of its own, or stays within N and is not recursive (so that it is
// inlined in turn instead of becoming a cloned function nobody inlines), and
// has at most 10,000 instructions (in the largest functions the inlined
// loops cost the fast copy more than the calls did); a caller of more than
// 2,000 (`-fsampler-preinline-large-caller=N`) takes only the calls inside
// its loops. What is observed does
// not change; which trials the sites own does not either (the same sites run
// in the same order). A local function left without callers is deleted.
//
// Run: part of the `sampler` pass, `opt -passes=sampler
// -sampler-preinline-limit=N` or `sampler-cc -fsampler-preinline-limit=N`
// (0: never).
//
//===----------------------------------------------------------------------===//
#ifndef SAMPLER_PREINLINER_H
#define SAMPLER_PREINLINER_H

#include "llvm/IR/Module.h"

namespace sampler {

/// Inlines, into every direct caller that allows it, each function of \p M
/// with site markers and a loop of at most \p SizeLimit instructions (debug
/// and lifetime intrinsics not counted); callers of more than \p LargeCaller
/// instructions take only the calls inside their loops. Returns the number
/// of calls inlined.
unsigned preInlineSmallLoopFunctions(llvm::Module &M, unsigned SizeLimit,
                                     unsigned LargeCaller);

/// The instructions of \p F that will become code: debug and lifetime
/// intrinsics not counted, so that `-g` does not change a size limit's choice.
unsigned sizeOf(const llvm::Function &F);

/// Whether \p F, a definition, has a cycle (a back edge of its CFG).
bool hasLoop(const llvm::Function &F);

} // namespace sampler

#endif

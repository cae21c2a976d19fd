//===- IndirectTLS.h - The countdown reached through the thread pointer ---===//
//
// DESCRIPTION
//   A check is a read-modify-write of the thread-local countdown, and every
//   check of a thread depends on the one before it through memory. On x86-64
//   LLVM reaches a thread-local through the segment register by default:
//   `addq $-W, %fs:__sampler_countdown@TPOFF`. Recent cores rename memory
//   (they hand a store's value to the load that reads it back without waiting
//   on the store-to-load forwarding) for ordinary addresses, but not for
//   addresses with a segment base: measured on this project's AMD EPYC
//   machine, a chain of such read-modify-writes costs some 1.6 ns a link,
//   and the same chain through an ordinary register base (`movq %fs:0, %rax;
//   addq $-W, __sampler_countdown@TPOFF(%rax)`) next to nothing
//   (docs/benchmarks.md, "The countdown's chain through the segment
//   register"). Where a program runs a check every few cycles (Lua's
//   interpreter) the chain, not the instructions, had set the speed.
//
//   This pass marks every function that touches the countdown with
//   "indirect-tls-seg-refs" (what clang's -mno-tls-direct-seg-refs sets): the
//   x86 backend then loads the thread pointer from %fs:0 (a value no code
//   stores) and addresses the countdown from it. The program's own
//   thread-locals in those functions are reached the same way. In a function
//   that touches the countdown in two blocks or more, which run at least 1.5
//   times a call by the static block frequencies (or more than four blocks,
//   or code optimised for size), the accesses go through
//   one `freeze` of the address, so that it is computed once, on entry, and
//   held in a register, where the backend would load the thread pointer again
//   in every block (a `movq %fs:0` a check more, and measured slower). A
//   function whose only hot access is its entry check, the others (three at
//   most) on its cold ways, is left to the backend: `movq %fs:0, %rax; addq
//   $-W, __sampler_countdown@TPOFF(%rax)`, without the `leaq` of the address
//   that holding it costs every call (`-fsampler-hold-percent=N`, 150 by
//   default; 0: hold wherever two blocks touch it). In an executable (the
//   countdown local-exec; not for LTO) a function of at most 64 accesses, not optimised
//   for size, holds the thread pointer itself instead: each block adds the
//   countdown's offset to it, which the backend folds into the access
//   (`addq $-W, __sampler_countdown@TPOFF(%reg)`), so that holding costs no
//   `leaq` at all (Lua 0.43% fewer instructions; more accesses keep the
//   address, whose 4-byte offsets would cost more bytes than the `leaq`
//   costs instructions). Where the address is held and the held part lies
//   below a block the entry does not always reach (a loop after an early
//   return), the freeze goes there, outside every loop, and the entry's check
//   reaches the countdown from the thread pointer: the `leaq` runs only on
//   the calls that go on (bzip2's `mainGtU`, 0.4% of bzip2's instructions;
//   the thread pointer goes lower only past a loop). It
//   runs last, at OptimizerLastEP, after the inliner has put checks into
//   callers. x86 targets only; elsewhere it does nothing. (Code inlined at
//   link time, in LTO, into a function that had no check keeps the segment
//   form: correct, only slower.)
//
// USAGE
//   opt-19 -load-pass-plugin=build/lib/SamplerPassLLVM.so
//       -passes=sampler-indirect-tls in.ll -S     (this pass alone)
//   sampler-cc -fno-sampler-indirect-tls ...     (off, to measure)
//
//===----------------------------------------------------------------------===//
#ifndef SAMPLER_INDIRECTTLS_H
#define SAMPLER_INDIRECTTLS_H

#include "llvm/IR/PassManager.h"

namespace sampler {

struct SamplerIndirectTLSPass : llvm::PassInfoMixin<SamplerIndirectTLSPass> {
  /// SamplerOptions::HoldPercent (its default lives there alone).
  explicit SamplerIndirectTLSPass(unsigned HoldPercent)
      : HoldPercent(HoldPercent) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);

private:
  unsigned HoldPercent;
};

} // namespace sampler

#endif

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
//   that touches the countdown in two blocks or more, the accesses go through
//   one `freeze` of the address, so that it is computed once, on entry, and
//   held in a register, where the backend would load the thread pointer again
//   in every block (a `movq %fs:0` a check more, and measured slower). It
//   runs last, at OptimizerLastEP, after the inliner has put checks into
//   callers. x86 targets only; elsewhere it does nothing. (Code inlined at
//   link time, in LTO, into a function that had no check keeps the segment
//   form: correct, only slower.)
//
//   Not every core pays for the segment form. On this project's Intel Xeon
//   (Emerald Rapids, which clang's -march=native tunes as sapphirerapids)
//   the chain through %fs: costs what the chain through a register does
//   (bench/tls-chain: 0.79 ns against 0.75-0.80 for two checks), and the
//   held address only costs instructions: its computation on entry, a
//   register, spills (Lua 2.9%, SQLite 4.3% more with sampling off). So by
//   default (SamplerOptions::IndirectTLSMode::Auto) a function whose
//   "tune-cpu" (or, without one, "target-cpu") names such a core keeps the
//   segment form. Generic tuning, AMD's cores and every core not measured
//   take the thread pointer: a program built for no core in particular may
//   run on one whose chain through %fs: is slow.
//
// USAGE
//   opt-19 -load-pass-plugin=build/lib/SamplerPassLLVM.so
//       -passes=sampler-indirect-tls in.ll -S     (this pass alone)
//   sampler-cc -fno-sampler-indirect-tls ...     (off, to measure)
//   sampler-cc -fsampler-indirect-tls ...        (every function, whatever
//                                                 its tuning)
//
//===----------------------------------------------------------------------===//
#ifndef SAMPLER_INDIRECTTLS_H
#define SAMPLER_INDIRECTTLS_H

#include "SamplerOptions.h"

#include "llvm/IR/PassManager.h"

namespace sampler {

struct SamplerIndirectTLSPass : llvm::PassInfoMixin<SamplerIndirectTLSPass> {
  using Mode = SamplerOptions::IndirectTLSMode;
  explicit SamplerIndirectTLSPass(Mode M = Mode::Auto) : M(M) {}
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &);

private:
  Mode M;
};

} // namespace sampler

#endif

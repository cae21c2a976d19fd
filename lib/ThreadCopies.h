//===- ThreadCopies.h - Glibc's thread flag tested once a call --*- C++ -*-===//
//
// DESCRIPTION
//   In an unconditional build whose counters are atomic only once the
//   process has threads (-fsampler-atomic-counters=auto, x86-64 glibc),
//   every add tests glibc's `__libc_single_threaded` itself:
//
//     cmpb $0, __libc_single_threaded(%rip); jne 1f; lock; 1: addq $1, cell
//
//   three instructions where the add is one (SiteTable.cpp, CounterAddAsm).
//   Here, at the end of the pipeline, a function F with such adds becomes two
//   copies of itself and a test of the flag on entry:
//
//     entry:  if (__libc_single_threaded) goto F's blocks
//             else goto F's blocks' copies
//     F's blocks:          addq $1, cell            (no lock, no test)
//     their copies:        lock addq $1, cell + N   (the counters' 2nd half)
//
//   The counters hold two halves, and the runtime reports the sum of a
//   cell's two (SAMPLER_UNIT_HALVES). There is no test after calls, though a
//   call may start a thread: a frame entered while the process had one
//   thread goes on adding to the first half without the lock. That is still
//   exact, because the first half is only ever written by such frames, and
//   all of them belong to one thread at any time: the process's only thread
//   when each was entered; for two threads to hold such frames, the process
//   would have had to become single-threaded again with the second thread
//   alone, the first one gone with its frames. Every other frame adds to the
//   second half with the lock. (A program that resumes a suspended stack on
//   another thread, user-level contexts moved by swapcontext, breaks the
//   argument: -fno-sampler-thread-copies there.)
//
//   Chosen where it can pay: F has an add inside a loop, or two on some way
//   through it (MinAddsOnAWay), since the test on entry costs two
//   instructions a call and each add saves two. The price is code: F is
//   there twice. A block whose address is taken (a computed goto: Lua's
//   luaV_execute dispatches through a table of them) is reached in the copy
//   through the copy's address: F's own instructions are remapped, and a
//   private constant table that only F reads is copied for the copy; a block
//   address used anywhere else leaves F as it is (the copy could jump into
//   F's blocks, whose adds are plain).
//
// USAGE
//   sampler-cc -fno-sampler-sampling ...         (on by default there)
//   sampler-cc -fno-sampler-sampling -fno-sampler-thread-copies ... (off)
//   opt-19 -load-pass-plugin=build/lib/SamplerPassLLVM.so
//       -passes=sampler-thread-copies in.ll -S   (this pass alone)
//
//===----------------------------------------------------------------------===//
#ifndef SAMPLER_THREADCOPIES_H
#define SAMPLER_THREADCOPIES_H

#include "llvm/IR/PassManager.h"

namespace sampler {

struct SamplerThreadCopiesPass
    : llvm::PassInfoMixin<SamplerThreadCopiesPass> {
  llvm::PreservedAnalyses run(llvm::Module &M,
                              llvm::ModuleAnalysisManager &MAM);
};

} // namespace sampler

#endif

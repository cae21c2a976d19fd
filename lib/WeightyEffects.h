//===- WeightyEffects.h - Weighty code says it writes memory ----*- C++ -*-===//
//
// DESCRIPTION
//   A function the program declares `__attribute__((const))` or `pure` tells
//   LLVM that it writes no memory (`memory(none)`, `memory(read)`, on the
//   function and on every call of it). Once it has sites, that is no longer
//   true: its checks and sites take trials from the thread-local countdown and
//   write counters. Its callers import the countdown after each call of it
//   with a plain load (or keep it in a local across the call, in an
//   instrumented copy); with the declaration in place the optimiser forwards
//   the value stored before the call to that load and drops the store, so the
//   callee runs on the thread-local as the region's check left it: its trials
//   are the next region's too. Sites are then sampled together that should
//   be independent, and counts come out biased (the `const` callee of
//   test/hardening/const-callees.c, undone: 6.3 to 7.5 sigma at d = 3 and
//   10). LLVM also merges or drops the calls, and their observations.
//
//   So every weighty function (WeightlessInfo: one that may reach a site) and
//   every weighty call whose declared memory effects leave out the memory
//   the program can name (LLVM's "other" location: globals, thread-locals)
//   has it put back, read and written. Nothing else changes: a `const`
//   function stays free of argument and inaccessible memory, and calls of
//   functions that are weightless (`abs`, `sqrt` and the rest of the C
//   library, a const function of the program without sites) keep what they
//   declared, so the optimiser keeps merging and hoisting those.
//
//   The price: calls of a `const` or `pure` function with sites are no
//   longer merged, hoisted out of loops or dropped, by sampled and
//   unconditional builds alike (so both observe every call the source
//   makes). Declarations of other units' functions are widened only when
//   they are weighty, i.e. not known weightless (docs/weightless.md): a
//   program's own `const` function defined in another unit is weighty where
//   it is called.
//
//   Run after the schemes have placed their sites, in every unit, one
//   without sites too (so that the optimiser, sampling late, does not merge a
//   call of a function with sites before it is lowered, and a unit that only
//   calls another unit's `const` function keeps the calls the source makes),
//   and, sampling late, again before the sampling transformation (the
//   inliner and the attribute inference have run in between).
//
//===----------------------------------------------------------------------===//
#ifndef SAMPLER_WEIGHTY_EFFECTS_H
#define SAMPLER_WEIGHTY_EFFECTS_H

#include "llvm/IR/Module.h"

namespace sampler {

class WeightlessInfo;

/// Widens the declared memory effects of \p WI's weighty functions and of the
/// weighty calls in \p M to read and write "other" memory.
void declareWeightyEffects(llvm::Module &M, const WeightlessInfo &WI);

} // namespace sampler

#endif

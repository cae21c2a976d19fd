// A bad plugin argument is an error that names it, and nothing is compiled.
// RUN: not %clang -fplugin=%plugin -fplugin-arg-sampler-schemes=branches,bogus -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=SCHEME
// RUN: not %clang -fplugin=%plugin -fplugin-arg-sampler-frobnicate=1 -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=OPTION
// RUN: not %clang -fplugin=%plugin -fplugin-arg-sampler-sampling=maybe -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=VALUE
// RUN: not %clang -fplugin=%plugin -fplugin-arg-sampler-preinline-limit=many -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=INTEGER
// RUN: not %clang -fplugin=%plugin -fplugin-arg-sampler-clone-threshold=0 -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=MINIMUM
// RUN: not %clang -fplugin=%plugin -fplugin-arg-sampler-check-stride=0 -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=STRIDE
// RUN: not %clang -fplugin=%plugin -fplugin-arg-sampler-atomic-counters=sometimes -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=ATOMICS
// RUN: not %clang -fplugin=%plugin -fplugin-arg-sampler-weightless=@%t.missing -c %s -o %t.o 2>&1 | FileCheck %s --check-prefix=FILE
// The same checks with opt:
// RUN: not %opt-sampler -passes=sampler -sampler-schemes=bogus -disable-output %S/Inputs/empty.ll 2>&1 | FileCheck %s --check-prefix=SCHEME
// RUN: not %opt-sampler -passes=sampler -sampler-sampling=maybe -disable-output %S/Inputs/empty.ll 2>&1 | FileCheck %s --check-prefix=VALUE

// SCHEME: sampler: unknown scheme 'bogus' (known: branches, returns, scalar-pairs, float-kinds, bounds, function-entries, checks)
// OPTION: sampler: unknown option 'frobnicate' (known: schemes, sampling, weightless, skip, include, exclude, elements, compare-constants, clone-threshold, outline-limit, preinline-limit, preinline-large-caller, sample-late, loop-bounds, loop-promote, loop-exit-pay, natural-nests, open-nests, slow-optsize, loop-reserve, loop-chunks, check-merge, check-merge-give-back, check-discount, single-call-copies, single-call-size-limit, single-call-max-size, copy-comdat, indirect-tls, single-threaded, atomic-counters, entry-twin-limit, continuation-limit, continuation-copies, paid-callee-weight, cold-heavy-percent, feedback, cold-in-place, cold-loops-in-place, cold-count, cold-path-sites, cold-optsize, countdown-slot-sites, check-stride, tls-model, observe-edges, thread-copies, nest-promote, hold-percent)
// VALUE: sampler: option 'sampling' expects on/off (1/0), got 'maybe'
// INTEGER: sampler: option 'preinline-limit' expects an integer >= 0, got 'many'
// MINIMUM: sampler: option 'clone-threshold' expects an integer >= 1, got '0'
// STRIDE: sampler: option 'check-stride' expects an integer >= 1, got '0'
// ATOMICS: sampler: option 'atomic-counters' expects 'when-threaded' or on/off (1/0), got 'sometimes'
// FILE: sampler: cannot read name list '{{.*}}.missing': No such file or directory

int f(int x) { return x ? 1 : 2; }

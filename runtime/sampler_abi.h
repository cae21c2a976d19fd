/* sampler runtime ABI, version 9.
 *
 * This header is the single definition of what instrumented code calls and reads
 * (docs/internals.md, section 1). The pass mirrors it in lib/RuntimeABI.h: any change
 * here is an ABI change and bumps SAMPLER_ABI_VERSION.
 *
 * It is plain C11 and may also be included from C++ (the runtime's unit tests do).
 */
#ifndef SAMPLER_ABI_H
#define SAMPLER_ABI_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define SAMPLER_ABI_VERSION_NUMBER 9
#define SAMPLER_ABI_VERSION ((uint32_t)SAMPLER_ABI_VERSION_NUMBER)

/* Bit 0 of __sampler_unit.flags: the unit's counters are countdown driven (sampled);
 * 0 means every execution of every site was observed (unconditional build). */
#define SAMPLER_UNIT_SAMPLED 1u

/* Bit 1: the counters hold 2 * num_counters cells, and cell i's count is the sum of
 * cells i and num_counters + i. An unconditional build's functions run one of two
 * copies, chosen on entry by glibc's __libc_single_threaded: the copy entered while
 * the process had one thread adds to the first half without a lock, the other to the
 * second half with one (docs/internals.md, "Counters"). Not written in reports. */
#define SAMPLER_UNIT_HALVES 2u

/* Bit 2: the unit's code counts down __sampler_countdown_process, one countdown for
 * the whole process, not the thread's (built with -fsampler-single-threaded: programs
 * that run one thread; docs/sampling.md, "One countdown for the process"). Not written
 * in reports; the runtime warns at exit when such a unit is loaded in a process where
 * more than one thread drew. */
#define SAMPLER_UNIT_PROCESS_COUNTDOWN 4u

/* Per-thread countdown: c >= 0 means the next c trials fail and the one after them
 * is sampled (every site execution is one trial); c < 0 means the countdown's
 * success has passed without a site owning it (a region of the fast/instrumented
 * pair pays for all its trials at its check, docs/sampling.md), or that the thread
 * has not drawn yet: the next site execution is a fresh trial. initial-exec TLS.
 * Initial value -1 in every thread, so that the first site a thread reaches calls
 * the runtime (__sampler_fire()), which seeds that thread. */
extern __thread int64_t __sampler_countdown __attribute__((tls_model("initial-exec")));

/* The same, one for the process (SAMPLER_UNIT_PROCESS_COUNTDOWN): a plain global that
 * units built with -fsampler-single-threaded count down instead, reached by an
 * instruction-pointer-relative operand, without the thread pointer. Initial value -1.
 * Threads that share it race on its updates: no crash (every value it can hold is
 * one the runtime handed out), but their trials are no longer independent. */
extern int64_t __sampler_countdown_process;

/* Called by instrumented code at a site execution that may be sampled.
 * unknown == 0: the countdown says this execution is the sampled one.
 * unknown > 0:  the countdown's success has passed unowned; this execution is a
 *               fresh trial (the runtime draws g: sampled iff g == 1).
 * Returns r != 0:
 *   r > 0: this site execution IS sampled; the next sample is r executions later
 *          (the caller's countdown becomes r - 1 failures, in its own terms).
 *   r < 0: this site execution is NOT sampled; the next sample is -r executions later
 *          (only when unknown > 0, or when sampling is switched off: a huge -r).
 * The runtime does not store into __sampler_countdown itself: the caller stores |r|
 * (relative to its own bookkeeping). Nor does it read it: instrumented loops may
 * carry the countdown in a register across this call and store it on their exits
 * (lib/LoopCountdownPromotion.cpp relies on both). */
int64_t __sampler_next_countdown(int64_t unknown);

/* unknown == SAMPLER_FRESH_COUNTDOWN (ABI 3): not a site execution but a check that
 * found the countdown unknown (< 0) and asks for a fresh one: the number of trials
 * that fail before the next success (>= 0; a huge value when sampling is off; at
 * d = 1, SAMPLER_EVERY_COUNTDOWN below). */
#define SAMPLER_FRESH_COUNTDOWN INT64_MIN

/* The answer to SAMPLER_FRESH_COUNTDOWN at d = 1, where every trial succeeds: a countdown
 * so far below zero that the checks' payments never bring it above
 * SAMPLER_EVERY_BELOW. Instrumented code that finds the countdown below
 * SAMPLER_EVERY_BELOW samples every site execution without calling the runtime, and its
 * checks ask for no fresh countdown (code built before this answer existed asks, and is
 * answered at every site as before: the countdown below zero says "unknown" to it). */
#define SAMPLER_EVERY_BELOW (-((int64_t)1 << 62))
#define SAMPLER_EVERY_COUNTDOWN (SAMPLER_EVERY_BELOW - ((int64_t)1 << 61))

/* A site execution that may be sampled (ABI 4), unknown as for __sampler_next_countdown
 * (>= 0, never SAMPLER_FRESH_COUNTDOWN): the same draw r, answered in one word,
 *   2 |r| + (r > 0 ? 1 : 0)   (as an unsigned 64-bit value: |r| may be 2^62),
 * whether this execution is sampled in bit 0 and the distance to the next sample in the
 * others, so that the caller's new countdown is a shift and an add, where r took a
 * negation, a select and an add. Like that function, it neither reads nor stores
 * __sampler_countdown. */
int64_t __sampler_fire(int64_t unknown);

#if defined(__x86_64__)
/* The same, for instrumented code on x86-64: it preserves every general-purpose
 * register but r11 (LLVM's preserve_most calling convention; not callable from
 * C), so the rare call does not cost callee-saved register spills on the fast
 * path of the function that contains it. */
int64_t __sampler_next_countdown_preserve_most(int64_t unknown);
/* __sampler_fire under the same convention. */
int64_t __sampler_fire_preserve_most(int64_t unknown);
/* What x86-64 instrumented code called in ABI 5 (checks still do): the same two
 * draws without an argument register, so that a function need not move what it
 * keeps in rdi into a callee-saved register for the rare call (lib/EntryTwin.h).
 * A check's fresh countdown:
 * __sampler_next_countdown_preserve_most(SAMPLER_FRESH_COUNTDOWN). */
int64_t __sampler_fresh_countdown_preserve_most(void);
/* A site's draw as ABI 5 called it (sites call __sampler_fire_rax_all since ABI 7,
 * __sampler_fire_rax in ABI 6): __sampler_fire_preserve_most(u), u stored by the
 * caller in the calling thread's __sampler_fire_unknown first. */
int64_t __sampler_fire_tls_preserve_most(void);
extern __thread int64_t __sampler_fire_unknown __attribute__((tls_model("initial-exec")));
/* What x86-64 instrumented code calls for a site's draw since ABI 7, from inline
 * assembly (not callable from C): __sampler_fire_preserve_most(u) with -u in rax,
 * answered as |r| in rax and r > 0 in the carry flag, so that the caller computes
 * the argument with one lea from its countdown, its new countdown with one more,
 * and branches on the flag. It keeps every register but rax, r11 and the flags:
 * the general-purpose ones and, since ABI 7, the x87, SSE, AVX and AVX-512 ones
 * (saved around its rare calls into C code), so that the caller's assembly names
 * no vector register among its clobbers. It needs no stack alignment (it aligns
 * its own calls), and uses the stack below the caller's: the calling function
 * must not keep data in a red zone. ABI 6 code called it __sampler_fire_rax (the
 * same entry point; that code counted the vector registers clobbered). */
void __sampler_fire_rax_all(void);
void __sampler_fire_rax(void);
/* What x86-64 instrumented code calls for a check's fresh countdown since ABI 8, from
 * inline assembly (not callable from C): __sampler_fresh_countdown_preserve_most's
 * answer in rax, every other register kept but r11 and the flags (the vector
 * registers too), no stack alignment needed, the stack below the caller's used, as
 * __sampler_fire_rax_all. */
void __sampler_fresh_rax_all(void);
#endif

/* One per compilation unit, emitted by the pass, registered by a constructor. */
struct __sampler_unit {
  uint32_t abi_version;        /* SAMPLER_ABI_VERSION */
  uint32_t flags;              /* bit 0: sampled (countdown driven); 0 = unconditional */
  uint64_t num_counters;
  uint8_t signature[16];       /* MD5, equal to the site table's "unit" line */
  uint64_t *counters;          /* num_counters 64-bit cells (twice that with
                                  SAMPLER_UNIT_HALVES), relaxed atomic adds */
  const char *name;            /* the unit's main source file, for messages */
  struct __sampler_unit *next; /* owned by the runtime */
};                             /* 56 bytes on LP64 */

#if defined(__LP64__)
#ifdef __cplusplus
static_assert(sizeof(struct __sampler_unit) == 56, "ABI: 56 bytes on LP64");
#else
_Static_assert(sizeof(struct __sampler_unit) == 56, "ABI: 56 bytes on LP64");
#endif
#endif

/* From a global constructor. Registering the same unit twice is harmless. */
void __sampler_register_unit(struct __sampler_unit *u);

/* From a global destructor: the runtime keeps a copy of the counters (and of the
 * name) so that a dlclose'd unit still appears in the report written at exit. */
void __sampler_unregister_unit(struct __sampler_unit *u);

/* Not used by instrumented code: write the report now (to SAMPLER_FILE, with the line
 * "end\tunknown", since the run has not ended). It does not count as the run's report:
 * the report at exit or on a fatal signal is still written. For tests and for programs
 * that want a snapshot (e.g. a long-running server). */
void __sampler_write_report(void);

#ifdef __cplusplus
}
#endif

#endif /* SAMPLER_ABI_H */

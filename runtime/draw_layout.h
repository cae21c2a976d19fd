/*===- draw_layout.h - what the assembly draw reads of countdown.c's state -===
 *
 * next_countdown_x86_64.S draws a countdown itself on its fast path (a started thread
 * of the primary copy, the run's table, a countdown the table holds), reading the
 * thread's generator and the table of countdown.c. These are the offsets it uses;
 * countdown.c checks each against its structures at compile time, so a change of
 * layout that is not made here too does not build. Preprocessor definitions only: the
 * assembler includes this file.
 *===----------------------------------------------------------------------===*/
#ifndef SAMPLER_DRAW_LAYOUT_H
#define SAMPLER_DRAW_LAYOUT_H

/* struct thread_state (__sampler_rt_thread_state, thread-local, initial-exec) */
#define SAMPLER_TS_RNG 0     /* struct sampler_rng: uint64_t lo, hi (the generator's state) */
#define SAMPLER_TS_DIRECT 32 /* int: started, and this copy draws itself */
/* int: direct, and the run draws from the table (run_kmax != 0), as the assembly found
 * them: its one test on the way into its own draw (countdown.c says when it is cleared) */
#define SAMPLER_TS_FROM_TABLE 36

/* The generator's step, s <- s * SAMPLER_MCG_MULTIPLIER mod 2^128 (countdown.c says why
 * this generator). Without a suffix: the assembler reads it too. */
#define SAMPLER_MCG_MULTIPLIER 0xda942042e4dd58b5

/* struct geo_table (__sampler_rt_geo_table) */
#define SAMPLER_GT_RUN_KMAX 16 /* uint64_t: bound[1..run_kmax] serve the run; 0: none */
/* uint64_t bound[GEO_TABLE_MAX + 2]: the least generator output x whose countdown is at
 * most k (a multiple of 2^11: m, the top 53 bits, times 2^11), 0 beyond the table */
#define SAMPLER_GT_BOUND 40
#define SAMPLER_GT_GUIDE 262200 /* uint16_t guide[1 << SAMPLER_GUIDE_BITS] */
#define SAMPLER_GUIDE_BITS 12

#endif

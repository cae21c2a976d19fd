/* The runtime's life cycle: start once, report at exit, split cleanly at fork.
 *
 * Started lazily by the first call into the runtime (normally the first unit's
 * registration, from a global constructor), so a program that links the runtime but
 * runs no instrumented code is left alone.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/auxv.h>

#include "sampler_internal.h"

static pthread_once_t once = PTHREAD_ONCE_INIT;

/* Number of fork() calls this process made: with SAMPLER_SEED, the n-th child's seed
 * is derived from the parent's seed and n, so a replay forks the same children with
 * the same seeds. */
static _Atomic uint64_t forks;

/* on_exit rather than atexit: we learn the exit status, for "end\texit\tS". It runs
 * after the handlers the program registers later (main's atexit), which may still run
 * instrumented code, and before the .fini_array destructors of the executable and its
 * shared libraries (run by _dl_fini, registered before any constructor). */
static void at_exit(int status, void *arg) {
  (void)arg;
  /* The status the parent sees is the low 8 bits: exit(256) is a successful run. */
  __sampler_rt_report_final(SAMPLER_END_EXIT, status & 0xff, 0);
}

static void atfork_prepare(void) {
  atomic_fetch_add(&forks, 1);
  __sampler_rt_registry_atfork_prepare();
}

static void atfork_parent(void) { __sampler_rt_registry_atfork_parent(); }

/* The child is a run of its own: its own seed (else it would sample exactly like its
 * parent and its siblings), fresh per-thread state, its own report at its own end,
 * to its own path (%p). Its counters start from the parent's: everything it executed,
 * including before the fork, is part of its run. */
static void atfork_child(void) {
  __sampler_rt_registry_atfork_child();
  if (__sampler_rt_opts.seed_explicit)
    __sampler_rt_opts.seed =
        __sampler_rt_mix64(__sampler_rt_opts.seed ^ __sampler_rt_mix64(atomic_load(&forks)));
  else
    __sampler_rt_opts.seed = __sampler_rt_entropy_seed();
  atomic_store(&forks, 0);
  __sampler_rt_countdown_after_fork_child();
  __sampler_rt_report_after_fork_child();
}

/* A copy of the runtime that forwards to another (copies.c) keeps only its own
 * per-thread countdowns, which restart in a fork child like the primary's. */
static void secondary_atfork_child(void) { __sampler_rt_countdown_after_fork_child(); }

static void init_once(void) {
  if (__sampler_rt_copies_elect()) {
    pthread_atfork(NULL, NULL, secondary_atfork_child);
    return;
  }
  /* setuid/setgid programs: the environment belongs to a less privileged user, who
   * must not choose where a privileged process writes files. Like the sanitizer
   * runtimes, ignore it completely. */
  int secure = getauxval(AT_SECURE) != 0;
  __sampler_rt_options_load(secure);
  /* Settings are for this run, not for the programs it execs (docs/runtime.md). */
  __sampler_rt_options_scrub_environment(secure);
  __sampler_rt_signals_install();
  pthread_atfork(atfork_prepare, atfork_parent, atfork_child);
  on_exit(at_exit, NULL);
}

void __sampler_rt_init(void) {
  pthread_once(&once, init_once);
  __sampler_rt_copies_pin(); /* once, and outside the once-routine: it calls dlopen */
}

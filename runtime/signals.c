/* Reports from runs that die by a signal.
 *
 * Crashes are the runs bug isolation cares most about, and they never reach exit().
 * So for each fatal signal whose disposition is still the default when the runtime
 * starts, we install a handler that writes the report ("end\tsignal\tN"), puts the
 * default disposition back and re-raises: the process then dies exactly as it would
 * have (same status for its parent, same core dump).
 *
 * We never take over a signal the program already handles or ignores. If the program
 * installs its own handler later, it simply replaces ours: its choice wins.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include "sampler_internal.h"

static const int fatal_signals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL,
                                    SIGABRT, SIGTRAP, SIGTERM, SIGINT};

void __sampler_rt_fatal_signal_handler(int sig) {
  int saved = errno;
  __sampler_rt_report_final(SAMPLER_END_SIGNAL, sig, 1);
  struct sigaction dfl;
  dfl.sa_handler = SIG_DFL;
  dfl.sa_flags = 0;
  sigemptyset(&dfl.sa_mask);
  sigaction(sig, &dfl, NULL);
  /* The signal is blocked while we run, so this one stays pending and is delivered,
   * now with the default action, as soon as we return. For a fault (SIGSEGV from a bad
   * access) returning would also re-execute the instruction and fault again; for
   * SIGTRAP from int3, or a kill(), only the re-raise brings the default action. */
  raise(sig);
  errno = saved;
}

/* A stack overflow is a SIGSEGV with no stack left to run the handler on: every
 * thread gets an alternate signal stack, unless it has one already. The thread that
 * starts the runtime gets it then (normally the main thread, from a constructor);
 * every other thread when it first runs sampled instrumented code (its first call
 * of the runtime's draw), since there is no portable per-thread constructor and no
 * interposing pthread_create. A pthread key's destructor unmaps it at thread exit. */
static pthread_key_t altstack_key;
static int altstack_key_ok;
static int handlers_installed; /* written once, by the once-routine */

static size_t altstack_size(size_t *guard) {
  long page = sysconf(_SC_PAGESIZE);
  long min = sysconf(_SC_SIGSTKSZ); /* grows with the CPU's register state (AVX-512) */
  if (page <= 0)
    page = 4096;
  size_t size = 64 * 1024 + (size_t)(min > 0 ? min : 0); /* the report needs ~24 KiB */
  *guard = (size_t)page;
  return (size + (size_t)page - 1) / (size_t)page * (size_t)page;
}

/* At thread exit: switch the stack off, then unmap it. */
static void altstack_free(void *mem) {
  size_t guard, size = altstack_size(&guard);
  stack_t cur;
  if (sigaltstack(NULL, &cur) == 0 && !(cur.ss_flags & SS_DISABLE) &&
      cur.ss_sp == (char *)mem + guard) {
    stack_t off;
    off.ss_sp = NULL;
    off.ss_size = 0;
    off.ss_flags = SS_DISABLE;
    if (sigaltstack(&off, NULL) != 0)
      return; /* running on it (cannot happen in a key destructor): keep it */
  } else if (!(cur.ss_flags & SS_DISABLE)) {
    return; /* the program put another one in place: ours may still be referenced */
  }
  munmap(mem, size + guard);
}

static void install_altstack(void) {
  stack_t old;
  if (sigaltstack(NULL, &old) != 0 || !(old.ss_flags & SS_DISABLE))
    return;
  size_t guard, size = altstack_size(&guard);
  /* One extra page below, PROT_NONE: overflowing the alternate stack then faults
   * instead of silently writing over whatever is mapped below it. */
  char *mem = mmap(NULL, size + guard, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
  if (mem == MAP_FAILED)
    return;
  (void)mprotect(mem, guard, PROT_NONE);
  stack_t st;
  st.ss_sp = mem + guard;
  st.ss_size = size;
  st.ss_flags = 0;
  if (sigaltstack(&st, NULL) != 0) {
    munmap(mem, size + guard);
    return;
  }
  if (altstack_key_ok)
    (void)pthread_setspecific(altstack_key, mem);
}

void __sampler_rt_signals_thread_start(void) {
  if (handlers_installed)
    install_altstack();
}

void __sampler_rt_signals_install(void) {
  int any = 0;
  for (size_t i = 0; i < sizeof fatal_signals / sizeof fatal_signals[0]; ++i) {
    int sig = fatal_signals[i];
    struct sigaction old;
    if (sigaction(sig, NULL, &old) != 0)
      continue;
    if ((old.sa_flags & SA_SIGINFO) || old.sa_handler != SIG_DFL)
      continue; /* the program's (or an ignored signal): not ours to take */
    struct sigaction sa;
    sa.sa_handler = __sampler_rt_fatal_signal_handler;
    sa.sa_flags = SA_ONSTACK;
    /* While the report is being written, a ^C or a kill must not cut it short. */
    sigemptyset(&sa.sa_mask);
    sigaddset(&sa.sa_mask, SIGINT);
    sigaddset(&sa.sa_mask, SIGTERM);
    if (sigaction(sig, &sa, NULL) == 0)
      any = 1;
  }
  if (!any)
    return;
  if (!altstack_key_ok)
    altstack_key_ok = pthread_key_create(&altstack_key, altstack_free) == 0;
  handlers_installed = 1;
  install_altstack();
}

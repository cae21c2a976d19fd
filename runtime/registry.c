/* The registered compilation units.
 *
 * Each instrumented unit registers its counter vector from a global constructor and
 * unregisters it from a global destructor. Two lists, both append-only at the tail
 * and mutated only under `lock`:
 *  - live: the units themselves (linked through their `next` field, which the ABI
 *    gives to the runtime), in registration order;
 *  - retired: malloc'd copies of units that were unregistered before the report was
 *    written, e.g. a shared library that was dlclose'd: its counters would be unmapped
 *    by the time the process exits, but what it observed is still part of the run.
 *
 * The report may be written from a fatal-signal handler, which cannot wait for the
 * lock (the crashing thread may hold it). So every link is published with a release
 * store after the node is complete, and an unlinked live unit keeps its `next`, so a
 * reader walking the lists without the lock always sees well-formed lists.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "sampler_internal.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct __sampler_unit *live_head, *live_tail;
static struct __sampler_unit *retired_head, *retired_tail;

#define PUBLISH(slot, value) __atomic_store_n(&(slot), (value), __ATOMIC_RELEASE)

void __sampler_rt_registry_lock(int from_signal, int *locked) {
  if (from_signal)
    *locked = pthread_mutex_trylock(&lock) == 0;
  else
    *locked = pthread_mutex_lock(&lock) == 0;
}

void __sampler_rt_registry_unlock(int locked) {
  if (locked)
    pthread_mutex_unlock(&lock);
}

struct __sampler_unit *__sampler_rt_registry_live(void) {
  return __atomic_load_n(&live_head, __ATOMIC_ACQUIRE);
}

struct __sampler_unit *__sampler_rt_registry_retired(void) {
  return __atomic_load_n(&retired_head, __ATOMIC_ACQUIRE);
}

int __sampler_rt_registry_any_live(uint32_t flags) {
  for (const struct __sampler_unit *u = __sampler_rt_registry_live(); u;
       u = __atomic_load_n(&u->next, __ATOMIC_ACQUIRE))
    if ((u->flags & flags) == flags)
      return 1;
  return 0;
}

static void complain_unit(const struct __sampler_unit *u, const char *what1, uint64_t number,
                          const char *what2) {
  char buf[512];
  struct sampler_out o;
  __sampler_rt_out_init(&o, -1, buf, sizeof buf);
  __sampler_rt_out_str(&o, "sampler: unit '");
  __sampler_rt_out_quoted(&o, u->name ? u->name : "?", 200);
  __sampler_rt_out_str(&o, "' ");
  __sampler_rt_out_str(&o, what1);
  if (what2) {
    __sampler_rt_out_u64(&o, number);
    __sampler_rt_out_str(&o, what2);
  }
  __sampler_rt_out_to_stderr(&o);
}

SAMPLER_EXPORT void __sampler_register_unit(struct __sampler_unit *u) {
  __sampler_rt_init();
  const struct sampler_rt_anchor *p = __sampler_rt_primary();
  if (p) /* another copy of the runtime reports for the whole process */
    p->register_unit(u);
  else
    __sampler_rt_register(u);
}

void __sampler_rt_register(struct __sampler_unit *u) {
  if (!u)
    return;
  if (u->abi_version != SAMPLER_ABI_VERSION) {
    /* Its layout may differ: reading it could crash, and its counts could not be
     * interpreted. Better no report lines than wrong ones. */
    complain_unit(u, "has runtime ABI version ", u->abi_version,
                  ", this runtime implements " SAMPLER_STR(SAMPLER_ABI_VERSION_NUMBER)
                  "; its counts will not be reported");
    return;
  }
  pthread_mutex_lock(&lock);
  for (struct __sampler_unit *p = live_head; p; p = p->next) {
    if (p == u) { /* registered twice: keep it once */
      pthread_mutex_unlock(&lock);
      return;
    }
  }
  /* Atomic: u may be a unit that was registered and unregistered before, which a
   * report walking the lists without the lock (signal handler) may still stand on. */
  __atomic_store_n(&u->next, NULL, __ATOMIC_RELAXED);
  if (live_tail)
    PUBLISH(live_tail->next, u);
  else
    PUBLISH(live_head, u);
  live_tail = u;
  pthread_mutex_unlock(&lock);
}

uint64_t __sampler_rt_unit_cell(const struct __sampler_unit *u, uint64_t i) {
  if (!u->counters)
    return 0;
  uint64_t v = __atomic_load_n(&u->counters[i], __ATOMIC_RELAXED);
  if (u->flags & SAMPLER_UNIT_HALVES)
    v += __atomic_load_n(&u->counters[u->num_counters + i], __ATOMIC_RELAXED);
  return v;
}

int __sampler_rt_same_unit(const struct __sampler_unit *a, const struct __sampler_unit *b) {
  return a->num_counters == b->num_counters &&
         __sampler_rt_unit_flags(a) == __sampler_rt_unit_flags(b) &&
         memcmp(a->signature, b->signature, sizeof a->signature) == 0;
}

/* Keep u's counts in the retired list. Called with the lock held. */
static void retire(struct __sampler_unit *u) {
  /* The same unit loaded and unloaded again (dlopen/dlclose in a loop): add to the
   * existing snapshot instead of growing the list and the report. */
  for (struct __sampler_unit *r = retired_head; r; r = r->next) {
    if (__sampler_rt_same_unit(r, u)) {
      for (uint64_t i = 0; u->counters && i < u->num_counters; ++i)
        __atomic_fetch_add(&r->counters[i], __sampler_rt_unit_cell(u, i), __ATOMIC_RELAXED);
      return;
    }
  }
  struct __sampler_unit *r = malloc(sizeof *r);
  uint64_t *cells = calloc(u->num_counters ? u->num_counters : 1, sizeof *cells);
  /* The name lives in the unit's read-only data, which goes away with dlclose. */
  char *name = strdup(u->name ? u->name : "");
  if (!r || !cells || !name) {
    free(r);
    free(cells);
    free(name);
    complain_unit(u, "was unloaded and there is no memory to keep its counts; "
                     "they will be missing from the report",
                  0, NULL);
    return;
  }
  *r = *u;
  for (uint64_t i = 0; u->counters && i < u->num_counters; ++i)
    cells[i] = __sampler_rt_unit_cell(u, i);
  r->counters = cells; /* one half: the snapshot holds the sums */
  r->flags = __sampler_rt_unit_flags(u);
  r->name = name;
  r->next = NULL;
  if (retired_tail)
    PUBLISH(retired_tail->next, r);
  else
    PUBLISH(retired_head, r);
  retired_tail = r;
}

SAMPLER_EXPORT void __sampler_unregister_unit(struct __sampler_unit *u) {
  __sampler_rt_init();
  const struct sampler_rt_anchor *p = __sampler_rt_primary();
  if (p)
    p->unregister_unit(u);
  else
    __sampler_rt_unregister(u);
}

void __sampler_rt_unregister(struct __sampler_unit *u) {
  if (!u)
    return;
  pthread_mutex_lock(&lock);
  struct __sampler_unit *prev = NULL, *p = live_head;
  while (p && p != u) {
    prev = p;
    p = p->next;
  }
  if (p) {
    if (prev)
      PUBLISH(prev->next, u->next);
    else
      PUBLISH(live_head, u->next);
    if (live_tail == u)
      live_tail = prev;
    /* u->next is left as it is: a signal handler may be standing on u. */
    /* Destructors run after the report at exit has been written: then the copy
     * would never be read. */
    if (!__sampler_rt_report_final_done())
      retire(u);
  }
  pthread_mutex_unlock(&lock);
}

/* fork: no thread may hold the lock across fork(), or the child (which has only the
 * forking thread) would find it locked forever. */
void __sampler_rt_registry_atfork_prepare(void) { pthread_mutex_lock(&lock); }
void __sampler_rt_registry_atfork_parent(void) { pthread_mutex_unlock(&lock); }
void __sampler_rt_registry_atfork_child(void) { pthread_mutex_unlock(&lock); }

void __sampler_rt_registry_reset_for_test(void) {
  pthread_mutex_lock(&lock);
  struct __sampler_unit *r = retired_head;
  live_head = live_tail = NULL;
  retired_head = retired_tail = NULL;
  while (r) {
    struct __sampler_unit *next = r->next;
    free(r->counters);
    free((char *)r->name);
    free(r);
    r = next;
  }
  pthread_mutex_unlock(&lock);
}

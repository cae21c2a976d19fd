/* Internal interfaces between the runtime's files, and the hooks its unit tests use.
 * Nothing here is ABI: instrumented code sees only sampler_abi.h. Every symbol here
 * has hidden visibility (see SAMPLER_HIDDEN), so the shared runtime exports only the
 * __sampler_* ABI; the tests link the static archive, where hidden symbols resolve.
 * Every link-level name starts with __sampler_rt_ (a reserved identifier): the static
 * archive goes into arbitrary C programs, which may well have a sampler_init of their
 * own. Types and macros are not link-level names and keep short ones. */
#ifndef SAMPLER_INTERNAL_H
#define SAMPLER_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "sampler_abi.h"

#define SAMPLER_STR_(x) #x
#define SAMPLER_STR(x) SAMPLER_STR_(x)

#ifdef __cplusplus
extern "C" {
#endif

#define SAMPLER_HIDDEN __attribute__((visibility("hidden")))
/* The ABI symbols: exported from the shared runtime (built with -fvisibility=hidden). */
#define SAMPLER_EXPORT __attribute__((visibility("default")))

/* Largest countdown ever returned, and the magnitude returned when sampling is off:
 * 2^62 site executions never come back within a run, and stays far from overflow
 * when instrumented code decrements it. */
#define SAMPLER_MAX_COUNTDOWN ((int64_t)1 << 62)
#define SAMPLER_DEFAULT_SPARSITY 100u
#define SAMPLER_DEFAULT_FILE "sampler.%p.report"
#define SAMPLER_BANK_MAX ((size_t)1 << 20)
#define SAMPLER_PATH_MAX 4096

/* ---- format.c: async-signal-safe text output (no stdio, no malloc) ---- */

/* A fixed buffer that is flushed to fd when full (fd >= 0), or silently truncated
 * (fd < 0, used to build one-line messages). The first write(2) error is kept in err. */
struct sampler_out {
  int fd;
  int err;
  size_t len;
  size_t cap;
  char *buf;
};
SAMPLER_HIDDEN void __sampler_rt_out_init(struct sampler_out *o, int fd, char *buf, size_t cap);
SAMPLER_HIDDEN void __sampler_rt_out_str(struct sampler_out *o, const char *s);
SAMPLER_HIDDEN void __sampler_rt_out_mem(struct sampler_out *o, const char *s, size_t n);
SAMPLER_HIDDEN void __sampler_rt_out_char(struct sampler_out *o, char c);
SAMPLER_HIDDEN void __sampler_rt_out_u64(struct sampler_out *o, uint64_t v);
SAMPLER_HIDDEN void __sampler_rt_out_i64(struct sampler_out *o, int64_t v);
SAMPLER_HIDDEN void __sampler_rt_out_hex64(struct sampler_out *o, uint64_t v); /* 16 digits */
/* The report's field escaping (as in the site table): TAB, newline, backslash become
 * \t \n \\, so that a field can never break the one-record-a-line format. */
SAMPLER_HIDDEN void __sampler_rt_out_escaped(struct sampler_out *o, const char *s);
/* For messages quoting user input: non-printable bytes as \xNN, at most max bytes. */
SAMPLER_HIDDEN void __sampler_rt_out_quoted(struct sampler_out *o, const char *s, size_t max);
SAMPLER_HIDDEN void __sampler_rt_out_flush(struct sampler_out *o);
/* write(2) all of it, retrying on EINTR and short writes; 0 or an errno value. */
SAMPLER_HIDDEN int __sampler_rt_write_all(int fd, const char *p, size_t n);
/* strerror without locale or allocation (strerrordesc_np), or "error N". */
SAMPLER_HIDDEN void __sampler_rt_out_strerror(struct sampler_out *o, int err);
/* Write one finished message line to stderr in a single write(2). */
SAMPLER_HIDDEN void __sampler_rt_out_to_stderr(struct sampler_out *o);

/* ---- options.c: the environment, read once ---- */

enum sampler_mode { SAMPLER_MODE_OFF = 0, SAMPLER_MODE_DRAW = 1, SAMPLER_MODE_BANK = 2 };

struct sampler_options {
  enum sampler_mode mode;
  uint64_t sparsity;       /* d >= 1; kept (and reported) even when mode is OFF */
  int sampling_off;        /* SAMPLER_SPARSITY=off|0 */
  double log1m_density;    /* log1p(-1/d), precomputed for the geometric draw */
  uint64_t seed;           /* the process seed: SAMPLER_SEED or fresh entropy */
  int seed_explicit;       /* seed came from SAMPLER_SEED */
  int verbose;
  int inherit;             /* SAMPLER_INHERIT=1: leave SAMPLER_* to exec'd programs */
  int secure;              /* AT_SECURE: the environment was ignored */
  char file_pattern[SAMPLER_PATH_MAX]; /* validated SAMPLER_FILE */
  char base_dir[SAMPLER_PATH_MAX];     /* cwd at start, for a relative pattern; "" if none */
  uint64_t *bank;          /* SAMPLER_COUNTDOWNS, or NULL */
  size_t bank_len;
};
SAMPLER_HIDDEN extern struct sampler_options __sampler_rt_opts;

/* Parsers: return 1 and store the value if s is valid, else return 0. */
SAMPLER_HIDDEN int __sampler_rt_parse_sparsity(const char *s, uint64_t *d, int *off);
SAMPLER_HIDDEN int __sampler_rt_parse_seed(const char *s, uint64_t *seed);
SAMPLER_HIDDEN int __sampler_rt_parse_bool(const char *s, int *v);
SAMPLER_HIDDEN int __sampler_rt_check_pattern(const char *pattern);
/* Expand %p %h %t %% into out (prefixing base_dir + '/' when the pattern is relative
 * and base_dir is not empty). Returns the length, or -1 if invalid or too long.
 * Async-signal-safe. */
SAMPLER_HIDDEN int __sampler_rt_expand_pattern(const char *pattern, const char *base_dir,
                                               char *out, size_t outsz, uint64_t pid,
                                               const char *host, int64_t time);
/* Read a countdown bank. Returns 1 and a malloc'd array on success; else 0 and a
 * one-phrase reason in why. */
SAMPLER_HIDDEN int __sampler_rt_load_bank(const char *path, uint64_t **vals, size_t *n,
                                          char *why, size_t whysz);
/* (Re)read the environment into __sampler_rt_opts, printing one line per invalid value.
 * secure != 0 (AT_SECURE) ignores the environment. The runtime calls it once from
 * __sampler_rt_init(); tests call it again after setenv() (no other thread may be sampling). */
SAMPLER_HIDDEN void __sampler_rt_options_load(int secure);
/* After options_load, at the runtime's start: unsetenv every SAMPLER_* variable the
 * runtime reads, unless SAMPLER_INHERIT=1 (and not secure), so that programs the run
 * execs do not inherit its settings (its report path, its seed). */
SAMPLER_HIDDEN void __sampler_rt_options_scrub_environment(int secure);
/* Fresh entropy for a seed: getrandom(2), else time ^ pid. */
SAMPLER_HIDDEN uint64_t __sampler_rt_entropy_seed(void);

/* ---- countdown.c: random numbers and the geometric countdowns ---- */

SAMPLER_HIDDEN uint64_t __sampler_rt_splitmix64(uint64_t *state);
SAMPLER_HIDDEN uint64_t __sampler_rt_mix64(uint64_t x);
/* A 128-bit multiplicative congruential generator (countdown.c): the state's low and
 * high words, the low one odd. */
struct sampler_rng { uint64_t lo, hi; };
SAMPLER_HIDDEN void __sampler_rt_rng_seed(struct sampler_rng *r, uint64_t seed);
SAMPLER_HIDDEN uint64_t __sampler_rt_rng_next(struct sampler_rng *r);
/* The uniform in (0,1] built from the top 53 bits of x: ((x >> 11) + 1) * 2^-53. */
SAMPLER_HIDDEN double __sampler_rt_u01(uint64_t x);
/* floor(log(u) / log1m) + 1 clamped to [1, SAMPLER_MAX_COUNTDOWN]; log1m = log1p(-1/d),
 * -inf for d = 1 (which always gives 1). */
SAMPLER_HIDDEN int64_t __sampler_rt_geometric_from_u(double u, double log1m);
SAMPLER_HIDDEN int64_t __sampler_rt_geometric(struct sampler_rng *r, double log1m);
/* The table that lets __sampler_rt_geometric give small countdowns without log(): built
 * for log1m when the options are (re)loaded; the draws are those of the formula. */
SAMPLER_HIDDEN void __sampler_rt_geometric_table_build(double log1m);
/* Grows the table by a chunk (countdown.c says when and why): 1 if it grew, 0 if it is
 * full or another thread is growing it. */
SAMPLER_HIDDEN int __sampler_rt_geometric_table_grow(void);
/* The run's table (options.c, after loading the options): built for d in draw mode, none
 * otherwise; only this one serves __sampler_next_countdown's inlined draws. */
SAMPLER_HIDDEN void __sampler_rt_geometric_table_for_run(enum sampler_mode mode, double log1m);
/* The calling thread's generator (unit tests: the next draws of a thread, replayed). */
SAMPLER_HIDDEN struct sampler_rng *__sampler_rt_thread_rng(void);
/* How many threads have drawn in this process (seeded their generator) so far. */
SAMPLER_HIDDEN uint64_t __sampler_rt_threads_drawn(void);
/* d = 1 answered by the preserve_most entry point itself (countdown.c): the copy's flag
 * and the calling thread's. */
extern SAMPLER_HIDDEN unsigned char __sampler_rt_every_direct;
extern SAMPLER_HIDDEN __thread unsigned char __sampler_rt_every_thread
    __attribute__((tls_model("initial-exec")));
/* The rare cases of the x86-64 entry points' own draw (next_countdown_x86_64.S, after
 * stepping the generator): its output x beyond the table, or a fresh trial sampled
 * (countdown.c). */
SAMPLER_HIDDEN int64_t __sampler_rt_next_large(int64_t unknown, uint64_t x);
SAMPLER_HIDDEN int64_t __sampler_rt_fire_large(int64_t unknown, uint64_t x);
SAMPLER_HIDDEN int64_t __sampler_rt_next_fresh_sampled(int64_t unknown);
SAMPLER_HIDDEN int64_t __sampler_rt_fire_fresh_sampled(int64_t unknown);
/* The vector state __sampler_fire_rax_all saves around its calls into the C code
 * (next_countdown_x86_64.S): the bytes (0 until its first call computes them) and
 * whether with XSAVE (else FXSAVE). Unit tests set them to test the FXSAVE way. */
extern SAMPLER_HIDDEN unsigned int __sampler_rt_vector_area;
extern SAMPLER_HIDDEN unsigned char __sampler_rt_vector_xsave;
/* The seed of thread number serial (0 = the first thread that reached a site). */
SAMPLER_HIDDEN uint64_t __sampler_rt_thread_seed(uint64_t process_seed, uint64_t serial);
/* A fresh gap for the calling thread (seeding it first if needed), in [1, 2^62], or 0
 * when sampling is off: what other copies of the runtime draw through our anchor. */
SAMPLER_HIDDEN int64_t __sampler_rt_fresh_gap(void);
/* After fork, in the child: the next draw on this thread re-seeds it, and the
 * thread serials restart. */
SAMPLER_HIDDEN void __sampler_rt_countdown_after_fork_child(void);

/* ---- registry.c: the registered units ---- */

/* The report walks the live units (registration order), then the snapshots of
 * unregistered ones, under the registry lock. From a signal handler it only tries
 * the lock (the crashing thread may hold it) and walks the lists anyway. */
SAMPLER_HIDDEN void __sampler_rt_registry_lock(int from_signal, int *locked);
SAMPLER_HIDDEN void __sampler_rt_registry_unlock(int locked);
/* What __sampler_register_unit/__sampler_unregister_unit do in the primary copy. */
SAMPLER_HIDDEN void __sampler_rt_register(struct __sampler_unit *u);
/* Cell i of u's counts (the sum of its two halves, SAMPLER_UNIT_HALVES), read
 * relaxed; 0 without counters. */
SAMPLER_HIDDEN uint64_t __sampler_rt_unit_cell(const struct __sampler_unit *u, uint64_t i);
/* Whether a and b are the same unit (loaded twice, or its snapshot): the same
 * signature, number of cells and flags. */
SAMPLER_HIDDEN int __sampler_rt_same_unit(const struct __sampler_unit *a,
                                          const struct __sampler_unit *b);
/* u's flags as reports and comparisons see them: without how its cells are stored, nor
 * which countdown its code uses. */
static inline uint32_t __sampler_rt_unit_flags(const struct __sampler_unit *u) {
  return u->flags & ~(SAMPLER_UNIT_HALVES | SAMPLER_UNIT_PROCESS_COUNTDOWN);
}
SAMPLER_HIDDEN void __sampler_rt_unregister(struct __sampler_unit *u);
SAMPLER_HIDDEN struct __sampler_unit *__sampler_rt_registry_live(void);
SAMPLER_HIDDEN struct __sampler_unit *__sampler_rt_registry_retired(void);
/* Whether a live unit has every bit of flags in its __sampler_unit.flags. */
SAMPLER_HIDDEN int __sampler_rt_registry_any_live(uint32_t flags);
SAMPLER_HIDDEN void __sampler_rt_registry_atfork_prepare(void);
SAMPLER_HIDDEN void __sampler_rt_registry_atfork_parent(void);
SAMPLER_HIDDEN void __sampler_rt_registry_atfork_child(void);
/* Tests: forget every unit (freeing the snapshots). */
SAMPLER_HIDDEN void __sampler_rt_registry_reset_for_test(void);

/* ---- report.c: writing the report ---- */

enum sampler_end { SAMPLER_END_UNKNOWN = 0, SAMPLER_END_EXIT = 1, SAMPLER_END_SIGNAL = 2 };
/* Write a report now (no once-guard). Async-signal-safe. Returns 0 or an errno value
 * (after printing the one-line error). */
SAMPLER_HIDDEN int __sampler_rt_report_write(enum sampler_end end, int value, int from_signal);
/* The run's final report: written at most once per process (per fork child); a
 * second caller waits (bounded) for a first one in another thread to finish. */
SAMPLER_HIDDEN void __sampler_rt_report_final(enum sampler_end end, int value, int from_signal);
/* Whether the run's final report has been written (unregistering then needs no
 * snapshot). */
SAMPLER_HIDDEN int __sampler_rt_report_final_done(void);
SAMPLER_HIDDEN void __sampler_rt_report_after_fork_child(void);

/* ---- signals.c ---- */

/* Install the report-writing handler for each fatal signal whose disposition is
 * SIG_DFL now, and an alternate signal stack for the calling thread if it has none. */
SAMPLER_HIDDEN void __sampler_rt_signals_install(void);
/* A thread's first draw (the primary copy's seed_thread): give the thread an
 * alternate signal stack, freed when it exits, if the runtime handles fatal signals
 * and the thread has none. */
SAMPLER_HIDDEN void __sampler_rt_signals_thread_start(void);
/* The handler itself (exposed so tests can check what is installed). */
SAMPLER_HIDDEN void __sampler_rt_fatal_signal_handler(int sig);

/* ---- copies.c: several copies of the runtime in one process ---- */

/* What one copy of the runtime offers the others (docs/runtime.md, "Shared libraries
 * and several copies of the runtime"). Found through the ELF note .note.sampler-rt of the object the copy is
 * linked into. Versioned separately from the ABI: copies of different builds may meet;
 * fields are only ever appended (size says how many there are). */
#define SAMPLER_RT_ANCHOR_VERSION 1u
struct sampler_rt_anchor {
  uint64_t magic;
  uint32_t version;
  uint32_t size;
  /* The election slot, used in the first anchor in load order: the primary copy. */
  struct sampler_rt_anchor *leader;
  void (*register_unit)(struct __sampler_unit *u);
  void (*unregister_unit)(struct __sampler_unit *u);
  /* A fresh geometric gap for the calling thread, in [1, 2^62]; 0 when sampling is off. */
  int64_t (*fresh_gap)(void);
  void (*write_report)(void);
};
SAMPLER_HIDDEN extern struct sampler_rt_anchor __sampler_rt_anchor;
/* From the once-routine: find the process's primary copy, electing this one if there
 * is none yet. Returns the primary's anchor, or NULL if this copy is the primary. */
SAMPLER_HIDDEN const struct sampler_rt_anchor *__sampler_rt_copies_elect(void);
/* NULL if this copy is the primary (or has not started), else the primary's anchor. */
SAMPLER_HIDDEN const struct sampler_rt_anchor *__sampler_rt_primary(void);
/* Once, after the once-routine: keep the objects holding this copy and the election
 * slot loaded (dlopen RTLD_NOLOAD|RTLD_NODELETE). */
SAMPLER_HIDDEN void __sampler_rt_copies_pin(void);

/* ---- init.c: once per process ---- */

/* Options, signal handlers, the exit hook and the fork hooks, exactly once. Cheap
 * after the first call. */
SAMPLER_HIDDEN void __sampler_rt_init(void);

#ifdef __cplusplus
}
#endif

#endif /* SAMPLER_INTERNAL_H */

/* The countdowns: when is the next site execution sampled?
 *
 * Sampling each site execution independently with probability p = 1/d (a Bernoulli
 * process) is what makes the counts unbiased estimates (Liblit et al., PLDI 2003).
 * Tossing a coin at every site would be too slow, so instead we draw the gap to the
 * next sampled execution, which for a Bernoulli process is geometric:
 * P(g = k) = p (1-p)^(k-1), k >= 1, mean d. Instrumented code only decrements the
 * thread's countdown and calls __sampler_fire() when a site may own the success, and
 * __sampler_next_countdown() when a check needs a fresh countdown (sampler_abi.h).
 *
 * The draw is exact (inversion of the geometric CDF from a 53-bit uniform), not an
 * approximation: a biased or periodic countdown makes sites that run in lock-step with
 * it look always or never sampled, which is precisely the error the statistics cannot
 * see afterwards.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdatomic.h>

#include <stddef.h>
#include <string.h>

#include "draw_layout.h"
#include "sampler_internal.h"

/* Initial value -1 ("no success known"): a thread's first site execution calls us
 * with unknown > 0, and we seed the thread then (there is no portable per-thread
 * constructor). */
SAMPLER_EXPORT __thread int64_t __sampler_countdown __attribute__((tls_model("initial-exec"))) = -1;
/* One for the process (sampler_abi.h): the countdown of units built single-threaded. */
SAMPLER_EXPORT int64_t __sampler_countdown_process = -1;

/* Where a site's call to __sampler_fire_tls_preserve_most finds its argument (ABI 5). */
SAMPLER_EXPORT __thread int64_t __sampler_fire_unknown __attribute__((tls_model("initial-exec")));

/* Per-thread generator state. initial-exec like the countdown: the runtime is linked
 * into the executable or loaded with it, never dlopen'd on its own. */
struct thread_state {
  struct sampler_rng rng;
  uint64_t bank_pos;
  int seeded;  /* rng (and bank_pos) are ready: see seed_thread */
  int started; /* this copy has served this thread once (options, primary known) */
  int direct;  /* started, and this copy draws itself (no forward): the fast path */
  /* Set by next_countdown_x86_64.S when it finds direct and the run's table
   * (run_kmax != 0), so that its own draw tests one word, not two. Cleared where either
   * may stop holding: in a forked child, and in the thread that builds the table again
   * (the run's options are loaded once, before any thread starts; unit tests load them
   * again between draws, from the thread that then draws). */
  int from_table;
  /* Draws beyond the geometric table since this thread last grew it (or tried to). */
  uint32_t beyond_table;
  /* The primary copy of the runtime, when this copy forwards its draws (copies.c). */
  const struct sampler_rt_anchor *forward;
};
/* Hidden, not static: next_countdown_x86_64.S draws from it (draw_layout.h). */
SAMPLER_HIDDEN __thread struct thread_state tls_state __asm__("__sampler_rt_thread_state")
    __attribute__((tls_model("initial-exec")));
_Static_assert(offsetof(struct thread_state, rng) == SAMPLER_TS_RNG, "draw_layout.h");
_Static_assert(offsetof(struct thread_state, direct) == SAMPLER_TS_DIRECT, "draw_layout.h");
_Static_assert(offsetof(struct thread_state, from_table) == SAMPLER_TS_FROM_TABLE,
               "draw_layout.h");

/* Thread serial numbers, in the order threads first reach a site: with SAMPLER_SEED
 * and the same order, every thread gets the same stream again. */
static _Atomic uint64_t thread_serial;

#define GOLDEN 0x9e3779b97f4a7c15ull

uint64_t __sampler_rt_splitmix64(uint64_t *state) {
  return __sampler_rt_mix64(*state += GOLDEN);
}

/* splitmix64's finalizer: a bijection with good avalanche, so nearby inputs (seed,
 * serial 0, 1, 2, ...) give unrelated outputs. */
uint64_t __sampler_rt_mix64(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/* The generator: a multiplicative congruential generator of 128 bits, s <- s * a mod
 * 2^128, whose output is the state's high word (Lehmer's generator, with the 64-bit
 * multiplier of Lemire's lehmer64, which credits L'Ecuyer's tables of 1999). Chosen for
 * its step: one mulq and one imulq, seven instructions in next_countdown_x86_64.S
 * against xoshiro256**'s fifteen, on a path that every draw takes (docs/runtime.md,
 * "The generator, and why it is good enough", argues its quality). With s odd and
 * a = 5 mod 8 its period is 2^126; the draws use the top 53 bits of the state, whose
 * bit j (from the bottom) has period 2^(j - 1) at least 2^74: the weak low bits of a
 * congruential generator are never read. Seeded through splitmix64, the low word made
 * odd. */
#define MCG_MULTIPLIER ((uint64_t)SAMPLER_MCG_MULTIPLIER) /* draw_layout.h */
_Static_assert((MCG_MULTIPLIER & 7) == 5, "a = 5 mod 8: the period is 2^126");

void __sampler_rt_rng_seed(struct sampler_rng *r, uint64_t seed) {
  uint64_t sm = seed;
  r->lo = __sampler_rt_splitmix64(&sm) | 1; /* an even state would halve the period */
  r->hi = __sampler_rt_splitmix64(&sm);
}

uint64_t __sampler_rt_rng_next(struct sampler_rng *r) {
  unsigned __int128 s = ((unsigned __int128)r->hi << 64 | r->lo) * MCG_MULTIPLIER;
  r->lo = (uint64_t)s;
  r->hi = (uint64_t)(s >> 64);
  return r->hi;
}

/* (0,1], never 0: log(0) would be -inf. 53 bits is a double's full precision, so
 * probabilities down to 2^-53 are represented. */
double __sampler_rt_u01(uint64_t x) { return (double)((x >> 11) + 1) * 0x1.0p-53; }

int64_t __sampler_rt_geometric_from_u(double u, double log1m) {
  if (log1m == -INFINITY) /* d = 1: every execution is sampled */
    return 1;
  /* Inversion: P(g > k) = (1-p)^k, so g = floor(log u / log(1-p)) + 1 with u in (0,1].
   * log1p keeps log(1-p) accurate for small p (large d). */
  double g = floor(log(u) / log1m) + 1.0;
  if (!(g < (double)SAMPLER_MAX_COUNTDOWN)) /* also catches NaN */
    return SAMPLER_MAX_COUNTDOWN;
  if (g < 1.0)
    return 1;
  return (int64_t)g;
}

/* The formula without its logarithm, for small results. g(m), the countdown the formula
 * gives for the uniform (m + 1) 2^-53 (m: the top 53 bits of a random number x), does not
 * increase with m, so g(m) <= k exactly when m >= b, the least such m, and so exactly
 * when x >= bound[k] = b 2^11 (m = x >> 11: the table's bounds are kept in x's units, so
 * that a draw compares the generator's output itself, without the shift). With the
 * bounds of k = 1..kmax in a table, a countdown of at most kmax is found by a search of
 * the table instead of log() and a division: the same value as the formula, for the
 * same random number (each bound is checked against the formula itself when the table
 * is built), at a third of the cost. Larger countdowns use the formula.
 *
 * The table starts with the run's options at GEO_TABLE_FIRST entries (about 230,000
 * instructions, at every start in draw mode) and grows by GEO_TABLE_CHUNK entries up to
 * GEO_TABLE_MAX each time a thread has made GEO_GROW_AFTER draws by the formula that a
 * table grown to GEO_TABLE_MAX would have saved (a countdown of at most GEO_TABLE_MAX; at
 * d = 100,000 only 28% of them: the others no chunk would save). A chunk costs 160,000
 * to 220,000 instructions and 20 to 30 us (one new page of bounds); a draw by the
 * formula about 140 instructions and, with the vector state saved around the C code,
 * about 200 ns where a draw from the table takes 10 ns (docs/benchmarks.md, "Kept: the
 * growth rule counts the draws a full table would save"). So 512 such draws cost a
 * chunk's time three to five times over and a third to a half of its instructions: a
 * run that rarely draws beyond the table pays for no chunk, and one that often does
 * (d = 1000: 60% of the draws are above 512) grows it early, the same chunks sooner than
 * when the rule counted 2048 draws of any size (Lua at d = 1000: 6,748 draws by the
 * formula where that rule made 21,405). At d = 100 the first table already
 * holds 99.4% of the draws. Up to 32768 entries: beyond d = 1000 the table's size, not
 * the rule, is what sends draws to the formula (at d = 10,000 a third of them lie
 * beyond 4096, 4% beyond 32768). The bounds of a table that never grows that far are
 * never written (its pages never touched); the guide's 16-bit entries hold k up to
 * 65535. */
#define GEO_TABLE_FIRST 512
#define GEO_TABLE_CHUNK 512
#define GEO_TABLE_MAX 32768
#define GEO_GROW_AFTER 512
/* A guide (Chen and Asau's indexed search): for each of the 4096 slices of the range of
 * m (its top 12 bits), the least k that any m of the slice can have; the search steps
 * up from there, one or two steps on average. */
#define GEO_GUIDE_BITS SAMPLER_GUIDE_BITS
/* Hidden, not static: next_countdown_x86_64.S searches it (draw_layout.h). */
SAMPLER_HIDDEN struct geo_table {
  double log1m;  /* the table is for this log1p(-1/d); 0: no table */
  /* bound[1..kmax] are valid; 0: no table. Stored with release order when the table
   * grows, after its new bounds and guide entries, and loaded with acquire order: a
   * thread that sees a kmax sees the bounds up to it. */
  uint64_t kmax;
  /* kmax when the table is the run's: built by options.c for the run's d in draw mode
   * (__sampler_rt_geometric_table_for_run); 0 otherwise (no table, another mode, or a
   * table a unit test built for some other d). The fast path reads only this. */
  uint64_t run_kmax;
  /* Draw mode at d = 1: every trial succeeds (the fast path answers without a draw). */
  int run_every;
  /* The table will not grow (it stopped short of GEO_TABLE_MAX: m would reach 0, or the
   * formula was not monotone there). */
  int full; /* read and written with relaxed atomics, as threads may test it at once */
  /* Held by the one thread growing the table; another thread (or a signal handler on the
   * same thread) that finds it held goes on with the formula and does not wait. */
  atomic_flag growing;
  /* bound[k]: the least x (a random number, the generator's output) with g(x >> 11) <= k.
   * bound[k] for k beyond the filled ones is 0 (the table built cleared them), one more
   * than GEO_TABLE_MAX included: next_countdown_x86_64.S's search, which does not read
   * kmax, stops at the first 0 above its guide and takes it for a countdown beyond the
   * table. */
  uint64_t bound[GEO_TABLE_MAX + 2];
  uint16_t guide[1u << GEO_GUIDE_BITS];
} geo_table __asm__("__sampler_rt_geo_table");
_Static_assert(offsetof(struct geo_table, run_kmax) == SAMPLER_GT_RUN_KMAX, "draw_layout.h");
_Static_assert(offsetof(struct geo_table, bound) == SAMPLER_GT_BOUND, "draw_layout.h");
_Static_assert(offsetof(struct geo_table, guide) == SAMPLER_GT_GUIDE, "draw_layout.h");
_Static_assert(GEO_TABLE_MAX < 65536, "a guide entry is a k of the table, 16 bits");

/* Both set when a thread of this copy, started (its alternate signal stack in place)
 * and drawing directly (no other copy to forward to), is answered at d = 1 here: the
 * preserve_most entry point (next_countdown_x86_64.S) then gives that thread the d = 1
 * answer itself, without saving seven registers and calling here (at d = 1 every site
 * execution calls it). The global one is cleared whenever a table is built (the run's
 * settings applied again), the thread's one in a forked child. */
SAMPLER_HIDDEN unsigned char __sampler_rt_every_direct;
SAMPLER_HIDDEN __thread unsigned char __sampler_rt_every_thread
    __attribute__((tls_model("initial-exec")));

static int64_t geometric_of(uint64_t m, double log1m) {
  return __sampler_rt_geometric_from_u((double)(m + 1) * 0x1.0p-53, log1m);
}

static uint64_t load_kmax(const uint64_t *kmax) { return __atomic_load_n(kmax, __ATOMIC_ACQUIRE); }

/* The formula's last two answers while a bound is searched: the search asks for g(m - 1)
 * and g(m) as it steps, then its check asks for both again; each is a logarithm and a
 * division, and the check's two were a third of what growing the table cost. */
struct formula_memo {
  uint64_t m[2]; /* above every m (2^53 - 1) while empty */
  int64_t g[2];
  int next;
};

static int64_t geometric_memo(struct formula_memo *c, uint64_t m, double log1m) {
  if (c->m[0] == m)
    return c->g[0];
  if (c->m[1] == m)
    return c->g[1];
  int64_t g = geometric_of(m, log1m);
  c->m[c->next] = m;
  c->g[c->next] = g;
  c->next ^= 1;
  return g;
}

/* bound[k] for k = from..to, each below bound[from - 1]: the last k filled, from - 1 if
 * none (the table then stops there). The search is in m's units (m = x >> 11). */
static uint64_t fill_bounds(uint64_t from, uint64_t to, double log1m) {
  const uint64_t top = ((uint64_t)1 << 53) - 1;
  /* bound[0]: no m has g(m) <= 0 */
  uint64_t prev = from == 1 ? top + 1 : geo_table.bound[from - 1] >> 11;
  struct formula_memo c = {{UINT64_MAX, UINT64_MAX}, {0, 0}, 0};
  uint64_t k;
  for (k = from; k <= to; ++k) {
    /* The least m with g(m) <= k, i.e. with (m + 1) 2^-53 > (1 - p)^k: start from that
     * estimate and step until the formula agrees on both sides of the bound. */
    double est = exp((double)k * log1m) * 0x1.0p53;
    uint64_t m = est >= (double)top ? top : (uint64_t)est;
    if (m >= prev)
      m = prev - 1;
    int steps = 0;
    while (m > 0 && geometric_memo(&c, m - 1, log1m) <= (int64_t)k && ++steps < 64)
      --m;
    while (m < top && geometric_memo(&c, m, log1m) > (int64_t)k && ++steps < 128)
      ++m;
    if (steps >= 64 || geometric_memo(&c, m, log1m) > (int64_t)k ||
        (m > 0 && geometric_memo(&c, m - 1, log1m) <= (int64_t)k) || m >= prev)
      break; /* not where the estimate said (or not monotone): stop the table here */
    /* One store, never torn: next_countdown_x86_64.S may read it before kmax says so.
     * In x's units (m < 2^53: no bit lost). */
    __atomic_store_n(&geo_table.bound[k], m << 11, __ATOMIC_RELAXED);
    prev = m;
  }
  return k - 1;
}

/* guide[i]: the least k with bound[k] <= the largest x of slice i (kmax if none), for
 * the slices below bound[old] (all of them when old is 0), where the table grown from
 * old to kmax entries changes it; the others keep theirs, which threads may be reading. */
static void fill_guide(uint64_t old, uint64_t kmax) {
  /* Slice i is below bound[old] when its last x, (i + 1) 2^(64 - bits) - 1, is (for the
   * last slice 2^64 - 1: the product wraps to 0). */
  uint64_t slices =
      old == 0 ? 1u << GEO_GUIDE_BITS : geo_table.bound[old] >> (64 - GEO_GUIDE_BITS);
  uint64_t kk = kmax;
  for (uint64_t i = 0; i < slices; ++i) { /* x grows, k falls */
    uint64_t last = ((i + 1) << (64 - GEO_GUIDE_BITS)) - 1;
    while (kk > 1 && geo_table.bound[kk - 1] <= last)
      --kk;
    geo_table.guide[i] = (uint16_t)(geo_table.bound[kk] <= last ? kk : kmax);
  }
}

void __sampler_rt_geometric_table_build(double log1m) {
  /* The bounds an earlier table filled, bound[1..kmax], are cleared below. */
  const uint64_t filled = load_kmax(&geo_table.kmax);
  geo_table.log1m = 0;
  __atomic_store_n(&geo_table.kmax, 0, __ATOMIC_RELEASE);
  __atomic_store_n(&geo_table.run_kmax, 0, __ATOMIC_RELEASE);
  geo_table.run_every = 0;
  __atomic_store_n(&geo_table.full, 1, __ATOMIC_RELAXED);
  __atomic_store_n(&__sampler_rt_every_direct, 0, __ATOMIC_RELAXED);
  tls_state.from_table = 0; /* the assembly tests direct and run_kmax again */
  /* No bound of an earlier table beyond the new one's (the assembly's search stops at
   * the first 0). Before any thread draws: the options are loaded once. (The first
   * table finds them 0 already, so that a run does not pay for clearing them.) */
  memset(geo_table.bound + 1, 0, filled * sizeof geo_table.bound[0]);
  /* Nothing to gain for d = 1 (always 1), nor when even g = 1 needs a uniform so close
   * to 1 that the table's bounds crowd the top of the range (d > 2^20: draws are rare). */
  if (!(log1m < 0) || log1m == -INFINITY || log1m > -0x1.0p-20)
    return;
  uint64_t kmax = fill_bounds(1, GEO_TABLE_FIRST, log1m);
  if (kmax == 0)
    return;
  fill_guide(0, kmax);
  __atomic_store_n(&geo_table.full, kmax < GEO_TABLE_FIRST, __ATOMIC_RELAXED);
  geo_table.log1m = log1m;
  __atomic_store_n(&geo_table.kmax, kmax, __ATOMIC_RELEASE);
}

int __sampler_rt_geometric_table_grow(void) {
  if (__atomic_load_n(&geo_table.full, __ATOMIC_RELAXED) ||
      atomic_flag_test_and_set_explicit(&geo_table.growing, memory_order_acquire))
    return 0;
  uint64_t old = load_kmax(&geo_table.kmax), kmax = old;
  if (!__atomic_load_n(&geo_table.full, __ATOMIC_RELAXED) && old != 0) {
    uint64_t to = old + GEO_TABLE_CHUNK < GEO_TABLE_MAX ? old + GEO_TABLE_CHUNK : GEO_TABLE_MAX;
    kmax = fill_bounds(old + 1, to, geo_table.log1m);
    /* The new bounds before the guide entries that lead to them: the assembly's search
     * reads a guide entry, then the bounds from it up, without reading kmax. */
    __atomic_thread_fence(__ATOMIC_RELEASE);
    fill_guide(old, kmax);
    __atomic_store_n(&geo_table.full, kmax < to || kmax == GEO_TABLE_MAX, __ATOMIC_RELAXED);
    __atomic_store_n(&geo_table.kmax, kmax, __ATOMIC_RELEASE);
    if (load_kmax(&geo_table.run_kmax) == old)
      __atomic_store_n(&geo_table.run_kmax, kmax, __ATOMIC_RELEASE);
  }
  atomic_flag_clear_explicit(&geo_table.growing, memory_order_release);
  return kmax > old;
}

/* The countdown the table gives for x (a random number), given bound[kmax] <= x: the
 * least k in [1, kmax] with bound[k] <= x (bound decreases with k), from the least k of
 * x's slice up; it stops at kmax at the latest. */
static inline int64_t table_search(uint64_t x) {
  uint64_t k = geo_table.guide[x >> (64 - GEO_GUIDE_BITS)];
  while (geo_table.bound[k] > x)
    ++k;
  return (int64_t)k;
}

void __sampler_rt_geometric_table_for_run(enum sampler_mode mode, double log1m) {
  __sampler_rt_geometric_table_build(mode == SAMPLER_MODE_DRAW ? log1m : 0.0);
  __atomic_store_n(&geo_table.run_kmax, geo_table.kmax, __ATOMIC_RELEASE);
  geo_table.run_every = mode == SAMPLER_MODE_DRAW && log1m == -INFINITY;
}

int64_t __sampler_rt_geometric(struct sampler_rng *r, double log1m) {
  if (log1m == -INFINITY)
    return 1; /* d = 1: do not even spend a random number */
  uint64_t x = __sampler_rt_rng_next(r);
  uint64_t kmax = load_kmax(&geo_table.kmax);
  if (__builtin_expect(log1m == geo_table.log1m && x >= geo_table.bound[kmax], 1))
    return table_search(x);
  return geometric_of(x >> 11, log1m);
}

uint64_t __sampler_rt_thread_seed(uint64_t process_seed, uint64_t serial) {
  return __sampler_rt_mix64(process_seed ^ __sampler_rt_mix64((serial + 1) * GOLDEN));
}

/* The next countdown from the bank or the geometric law. */
static int64_t draw(struct thread_state *t) {
  if (__sampler_rt_opts.mode == SAMPLER_MODE_BANK) {
    if (t->bank_pos >= __sampler_rt_opts.bank_len) /* options reloaded (tests only) */
      t->bank_pos = 0;
    int64_t g = (int64_t)__sampler_rt_opts.bank[t->bank_pos];
    if (++t->bank_pos == __sampler_rt_opts.bank_len)
      t->bank_pos = 0;
    return g;
  }
  return __sampler_rt_geometric(&t->rng, __sampler_rt_opts.log1m_density);
}

/* A thread's generator, seeded the first time the thread needs a draw; also the
 * moment a thread first runs sampled instrumented code, when it gets its alternate
 * signal stack (signals.c). Only in the primary copy. */
static void seed_thread(struct thread_state *t) {
  uint64_t serial = atomic_fetch_add_explicit(&thread_serial, 1, memory_order_relaxed);
  __sampler_rt_rng_seed(&t->rng, __sampler_rt_thread_seed(__sampler_rt_opts.seed, serial));
  if (__sampler_rt_opts.mode == SAMPLER_MODE_BANK) {
    /* A random starting point, so that threads do not all replay the same gaps. */
    uint64_t x = __sampler_rt_rng_next(&t->rng);
    t->bank_pos = (uint64_t)(((unsigned __int128)x * __sampler_rt_opts.bank_len) >> 64);
  }
  t->seeded = 1;
  __sampler_rt_signals_thread_start();
}

struct sampler_rng *__sampler_rt_thread_rng(void) { return &tls_state.rng; }

uint64_t __sampler_rt_threads_drawn(void) {
  return atomic_load_explicit(&thread_serial, memory_order_relaxed);
}

int64_t __sampler_rt_fresh_gap(void) {
  struct thread_state *t = &tls_state;
  if (__sampler_rt_opts.mode == SAMPLER_MODE_OFF)
    return 0;
  if (!t->seeded)
    seed_thread(t);
  return draw(t);
}

/* A thread's first call: settings, and whether another copy of the runtime is the
 * primary (its settings and its per-thread random stream, shared by all copies'
 * countdowns in this thread, are then used). */
__attribute__((noinline, cold)) static void start_thread(struct thread_state *t) {
  __sampler_rt_init();
  const struct sampler_rt_anchor *p = __sampler_rt_primary();
  if (p)
    t->forward = p;
  else if (__sampler_rt_opts.mode != SAMPLER_MODE_OFF && !t->seeded)
    seed_thread(t);
  t->started = 1;
  t->direct = t->forward == NULL;
}

/* A fresh gap, or 0 when sampling is off. */
static inline int64_t gap(struct thread_state *t) {
  if (__builtin_expect(t->forward != NULL, 0)) {
    int64_t g = t->forward->fresh_gap();
    return g > 0 ? g : 0;
  }
  if (__builtin_expect(__sampler_rt_opts.mode == SAMPLER_MODE_OFF, 0))
    return 0;
  return draw(t);
}

/* What the caller is told, given a fresh gap g (0: sampling off). */
static inline int64_t answer(struct thread_state *t, int64_t unknown, int64_t g) {
  if (unknown == SAMPLER_FRESH_COUNTDOWN) /* a check: the failures before a success */
    return g == 0 ? SAMPLER_MAX_COUNTDOWN : g - 1;
  if (g == 0)
    return -SAMPLER_MAX_COUNTDOWN; /* off: never again */
  if (unknown == 0)
    return g; /* this execution is sampled; the next one g later */
  /* This execution is a fresh trial, the first of a gap g: sampled iff g == 1. */
  if (g == 1) {
    int64_t next = gap(t);
    return next > 0 ? next : SAMPLER_MAX_COUNTDOWN;
  }
  return -(g - 1);
}

/* Everything but the fast path below: a thread's first call, a copy that forwards its
 * draws, sampling off, a bank of countdowns, d = 1, no table (d > 2^20). */
__attribute__((noinline)) static int64_t next_countdown_general(int64_t unknown) {
  struct thread_state *t = &tls_state;
  if (__builtin_expect(!t->started, 0))
    start_thread(t);
  int64_t r = answer(t, unknown, gap(t));
  /* d = 1: a check is told that every trial succeeds (sampler_abi.h). Here, not in
   * answer(): the fast path below inlines that, and would no longer be a leaf. */
  if (unknown == SAMPLER_FRESH_COUNTDOWN && r == 0 && geo_table.run_every)
    return SAMPLER_EVERY_COUNTDOWN;
  return r;
}

/* The fast path's draw when the table does not hold it (a countdown above its kmax);
 * every GEO_GROW_AFTER of them that a table at its cap would hold, the table grows if it
 * can (the rule above). Hidden, not static:
 * next_countdown_x86_64.S's own draw calls it too, with the x it drew. */
__attribute__((noinline)) SAMPLER_HIDDEN int64_t __sampler_rt_next_large(int64_t unknown,
                                                                        uint64_t x) {
  struct thread_state *t = &tls_state;
  const int64_t g = geometric_of(x >> 11, geo_table.log1m);
  /* Only the draws a table grown to its cap would have saved count: at d = 100,000 the
   * others are 72% of them, and no chunk would save them. */
  if (g <= GEO_TABLE_MAX && __builtin_expect(++t->beyond_table >= GEO_GROW_AFTER, 0)) {
    t->beyond_table = 0;
    __sampler_rt_geometric_table_grow();
  }
  return answer(t, unknown, g);
}

/* The fast path is a leaf (its rare cases are tail calls), so that it saves no
 * registers: a started thread of the primary copy, draw mode with the run's table
 * (run_kmax != 0 only then), a countdown the table holds. It gives the same values,
 * from the same random numbers, as next_countdown_general (a unit test replays them),
 * at about half the instructions per call (docs/benchmarks.md). */
SAMPLER_EXPORT int64_t __sampler_next_countdown(int64_t unknown) {
  struct thread_state *t = &tls_state;
  uint64_t kmax = load_kmax(&geo_table.run_kmax);
  if (__builtin_expect(!(t->direct && kmax != 0), 0)) {
    /* d = 1: every gap is 1, so a check is told that every trial succeeds and a site
     * is sampled (a fresh trial too, the next gap 1 again): what the general code
     * answers. */
    if (t->direct && geo_table.run_every) {
      /* Once per thread: without the x86-64 entry point every call comes here, and
       * the shared flag's cache line is not to be written by every thread each time. */
      if (!__sampler_rt_every_thread) {
        __atomic_store_n(&__sampler_rt_every_direct, 1, __ATOMIC_RELAXED);
        __sampler_rt_every_thread = 1;
      }
      return unknown == SAMPLER_FRESH_COUNTDOWN ? SAMPLER_EVERY_COUNTDOWN : 1;
    }
    return next_countdown_general(unknown);
  }
  uint64_t x = __sampler_rt_rng_next(&t->rng);
  if (__builtin_expect(x < geo_table.bound[kmax], 0))
    return __sampler_rt_next_large(unknown, x);
  int64_t g = table_search(x);
  if (unknown == SAMPLER_FRESH_COUNTDOWN)
    return g - 1;
  if (unknown == 0 || g != 1)
    return unknown == 0 ? g : -(g - 1);
  return answer(t, unknown, g); /* a fresh trial sampled: the next gap too */
}

/* A site's answer in one word (sampler_abi.h): |r| times two, plus 1 when this execution
 * is sampled (r > 0); unsigned, since |r| may be 2^62 (sampling off). */
static inline int64_t fired(int64_t r) {
  return (int64_t)(r > 0 ? (uint64_t)r * 2 + 1 : (uint64_t)-r * 2);
}

/* __sampler_fire's rare cases, each __sampler_next_countdown's for the same call and the
 * same random numbers, so that __sampler_fire's fast path below is a leaf as that one is
 * (the replay test in countdown_test.cpp compares the two at every kind of density).
 * The last two are hidden, not static: next_countdown_x86_64.S's own draw calls them
 * too (beyond the table, with the x it drew; a fresh trial sampled, g = 1). */
__attribute__((noinline)) static int64_t fire_general(int64_t unknown) {
  return fired(__sampler_next_countdown(unknown));
}
__attribute__((noinline)) SAMPLER_HIDDEN int64_t __sampler_rt_fire_large(int64_t unknown,
                                                                        uint64_t x) {
  return fired(__sampler_rt_next_large(unknown, x));
}
__attribute__((noinline)) SAMPLER_HIDDEN int64_t __sampler_rt_fire_fresh_sampled(int64_t unknown) {
  return fired(answer(&tls_state, unknown, 1));
}

/* A site that may own a success (unknown >= 0): the draw __sampler_next_countdown(unknown)
 * makes, answered in one word. Its fast path is that function's, for a site's call
 * (never a check's ask), with the answer's arithmetic folded into each way out. */
SAMPLER_EXPORT int64_t __sampler_fire(int64_t unknown) {
  struct thread_state *t = &tls_state;
  uint64_t kmax = load_kmax(&geo_table.run_kmax);
  if (__builtin_expect(!(t->direct && kmax != 0), 0))
    return fire_general(unknown);
  uint64_t x = __sampler_rt_rng_next(&t->rng);
  if (__builtin_expect(x < geo_table.bound[kmax], 0))
    return __sampler_rt_fire_large(unknown, x);
  int64_t g = table_search(x);
  if (unknown == 0)
    return g * 2 + 1; /* fired(g), g >= 1 */
  if (g != 1)
    return (g - 1) * 2; /* fired(-(g - 1)), g > 1 */
  return __sampler_rt_fire_fresh_sampled(unknown); /* g = 1 */
}

/* What next_countdown_x86_64.S calls: a hidden alias, so the preserve_most
 * entry point reaches this copy of the runtime directly, without the PLT. */
extern int64_t __sampler_next_countdown_impl(int64_t unknown)
    __attribute__((alias("__sampler_next_countdown"), visibility("hidden")));
extern int64_t __sampler_fire_impl(int64_t unknown)
    __attribute__((alias("__sampler_fire"), visibility("hidden")));

/* A fresh trial sampled (g = 1) in next_countdown_x86_64.S's own draw for a check's
 * or a site's __sampler_next_countdown: its answer draws the next gap too. */
SAMPLER_HIDDEN int64_t __sampler_rt_next_fresh_sampled(int64_t unknown) {
  return answer(&tls_state, unknown, 1);
}

/* Runs in the child, in the thread that called fork(), which is the child's only
 * thread. The child's process seed has just been replaced (init.c); re-seed on the
 * next site and start a fresh gap, rather than finishing the parent's one: otherwise
 * parent and child would sample the same next execution. */
void __sampler_rt_countdown_after_fork_child(void) {
  tls_state.seeded = 0;
  tls_state.started = 0;
  tls_state.direct = 0;
  tls_state.from_table = 0;
  __sampler_rt_every_thread = 0;
  __sampler_countdown = -1;
  __sampler_countdown_process = -1;
  atomic_store_explicit(&thread_serial, 0, memory_order_relaxed);
  /* A thread of the parent that was growing the table is not in the child: what it had
   * written beyond the published kmax is not read, and the child may grow it again. */
  atomic_flag_clear_explicit(&geo_table.growing, memory_order_relaxed);
  tls_state.beyond_table = 0;
}

/* The runtime's settings, from the environment, read once per process.
 *
 * Every variable is validated strictly: a typo must not silently change what a run
 * measures. An invalid value costs one line on stderr (naming the variable and the
 * value) and the default is used: the program itself always runs on, since a
 * deployed program must never fail because of its instrumentation. An empty value is
 * the same as an unset variable. See docs/runtime.md for the user-facing description.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "sampler_internal.h"

struct sampler_options __sampler_rt_opts = {
    .mode = SAMPLER_MODE_DRAW,
    .sparsity = SAMPLER_DEFAULT_SPARSITY,
    .file_pattern = SAMPLER_DEFAULT_FILE,
};

/* ---- parsers (pure, so the tests can check them one by one) ---- */

/* Decimal digits only, no sign, no blanks, no overflow. */
static int parse_decimal(const char *s, uint64_t *out) {
  uint64_t v = 0;
  if (*s == '\0')
    return 0;
  for (; *s; ++s) {
    if (*s < '0' || *s > '9')
      return 0;
    unsigned digit = (unsigned)(*s - '0');
    if (v > (UINT64_MAX - digit) / 10)
      return 0;
    v = v * 10 + digit;
  }
  *out = v;
  return 1;
}

int __sampler_rt_parse_sparsity(const char *s, uint64_t *d, int *off) {
  uint64_t v;
  if (strcmp(s, "off") == 0 || (parse_decimal(s, &v) && v == 0)) {
    *off = 1;
    *d = 0;
    return 1;
  }
  /* Beyond 2^62 every countdown would be clamped anyway. */
  if (!parse_decimal(s, &v) || v > (uint64_t)SAMPLER_MAX_COUNTDOWN)
    return 0;
  *off = 0;
  *d = v;
  return 1;
}

int __sampler_rt_parse_seed(const char *s, uint64_t *seed) {
  if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    const char *p = s + 2;
    uint64_t v = 0;
    int n = 0;
    for (; *p; ++p, ++n) {
      unsigned digit;
      if (*p >= '0' && *p <= '9')
        digit = (unsigned)(*p - '0');
      else if (*p >= 'a' && *p <= 'f')
        digit = (unsigned)(*p - 'a' + 10);
      else if (*p >= 'A' && *p <= 'F')
        digit = (unsigned)(*p - 'A' + 10);
      else
        return 0;
      if (v >> 60)
        return 0; /* a 17th significant digit */
      v = v << 4 | digit;
    }
    if (n == 0)
      return 0;
    *seed = v;
    return 1;
  }
  return parse_decimal(s, seed);
}

int __sampler_rt_parse_bool(const char *s, int *v) {
  if (strcmp(s, "0") == 0 || strcmp(s, "1") == 0) {
    *v = s[0] == '1';
    return 1;
  }
  return 0;
}

int __sampler_rt_check_pattern(const char *p) {
  size_t n = strlen(p);
  if (n == 0 || n >= SAMPLER_PATH_MAX)
    return 0;
  for (; *p; ++p) {
    if (*p != '%')
      continue;
    ++p;
    if (*p != 'p' && *p != 'h' && *p != 't' && *p != '%')
      return 0; /* includes a trailing lone '%' */
  }
  return 1;
}

/* Async-signal-safe: only used with a caller's buffer. */
int __sampler_rt_expand_pattern(const char *pattern, const char *base_dir, char *out,
                                size_t outsz, uint64_t pid, const char *host, int64_t time) {
  struct sampler_out o;
  __sampler_rt_out_init(&o, -1, out, outsz);
  if (pattern[0] != '/' && base_dir[0] != '\0') {
    __sampler_rt_out_str(&o, base_dir);
    if (base_dir[strlen(base_dir) - 1] != '/')
      __sampler_rt_out_char(&o, '/');
  }
  for (const char *p = pattern; *p; ++p) {
    if (*p != '%') {
      __sampler_rt_out_char(&o, *p);
      continue;
    }
    switch (*++p) {
    case 'p': __sampler_rt_out_u64(&o, pid); break;
    case 'h': __sampler_rt_out_str(&o, host); break;
    case 't': __sampler_rt_out_i64(&o, time); break;
    case '%': __sampler_rt_out_char(&o, '%'); break;
    default: return -1;
    }
  }
  if (o.len >= outsz) /* no room for the NUL: too long (or truncated) */
    return -1;
  out[o.len] = '\0';
  return (int)o.len;
}

/* ---- the countdown bank ---- */

static int is_blank(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

int __sampler_rt_load_bank(const char *path, uint64_t **vals, size_t *n, char *why, size_t whysz) {
  struct sampler_out w;
  __sampler_rt_out_init(&w, -1, why, whysz - 1);
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    __sampler_rt_out_str(&w, "cannot open it: ");
    __sampler_rt_out_strerror(&w, errno);
    why[w.len] = '\0';
    return 0;
  }
  uint64_t *v = NULL;
  size_t len = 0, cap = 0;
  char tok[24]; /* the start of the current token, to quote it */
  size_t toklen = 0;
  uint64_t tokval = 0;
  int tokbad = 0, ok = 1, eof = 0;
  char buf[4096];
  while (ok && !eof) {
    ssize_t r = read(fd, buf, sizeof buf);
    if (r < 0) {
      if (errno == EINTR)
        continue;
      __sampler_rt_out_str(&w, "cannot read it: ");
      __sampler_rt_out_strerror(&w, errno);
      ok = 0;
      break;
    }
    if (r == 0) {
      eof = 1;
      buf[0] = ' '; /* one blank ends the last token */
      r = 1;
    }
    for (ssize_t i = 0; ok && i < r; ++i) {
      char c = buf[i];
      if (!is_blank(c)) {
        if (toklen < sizeof tok - 1)
          tok[toklen] = c;
        ++toklen;
        if (c >= '0' && c <= '9' && !tokbad) {
          unsigned digit = (unsigned)(c - '0');
          if (tokval > ((uint64_t)SAMPLER_MAX_COUNTDOWN - digit) / 10)
            tokbad = 2; /* too large */
          else
            tokval = tokval * 10 + digit;
        } else if (!tokbad) {
          tokbad = 1;
        }
        continue;
      }
      if (toklen == 0)
        continue;
      /* End of a token. */
      tok[toklen < sizeof tok - 1 ? toklen : sizeof tok - 1] = '\0';
      if (tokbad || tokval == 0) {
        __sampler_rt_out_str(&w, "countdown #");
        __sampler_rt_out_u64(&w, len + 1);
        __sampler_rt_out_str(&w, " '");
        __sampler_rt_out_quoted(&w, tok, sizeof tok - 1);
        __sampler_rt_out_str(&w, tokbad == 2 ? "' is larger than 2^62"
                                             : "' is not a positive integer");
        ok = 0;
        break;
      }
      if (len == SAMPLER_BANK_MAX) {
        __sampler_rt_out_str(&w, "more than 1048576 countdowns");
        ok = 0;
        break;
      }
      if (len == cap) {
        size_t ncap = cap ? cap * 2 : 1024;
        uint64_t *nv = realloc(v, ncap * sizeof *nv);
        if (!nv) {
          __sampler_rt_out_str(&w, "out of memory");
          ok = 0;
          break;
        }
        v = nv;
        cap = ncap;
      }
      v[len++] = tokval;
      toklen = 0;
      tokval = 0;
      tokbad = 0;
    }
  }
  close(fd);
  if (ok && len == 0) {
    __sampler_rt_out_str(&w, "it holds no countdowns");
    ok = 0;
  }
  if (!ok) {
    free(v);
    why[w.len] = '\0';
    return 0;
  }
  *vals = v;
  *n = len;
  why[0] = '\0';
  return 1;
}

/* ---- reading the environment ---- */

uint64_t __sampler_rt_entropy_seed(void) {
  uint64_t s;
  ssize_t r;
  do
    r = getrandom(&s, sizeof s, GRND_NONBLOCK);
  while (r < 0 && errno == EINTR);
  if (r == (ssize_t)sizeof s)
    return s;
  /* No entropy yet (early boot) or no getrandom: the time and the pid, which at least
   * differ between runs and between fork children. */
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return __sampler_rt_mix64((uint64_t)ts.tv_sec ^ ((uint64_t)ts.tv_nsec << 20) ^
                            ((uint64_t)getpid() << 44) ^ (uint64_t)getpid());
}

/* "sampler: VAR='value' <problem>; <fallback>" on stderr, in one write. */
static void complain(const char *var, const char *value, const char *problem,
                     const char *fallback) {
  char buf[1024];
  struct sampler_out o;
  __sampler_rt_out_init(&o, -1, buf, sizeof buf);
  __sampler_rt_out_str(&o, "sampler: ");
  __sampler_rt_out_str(&o, var);
  __sampler_rt_out_str(&o, "='");
  __sampler_rt_out_quoted(&o, value, 256);
  __sampler_rt_out_str(&o, "' ");
  __sampler_rt_out_str(&o, problem);
  __sampler_rt_out_str(&o, "; ");
  __sampler_rt_out_str(&o, fallback);
  __sampler_rt_out_to_stderr(&o);
}

static const char *env(const char *name, int secure) {
  if (secure)
    return NULL;
  const char *v = getenv(name);
  return v && v[0] ? v : NULL; /* empty = unset */
}

void __sampler_rt_options_load(int secure) {
  static struct sampler_options o; /* 8 KiB of paths: not on the stack */
  memset(&o, 0, sizeof o);
  o.sparsity = SAMPLER_DEFAULT_SPARSITY;
  o.secure = secure;
  strcpy(o.file_pattern, SAMPLER_DEFAULT_FILE);
  const char *v;

  if ((v = env("SAMPLER_SPARSITY", secure))) {
    uint64_t d;
    int off;
    if (__sampler_rt_parse_sparsity(v, &d, &off)) {
      o.sampling_off = off;
      if (!off)
        o.sparsity = d;
    } else {
      complain("SAMPLER_SPARSITY", v,
               strspn(v, "0123456789") == strlen(v) /* digits, so only too large */
                   ? "is larger than 4611686018427387904 (2^62)"
                   : "is not an integer >= 1 or 'off'",
               "using 100");
    }
  }
  o.log1m_density = o.sparsity == 1 ? -INFINITY : log1p(-1.0 / (double)o.sparsity);

  if ((v = env("SAMPLER_SEED", secure))) {
    if (__sampler_rt_parse_seed(v, &o.seed))
      o.seed_explicit = 1;
    else
      complain("SAMPLER_SEED", v, "is not a decimal or 0x-hexadecimal 64-bit integer",
               "using a random seed");
  }
  if (!o.seed_explicit)
    o.seed = __sampler_rt_entropy_seed();

  if ((v = env("SAMPLER_FILE", secure))) {
    if (__sampler_rt_check_pattern(v))
      strcpy(o.file_pattern, v);
    else
      complain("SAMPLER_FILE", v,
               strlen(v) >= SAMPLER_PATH_MAX
                   ? "is too long"
                   : "is not a valid path pattern (a % must be followed by p, h, t or %)",
               "using 'sampler.%p.report'");
  }
  /* A relative path is relative to the directory the program started in, not to
   * wherever it has chdir'd by the time it exits. */
  if (o.file_pattern[0] != '/' && !getcwd(o.base_dir, sizeof o.base_dir))
    o.base_dir[0] = '\0';

  if ((v = env("SAMPLER_VERBOSE", secure)) && !__sampler_rt_parse_bool(v, &o.verbose))
    complain("SAMPLER_VERBOSE", v, "is not 0 or 1", "using 0");

  if ((v = env("SAMPLER_INHERIT", secure)) && !__sampler_rt_parse_bool(v, &o.inherit))
    complain("SAMPLER_INHERIT", v, "is not 0 or 1", "using 0");

  if ((v = env("SAMPLER_COUNTDOWNS", secure)) && !o.sampling_off) {
    char why[256];
    if (!__sampler_rt_load_bank(v, &o.bank, &o.bank_len, why, sizeof why)) {
      char problem[300];
      struct sampler_out p;
      __sampler_rt_out_init(&p, -1, problem, sizeof problem - 1);
      __sampler_rt_out_str(&p, "cannot be used: ");
      __sampler_rt_out_str(&p, why);
      problem[p.len] = '\0';
      complain("SAMPLER_COUNTDOWNS", v, problem, "drawing countdowns instead");
    }
  }

  o.mode = o.sampling_off ? SAMPLER_MODE_OFF : o.bank ? SAMPLER_MODE_BANK : SAMPLER_MODE_DRAW;

  uint64_t *old_bank = __sampler_rt_opts.bank;
  __sampler_rt_opts = o;
  free(old_bank);
  __sampler_rt_geometric_table_for_run(o.mode, o.log1m_density);

  if (o.verbose) {
    char buf[SAMPLER_PATH_MAX + 256];
    struct sampler_out m;
    __sampler_rt_out_init(&m, -1, buf, sizeof buf);
    __sampler_rt_out_str(&m, "sampler: sparsity ");
    if (o.sampling_off)
      __sampler_rt_out_str(&m, "off");
    else
      __sampler_rt_out_u64(&m, o.sparsity);
    __sampler_rt_out_str(&m, ", seed 0x");
    __sampler_rt_out_hex64(&m, o.seed);
    if (o.bank) {
      __sampler_rt_out_str(&m, ", bank of ");
      __sampler_rt_out_u64(&m, o.bank_len);
      __sampler_rt_out_str(&m, " countdowns");
    }
    __sampler_rt_out_str(&m, ", report '");
    __sampler_rt_out_str(&m, o.file_pattern);
    __sampler_rt_out_str(&m, "'");
    __sampler_rt_out_to_stderr(&m);
  }
}

/* Every variable the runtime reads. */
static const char *const variables[] = {"SAMPLER_FILE",       "SAMPLER_SPARSITY",
                                        "SAMPLER_SEED",       "SAMPLER_COUNTDOWNS",
                                        "SAMPLER_VERBOSE",    "SAMPLER_INHERIT"};

void __sampler_rt_options_scrub_environment(int secure) {
  /* In a setuid/setgid program they were ignored, and a child it execs after
   * dropping AT_SECURE (a helper started as root) must not get them either. */
  if (!secure && __sampler_rt_opts.inherit)
    return;
  for (size_t i = 0; i < sizeof variables / sizeof variables[0]; ++i)
    (void)unsetenv(variables[i]);
}

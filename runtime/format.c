/* Text output that is safe in a signal handler.
 *
 * The report is also written from fatal-signal handlers, where stdio and malloc may be
 * in an inconsistent state (the crash may have happened inside them). So every number
 * is formatted here by hand into a caller-provided buffer, and the only system call is
 * write(2). The same helpers build the runtime's one-line messages, so that those are
 * also a single write(2) each (lines from several threads do not interleave). */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "sampler_internal.h"

void __sampler_rt_out_init(struct sampler_out *o, int fd, char *buf, size_t cap) {
  o->fd = fd;
  o->err = 0;
  o->len = 0;
  o->cap = cap;
  o->buf = buf;
}

int __sampler_rt_write_all(int fd, const char *p, size_t n) {
  while (n > 0) {
    ssize_t w = write(fd, p, n);
    if (w < 0) {
      if (errno == EINTR)
        continue;
      return errno;
    }
    if (w == 0)
      return EIO; /* should not happen for files; do not spin */
    p += w;
    n -= (size_t)w;
  }
  return 0;
}

void __sampler_rt_out_flush(struct sampler_out *o) {
  if (o->fd >= 0 && o->len > 0 && o->err == 0)
    o->err = __sampler_rt_write_all(o->fd, o->buf, o->len);
  if (o->fd >= 0)
    o->len = 0;
}

void __sampler_rt_out_mem(struct sampler_out *o, const char *s, size_t n) {
  while (n > 0) {
    if (o->len == o->cap) {
      if (o->fd < 0)
        return; /* message buffer: truncate */
      __sampler_rt_out_flush(o);
    }
    size_t room = o->cap - o->len;
    size_t k = n < room ? n : room;
    memcpy(o->buf + o->len, s, k);
    o->len += k;
    s += k;
    n -= k;
  }
}

void __sampler_rt_out_str(struct sampler_out *o, const char *s) {
  __sampler_rt_out_mem(o, s, strlen(s));
}

void __sampler_rt_out_char(struct sampler_out *o, char c) { __sampler_rt_out_mem(o, &c, 1); }

void __sampler_rt_out_u64(struct sampler_out *o, uint64_t v) {
  char tmp[20];
  size_t i = sizeof tmp;
  do {
    tmp[--i] = (char)('0' + v % 10);
    v /= 10;
  } while (v != 0);
  __sampler_rt_out_mem(o, tmp + i, sizeof tmp - i);
}

void __sampler_rt_out_i64(struct sampler_out *o, int64_t v) {
  if (v < 0) {
    __sampler_rt_out_char(o, '-');
    __sampler_rt_out_u64(o, (uint64_t)0 - (uint64_t)v); /* also right for INT64_MIN */
  } else {
    __sampler_rt_out_u64(o, (uint64_t)v);
  }
}

void __sampler_rt_out_hex64(struct sampler_out *o, uint64_t v) {
  static const char digits[] = "0123456789abcdef";
  char tmp[16];
  for (int i = 15; i >= 0; --i) {
    tmp[i] = digits[v & 15];
    v >>= 4;
  }
  __sampler_rt_out_mem(o, tmp, sizeof tmp);
}

void __sampler_rt_out_escaped(struct sampler_out *o, const char *s) {
  const char *run = s;
  for (; *s; ++s) {
    const char *esc = NULL;
    switch (*s) {
    case '\t': esc = "\\t"; break;
    case '\n': esc = "\\n"; break;
    case '\\': esc = "\\\\"; break;
    default: continue;
    }
    __sampler_rt_out_mem(o, run, (size_t)(s - run));
    __sampler_rt_out_str(o, esc);
    run = s + 1;
  }
  __sampler_rt_out_mem(o, run, (size_t)(s - run));
}

void __sampler_rt_out_quoted(struct sampler_out *o, const char *s, size_t max) {
  static const char digits[] = "0123456789abcdef";
  size_t i = 0;
  for (; s[i] && i < max; ++i) {
    unsigned char c = (unsigned char)s[i];
    if (c >= 0x20 && c < 0x7f && c != '\\') {
      __sampler_rt_out_char(o, (char)c);
    } else {
      char e[4] = {'\\', 'x', digits[c >> 4], digits[c & 15]};
      __sampler_rt_out_mem(o, e, 4);
    }
  }
  if (s[i])
    __sampler_rt_out_str(o, "...");
}

void __sampler_rt_out_strerror(struct sampler_out *o, int err) {
  /* strerrordesc_np: the untranslated text from a static table. strerror() may
   * consult the locale and allocate, which is not allowed in a signal handler. */
  const char *d = strerrordesc_np(err);
  if (d) {
    __sampler_rt_out_str(o, d);
  } else {
    __sampler_rt_out_str(o, "error ");
    __sampler_rt_out_i64(o, err);
  }
}

void __sampler_rt_out_to_stderr(struct sampler_out *o) {
  /* A message longer than its buffer was truncated; it must still end the line. */
  if (o->len == o->cap && o->cap > 0)
    o->len--;
  __sampler_rt_out_char(o, '\n');
  int saved = errno;
  (void)__sampler_rt_write_all(2, o->buf, o->len);
  errno = saved;
}

/* Writing the report (docs/report-format.md, version 1).
 *
 * This runs at exit and from fatal-signal handlers, so everything here is
 * async-signal-safe: no stdio, no malloc, no locale; numbers are formatted by
 * format.c into stack buffers and the only calls are system calls (uname, getpid,
 * clock_gettime, readlink, lstat, stat, open, fcntl, write, close, rename, unlink,
 * nanosleep, pthread_sigmask, gettid) and C11 atomics.
 *
 * The file is written to "<path>.tmp.<pid>.<tid>" and renamed over <path>, so a reader
 * never sees a half-written report under the final name (and a run killed while
 * writing leaves no truncated report behind, only the temporary file). Renames are
 * ordered by the commit gate so that a snapshot never replaces the run's report.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h> /* rename(2) only: no stdio streams here */
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "sampler_internal.h"

extern char *program_invocation_name; /* glibc: argv[0] */

static struct __sampler_unit *next_of(const struct __sampler_unit *u) {
  return __atomic_load_n(&((struct __sampler_unit *)u)->next, __ATOMIC_ACQUIRE);
}

/* Does a unit equal to u come in the list from `from` on (not counting u itself)? */
static int has_twin(const struct __sampler_unit *u, const struct __sampler_unit *from) {
  for (const struct __sampler_unit *p = from; p; p = next_of(p))
    if (p != u && __sampler_rt_same_unit(p, u))
      return 1;
  return 0;
}

/* One "unit" and one "counts" line. A unit that is present several times (the same
 * source linked into two shared libraries, or loaded again after its snapshot was
 * taken) is written once, with the counts of all its copies summed: the report names
 * units by signature, and a reader could not tell the copies apart anyway. */
static void write_unit(struct sampler_out *o, const struct __sampler_unit *u,
                       const struct __sampler_unit *more_live,
                       const struct __sampler_unit *retired) {
  static const char hex[] = "0123456789abcdef";
  char sig[32];
  for (int i = 0; i < 16; ++i) {
    sig[2 * i] = hex[u->signature[i] >> 4];
    sig[2 * i + 1] = hex[u->signature[i] & 15];
  }
  __sampler_rt_out_str(o, "unit\t");
  __sampler_rt_out_mem(o, sig, sizeof sig);
  __sampler_rt_out_char(o, '\t');
  __sampler_rt_out_u64(o, u->num_counters);
  __sampler_rt_out_char(o, '\t');
  __sampler_rt_out_u64(o, __sampler_rt_unit_flags(u));
  __sampler_rt_out_char(o, '\t');
  __sampler_rt_out_escaped(o, u->name ? u->name : "");
  __sampler_rt_out_str(o, "\ncounts");
  int twins = has_twin(u, more_live) || has_twin(u, retired);
  char sep = '\t';
  for (uint64_t i = 0; i < u->num_counters; ++i) {
    uint64_t v = __sampler_rt_unit_cell(u, i);
    if (twins) {
      for (const struct __sampler_unit *p = more_live; p; p = next_of(p))
        if (p != u && __sampler_rt_same_unit(p, u))
          v += __sampler_rt_unit_cell(p, i);
      for (const struct __sampler_unit *p = retired; p; p = next_of(p))
        if (p != u && __sampler_rt_same_unit(p, u))
          v += __sampler_rt_unit_cell(p, i);
    }
    if (v == 0)
      continue; /* sparse: only the non-zero cells */
    __sampler_rt_out_char(o, sep);
    sep = ' ';
    __sampler_rt_out_u64(o, i);
    __sampler_rt_out_char(o, ':');
    __sampler_rt_out_u64(o, v);
  }
  __sampler_rt_out_char(o, '\n');
}

static void write_units(struct sampler_out *o, int from_signal) {
  int locked;
  __sampler_rt_registry_lock(from_signal, &locked);
  struct __sampler_unit *live = __sampler_rt_registry_live();
  struct __sampler_unit *retired = __sampler_rt_registry_retired();
  for (struct __sampler_unit *u = live; u; u = next_of(u)) {
    int seen = 0; /* already written as the twin of an earlier live unit? */
    for (struct __sampler_unit *p = live; p != u && !seen; p = next_of(p))
      seen = __sampler_rt_same_unit(p, u);
    if (!seen)
      write_unit(o, u, next_of(u), retired);
  }
  for (struct __sampler_unit *r = retired; r; r = next_of(r)) {
    if (!has_twin(r, live)) /* else merged into the live unit above */
      write_unit(o, r, NULL, next_of(r));
  }
  __sampler_rt_registry_unlock(locked);
}

static void write_body(struct sampler_out *o, enum sampler_end end, int value, uint64_t pid,
                       const char *host, int64_t now, int from_signal) {
  char prog[SAMPLER_PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", prog, sizeof prog - 1);
  const char *program = prog;
  if (n > 0)
    prog[n] = '\0';
  else
    program = program_invocation_name && program_invocation_name[0] ? program_invocation_name
                                                                     : "?";
  __sampler_rt_out_str(o, "sampler-report\t1\nprogram\t");
  __sampler_rt_out_escaped(o, program);
  __sampler_rt_out_str(o, "\npid\t");
  __sampler_rt_out_u64(o, pid);
  __sampler_rt_out_str(o, "\nhost\t");
  __sampler_rt_out_escaped(o, host);
  __sampler_rt_out_str(o, "\ntime\t");
  __sampler_rt_out_i64(o, now);
  switch (end) {
  case SAMPLER_END_EXIT:
    __sampler_rt_out_str(o, "\nend\texit\t");
    __sampler_rt_out_i64(o, value);
    break;
  case SAMPLER_END_SIGNAL:
    __sampler_rt_out_str(o, "\nend\tsignal\t");
    __sampler_rt_out_i64(o, value);
    break;
  default:
    __sampler_rt_out_str(o, "\nend\tunknown");
    break;
  }
  __sampler_rt_out_str(o, "\nsparsity\t");
  if (__sampler_rt_opts.sampling_off)
    __sampler_rt_out_str(o, "off");
  else
    __sampler_rt_out_u64(o, __sampler_rt_opts.sparsity);
  __sampler_rt_out_str(o, "\nseed\t0x");
  __sampler_rt_out_hex64(o, __sampler_rt_opts.seed);
  __sampler_rt_out_char(o, '\n');
  write_units(o, from_signal);
  __sampler_rt_out_str(o, "end-of-report\n");
  __sampler_rt_out_flush(o);
}

static void say(const char *what, const char *path, int err) {
  char buf[SAMPLER_PATH_MAX + 128];
  struct sampler_out m;
  __sampler_rt_out_init(&m, -1, buf, sizeof buf);
  __sampler_rt_out_str(&m, "sampler: ");
  __sampler_rt_out_str(&m, what);
  __sampler_rt_out_str(&m, " '");
  __sampler_rt_out_str(&m, path);
  __sampler_rt_out_char(&m, '\'');
  if (err) {
    __sampler_rt_out_str(&m, ": ");
    __sampler_rt_out_strerror(&m, err);
  }
  __sampler_rt_out_to_stderr(&m);
}

/* Should the report be written into the existing file at path rather than renamed over
 * it? Yes for what is not a regular file: a FIFO, /dev/null, a terminal (renaming would
 * replace the device node or the pipe), and for a symbolic link to anything but a
 * directory (/dev/stderr, or a link the user made on purpose: renaming would replace the
 * link). Never follow a link in a setuid program: there the link may be an attacker's,
 * pointing at a file only the program may write; renaming replaces the link itself.
 * *trunc: the target is a regular file, to be truncated. */
static int write_in_place(const char *path, int *trunc) {
  struct stat lst, st;
  *trunc = 0;
  if (lstat(path, &lst) != 0)
    return 0;
  if (S_ISLNK(lst.st_mode)) {
    if (__sampler_rt_opts.secure || stat(path, &st) != 0 || S_ISDIR(st.st_mode))
      return 0; /* a dangling link is replaced */
    *trunc = S_ISREG(st.st_mode);
    return 1;
  }
  return !S_ISREG(lst.st_mode) && !S_ISDIR(lst.st_mode);
}

/* Not blocking on a FIFO without a reader: that is an error (ENXIO), not a hang. */
static int open_in_place(const char *path, int trunc) {
  int fd = open(path, O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC | (trunc ? O_TRUNC : 0));
  if (fd >= 0) {
    int fl = fcntl(fd, F_GETFL);
    if (fl >= 0)
      (void)fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
  }
  return fd;
}

/* 0: not written; > 0: being written by that thread id; -1: written. One atomic, so a
 * signal arriving between "claim" and "record who" cannot exist. */
static _Atomic int final_state;

/* The commit gate: the last step of writing a report (the rename, or the whole write
 * into an in-place target) happens with it held (0 = free, else the holder's thread
 * id). A snapshot (__sampler_write_report) commits only if no final report has been
 * started by then, so a snapshot written concurrently with the end of the run can never
 * replace the run's report. Several reports can be written at once (each thread has
 * its own temporary file); their commits are ordered here. */
static _Atomic int commit_gate;

/* 1 if the gate was taken (and must be left). A final report waits at most ~2 s for a
 * stuck holder and then goes ahead without it; it never waits for its own thread (a
 * crash, or a signal, in the middle of a commit). */
static int gate_enter(int me, int final) {
  for (int i = 0;; ++i) {
    int expected = 0;
    if (atomic_compare_exchange_strong(&commit_gate, &expected, me))
      return 1;
    if (expected == me || (final && i >= 2000))
      return 0;
    struct timespec ms = {0, 1000000};
    nanosleep(&ms, NULL);
  }
}

static void gate_leave(int taken) {
  if (taken)
    atomic_store(&commit_gate, 0);
}

/* Under the gate: may this report be committed? A snapshot may not once the run's
 * report has been started (or written). */
static int may_commit(enum sampler_end end) {
  return end != SAMPLER_END_UNKNOWN || atomic_load(&final_state) == 0;
}

/* Snapshots being written now, and whether this thread is writing one. The final
 * report lets the others finish (they will not commit, and remove their temporary
 * files) rather than have exit kill them and leave their temporary files behind. */
static _Atomic int snapshots_in_flight;
static __thread int in_snapshot __attribute__((tls_model("initial-exec")));

static int write_report(enum sampler_end end, int value, int from_signal);

int __sampler_rt_report_write(enum sampler_end end, int value, int from_signal) {
  if (end != SAMPLER_END_UNKNOWN)
    return write_report(end, value, from_signal);
  atomic_fetch_add(&snapshots_in_flight, 1);
  in_snapshot = 1;
  /* After the final report has been started, a snapshot would only be dropped. */
  int err = atomic_load(&final_state) != 0 ? 0 : write_report(end, value, from_signal);
  in_snapshot = 0;
  atomic_fetch_sub(&snapshots_in_flight, 1);
  return err;
}

static int write_report(enum sampler_end end, int value, int from_signal) {
  int saved_errno = errno;
  struct utsname un;
  const char *host = uname(&un) == 0 ? un.nodename : "?";
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  uint64_t pid = (uint64_t)getpid();

  char path[SAMPLER_PATH_MAX];
  if (__sampler_rt_expand_pattern(__sampler_rt_opts.file_pattern, __sampler_rt_opts.base_dir,
                                  path, sizeof path, pid, host, (int64_t)ts.tv_sec) < 0) {
    say("cannot write report", __sampler_rt_opts.file_pattern, ENAMETOOLONG);
    errno = saved_errno;
    return ENAMETOOLONG;
  }

  char buf[4096];
  struct sampler_out o;
  int err = 0, trunc, me = gettid(), dropped = 0;
  if (write_in_place(path, &trunc)) {
    /* Nothing to rename: the whole write is the commit. */
    int gate = gate_enter(me, end != SAMPLER_END_UNKNOWN);
    if (!may_commit(end)) {
      gate_leave(gate);
      errno = saved_errno;
      return 0; /* a snapshot after the run's end: the run's report stays */
    }
    int fd = open_in_place(path, trunc);
    if (fd < 0) {
      err = errno;
    } else {
      __sampler_rt_out_init(&o, fd, buf, sizeof buf);
      write_body(&o, end, value, pid, host, (int64_t)ts.tv_sec, from_signal);
      err = o.err;
      close(fd);
    }
    gate_leave(gate);
  } else {
    /* <path>.tmp.<pid>.<tid>: threads writing at once (snapshots, or a snapshot and
     * the exit) each have their own. */
    char tmp[SAMPLER_PATH_MAX + 64];
    struct sampler_out t;
    __sampler_rt_out_init(&t, -1, tmp, sizeof tmp - 1);
    __sampler_rt_out_str(&t, path);
    __sampler_rt_out_str(&t, ".tmp.");
    __sampler_rt_out_u64(&t, pid);
    __sampler_rt_out_char(&t, '.');
    __sampler_rt_out_u64(&t, (uint64_t)me);
    tmp[t.len] = '\0';
    const int flags = O_CREAT | O_EXCL | O_NOFOLLOW | O_WRONLY | O_CLOEXEC;
    int fd = open(tmp, flags, 0600);
    if (fd < 0 && errno == EEXIST) {
      /* Left by an earlier process (thread) with our pid (and tid) that died while
       * writing. O_EXCL and unlink (which removes a symlink itself, not its target)
       * keep this safe. */
      (void)unlink(tmp);
      fd = open(tmp, flags, 0600);
    }
    if (fd < 0) {
      err = errno;
    } else {
      __sampler_rt_out_init(&o, fd, buf, sizeof buf);
      write_body(&o, end, value, pid, host, (int64_t)ts.tv_sec, from_signal);
      err = o.err;
      if (close(fd) != 0 && err == 0 && errno != EINTR)
        err = errno;
      int committed = 0;
      if (err == 0) {
        int gate = gate_enter(me, end != SAMPLER_END_UNKNOWN);
        if (!may_commit(end))
          dropped = 1; /* a snapshot after the run's end: the run's report stays */
        else if (rename(tmp, path) != 0)
          err = errno;
        else
          committed = 1;
        gate_leave(gate);
      }
      if (!committed)
        (void)unlink(tmp);
    }
  }
  if (err)
    say("cannot write report", path, err);
  else if (__sampler_rt_opts.verbose && !dropped)
    say("wrote report", path, 0);
  errno = saved_errno;
  return err;
}

/* Units built with -fsampler-single-threaded share one countdown between threads: if
 * more than one thread drew (in any unit: which countdown each thread used is not
 * recorded), say once, at the end of the run, that their trials may not have been
 * independent. The report is written all the same. */
static void warn_shared_countdown(void) {
  uint64_t threads = __sampler_rt_threads_drawn();
  if (threads < 2 || !__sampler_rt_registry_any_live(SAMPLER_UNIT_PROCESS_COUNTDOWN))
    return;
  char buf[256];
  struct sampler_out o;
  __sampler_rt_out_init(&o, -1, buf, sizeof buf);
  __sampler_rt_out_str(&o, "sampler: ");
  __sampler_rt_out_u64(&o, threads);
  __sampler_rt_out_str(&o, " threads drew samples and code built with "
                           "-fsampler-single-threaded was loaded: if they ran it, they "
                           "shared its one countdown, and this run's samples may not be "
                           "independent");
  __sampler_rt_out_to_stderr(&o);
}

void __sampler_rt_report_final(enum sampler_end end, int value, int from_signal) {
  int me = gettid();
  int expected = 0;
  if (atomic_compare_exchange_strong(&final_state, &expected, me)) {
    /* A ^C or a kill arriving in this thread while we write (at exit) would run the
     * handler here, find the report "being written by this thread" and kill the
     * process with the file half written: hold them until we are done. (In a signal
     * handler they are already blocked by its sa_mask.) */
    sigset_t async, old;
    sigemptyset(&async);
    sigaddset(&async, SIGINT);
    sigaddset(&async, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &async, &old);
    __sampler_rt_report_write(end, value, from_signal);
    warn_shared_countdown();
    atomic_store(&final_state, -1);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    /* Snapshots other threads are writing: wait (at most ~1 s) for them to see that
     * the run has ended and remove their temporary files. Not for our own (a crash
     * in the middle of one). */
    for (int i = 0; i < 1000 && atomic_load(&snapshots_in_flight) > in_snapshot; ++i) {
      struct timespec ms = {0, 1000000};
      nanosleep(&ms, NULL);
    }
    return;
  }
  /* Someone else is writing: exit() in one thread while another crashes, or two
   * threads crashing at once. Dying now would cut their report short, so wait for it,
   * but boundedly (10 s) in case the writer itself is stuck. If the writer is this very
   * thread (the writing crashed, or a signal interrupted it), do not wait for
   * ourselves. */
  for (int i = 0; i < 10000; ++i) {
    int s = atomic_load(&final_state);
    if (s == -1 || s == me)
      return;
    struct timespec ms = {0, 1000000};
    nanosleep(&ms, NULL);
  }
}

int __sampler_rt_report_final_done(void) { return atomic_load(&final_state) == -1; }

void __sampler_rt_report_after_fork_child(void) {
  /* The child is a run of its own and writes its own report at its own end. A gate
   * held by another thread of the parent is not held by anyone here. */
  atomic_store(&final_state, 0);
  atomic_store(&commit_gate, 0);
  atomic_store(&snapshots_in_flight, 0);
}

SAMPLER_EXPORT void __sampler_write_report(void) {
  __sampler_rt_init();
  const struct sampler_rt_anchor *p = __sampler_rt_primary();
  if (p) /* another copy of the runtime writes the process's report */
    p->write_report();
  else
    (void)__sampler_rt_report_write(SAMPLER_END_UNKNOWN, 0, 0);
}

/* Several copies of the runtime in one process.
 *
 * Normally there is one: the static runtime in the program, whose __sampler_*
 * symbols the driver exports so that instrumented shared libraries bind to it (their
 * own libsampler_rt.so then stays dormant). But a process can end up with two active
 * copies: a program linked with the static runtime without that export (by hand, or
 * by another driver) that dlopens an instrumented library, which brings
 * libsampler_rt.so; or a library that has the static runtime linked into it. Each copy
 * would keep its own registry and write its own report at exit, to the same
 * SAMPLER_FILE: the last rename wins and the other copy's counts are lost.
 *
 * So the copies find each other and agree on one primary copy, which reads the
 * settings, owns the registry, the signal handlers and the exit hook, and writes the
 * one report. Every other copy forwards to it: unit registrations, report snapshots,
 * and its countdown draws (one random stream per thread for the whole process, and
 * the primary's settings, which it has removed from the environment by then).
 *
 * Finding each other cannot rely on dynamic symbols (the point is that the program's
 * copy is not exported), so every copy carries an ELF note (.note.sampler-rt, in a
 * PT_NOTE segment of whatever object it is linked into) that holds the link-time
 * offset of its anchor: a small versioned struct with the copy's entry points and an
 * election slot. A starting copy walks the loaded objects (dl_iterate_phdr) in load
 * order, takes the first anchor it finds (the same one for every copy: the program's,
 * or the earliest loaded library with a copy), and compare-and-swaps itself into that
 * anchor's slot: the first copy to start wins; later ones read the winner there. An
 * anchor's object must then stay loaded, so the copies pin the objects they depend on
 * (RTLD_NODELETE); libsampler_rt.so is also linked with -z nodelete.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <stdatomic.h>
#include <string.h>

#include "sampler_internal.h"

#define ANCHOR_MAGIC 0x31742d72706d6173ull /* "samp-rt1" little-endian */
#define NOTE_TYPE 0x53520001u
#define NOTE_NAME "sampler-rt"               /* 11 bytes with the NUL */

static void a_register(struct __sampler_unit *u);
static void a_unregister(struct __sampler_unit *u);
static int64_t a_fresh_gap(void);
static void a_write_report(void);

SAMPLER_HIDDEN struct sampler_rt_anchor __sampler_rt_anchor = {
    .magic = ANCHOR_MAGIC,
    .version = SAMPLER_RT_ANCHOR_VERSION,
    .size = sizeof(struct sampler_rt_anchor),
    .leader = NULL,
    .register_unit = a_register,
    .unregister_unit = a_unregister,
    .fresh_gap = a_fresh_gap,
    .write_report = a_write_report,
};

/* The note: namesz, descsz, type, "sampler-rt\0" padded to 12, then the 8-byte
 * offset from the descriptor to the anchor, resolved by the static linker (no dynamic
 * relocation, so the note can stay in read-only memory). "R" (SHF_GNU_RETAIN) keeps
 * it under --gc-sections. */
__asm__(".pushsection .note.sampler-rt,\"aR\",@note\n"
        "  .balign 4\n"
        "  .long 11\n"
        "  .long 8\n"
        "  .long 0x53520001\n"
        "  .asciz \"sampler-rt\"\n"
        "  .balign 4\n"
        "1:\n"
        "  .quad __sampler_rt_anchor - 1b\n"
        "  .popsection\n");

/* The primary's anchor when this copy forwards to it; NULL when this copy is the
 * primary (or has not started). Written once, in __sampler_rt_init's once-routine. */
static const struct sampler_rt_anchor *_Atomic primary;

/* Objects to pin, found during the election (which runs inside pthread_once and
 * must not call dlopen there: a library constructor holding the loader lock may be
 * waiting for that once-routine). Pinned by __sampler_rt_copies_pin afterwards. */
static char pin_names[2][SAMPLER_PATH_MAX];
static _Atomic int pin_pending;

struct walk {
  struct sampler_rt_anchor *first;
  int have_self;
};

static size_t align_up(size_t n, size_t a) { return (n + a - 1) & ~(a - 1); }

static void keep_name(int i, const char *name) {
  /* The program itself is "" and never unloaded; the vDSO has no file. */
  if (name && name[0] == '/' && strlen(name) < SAMPLER_PATH_MAX)
    strcpy(pin_names[i], name);
}

/* Does [p, p + n) lie in a writable loaded segment of this object? (The anchor does;
 * a note of ours with a bogus offset must not make us read just anywhere.) */
static int in_writable_segment(const struct dl_phdr_info *info, const void *p, size_t n) {
  uintptr_t a = (uintptr_t)p;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
    if (ph->p_type == PT_LOAD && (ph->p_flags & PF_W) && a >= lo && a - lo <= ph->p_memsz &&
        n <= ph->p_memsz - (a - lo))
      return 1;
  }
  return 0;
}

static int visit(struct dl_phdr_info *info, size_t size, void *arg) {
  (void)size;
  struct walk *w = arg;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    if (ph->p_type != PT_NOTE)
      continue;
    const char *p = (const char *)(info->dlpi_addr + ph->p_vaddr);
    const char *end = p + ph->p_memsz;
    size_t al = ph->p_align == 8 ? 8 : 4;
    while (end - p >= 12) {
      uint32_t hdr[3]; /* namesz, descsz, type */
      memcpy(hdr, p, sizeof hdr);
      const char *name = p + 12;
      const char *desc = name + align_up(hdr[0], al);
      const char *next = desc + align_up(hdr[1], al);
      if (next > end || next <= p)
        break;
      if (hdr[2] == NOTE_TYPE && hdr[0] == sizeof NOTE_NAME && hdr[1] == 8 &&
          memcmp(name, NOTE_NAME, sizeof NOTE_NAME) == 0) {
        int64_t off;
        memcpy(&off, desc, sizeof off);
        struct sampler_rt_anchor *a = (struct sampler_rt_anchor *)(desc + off);
        if (in_writable_segment(info, a, sizeof *a) && a->magic == ANCHOR_MAGIC) {
          if (!w->first) {
            w->first = a;
            keep_name(0, info->dlpi_name);
          }
          if (a == &__sampler_rt_anchor) {
            w->have_self = 1;
            keep_name(1, info->dlpi_name);
          }
        }
      }
      p = next;
    }
  }
  return w->first && w->have_self; /* 1 stops the walk */
}

const struct sampler_rt_anchor *__sampler_rt_copies_elect(void) {
  struct walk w = {NULL, 0};
  dl_iterate_phdr(visit, &w);
  /* No note found (a linker that dropped it): this copy cannot be found by others,
   * and finds none; it acts alone. */
  struct sampler_rt_anchor *slot = w.first ? w.first : &__sampler_rt_anchor;
  struct sampler_rt_anchor *self = &__sampler_rt_anchor, *leader = NULL;
  if (!__atomic_compare_exchange_n(&slot->leader, &leader, self, 0, __ATOMIC_ACQ_REL,
                                   __ATOMIC_ACQUIRE) &&
      leader != self) {
    if (leader->magic != ANCHOR_MAGIC || leader->version != SAMPLER_RT_ANCHOR_VERSION ||
        leader->size < sizeof(struct sampler_rt_anchor)) {
      char buf[256];
      struct sampler_out o;
      __sampler_rt_out_init(&o, -1, buf, sizeof buf);
      __sampler_rt_out_str(&o, "sampler: another, incompatible copy of the runtime is "
                               "active in this process; this copy acts alone");
      __sampler_rt_out_to_stderr(&o);
      leader = self;
    }
  } else {
    leader = self;
  }
  atomic_store_explicit(&pin_pending, 1, memory_order_relaxed);
  if (leader == self)
    return NULL;
  atomic_store_explicit(&primary, leader, memory_order_release);
  return leader;
}

const struct sampler_rt_anchor *__sampler_rt_primary(void) {
  return atomic_load_explicit(&primary, memory_order_acquire);
}

void __sampler_rt_copies_pin(void) {
  int expected = 1;
  if (!atomic_load_explicit(&pin_pending, memory_order_relaxed) ||
      !atomic_compare_exchange_strong(&pin_pending, &expected, 0))
    return;
  for (int i = 0; i < 2; ++i)
    if (pin_names[i][0])
      (void)dlopen(pin_names[i], RTLD_LAZY | RTLD_NOLOAD | RTLD_NODELETE);
}

/* The entry points other copies call, through this copy's anchor. They start this
 * copy first (a copy that elected us may get here while our start is still running
 * in another thread: pthread_once waits for it). */
static void a_register(struct __sampler_unit *u) {
  __sampler_rt_init();
  __sampler_rt_register(u);
}

static void a_unregister(struct __sampler_unit *u) {
  __sampler_rt_init();
  __sampler_rt_unregister(u);
}

static int64_t a_fresh_gap(void) {
  __sampler_rt_init();
  return __sampler_rt_fresh_gap();
}

static void a_write_report(void) {
  __sampler_rt_init();
  (void)__sampler_rt_report_write(SAMPLER_END_UNKNOWN, 0, 0);
}

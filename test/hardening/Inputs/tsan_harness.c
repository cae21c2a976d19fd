/* ThreadSanitizer harness for the runtime (tsan.test): everything the runtime does
 * concurrently, at once. Linked with the runtime's sources compiled with
 * -fsanitize=thread (the primary copy); lib.so (tsan_lib.c) brings a second copy,
 * built from the same objects, which forwards to the primary.
 *  - threads created in waves run instrumented code: first events, per-thread
 *    seeding and alternate signal stacks, draws, thread exits (stack freeing);
 *  - the same through the library's copy (forwarded draws);
 *  - threads register and unregister units (snapshots of retired units);
 *  - threads write report snapshots, through both copies;
 *  - a thread forks children that run instrumented code (both copies) and exit,
 *    writing their own reports.
 * Prints "ok" and returns 0; the test requires no TSan report and no runtime
 * message. */
#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sampler_abi.h"

__attribute__((noinline)) static int classify(int v) {
  int r = 0;
  if (v % 3 == 0)
    r += 1;
  if (v > 50)
    r += 2;
  return r;
}

static void *drawer(void *arg) {
  long s = 0;
  for (int i = 0; i < 5000; i++)
    s += classify(i % 101);
  return (void *)(s + (long)arg);
}

static int (*lib_work)(int);
static void (*lib_snapshot)(void);

static void *lib_drawer(void *arg) {
  long s = 0;
  for (int i = 0; i < 5000; i++)
    s += lib_work(i);
  return (void *)(s + (long)arg);
}

static void *churn(void *arg) {
  for (int k = 0; k < 100; k++) {
    uint64_t cells[4] = {0, 0, 0, 0};
    struct __sampler_unit u;
    memset(&u, 0, sizeof u);
    u.abi_version = SAMPLER_ABI_VERSION;
    u.flags = SAMPLER_UNIT_SAMPLED;
    u.num_counters = 4;
    u.signature[0] = 0xee;
    u.signature[1] = (uint8_t)(long)arg;
    u.signature[2] = (uint8_t)(k % 8); /* some come back: snapshots are summed */
    u.counters = cells;
    u.name = "churn.c";
    __sampler_register_unit(&u);
    __atomic_fetch_add(&cells[k % 4], 1, __ATOMIC_RELAXED);
    __sampler_unregister_unit(&u);
  }
  return NULL;
}

static void *writer(void *arg) {
  for (int k = 0; k < 10; k++) {
    if (arg)
      lib_snapshot();
    else
      __sampler_write_report();
  }
  return NULL;
}

static void *forker(void *arg) {
  (void)arg;
  for (int k = 0; k < 3; k++) {
    pid_t p = fork();
    if (p == 0) {
      drawer(NULL);
      lib_drawer(NULL);
      exit(0);
    }
    int st;
    if (waitpid(p, &st, 0) != p || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
      fprintf(stderr, "fork child failed: status %d\n", st);
      exit(3);
    }
  }
  return NULL;
}

int main(int argc, char **argv) {
  if (argc != 2)
    return 2;
  void *h = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (!h) {
    fprintf(stderr, "%s\n", dlerror());
    return 2;
  }
  lib_work = (int (*)(int))dlsym(h, "lib_work");
  lib_snapshot = (void (*)(void))dlsym(h, "lib_snapshot");
  if (!lib_work || !lib_snapshot)
    return 2;
  pthread_t t[16];
  int n = 0;
  for (long i = 0; i < 3; i++)
    pthread_create(&t[n++], NULL, churn, (void *)i);
  for (long i = 0; i < 2; i++)
    pthread_create(&t[n++], NULL, writer, (void *)i);
  pthread_create(&t[n++], NULL, forker, NULL);
  for (int wave = 0; wave < 2; wave++) {
    pthread_t w[6];
    for (long i = 0; i < 3; i++) {
      pthread_create(&w[2 * i], NULL, drawer, (void *)i);
      pthread_create(&w[2 * i + 1], NULL, lib_drawer, (void *)i);
    }
    for (int i = 0; i < 6; i++)
      pthread_join(w[i], NULL);
  }
  for (int i = 0; i < n; i++)
    pthread_join(t[i], NULL);
  puts("ok");
  return 0;
}

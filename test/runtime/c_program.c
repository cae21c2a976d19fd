/* A plain C program that uses the runtime the way instrumented code does: a unit
 * registered from a constructor, two sites driven by the countdown. Linked by the C
 * driver only (no libstdc++), against the static or the shared runtime.
 * Exits with status 3, so the test can check "end\texit\t3". */
#include <stdint.h>
#include <stdio.h>

#include "sampler_abi.h"

static uint64_t counters[4];
static struct __sampler_unit unit = {
    .abi_version = SAMPLER_ABI_VERSION,
    .flags = SAMPLER_UNIT_SAMPLED,
    .num_counters = 4,
    .signature = {0xde, 0xad, 0xbe, 0xef, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11},
    .counters = counters,
    .name = "c_program.c",
};

__attribute__((constructor)) static void reg(void) { __sampler_register_unit(&unit); }
__attribute__((destructor)) static void unreg(void) { __sampler_unregister_unit(&unit); }

/* What a site marker lowered in place does: the countdown counts the failures
 * before the next success (-1 after the decrement: this one; below: unknown). */
static int site(void) {
  int64_t e = --__sampler_countdown;
  if (e >= 0)
    return 0;
  int64_t r = __sampler_next_countdown(-1 - e);
  __sampler_countdown = (r > 0 ? r : -r) - 1;
  return r > 0;
}

int main(int argc, char **argv) {
  (void)argv;
  for (int i = 0; i < 1000; ++i) {
    if (site()) /* branch site: cells 0 (false) and 1 (true) */
      __atomic_fetch_add(&counters[(i % 4 == 0) ? 1 : 0], 1, __ATOMIC_RELAXED);
    if (site()) /* a second site: cell 3 */
      __atomic_fetch_add(&counters[3], 1, __ATOMIC_RELAXED);
  }
  printf("ran with %d argument(s)\n", argc - 1);
  return 3;
}

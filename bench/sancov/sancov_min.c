/* The smallest runtime -fsanitize-coverage=inline-8bit-counters needs (scripts/bench.sh).
 *
 * With inline-8bit-counters, clang gives every edge of the program a byte counter in the
 * section __sancov_cntrs, increments it inline (no call), and makes each module's constructor
 * call __sanitizer_cov_8bit_counters_init(start, end) with the bounds of the linked section.
 * libFuzzer's or a sanitizer's runtime would keep the ranges and read the counters; the
 * benchmark only needs the program to link and run, so this runtime records the ranges and
 * does nothing else (no report is written: the cost measured is that of counting).
 * Built with plain clang-19 -O2, without coverage, and linked into every executable of the
 * sancov configuration by the wrapper compiler scripts/bench.sh generates.
 */
#include <stdint.h>

#define SANCOV_MAX_RANGES 64

struct sancov_range {
  uint8_t *start, *end;
};

/* Not static: a debugger (or a later reader) can find them. */
struct sancov_range sancov_min_ranges[SANCOV_MAX_RANGES];
unsigned sancov_min_nranges;

void __sanitizer_cov_8bit_counters_init(uint8_t *start, uint8_t *end) {
  unsigned i;
  if (start == end)
    return;
  /* Every module of an executable reports the same (whole, linked) section: keep it once. */
  for (i = 0; i < sancov_min_nranges; i++)
    if (sancov_min_ranges[i].start == start)
      return;
  if (sancov_min_nranges < SANCOV_MAX_RANGES) {
    sancov_min_ranges[sancov_min_nranges].start = start;
    sancov_min_ranges[sancov_min_nranges].end = end;
    sancov_min_nranges++;
  }
}

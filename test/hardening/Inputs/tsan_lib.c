/* The instrumented library of tsan.test: its own copy of the runtime. */
#include "sampler_abi.h"

int lib_work(int v) {
  int r = 0;
  if (v % 5 == 0)
    r += 1;
  if (v % 2 == 0)
    r += 3;
  return r;
}

/* A snapshot through this library's copy of the runtime (forwarded to the primary). */
void lib_snapshot(void) { __sampler_write_report(); }

/* feed.c - the runtime's generator as raw 32-bit words, for dieharder (-g 200).
 *
 * Writes, for each output of __sampler_rt_rng_next (seeded with
 * __sampler_rt_rng_seed(&r, 0x5eed)), bits 11..42: the lowest 32 of the 53 bits a
 * draw reads (the state's bits 75..106, the weakest a draw uses); with the argument
 * "top", bits 32..63. Linked against libsampler_rt.a, whose generator functions are
 * hidden but link statically. Run by bench/rng/dieharder.sh. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

struct sampler_rng { uint64_t lo, hi; }; /* runtime/sampler_internal.h */
void __sampler_rt_rng_seed(struct sampler_rng *r, uint64_t seed);
uint64_t __sampler_rt_rng_next(struct sampler_rng *r);

int main(int argc, char **argv) {
  int shift = argc > 1 && strcmp(argv[1], "top") == 0 ? 32 : 11;
  struct sampler_rng r;
  __sampler_rt_rng_seed(&r, 0x5eed);
  uint32_t buf[4096];
  for (;;) {
    for (int i = 0; i < 4096; ++i)
      buf[i] = (uint32_t)(__sampler_rt_rng_next(&r) >> shift);
    if (fwrite(buf, sizeof buf, 1, stdout) != 1)
      return 0; /* dieharder closed the pipe */
  }
}

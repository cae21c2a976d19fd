/* vector-save.c: what saving and restoring the vector state costs on this machine.
 *
 * The runtime's entry points keep every vector register for the code that calls them
 * (the inline assembly names none among its clobbers), so the rare ways into the C code
 * (a thread's first draw, a countdown beyond the table, whose log() may use any vector
 * register) save the state around the call: XSAVE of x87, SSE, AVX and AVX-512 where the
 * system enables them, FXSAVE elsewhere (next_countdown_x86_64.S, CALL_C_ALL). This
 * times each pair alone, after glibc's vector string code has run (as in a program), with
 * the components the runtime saves (0xe7), and XSAVEC, which skips components in their
 * initial state. Run:
 *   clang-19 -O2 bench/vector-save/vector-save.c -o vector-save && ./vector-save
 * docs/benchmarks.md ("The countdown's chain through the segment register", the variants
 * not kept) has this machine's figures. */
#include <stdio.h>
#include <string.h>
#include <time.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

static char area[8192] __attribute__((aligned(64)));

int main(int argc, char **argv) {
  (void)argv;
  char a[4096], b[4096];
  memset(a, argc, sizeof a);
  memcpy(b, a, sizeof a); /* glibc's vector string code, as a program's */
  const long n = 2000000;
  double t = now();
  for (long i = 0; i < n; i++) {
    memset(area + 512, 0, 64); /* XRSTOR faults unless the header's reserved bytes are 0 */
    __asm__ volatile("xsave64 %0\n\txrstor64 %0" : "+m"(area) : "a"(0xe7), "d"(0) : "memory");
  }
  printf("xsave + xrstor    %6.1f ns\n", (now() - t) / n * 1e9);
  t = now();
  for (long i = 0; i < n; i++) {
    memset(area + 512, 0, 64);
    __asm__ volatile("xsavec64 %0\n\txrstor64 %0" : "+m"(area) : "a"(0xe7), "d"(0) : "memory");
  }
  printf("xsavec + xrstor   %6.1f ns\n", (now() - t) / n * 1e9);
  t = now();
  for (long i = 0; i < n; i++)
    __asm__ volatile("fxsave64 %0\n\tfxrstor64 %0" : "+m"(area) : : "memory");
  printf("fxsave + fxrstor  %6.1f ns\n", (now() - t) / n * 1e9);
  return b[7] == (char)argc ? 0 : 1;
}

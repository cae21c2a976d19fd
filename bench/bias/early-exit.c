/* A counted loop that mostly leaves early, and a function called after it: where the
 * first version of the bounded-loop pass (which paid the bound at once, up to 4f8ffc3) was
 * biased. bench/bias/early-exit.sh builds and checks it; docs/benchmarks.md ("Bounded loops
 * were biased; now they are exact") gives the figures. */
#include <stdio.h>
static unsigned state = 12345;
static unsigned rnd(void) { state = state * 1103515245u + 12345u; return (state >> 16) & 0x7fff; }
// A counted loop that usually leaves early: its bound (n back edges) is an upper
// bound of what it takes.
__attribute__((noinline)) int early(const unsigned char *a, int n) {
  for (int i = 0; i < n; i++) {
    if (a[i] == 7)
      return i;
  }
  return -1;
}
__attribute__((noinline)) int after(int r) {
  if (r > 5)      // the first site after the loop's region (in another function)
    return 1;
  return 0;
}
int main(void) {
  unsigned char buf[256];
  long total = 0;
  for (int round = 0; round < 2000000; round++) {
    if ((round & 255) == 0)
      for (int i = 0; i < 256; i++) buf[i] = (unsigned char)(rnd() % 12);
    int r = early(buf + (round & 127), 40);
    total += after(r);
  }
  printf("%ld\n", total);
  return 0;
}

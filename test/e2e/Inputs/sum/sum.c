// A single-threaded program with a loop of branches and calls in a function of
// its own (sum), for tests that look at that function's assembly and compare
// two builds' counts: indirect-tls.test, plain-counters.test.
#include <stdio.h>

__attribute__((noinline)) int weigh(int x) { return x % 7 == 3 ? x / 3 : x + 1; }

__attribute__((noinline)) int sum(const int *a, int n) {
  int s = 0;
  for (int i = 0; i < n; i++)
    if (a[i] > 3)
      s += weigh(a[i]);
  return s;
}

int main(void) {
  int a[100];
  for (int i = 0; i < 100; i++)
    a[i] = (i * 37) % 11;
  long t = 0;
  for (int r = 0; r < 1000; r++)
    t += sum(a, 100 - r % 50);
  printf("%ld\n", t);
  return 0;
}

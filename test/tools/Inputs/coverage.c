// Two functions with sites; the workload calls one of them.
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline, used)) int called(int x) { return x > 3 ? x * 2 : x + 1; }

__attribute__((noinline, used)) int never_called(int x) {
  if (x < 0)
    return -x;
  return x % 7 == 0 ? 1 : 2;
}

int main(int argc, char **argv) {
  long s = 0;
  for (int i = 0; i < 1000; i++)
    s += called(i % 10);
  if (argc > 5)
    s += never_called(argc);
  printf("%ld\n", s);
  return 0;
}

#include <stdio.h>
long mix(const long *a, long n);
int main(void) {
  static long a[1000];
  for (long i = 0; i < 1000; i++) a[i] = (i * 2654435761u) % 1000003;
  printf("%ld\n", mix(a, 1000));
  return 0;
}

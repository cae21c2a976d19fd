#include "shared.h"
#include <stdio.h>
int unit_a(int n);
int main(int argc, char **) {
  int s = 0;
  for (int i = 0; i < 10; i++)
    s += unit_a(i + argc) + scale(i) + pick(i, 5);
  printf("%d\n", s);
  return 0;
}

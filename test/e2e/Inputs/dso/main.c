#include <stdio.h>
int lib_classify(int v);
int main(void) {
  int counts[3] = {0, 0, 0};
  for (int i = 0; i < 30; i++)
    counts[lib_classify(i)]++;
  printf("%d %d %d\n", counts[0], counts[1], counts[2]);
  return 0;
}

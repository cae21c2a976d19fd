/* dl_main LIB.so local|global N [keep]: dlopen LIB.so, call lib_classify(0..N-1),
 * dlclose it (unless keep) and print how many calls returned 0, 1, 2. Built both
 * instrumented and not (dlopen.test). */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  if (argc < 4)
    return 2;
  int global = strcmp(argv[2], "global") == 0;
  long n = atol(argv[3]);
  int keep = argc > 4 && strcmp(argv[4], "keep") == 0;
  void *h = dlopen(argv[1], RTLD_NOW | (global ? RTLD_GLOBAL : RTLD_LOCAL));
  if (!h) {
    fprintf(stderr, "%s\n", dlerror());
    return 1;
  }
  int (*classify)(int) = (int (*)(int))dlsym(h, "lib_classify");
  if (!classify)
    return 1;
  long counts[3] = {0, 0, 0};
  for (long i = 0; i < n; i++)
    counts[classify((int)(i % 30))]++;
  if (!keep && dlclose(h) != 0) {
    fprintf(stderr, "dlclose: %s\n", dlerror());
    return 1;
  }
  printf("%ld %ld %ld\n", counts[0], counts[1], counts[2]);
  return 0;
}

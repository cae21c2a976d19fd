/* An instrumented library that programs load with dlopen (dlopen.test). Both paths
 * cross both sites. */
int lib_classify(int v) {
  int r = 1;
  if (v > 10)
    r = 2;
  if (v % 3 == 0)
    r = 0;
  return r;
}

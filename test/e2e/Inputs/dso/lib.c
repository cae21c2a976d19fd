/* An instrumented shared library: its sites report through the program's
   runtime. */
int lib_classify(int v) {
  if (v % 3 == 0)
    return 0;
  if (v > 10)
    return 2;
  return 1;
}

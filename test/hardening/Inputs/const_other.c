// Another unit's `const` function with sites (test/hardening/const-callees.c
// declares it `const` where it calls it).
__attribute__((const, noinline)) int other_const(unsigned v) {
  int r = 0;
  if (v & 1) r += 3;
  if (v & 4) r += 5;
  return r;
}

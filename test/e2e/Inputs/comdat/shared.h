// Inline functions that both units emit and do not inline (noinline): each
// unit's copy is linkonce_odr in a comdat group, and the linker keeps one.
__attribute__((noinline)) inline int scale(int x) { return x > 3 ? x * 2 : x - 1; }
__attribute__((noinline)) inline int count_odd(int n) {
  int s = 0;
  for (int i = 0; i < n; i++)
    if (i % 2)
      s += i;
  return s;
}
template <typename T> __attribute__((noinline)) T pick(T a, T b) { return a < b ? b : a; }

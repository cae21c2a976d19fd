#include <vector>
#include <string>
#include <stdexcept>
#include <algorithm>
inline int clamp_inline(int v, int lo, int hi) { if (v < lo) return lo; if (v > hi) return hi; return v; }
template <typename T> struct Box { T v; T get() const { return v > T() ? v : T(); } };
int unit_a(int);
int unit_b(int);

#include "common.h"
int unit_a(int n) {
  std::vector<int> v;
  for (int i = 0; i < n; i++) v.push_back(clamp_inline(i * 3 - 10, 0, 20));
  std::sort(v.begin(), v.end(), [](int x, int y) { return x > y; });
  Box<int> b{n};
  int s = b.get();
  for (int x : v) s += x;
  try {
    if (n > 5) throw std::runtime_error("big");
  } catch (const std::exception &e) {
    s += std::string(e.what()).size();
  }
  return s;
}

#include "common.h"
#include <cstdio>
struct Shape { virtual ~Shape() {} virtual int area() const = 0; };
struct Sq : Shape { int s; Sq(int s) : s(s) {} int area() const override { return s * s; } };
int unit_b(int n) { Sq q(n); const Shape &sh = q; return clamp_inline(sh.area(), 0, 50) + Box<double>{1.5}.get(); }
int main(int argc, char **) {
  int t = 0;
  for (int i = 0; i < 10; i++) t += unit_a(i) + unit_b(i);
  std::printf("%d\n", t);
  return argc > 3;
}

#include "shared.h"
int unit_a(int n) { return scale(n) + count_odd(n) + pick(n, 4); }

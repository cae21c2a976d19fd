/* Many values live across the loop, so that the register allocator keeps some in r10. */
long mix(const long *a, long n) {
  long s0 = 1, s1 = 2, s2 = 3, s3 = 4, s4 = 5, s5 = 6, s6 = 7, s7 = 8, s8 = 9, s9 = 10, s10 = 11;
  for (long i = 0; i < n; i++) {
    long x = a[i];
    if (x & 1) s0 += x; else s1 ^= x;
    if (x & 2) s2 += s0; else s3 -= s1;
    if (x & 4) s4 += s2 * 3; else s5 ^= s3;
    if (x & 8) s6 += s4; else s7 -= s5;
    if (x & 16) s8 += s6; else s9 ^= s7;
    s10 += s8 ^ s9;
  }
  return s0 + s1 + s2 + s3 + s4 + s5 + s6 + s7 + s8 + s9 + s10;
}

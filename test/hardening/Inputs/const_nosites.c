// A unit without sites (test/hardening/const-callees.c builds it with
// -fsampler-schemes=branches, and it has no branch) that calls another
// unit's `const` function with sites twice with one argument: both calls stay.
__attribute__((const)) int other_const(unsigned v);

int twice_other(unsigned v) { return other_const(v) + other_const(v); }

/* An object file without a .sampler_sites section. */
int not_instrumented(int x) { return x * 2; }

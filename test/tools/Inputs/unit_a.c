/* A hand-written site table, as the compiler stores it (docs/internals.md §2):
 * a sampled unit with a branches site and a returns site. */
__attribute__((section(".sampler_sites"), used))
static const char sampler_sites_a[] =
    "SAMPLER-SITES 1\n"
    "unit 0123456789abcdef0123456789abcdef 5 1\n"
    "source a.c\n"
    "site 0\t2\tbranches\ta.c\t3\t7\tmain\tx > 0\n"
    "site 2\t3\treturns\ta.c\t4\t3\tmain\tfopen(...)\n"
    "end\n";

int main(void) { return 0; }

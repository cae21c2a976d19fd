/* A unit whose switch site claims 10^11 cells (valid by docs/internals.md §2:
 * the unit has that many counters). */
__attribute__((section(".sampler_sites"), used))
static const char sampler_sites_huge[] =
    "SAMPLER-SITES 1\n"
    "unit 0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f 100000000002 1\n"
    "source h.c\n"
    "site 0\t2\tbranches\th.c\t3\t7\tmain\tx > 0\n"
    "site 2\t100000000000\tbranches\th.c\t5\t3\tmain\tswitch (x)\n"
    "end\n";

int main(void) { return 0; }

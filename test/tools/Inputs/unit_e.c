/* Comparison sites whose predicates need care: a scalar-pairs description
 * with " <=> " inside its left side (split at the last one), one without
 * " <=> " at all, a returns description with an escaped TAB, and a constant
 * on the right. */
__attribute__((section(".sampler_sites"), used))
static const char sampler_sites_e[] =
    "SAMPLER-SITES 1\n"
    "unit 0e0e0e0e0e0e0e0e0e0e0e0e0e0e0e0e 12 0\n"
    "source e.c\n"
    "site 0\t3\tscalar-pairs\te.c\t3\t5\tg\ta[i <=> j] <=> NULL\n"
    "site 3\t3\tscalar-pairs\te.c\t4\t5\tg\todd\n"
    "site 6\t3\treturns\te.c\t5\t5\tg\tread(fd,\\tbuf)\n"
    "site 9\t3\tscalar-pairs\te.c\t6\t5\tg\tn <=> -1\n"
    "end\n";

int g_e(void) { return 0; }

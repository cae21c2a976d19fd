/* A second unit, unconditional. Its table is 32-byte aligned so that the
 * linker pads the section with NULs between the two records. Sites: a switch
 * listing its case values, a switch that does not, a site without a location
 * and with escaped characters, a scheme the tools do not know. */
__attribute__((section(".sampler_sites"), used, aligned(32)))
static const char sampler_sites_b[] =
    "SAMPLER-SITES 1\n"
    "unit fedcba9876543210fedcba9876543210 12 0\n"
    "source lib/b.c\n"
    "site 0\t4\tbranches\tlib/b.c\t10\t5\tdispatch\tswitch (op) cases 1, 7, -2\n"
    "site 4\t3\tbranches\tlib/b.c\t20\t0\tdispatch\tswitch (mode)\n"
    "site 7\t2\tbranches\t\t0\t0\tweird\\tname\ta \\\\ b\\nc\n"
    "site 9\t3\tfloats\tlib/b.c\t30\t9\tcompute\tf(x)\n"
    "end\n";

int helper_b(int x) { return x + 1; }

/* A unit with sites of the schemes being added to the pass (lib/...Scheme.cpp):
 * scalar-pairs, float-kinds, function-entries, checks, and bounds, whose
 * cells hold [min, max] values rather than counts. */
__attribute__((section(".sampler_sites"), used))
static const char sampler_sites_d[] =
    "SAMPLER-SITES 1\n"
    "unit 0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d0d 19 1\n"
    "source d.c\n"
    "site 0\t3\tscalar-pairs\td.c\t3\t5\tf\tx <=> y\n"
    "site 3\t9\tfloat-kinds\td.c\t4\t5\tf\tz\n"
    "site 12\t1\tfunction-entries\td.c\t2\t1\tf\tf\n"
    "site 13\t2\tchecks\td.c\t6\t3\tf\tp != 0\n"
    "site 15\t2\tbounds\td.c\t7\t5\tf\tn\n"
    "site 17\t2\tbounds\td.c\t8\t5\tf\tm\n"
    "end\n";

int f_d(void) { return 0; }

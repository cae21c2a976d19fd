/* A unit written the way the pass writes switch sites: the description ends
 * with "; cases: v1,v2,...". A one-case switch has 2 cells like a branch.
 * The source name has an escaped backslash. */
__attribute__((section(".sampler_sites"), used))
static const char sampler_sites_c[] =
    "SAMPLER-SITES 1\n"
    "unit 00112233445566778899aabbccddeeff 7 1\n"
    "source dir\\\\c.c\n"
    "site 0\t3\tbranches\tdir\\\\c.c\t5\t3\trun\tstate; cases: 10,-20\n"
    "site 3\t2\tbranches\tdir\\\\c.c\t9\t3\trun\tk; cases: 4\n"
    "site 5\t2\tbranches\tdir\\\\c.c\t12\t7\trun\tflag != 0\n"
    "end\n";

int run_c(int k) { return k; }

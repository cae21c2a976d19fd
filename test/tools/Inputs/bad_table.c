/* Corrupt site tables, one per macro. */
#define HEAD "SAMPLER-SITES 1\nunit 0123456789abcdef0123456789abcdef 5 1\nsource a.c\n"
#define SITE "site 0\t2\tbranches\ta.c\t3\t7\tmain\tx > 0\n"
#if defined(BAD_MAGIC)
#define TABLE "SAMPLER-SITE 1\n"
#elif defined(BAD_VERSION)
#define TABLE "SAMPLER-SITES 2\nunit 0123456789abcdef0123456789abcdef 5 1\n"
#elif defined(NO_END)
#define TABLE HEAD SITE
#elif defined(BAD_SIGNATURE)
#define TABLE "SAMPLER-SITES 1\nunit 0123456789ABCDEF0123456789abcdef 5 1\nsource a.c\nend\n"
#elif defined(BAD_ESCAPE)
#define TABLE HEAD "site 0\t2\tbranches\ta.c\t3\t7\tma\\in\tx > 0\nend\n"
#elif defined(FEW_FIELDS)
#define TABLE HEAD "site 0\t2\tbranches\ta.c\t3\t7\tmain\nend\n"
#elif defined(CELLS_OUT_OF_RANGE)
#define TABLE HEAD "site 4\t2\tbranches\ta.c\t3\t7\tmain\tx > 0\nend\n"
#elif defined(OVERLAP)
#define TABLE HEAD SITE "site 1\t3\treturns\ta.c\t4\t3\tmain\tf()\nend\n"
#elif defined(BAD_NUMBER)
#define TABLE HEAD "site 0\t2\tbranches\ta.c\t3x\t7\tmain\tx > 0\nend\n"
#elif defined(AFTER_END)
#define TABLE HEAD SITE "end\nsite 2\t3\treturns\ta.c\t4\t3\tmain\tf()\n"
#elif defined(PAIR_CELLS)
#define TABLE HEAD "site 0\t2\tscalar-pairs\ta.c\t3\t7\tmain\tx <=> y\nend\n"
#elif defined(ENTRY_CELLS)
#define TABLE HEAD "site 0\t2\tfunction-entries\ta.c\t3\t7\tmain\tmain\nend\n"
#elif defined(BINARY_NUMBER)
#define TABLE HEAD "site 0\t2\tbranches\ta.c\t3\t7\xff\x01\tmain\tx > 0\nend\n"
#elif defined(LONG_NUMBER)
#define TABLE HEAD "site 0\t2\tbranches\ta.c\t3\t7777777777777777777777777777777777777777777777777777777\tmain\tx > 0\nend\n"
#else
#error "pick a corruption"
#endif
__attribute__((section(".sampler_sites"), used))
static const char sampler_sites_bad[] = TABLE;

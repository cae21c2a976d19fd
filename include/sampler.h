/*===- sampler.h - User-sampled checks for sampler -------------------------===
 *
 * Mark an expensive check, or a block of code, that runs only when sampled:
 *
 *     #include <sampler.h>
 *     sampler_check(tree_is_balanced(root));     // counted: sampled, failed
 *     if (sampler_sampled()) { audit_heap(); }   // runs only when sampled
 *
 * Built with sampler-cc (which defines __SAMPLER__ and loads the pass), each
 * sampler_check() is a site of the `checks` scheme with two cells
 * [times sampled, times failed]: the condition is evaluated only when the
 * site is sampled (with probability 1/SAMPLER_SPARSITY), and a failure is
 * counted, not fatal. A sampler_sampled() block is a site whose cells are
 * [times sampled, 0].
 *
 * Built with any other compiler, the header compiles to a plain check: the
 * condition is evaluated every time and a failure calls
 * SAMPLER_CHECK_FAILED(text, file, line), which by default prints one line
 * on stderr (define it before including this header to do otherwise);
 * sampler_sampled() is always true. So code stays portable.
 *
 * With `clang -fplugin=SamplerPass.so`, add -D__SAMPLER__ yourself.
 *===----------------------------------------------------------------------===*/
#ifndef SAMPLER_H
#define SAMPLER_H

#if defined(__SAMPLER__)

#ifdef __cplusplus
extern "C" {
#endif
/* Recognised and replaced by the pass; never called. The id pairs a begin
 * with its end within one function; the text describes the check. */
int __sampler_check_begin(int id, const char *text);
void __sampler_check_end(int id, int ok);
#ifdef __cplusplus
}
#endif

#define SAMPLER_CHECK_WITH_ID_(cond, id)                                       \
  do {                                                                         \
    if (__sampler_check_begin((id), #cond))                                    \
      __sampler_check_end((id), (cond) ? 1 : 0);                               \
  } while (0)
#define sampler_check(cond) SAMPLER_CHECK_WITH_ID_(cond, __COUNTER__)
#define sampler_sampled() (__sampler_check_begin(__COUNTER__, "sampled block") != 0)

#else /* plain build */

#ifndef SAMPLER_CHECK_FAILED
#include <stdio.h>
#define SAMPLER_CHECK_FAILED(text, file, line)                                 \
  ((void)fprintf(stderr, "%s:%d: check failed: %s\n", (file), (line), (text)))
#endif
#define sampler_check(cond)                                                    \
  ((cond) ? (void)0 : SAMPLER_CHECK_FAILED(#cond, __FILE__, __LINE__))
#define sampler_sampled() 1

#endif /* __SAMPLER__ */

#endif /* SAMPLER_H */

/* Preprocessed with -E -P: says whether __SAMPLER__ is defined, and to what. */
#ifdef __SAMPLER__
sampler is __SAMPLER__
#else
sampler is off
#endif

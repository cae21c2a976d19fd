//===- FuzzCheck.h - what the fuzz targets assert ---------------*- C++ -*-===//
//
// Shared by report_fuzzer.cpp and site_table_fuzzer.cpp: a failed property
// aborts with a message, which libFuzzer reports as a crash (and saves the
// input as an artifact).
//
//===----------------------------------------------------------------------===//
#ifndef SAMPLER_FUZZ_CHECK_H
#define SAMPLER_FUZZ_CHECK_H

#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#define FUZZ_CHECK(Cond, ...)                                                  \
  do {                                                                         \
    if (!(Cond)) {                                                             \
      std::fprintf(stderr, "%s:%d: property failed: %s: ", __FILE__, __LINE__, \
                   #Cond);                                                     \
      std::fprintf(stderr, __VA_ARGS__);                                       \
      std::fprintf(stderr, "\n");                                              \
      std::abort();                                                            \
    }                                                                          \
  } while (0)

namespace sampler_fuzz {

/// An error message is one short line of printable ASCII, whatever the input
/// held: the readers quote pieces of the input through excerpt().
inline bool isCleanMessage(std::string_view M, size_t MaxLen) {
  if (M.empty() || M.size() > MaxLen)
    return false;
  for (char C : M)
    if ((unsigned char)C < 0x20 || (unsigned char)C >= 0x7f)
      return false;
  return true;
}

/// 1 + the number of newlines: the lines an error may name (the line after
/// the last newline included, for "no 'end-of-report' line").
inline size_t lineCount(std::string_view Text) {
  size_t N = 1;
  for (char C : Text)
    N += C == '\n';
  return N;
}

} // namespace sampler_fuzz

#endif

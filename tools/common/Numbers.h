//===- Numbers.h - strict, allocation-free number parsing -------*- C++ -*-===//
//
// The site table and the report are read by the thousand: these helpers parse
// a whole field or fail (no sign unless asked, no spaces, no overflow).
//
//===----------------------------------------------------------------------===//
#ifndef SAMPLER_TOOLS_NUMBERS_H
#define SAMPLER_TOOLS_NUMBERS_H

#include <cstdint>
#include <string>
#include <string_view>

namespace sampler {

/// [0-9]+ that fits in 64 bits.
inline bool parseUnsigned(std::string_view S, uint64_t &Out) {
  if (S.empty())
    return false;
  uint64_t V = 0;
  for (char C : S) {
    if (C < '0' || C > '9')
      return false;
    unsigned D = unsigned(C - '0');
    if (V > (UINT64_MAX - D) / 10)
      return false;
    V = V * 10 + D;
  }
  Out = V;
  return true;
}

inline bool parseUnsigned32(std::string_view S, uint32_t &Out) {
  uint64_t V;
  if (!parseUnsigned(S, V) || V > UINT32_MAX)
    return false;
  Out = uint32_t(V);
  return true;
}

/// -?[0-9]+ that fits in int64_t.
inline bool parseSigned(std::string_view S, int64_t &Out) {
  bool Neg = !S.empty() && S[0] == '-';
  if (Neg)
    S.remove_prefix(1);
  uint64_t V;
  if (!parseUnsigned(S, V))
    return false;
  if (Neg ? V > uint64_t(INT64_MAX) + 1 : V > uint64_t(INT64_MAX))
    return false;
  Out = Neg ? int64_t(0 - V) : int64_t(V);
  return true;
}

/// 0x followed by 1 to 16 hex digits (either case).
inline bool parseHex64(std::string_view S, uint64_t &Out) {
  if (S.size() < 3 || S.size() > 18 || S[0] != '0' || (S[1] != 'x' && S[1] != 'X'))
    return false;
  uint64_t V = 0;
  for (char C : S.substr(2)) {
    unsigned D;
    if (C >= '0' && C <= '9')
      D = unsigned(C - '0');
    else if (C >= 'a' && C <= 'f')
      D = unsigned(C - 'a' + 10);
    else if (C >= 'A' && C <= 'F')
      D = unsigned(C - 'A' + 10);
    else
      return false;
    V = V << 4 | D;
  }
  Out = V;
  return true;
}

/// Exact decimal text of a 128-bit unsigned value (count x sparsity can
/// exceed 64 bits).
inline std::string toDecimal(unsigned __int128 V) {
  char Buf[40];
  char *P = Buf + sizeof Buf;
  *--P = '\0';
  do {
    *--P = char('0' + unsigned(V % 10));
    V /= 10;
  } while (V);
  return P;
}

} // namespace sampler

#endif

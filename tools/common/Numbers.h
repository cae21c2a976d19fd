//===- Numbers.h - strict, allocation-free number parsing -------*- C++ -*-===//
//
// The site table and the report are read by the thousand: these helpers parse
// a whole field or fail (no sign unless asked, no spaces, no overflow).
//
//===----------------------------------------------------------------------===//
#ifndef SAMPLER_TOOLS_NUMBERS_H
#define SAMPLER_TOOLS_NUMBERS_H

#include <algorithm>
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
  // -V without unsigned wrap-around (V may be 2^63, whose negation is INT64_MIN).
  Out = !Neg ? int64_t(V) : V == 0 ? 0 : -int64_t(V - 1) - 1;
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

/// Exact decimal sum of two decimal strings of digits.
inline std::string addDecimal(std::string_view A, std::string_view B) {
  std::string Out;
  Out.reserve(std::max(A.size(), B.size()) + 1);
  unsigned Carry = 0;
  for (size_t I = 0; I < A.size() || I < B.size() || Carry; ++I) {
    unsigned D = Carry;
    if (I < A.size())
      D += unsigned(A[A.size() - 1 - I] - '0');
    if (I < B.size())
      D += unsigned(B[B.size() - 1 - I] - '0');
    Out += char('0' + D % 10);
    Carry = D / 10;
  }
  return std::string(Out.rbegin(), Out.rend());
}

/// The exact sum of at most two 128-bit values: a predicate that adds two
/// cells has a count below 2^65 and an estimate (count x sparsity) that may
/// need 129 bits.
struct Sum129 {
  unsigned __int128 Low = 0;
  bool Carry = false; // 2^128 (at most once: at most two values are added)

  Sum129 &operator+=(unsigned __int128 V) {
    Low += V;
    if (Low < V)
      Carry = true;
    return *this;
  }
  std::string decimal() const {
    return Carry ? addDecimal(toDecimal(Low),
                              "340282366920938463463374607431768211456")
                 : toDecimal(Low);
  }
};

} // namespace sampler

#endif

//===- Signature.h - a compilation unit's 128-bit signature ----*- C++ -*-===//
//
// The site table ("unit <sig> ...") and the report ("unit\t<sig>\t...") name a
// compilation unit by the MD5 of its site lines, written as 32 lowercase hex
// digits (docs/internals.md §2). This is the parsed, hashable form.
//
//===----------------------------------------------------------------------===//
#ifndef SAMPLER_TOOLS_SIGNATURE_H
#define SAMPLER_TOOLS_SIGNATURE_H

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace sampler {

struct Signature {
  uint8_t Bytes[16] = {};

  /// Parses exactly 32 lowercase hex digits; anything else fails.
  static bool parse(std::string_view Text, Signature &Out) {
    if (Text.size() != 32)
      return false;
    for (size_t I = 0; I < 16; ++I) {
      int Hi = hexDigit(Text[2 * I]), Lo = hexDigit(Text[2 * I + 1]);
      if (Hi < 0 || Lo < 0)
        return false;
      Out.Bytes[I] = uint8_t(Hi << 4 | Lo);
    }
    return true;
  }

  std::string hex() const {
    static const char Digits[] = "0123456789abcdef";
    std::string S(32, '0');
    for (size_t I = 0; I < 16; ++I) {
      S[2 * I] = Digits[Bytes[I] >> 4];
      S[2 * I + 1] = Digits[Bytes[I] & 15];
    }
    return S;
  }

  bool operator==(const Signature &O) const {
    return std::memcmp(Bytes, O.Bytes, 16) == 0;
  }
  bool operator!=(const Signature &O) const { return !(*this == O); }
  bool operator<(const Signature &O) const {
    return std::memcmp(Bytes, O.Bytes, 16) < 0;
  }

private:
  static int hexDigit(char C) {
    if (C >= '0' && C <= '9')
      return C - '0';
    if (C >= 'a' && C <= 'f')
      return C - 'a' + 10;
    return -1; // upper case is not part of the format
  }
};

struct SignatureHash {
  size_t operator()(const Signature &S) const {
    // An MD5 is already uniformly distributed: its first bytes are a hash.
    uint64_t H;
    std::memcpy(&H, S.Bytes, sizeof H);
    return size_t(H);
  }
};

} // namespace sampler

#endif

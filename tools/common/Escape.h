//===- Escape.h - the \t \n \\ escaping of the table and report -*- C++ -*-===//
//
// Free-text fields of the site table (file, function, description, source)
// and of the report (program, host, unit name) write TAB, newline and
// backslash as \t, \n, \\ so that a field never spans lines or fields.
//
//===----------------------------------------------------------------------===//
#ifndef SAMPLER_TOOLS_ESCAPE_H
#define SAMPLER_TOOLS_ESCAPE_H

#include <string>
#include <string_view>

namespace sampler {

/// Undoes the escaping. Any other backslash sequence (or a lone trailing
/// backslash) is an error: returns false.
inline bool unescapeField(std::string_view In, std::string &Out) {
  Out.clear();
  if (In.find('\\') == std::string_view::npos) { // the common case
    Out.assign(In.data(), In.size());
    return true;
  }
  Out.reserve(In.size());
  for (size_t I = 0; I < In.size(); ++I) {
    char C = In[I];
    if (C != '\\') {
      Out += C;
      continue;
    }
    if (++I == In.size())
      return false;
    switch (In[I]) {
    case 't': Out += '\t'; break;
    case 'n': Out += '\n'; break;
    case '\\': Out += '\\'; break;
    default: return false;
    }
  }
  return true;
}

/// Escapes TAB, newline and backslash, so that a field prints on one line.
inline std::string escapeField(std::string_view S) {
  std::string Out;
  Out.reserve(S.size());
  for (char C : S) {
    switch (C) {
    case '\t': Out += "\\t"; break;
    case '\n': Out += "\\n"; break;
    case '\\': Out += "\\\\"; break;
    default: Out += C;
    }
  }
  return Out;
}

/// A piece of a file that is being rejected, for the error message (which
/// quotes it): TAB, newline and backslash as \t, \n, \\, any other byte
/// outside printable ASCII as \xNN, and at most Max characters of that, then
/// "..." if the piece goes on. The message stays one short readable line
/// whatever the file holds.
inline std::string excerpt(std::string_view S, size_t Max = 40) {
  static const char Hex[] = "0123456789abcdef";
  std::string Out;
  for (size_t I = 0; I < S.size(); ++I) {
    char C = S[I];
    unsigned char U = (unsigned char)C;
    char Esc[5] = {C, 0, 0, 0, 0};
    switch (C) {
    case '\t': Esc[0] = '\\'; Esc[1] = 't'; break;
    case '\n': Esc[0] = '\\'; Esc[1] = 'n'; break;
    case '\\': Esc[1] = '\\'; break;
    default:
      if (U < 0x20 || U >= 0x7f) {
        Esc[0] = '\\';
        Esc[1] = 'x';
        Esc[2] = Hex[U >> 4];
        Esc[3] = Hex[U & 15];
      }
    }
    size_t Len = std::char_traits<char>::length(Esc);
    if (Out.size() + Len > Max)
      return Out + "...";
    Out.append(Esc, Len);
  }
  return Out;
}

} // namespace sampler

#endif

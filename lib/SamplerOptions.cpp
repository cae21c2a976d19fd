//===- SamplerOptions.cpp - Parsing and checking the pass options ---------===//
#include "SamplerOptions.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace llvm;
using namespace sampler;

const std::vector<std::string> &SamplerOptions::knownSchemes() {
  static const std::vector<std::string> Known = {"branches", "returns"};
  return Known;
}

bool SamplerOptions::hasScheme(StringRef S) const {
  return is_contained(Schemes, S.str());
}

static Error optionError(const Twine &Msg) {
  return createStringError(inconvertibleErrorCode(), Msg);
}

static Expected<bool> parseBool(StringRef Name, StringRef V) {
  if (V == "1" || V == "on" || V == "true" || V == "yes" || V.empty())
    return true;
  if (V == "0" || V == "off" || V == "false" || V == "no")
    return false;
  return optionError("sampler: option '" + Name + "' expects on/off (1/0), got '" +
                     V + "'");
}

Error SamplerOptions::readNameList(StringRef Path, std::set<std::string> &Out) {
  auto Buf = MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buf)
    return optionError("sampler: cannot read name list '" + Path +
                       "': " + Buf.getError().message());
  SmallVector<StringRef, 64> Lines;
  (*Buf)->getBuffer().split(Lines, '\n');
  for (StringRef L : Lines) {
    L = L.split('#').first.trim();
    if (!L.empty())
      Out.insert(L.str());
  }
  return Error::success();
}

Error SamplerOptions::set(StringRef Name, StringRef Value) {
  if (Name == "schemes") {
    Schemes.clear();
    SmallVector<StringRef, 8> Parts;
    Value.split(Parts, ',', -1, /*KeepEmpty=*/false);
    if (Parts.empty())
      return optionError("sampler: option 'schemes' needs at least one scheme");
    for (StringRef P : Parts) {
      P = P.trim();
      if (!is_contained(knownSchemes(), P.str()))
        return optionError("sampler: unknown scheme '" + P + "' (known: " +
                           join(knownSchemes(), ", ") + ")");
      if (!hasScheme(P))
        Schemes.push_back(P.str());
    }
    return Error::success();
  }
  if (Name == "sampling") {
    auto B = parseBool(Name, Value);
    if (!B)
      return B.takeError();
    Sampling = *B;
    return Error::success();
  }
  if (Name == "weightless") {
    // A comma-separated list of names, or @FILE with one name a line.
    if (Value.consume_front("@"))
      return readNameList(Value, Weightless);
    SmallVector<StringRef, 8> Parts;
    Value.split(Parts, ',', -1, false);
    for (StringRef P : Parts)
      Weightless.insert(P.trim().str());
    return Error::success();
  }
  if (Name == "skip") {
    if (Value.consume_front("@"))
      return readNameList(Value, SkipFunctions);
    SmallVector<StringRef, 8> Parts;
    Value.split(Parts, ',', -1, false);
    for (StringRef P : Parts)
      SkipFunctions.insert(P.trim().str());
    return Error::success();
  }
  return optionError("sampler: unknown option '" + Name +
                     "' (known: schemes, sampling, weightless, skip)");
}

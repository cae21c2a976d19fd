//===- SamplerOptions.cpp - Parsing and checking the pass options ---------===//
#include "SamplerOptions.h"
#include "Feedback.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/GlobPattern.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include <optional>

using namespace llvm;
using namespace sampler;

const std::vector<std::string> &SamplerOptions::knownSchemes() {
  static const std::vector<std::string> Known = {
      "branches", "returns", "scalar-pairs", "float-kinds", "bounds",
      "function-entries", "checks"};
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

/// An option that takes a keyword (its default's name) or on/off: nullopt for
/// the keyword. -fsampler-NAME gives 1, -fno-sampler-NAME 0.
static Expected<std::optional<bool>>
parseKeywordOrBool(StringRef Name, StringRef V, StringRef Keyword) {
  if (V == Keyword)
    return std::nullopt;
  auto B = parseBool(Name, V);
  if (!B) {
    consumeError(B.takeError());
    return optionError("sampler: option '" + Name + "' expects '" + Keyword +
                       "' or on/off (1/0), got '" + V + "'");
  }
  return std::optional<bool>(*B);
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

/// Reads a feedback file, or one report (one run's counts), as the counts
/// the branches' weights come from.
static Expected<std::shared_ptr<const Feedback>> readFeedback(StringRef Path) {
  auto Buf = MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!Buf)
    return optionError("sampler: option 'feedback': cannot read '" + Path +
                       "': " + Buf.getError().message());
  std::string_view Text((*Buf)->getBufferStart(), (*Buf)->getBufferSize());
  if (!looksLikeFeedback(Text) && !looksLikeReport(Text))
    return optionError("sampler: option 'feedback': " + Path +
                       ": neither a feedback file (sampler-report --merge) "
                       "nor a report");
  auto FB = std::make_shared<Feedback>();
  ReportError Err;
  if (addFeedbackInput(Text, *FB, Err))
    return FB;
  return optionError("sampler: option 'feedback': " + Path +
                     (Err.Line ? ":" + Twine(Err.Line) : Twine()) + ": " +
                     Err.Message);
}

Error SamplerOptions::set(StringRef Name, StringRef Value) {
  if (Name == "feedback") {
    // -fno-sampler-feedback passes 0: none (a file named 0 is ./0).
    if (Value.empty() || Value == "0") {
      FeedbackCounts.reset();
      FeedbackPath.clear();
      return Error::success();
    }
    auto FB = readFeedback(Value);
    if (!FB)
      return FB.takeError();
    FeedbackCounts = std::move(*FB);
    FeedbackPath = Value.str();
    return Error::success();
  }
  if (Name == "schemes") {
    Schemes.clear();
    SmallVector<StringRef, 8> Parts;
    Value.split(Parts, ',', -1, /*KeepEmpty=*/false);
    if (Parts.empty())
      return optionError("sampler: option 'schemes' needs at least one scheme");
    if (Parts.size() == 1 && Parts[0].trim() == "all") {
      Schemes = knownSchemes();
      return Error::success();
    }
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
  if (Name == "elements" || Name == "compare-constants" ||
      Name == "sample-late" || Name == "loop-bounds" ||
      Name == "loop-promote" || Name == "loop-exit-pay" ||
      Name == "natural-nests" || Name == "open-nests" ||
      Name == "slow-optsize" ||
      Name == "loop-reserve" ||
      Name == "loop-chunks" || Name == "check-merge" ||
      Name == "check-discount" || Name == "copy-comdat" ||
      Name == "single-call-copies" ||
      Name == "indirect-tls" || Name == "thread-copies" ||
      Name == "single-threaded" ||
      Name == "nest-promote" || Name == "cold-in-place" ||
      Name == "cold-loops-in-place" || Name == "cold-optsize") {
    auto B = parseBool(Name, Value);
    if (!B)
      return B.takeError();
    (Name == "elements" ? Elements
     : Name == "sample-late" ? SampleLate
     : Name == "loop-bounds" ? LoopBounds
     : Name == "loop-promote" ? LoopPromote
     : Name == "loop-exit-pay" ? LoopExitPay
     : Name == "natural-nests" ? NaturalNests
     : Name == "open-nests" ? OpenNests
     : Name == "slow-optsize" ? SlowOptSize
     : Name == "loop-reserve" ? LoopReserve
     : Name == "loop-chunks" ? LoopChunks
     : Name == "check-merge" ? CheckMerge
     : Name == "check-discount" ? CheckDiscount
     : Name == "single-call-copies" ? SingleCallCopies
     : Name == "copy-comdat" ? CopyComdat
     : Name == "indirect-tls" ? IndirectTLS
     : Name == "single-threaded" ? SingleThreaded
     : Name == "thread-copies" ? ThreadCopies
     : Name == "nest-promote" ? NestPromote
     : Name == "cold-in-place" ? ColdInPlace
     : Name == "cold-loops-in-place" ? ColdLoopsInPlace
     : Name == "cold-optsize" ? ColdOptSize
                             : CompareConstants) = *B;
    return Error::success();
  }
  if (Name == "clone-threshold" || Name == "preinline-limit" ||
      Name == "preinline-large-caller" || Name == "outline-limit" ||
      Name == "entry-twin-limit" || Name == "continuation-limit" ||
      Name == "continuation-copies" || Name == "paid-callee-weight" ||
      Name == "check-merge-give-back" ||
      Name == "countdown-slot-sites" || Name == "check-stride" ||
      Name == "single-call-size-limit" || Name == "single-call-max-size" ||
      Name == "cold-heavy-percent" || Name == "cold-count" ||
      Name == "cold-path-sites" || Name == "hold-percent") {
    unsigned Min = Name == "clone-threshold" || Name == "check-stride" ? 1 : 0;
    unsigned N;
    if (Value.getAsInteger(10, N) || N < Min)
      return optionError("sampler: option '" + Name + "' expects an integer >= " +
                         Twine(Min) + ", got '" + Value + "'");
    if (Name == "cold-heavy-percent" && N > 100)
      return optionError("sampler: option '" + Name +
                         "' expects a percentage from 0 to 100, got '" + Value +
                         "'");
    (Name == "clone-threshold"          ? CloneThreshold
     : Name == "preinline-limit"        ? PreInlineLimit
     : Name == "preinline-large-caller" ? PreInlineLargeCaller
     : Name == "entry-twin-limit"       ? EntryTwinLimit
     : Name == "continuation-limit"     ? ContinuationLimit
     : Name == "continuation-copies"    ? ContinuationCopies
     : Name == "paid-callee-weight"     ? PaidCalleeWeight
     : Name == "check-merge-give-back"  ? CheckMergeGiveBack
     : Name == "countdown-slot-sites"   ? CountdownSlotSites
     : Name == "check-stride"           ? CheckStride
     : Name == "single-call-size-limit" ? SingleCallSizeLimit
     : Name == "single-call-max-size"   ? SingleCallMaxSize
     : Name == "cold-heavy-percent"     ? ColdHeavyPercent
     : Name == "cold-count"             ? ColdCount
     : Name == "cold-path-sites"        ? ColdPathSites
     : Name == "hold-percent"           ? HoldPercent
                                        : OutlineLimit) = N;
    return Error::success();
  }
  if (Name == "atomic-counters") {
    auto B = parseKeywordOrBool(Name, Value, "when-threaded");
    if (!B)
      return B.takeError();
    AtomicCounters = !*B   ? CounterAtomicity::WhenThreaded
                     : **B ? CounterAtomicity::Always
                           : CounterAtomicity::Never;
    return Error::success();
  }
  if (Name == "observe-edges") {
    auto B = parseKeywordOrBool(Name, Value, "auto");
    if (!B)
      return B.takeError();
    ObserveEdges = !*B   ? ObserveEdgesMode::Auto
                  : **B ? ObserveEdgesMode::On
                        : ObserveEdgesMode::Off;
    return Error::success();
  }
  if (Name == "tls-model") {
    if (Value == "auto")
      CountdownTLS = TLSModel::Auto;
    else if (Value == "initial-exec")
      CountdownTLS = TLSModel::InitialExec;
    else
      return optionError("sampler: option 'tls-model' expects 'auto' or "
                         "'initial-exec', got '" + Value + "'");
    return Error::success();
  }
  if (Name == "include" || Name == "exclude") {
    std::vector<std::string> &Into = Name == "include" ? Include : Exclude;
    std::set<std::string> Items;
    if (Value.consume_front("@")) {
      if (Error E = readNameList(Value, Items))
        return E;
    } else {
      SmallVector<StringRef, 8> Parts;
      Value.split(Parts, ',', -1, false);
      for (StringRef P : Parts)
        Items.insert(P.trim().str());
    }
    for (const std::string &P : Items) {
      StringRef Pattern(P);
      Pattern.consume_front("file:");
      if (auto G = GlobPattern::create(Pattern); !G)
        return optionError("sampler: bad pattern '" + P + "' in option '" +
                           Name + "': " + toString(G.takeError()));
      Into.push_back(P);
    }
    return Error::success();
  }
  return optionError("sampler: unknown option '" + Name +
                     "' (known: schemes, sampling, weightless, skip, include, "
                     "exclude, elements, compare-constants, clone-threshold, "
                     "outline-limit, preinline-limit, preinline-large-caller, sample-late, loop-bounds, loop-promote, loop-exit-pay, natural-nests, open-nests, slow-optsize, loop-reserve, loop-chunks, check-merge, check-merge-give-back, check-discount, single-call-copies, single-call-size-limit, single-call-max-size, copy-comdat, indirect-tls, single-threaded, atomic-counters, entry-twin-limit, continuation-limit, continuation-copies, paid-callee-weight, cold-heavy-percent, feedback, cold-in-place, cold-loops-in-place, cold-count, cold-path-sites, cold-optsize, countdown-slot-sites, check-stride, tls-model, observe-edges, thread-copies, nest-promote, hold-percent)");
}

bool SamplerOptions::selects(const Function &F) const {
  if (Include.empty() && Exclude.empty())
    return true;
  std::string Demangled = llvm::demangle(F.getName().str());
  std::string File = F.getParent()->getSourceFileName();
  if (const DISubprogram *SP = F.getSubprogram())
    File = SP->getFilename().str();
  auto Matches = [&](const std::string &P) {
    StringRef Pattern(P);
    bool IsFile = Pattern.consume_front("file:");
    auto G = GlobPattern::create(Pattern);
    if (!G) {
      consumeError(G.takeError());
      return false;
    }
    if (IsFile)
      return G->match(File) || G->match(llvm::sys::path::filename(File));
    if (G->match(F.getName()))
      return true;
    // `ns::f` also matches the demangled `ns::f(int)`.
    StringRef D(Demangled);
    return G->match(D) || G->match(D.split('(').first);
  };
  if (any_of(Exclude, Matches))
    return false;
  return Include.empty() || any_of(Include, Matches);
}

//===- Driver.cpp - sampler-cc / sampler-c++ ------------------------------===//
//
// Drop-in replacements for clang-19 / clang++-19. They run the configured
// clang with the user's arguments unchanged, plus the sampler plugin (with
// -Rpass=sampler-location-tracking, so that sites get source positions without
// -g), the include directory of sampler.h and, when the invocation links, the
// runtime.
// Everything is found relative to the executable: <dir>/bin/sampler-cc uses
// <dir>/lib/SamplerPass.so, <dir>/include and <dir>/lib/libsampler_rt.{a,so}.
//
// Built twice from this file: SAMPLER_DRIVER_CXX selects sampler-c++.
// SAMPLER_DRIVER_CLANG is the path of the clang to run.
//
// Whether the invocation links is decided the way clang decides it: the
// arguments (with response files expanded by clang's own rules) are parsed
// with clang's driver option table, so that an option's separate value is
// never mistaken for an input file.
//
//===----------------------------------------------------------------------===//

#include "clang/Driver/Options.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Option/Arg.h"
#include "llvm/Option/ArgList.h"
#include "llvm/Option/OptTable.h"
#include "llvm/Option/Option.h"
#include "llvm/Support/Allocator.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/StringSaver.h"

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

#ifndef SAMPLER_DRIVER_CLANG
#error "SAMPLER_DRIVER_CLANG must name the clang executable to run"
#endif

#ifdef SAMPLER_DRIVER_CXX
static const char *const ToolName = "sampler-c++";
static const char *const ClangName = "clang++-19";
#else
static const char *const ToolName = "sampler-cc";
static const char *const ClangName = "clang-19";
#endif

using namespace llvm;
using namespace llvm::opt;
using namespace clang::driver::options;

//===----------------------------------------------------------------------===//
// clang's driver option table, built from clang's own TableGen output exactly
// as clang/lib/Driver/DriverOptions.cpp does (header-only: no libclang-cpp).
//===----------------------------------------------------------------------===//

#define OPTTABLE_VALUES_CODE
#include "clang/Driver/Options.inc"
#undef OPTTABLE_VALUES_CODE

#define PREFIX(NAME, VALUE)                                                    \
  static constexpr llvm::StringLiteral NAME##_init[] = VALUE;                  \
  static constexpr llvm::ArrayRef<llvm::StringLiteral> NAME(                   \
      NAME##_init, std::size(NAME##_init) - 1);
#include "clang/Driver/Options.inc"
#undef PREFIX

static constexpr const llvm::StringLiteral PrefixTable_init[] =
#define PREFIX_UNION(VALUES) VALUES
#include "clang/Driver/Options.inc"
#undef PREFIX_UNION
    ;
static constexpr const llvm::ArrayRef<llvm::StringLiteral>
    PrefixTable(PrefixTable_init, std::size(PrefixTable_init) - 1);

static constexpr OptTable::Info InfoTable[] = {
#define OPTION(...) LLVM_CONSTRUCT_OPT_INFO(__VA_ARGS__),
#include "clang/Driver/Options.inc"
#undef OPTION
};

namespace {
class ClangOptTable : public PrecomputedOptTable {
public:
  ClangOptTable() : PrecomputedOptTable(InfoTable, PrefixTable) {}
};
} // namespace

//===----------------------------------------------------------------------===//

namespace {

[[noreturn]] void fatal(const std::string &Msg) {
  std::fprintf(stderr, "%s: %s\n", ToolName, Msg.c_str());
  std::exit(1);
}

void printHelp() {
  std::printf(
      "OVERVIEW: %s - %s with sampler instrumentation (cooperative bug "
      "isolation)\n"
      "\n"
      "USAGE: %s [sampler options] [%s options] file...\n"
      "\n"
      "Compiles with the sampler plugin (lib/SamplerPass.so) and links the "
      "sampler runtime\n"
      "(lib/libsampler_rt), both found beside this executable's bin/ "
      "directory.\n"
      "\n"
      "SAMPLER OPTIONS (given to the plugin):\n"
      "  -fsampler-schemes=LIST   Schemes to instrument, comma separated: "
      "branches,returns\n"
      "                           (default: branches,returns)\n"
      "  -fsampler-sampling       Sampled instrumentation: sites observed on a "
      "random\n"
      "                           countdown (default)\n"
      "  -fno-sampler-sampling    Unconditional instrumentation: every site "
      "execution counted\n"
      "  -fsampler-skip=NAMES     Functions not to instrument (comma separated, "
      "or @FILE\n"
      "                           with one name a line)\n"
      "  -fsampler-weightless=NAMES\n"
      "                           External functions that never reach a site "
      "(comma\n"
      "                           separated, or @FILE): calls to them need no "
      "countdown\n"
      "                           bookkeeping\n"
      "  -fsampler-NAME=VALUE     Passed to the plugin as "
      "-fplugin-arg-sampler-NAME=VALUE\n"
      "  -fsampler-NAME           Passed as -fplugin-arg-sampler-NAME=1\n"
      "  -fno-sampler-NAME        Passed as -fplugin-arg-sampler-NAME=0\n"
      "                           (the plugin reports unknown names and bad "
      "values)\n"
      "\n"
      "DRIVER OPTIONS (not passed on):\n"
      "  -fsampler-runtime=static|shared\n"
      "                           Runtime linked into executables (default: "
      "static);\n"
      "                           -shared links always use the shared runtime;\n"
      "                           objects of executables linked with the shared\n"
      "                           runtime must be compiled with it too\n"
      "  -fsampler-verbose        Print the %s command line to stderr before "
      "running it\n"
      "  -fno-sampler-verbose     Undo -fsampler-verbose\n"
      "  -fno-sampler             Behave exactly like %s: no plugin, no runtime\n"
      "  -fsampler                Undo an earlier -fno-sampler\n"
      "  --help                   Print this help and exit\n"
      "\n"
      "Every other argument is passed unchanged to %s (%s);\n"
      "see '%s --help' for those.\n",
      ToolName, ClangName, ToolName, ClangName, ClangName, ClangName, ClangName,
      SAMPLER_DRIVER_CLANG, ClangName);
}

bool fileExists(const std::string &P) {
  struct stat St;
  return ::stat(P.c_str(), &St) == 0 && S_ISREG(St.st_mode);
}

/// <dir>: the parent of the directory holding this executable.
std::string installDir(const char *Argv0) {
  char Buf[PATH_MAX + 1];
  std::string Exe;
  ssize_t N = ::readlink("/proc/self/exe", Buf, PATH_MAX);
  if (N > 0) {
    Exe.assign(Buf, size_t(N));
  } else if (char *R = ::realpath(Argv0, nullptr)) {
    Exe = R;
    std::free(R);
  } else {
    fatal("cannot find my own executable");
  }
  size_t Slash = Exe.rfind('/');
  std::string Bin = Slash == std::string::npos ? "." : Exe.substr(0, Slash);
  if (Bin.empty())
    Bin = "/";
  Slash = Bin.rfind('/');
  if (Slash == std::string::npos)
    return "..";
  std::string Dir = Bin.substr(0, Slash);
  return Dir.empty() ? "/" : Dir;
}

/// A word the shell would read back as itself.
std::string shellQuote(StringRef S) {
  if (!S.empty() && S.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKL"
                                        "MNOPQRSTUVWXYZ0123456789_-+=/.,:@%^") ==
                        StringRef::npos)
    return S.str();
  std::string Q = "'";
  for (char C : S) {
    if (C == '\'')
      Q += "'\\''";
    else
      Q += C;
  }
  return Q + "'";
}

struct DriverFlags {
  bool Enabled = true;  // -fno-sampler turns everything off
  bool Verbose = false;
  bool SharedRuntime = false;
  std::vector<std::string> PluginArgs; // -fplugin-arg-sampler-...
};

enum class FlagKind { NotOurs, Consumed };

/// Recognises the tool's own flags. Driver flags update F; plugin flags are
/// translated into F.PluginArgs. A bad driver flag is fatal.
FlagKind classify(StringRef A, DriverFlags &F) {
  if (A == "-fno-sampler") {
    F.Enabled = false;
    return FlagKind::Consumed;
  }
  if (A == "-fsampler") {
    F.Enabled = true;
    return FlagKind::Consumed;
  }
  bool Neg;
  StringRef Rest;
  if (A.starts_with("-fsampler-")) {
    Neg = false;
    Rest = A.drop_front(strlen("-fsampler-"));
  } else if (A.starts_with("-fno-sampler-")) {
    Neg = true;
    Rest = A.drop_front(strlen("-fno-sampler-"));
  } else {
    return FlagKind::NotOurs;
  }
  auto [Name, Value] = Rest.split('=');
  bool HasValue = Rest.contains('=');
  if (Name.empty())
    fatal("bad flag '" + A.str() + "': no option name after -f" +
          (Neg ? "no-" : "") + "sampler-");

  // Driver-only flags.
  if (Name == "runtime") {
    if (Neg || !HasValue)
      fatal("bad flag '" + A.str() + "': expected -fsampler-runtime=static or "
            "-fsampler-runtime=shared");
    if (Value == "static")
      F.SharedRuntime = false;
    else if (Value == "shared")
      F.SharedRuntime = true;
    else
      fatal("bad value '" + Value.str() + "' in '" + A.str() +
            "': expected static or shared");
    return FlagKind::Consumed;
  }
  if (Name == "verbose") {
    if (HasValue)
      fatal("bad flag '" + A.str() + "': -f[no-]sampler-verbose takes no value");
    F.Verbose = !Neg;
    return FlagKind::Consumed;
  }

  // Plugin flags: forwarded; the plugin validates names and values.
  if (Neg && HasValue)
    fatal("bad flag '" + A.str() + "': -fno-sampler-" + Name.str() +
          " takes no value");
  std::string V = HasValue ? Value.str() : (Neg ? "0" : "1");
  F.PluginArgs.push_back("-fplugin-arg-sampler-" + Name.str() + "=" + V);
  return FlagKind::Consumed;
}

bool isSamplerFlag(StringRef A) {
  return A == "-fno-sampler" || A == "-fsampler" ||
         A.starts_with("-fsampler-") || A.starts_with("-fno-sampler-");
}

} // namespace

/// The -mllvm option that chooses LiveDebugValues' implementation.
static constexpr char DebugVarLocsOption[] = "experimental-debug-variable-locations";
/// The -mllvm option above which CodeGenPrepare counts a function as huge
/// (in blocks), and the value sampler-cc gives it.
static constexpr char CGPHugeFuncOption[] = "cgpp-huge-func";
static constexpr unsigned CGPHugeFuncBlocks = 1000;

/// Whether the command asks for debug info, as clang decides it: the last -g
/// option, unless it is -g0 or -ggdb0.
static bool debugInfoRequested(const InputArgList &Args) {
  const Arg *A = Args.getLastArg(OPT_g_Group);
  return A && !A->getOption().matches(OPT_g0) &&
         !A->getOption().matches(OPT_ggdb0);
}

/// Whether any argument's text contains \p S (-mllvm or -Xclang values: a
/// cl::opt given twice is an error).
static bool mentions(const InputArgList &Args, StringRef S) {
  for (const Arg *A : Args)
    for (const char *V : A->getValues())
      if (StringRef(V).contains(S))
        return true;
  return false;
}

int main(int argc, char **argv) {
  const char *Clang = SAMPLER_DRIVER_CLANG;
  std::vector<std::string> Out; // the clang command line, argv[0] included
  Out.push_back(Clang);

  auto Exec = [&](bool Verbose) -> int {
    std::vector<char *> CArgs;
    for (std::string &S : Out)
      CArgs.push_back(S.data());
    CArgs.push_back(nullptr);
    if (Verbose) {
      std::string Line;
      for (const std::string &S : Out)
        Line += (Line.empty() ? "" : " ") + shellQuote(S);
      std::fprintf(stderr, "%s: %s\n", ToolName, Line.c_str());
      std::fflush(stderr);
    }
    ::execv(Clang, CArgs.data());
    fatal("cannot run " + std::string(Clang) + ": " + std::strerror(errno));
  };

  // clang -cc1 / -cc1as invocations are not driver command lines: hand them
  // over untouched.
  if (argc > 1 && StringRef(argv[1]).starts_with("-cc1")) {
    for (int I = 1; I < argc; ++I)
      Out.push_back(argv[I]);
    return Exec(false);
  }

  for (int I = 1; I < argc; ++I)
    if (StringRef(argv[I]) == "--help") {
      printHelp();
      return 0;
    }

  // Response files, tokenized by clang's rules (GNU quoting unless
  // --rsp-quoting=windows).
  cl::TokenizerCallback Tokenizer = cl::TokenizeGNUCommandLine;
  for (int I = 1; I < argc; ++I)
    if (StringRef(argv[I]) == "--rsp-quoting=windows")
      Tokenizer = cl::TokenizeWindowsCommandLine;
    else if (StringRef(argv[I]) == "--rsp-quoting=posix")
      Tokenizer = cl::TokenizeGNUCommandLine;
  BumpPtrAllocator Alloc;

  DriverFlags Flags;
  std::vector<std::string> UserArgs;     // what clang gets from the user
  SmallVector<const char *, 64> Analyze; // every argument, @files expanded

  for (int I = 1; I < argc; ++I) {
    StringRef A = argv[I];
    if (A.starts_with("@")) {
      SmallVector<const char *, 16> Exp{argv[I]};
      cl::ExpansionContext ECtx(Alloc, Tokenizer);
      if (Error E = ECtx.expandResponseFiles(Exp))
        fatal(toString(std::move(E)));
      bool HasOurs = false;
      for (const char *T : Exp)
        if (T && isSamplerFlag(T))
          HasOurs = true;
      if (!HasOurs) {
        // Passed on as is; its contents only decide the mode.
        UserArgs.push_back(argv[I]);
        for (const char *T : Exp)
          if (T)
            Analyze.push_back(T);
        continue;
      }
      // The file holds our flags, which clang would not understand: pass its
      // other contents inline instead of the file.
      for (const char *T : Exp) {
        if (!T)
          continue;
        if (classify(T, Flags) == FlagKind::Consumed)
          continue;
        UserArgs.push_back(T);
        Analyze.push_back(T);
      }
      continue;
    }
    if (classify(A, Flags) == FlagKind::Consumed)
      continue;
    UserArgs.push_back(argv[I]);
    Analyze.push_back(argv[I]);
  }

  for (std::string &S : UserArgs)
    Out.push_back(std::move(S));
  if (!Flags.Enabled)
    return Exec(Flags.Verbose);

  ClangOptTable Table;
  unsigned MissingIndex = 0, MissingCount = 0;
  // Visibility as clang::driver::Driver::getOptionVisibilityMask for "clang".
  InputArgList Args = Table.ParseArgs(Analyze, MissingIndex, MissingCount,
                                      Visibility(ClangOption));

  bool HasInput = false;
  for (const Arg *A : Args)
    if (A->getOption().getKind() == Option::InputClass ||
        A->getOption().hasFlag(LinkerInput)) {
      HasInput = true;
      break;
    }
  // Nothing to compile or link (--version, -v, -###, -print-*...): clang as is.
  if (!HasInput)
    return Exec(Flags.Verbose);

  // The last phase clang will run, as clang::driver::Driver::getFinalPhase.
  bool PreprocessOnly = Args.hasArg(OPT_E, OPT_M, OPT_MM);
  bool NoLink =
      PreprocessOnly ||
      Args.hasArg(OPT__precompile, OPT_extract_api, OPT_fmodule_header,
                  OPT_fmodule_header_EQ) ||
      Args.hasArg(OPT_fsyntax_only, OPT_print_supported_cpus,
                  OPT_print_enabled_extensions, OPT_module_file_info,
                  OPT_verify_pch, OPT_rewrite_objc, OPT_rewrite_legacy_objc) ||
      Args.hasArg(OPT__migrate, OPT__analyze, OPT_emit_cir, OPT_emit_ast) ||
      Args.hasArg(OPT_S, OPT_c, OPT_emit_interface_stubs);
  // A relocatable link (-r) makes an object, not a program: no runtime yet.
  bool Links = !NoLink && !Args.hasArg(OPT_r);
  bool Shared = Args.hasArg(OPT_shared);

  std::string Dir = installDir(argv[0]);
  std::string LibDir = Dir + "/lib";

  Out.push_back("-I" + Dir + "/include");
  // What we add must not draw "argument unused" warnings (errors with
  // -Werror) from commands that compile nothing, e.g. assembling a .s or
  // linking objects (clang warns about an unused -D there, not about -I).
  Out.push_back("--start-no-unused-arguments");
  // sampler.h's checks become sites only when the pass is there to take them.
  Out.push_back("-D__SAMPLER__=1");
  if (!PreprocessOnly) {
    std::string Plugin = LibDir + "/SamplerPass.so";
    if (!fileExists(Plugin))
      fatal("plugin not found: " + Plugin);
    Out.push_back("-fplugin=" + Plugin);
    // Sites need source positions: -Rpass=<a pattern no pass matches> makes
    // clang track locations without emitting debug info. A user's own -Rpass=
    // does the same (and must stay the last one, so we add none).
    if (!Args.hasArg(OPT_Rpass_EQ))
      Out.push_back("-Rpass=sampler-location-tracking");
    // Tracking locations gives every function a subprogram (in a unit that
    // emits no debug info), and LLVM 19's instruction-referencing
    // LiveDebugValues then analyses every function's machine value locations
    // all the same, for nothing (2.4 s of sampler-cc -O2 -c sqlite3.c's 62),
    // where the older implementation skips such units. Without debug info
    // asked for, the older one; with it, clang's default.
    if (!debugInfoRequested(Args) && !mentions(Args, DebugVarLocsOption))
      for (std::string F : {std::string("-mllvm"),
                            "-" + std::string(DebugVarLocsOption) + "=false"})
        Out.push_back(std::move(F));
    // CodeGenPrepare walks a function again from its first block whenever it
    // changes the dominator tree, except in functions of more than
    // cgpp-huge-func blocks (10,000 by default), where it revisits only the
    // blocks it changed. A function with fast and instrumented copies has
    // about twice its blocks, and the walks grow with its square: SQLite's
    // interpreter loop (7,400 blocks) took 1.2 s of CodeGenPrepare, 0.05 s in
    // that mode, for code the same within 0.05% of instructions run
    // (docs/benchmarks.md, "Compile time: CodeGenPrepare's walks").
    if (!mentions(Args, CGPHugeFuncOption))
      for (std::string F : {std::string("-mllvm"),
                            "-" + std::string(CGPHugeFuncOption) + "=" +
                                std::to_string(CGPHugeFuncBlocks)})
        Out.push_back(std::move(F));
    // Variable names for the value schemes (scalar-pairs, bounds...) and for
    // descriptions derived from the IR; release clang discards them.
    Out.push_back("-fno-discard-value-names");
    // Code compiled for an executable reaches the countdown at a constant
    // offset from the thread pointer (local-exec), which needs the runtime
    // linked into the executable; with the shared runtime it must go through
    // the GOT (initial-exec).
    if (Flags.SharedRuntime)
      Out.push_back("-fplugin-arg-sampler-tls-model=initial-exec");
    for (std::string &P : Flags.PluginArgs)
      Out.push_back(std::move(P));
  }
  Out.push_back("--end-no-unused-arguments");
  if (Links) {
    if (Flags.SharedRuntime || Shared) {
      std::string Rt = LibDir + "/libsampler_rt.so";
      if (!fileExists(Rt))
        fatal("runtime library not found: " + Rt);
      Out.push_back("-L" + LibDir);
      Out.push_back("-lsampler_rt");
      Out.push_back("-Wl,-rpath," + LibDir);
    } else {
      std::string Rt = LibDir + "/libsampler_rt.a";
      if (!fileExists(Rt))
        fatal("runtime library not found: " + Rt);
      // A user's "-x LANG" applies to every later file: the archive must not
      // be compiled as LANG.
      if (Args.hasArg(OPT_x))
        Out.push_back("-xnone");
      Out.push_back(Rt);
      // Instrumented shared libraries the program loads bind to this copy of
      // the runtime (one countdown, one registry, one report); the copy in
      // libsampler_rt.so they depend on then stays dormant. (-shared links
      // took the branch above: a library exports no runtime of its own.)
      Out.push_back("-Wl,--export-dynamic-symbol=__sampler_*");
    }
    Out.push_back("-lm");
    Out.push_back("-lpthread");
  }
  return Exec(Flags.Verbose);
}

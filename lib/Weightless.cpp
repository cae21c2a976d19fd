//===- Weightless.cpp - Weightless-function analysis ----------------------===//
#include "Weightless.h"
#include "FrontEndInfo.h"
#include "RuntimeABI.h"
#include "SamplerOptions.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"

using namespace llvm;
using namespace sampler;

bool WeightlessInfo::takesCallbacks(StringRef Name) {
  // Functions that run user code on this thread (or jump into it), so the
  // code they call may reach sites.
  static const StringSet<> Callbacks = {
      "qsort", "qsort_r", "bsearch", "lfind", "lsearch", "tsearch", "tfind",
      "tdelete", "twalk", "twalk_r", "tdestroy", "ftw", "nftw", "scandir",
      "scandirat", "glob", "dl_iterate_phdr", "pthread_create", "pthread_once",
      "call_once", "thrd_create", "atexit", "at_quick_exit", "on_exit",
      "__cxa_atexit", "__cxa_thread_atexit", "__cxa_thread_atexit_impl",
      "pthread_atfork", "signal", "sigaction", "bsd_signal", "sigset",
      "setjmp", "_setjmp", "__sigsetjmp", "sigsetjmp", "savectx", "vfork",
      "longjmp", "_longjmp", "siglongjmp", "__longjmp_chk", "makecontext",
      "swapcontext", "setcontext", "getcontext", "exit", "quick_exit",
      "__cxa_finalize", "raise", "kill", "pthread_kill", "tgkill",
      "pthread_exit", "pthread_cancel", "fork", "dlopen", "dlmopen", "dlclose",
      "__libc_start_main", "bfd_map_over_sections", "obstack_free",
      "_obstack_newchunk", "_obstack_begin", "_obstack_begin_1",
      "__register_atfork"};
  return Callbacks.contains(Name);
}

/// C library functions that never call user code, for modules compiled
/// without the clang plugin (which knows system-header functions directly).
static bool isKnownLibcFunction(StringRef Name) {
  static const StringSet<> Known = {
      // memory and strings
      "malloc", "calloc", "realloc", "reallocarray", "free", "aligned_alloc",
      "posix_memalign", "memalign", "valloc", "memcpy", "memmove", "memset",
      "memcmp", "memchr", "memrchr", "strlen", "strnlen", "strcpy", "strncpy",
      "stpcpy", "stpncpy", "strcat", "strncat", "strcmp", "strncmp",
      "strcasecmp", "strncasecmp", "strcoll", "strxfrm", "strchr", "strrchr",
      "strstr", "strcasestr", "strspn", "strcspn", "strpbrk", "strtok",
      "strtok_r", "strdup", "strndup", "strerror", "strerror_r", "strsignal",
      "strtol", "strtoul", "strtoll", "strtoull", "strtod", "strtof", "strtold",
      "strtoimax", "strtoumax", "atoi", "atol", "atoll", "atof", "abs", "labs",
      "llabs", "toupper", "tolower", "isalpha", "isdigit", "isalnum", "isspace",
      "isupper", "islower", "isxdigit", "ispunct", "isprint", "iscntrl",
      "isgraph", "__ctype_b_loc", "__ctype_tolower_loc", "__ctype_toupper_loc",
      "__errno_location", "localeconv", "setlocale", "mbrtowc", "wcrtomb",
      "mbstowcs", "wcstombs", "mblen", "mbtowc", "wctomb", "__strdup",
      "__memcpy_chk", "__memset_chk", "__memmove_chk", "__strcpy_chk",
      "__strcat_chk", "__strncpy_chk", "__sprintf_chk", "__snprintf_chk",
      "__vsnprintf_chk", "__vsprintf_chk", "__fprintf_chk", "__printf_chk",
      "__vfprintf_chk", "__fread_chk", "__read_chk", "__stack_chk_fail",
      "__assert_fail", "abort", "__isoc99_sscanf", "__isoc99_fscanf",
      "__isoc99_scanf", "__isoc23_strtol", "__isoc23_strtoul",
      "__isoc23_strtoll", "__isoc23_strtoull",
      // stdio
      "printf", "fprintf", "sprintf", "snprintf", "vprintf", "vfprintf",
      "vsprintf", "vsnprintf", "dprintf", "vdprintf", "asprintf", "vasprintf",
      "puts", "fputs", "putc", "fputc", "putchar", "_IO_putc", "getc", "fgetc",
      "getchar", "_IO_getc", "ungetc", "fgets", "gets", "getline", "getdelim",
      "fread", "fwrite", "fopen", "fdopen", "freopen", "fclose", "fflush",
      "fseek", "fseeko", "ftell", "ftello", "rewind", "feof", "ferror",
      "clearerr", "fileno", "setvbuf", "setbuf", "tmpfile", "tmpnam", "remove",
      "rename", "perror", "sscanf", "fscanf", "scanf", "popen", "pclose",
      "getc_unlocked", "putc_unlocked", "fflush_unlocked", "fputs_unlocked",
      "fwrite_unlocked", "fread_unlocked",
      // system
      "open", "open64", "openat", "close", "read", "write", "pread", "pwrite",
      "lseek", "lseek64", "stat", "fstat", "lstat", "stat64", "fstat64",
      "access", "unlink", "mkdir", "rmdir", "chdir", "getcwd", "getenv",
      "secure_getenv", "setenv", "unsetenv", "time", "clock", "clock_gettime",
      "gettimeofday", "localtime", "localtime_r", "gmtime", "gmtime_r",
      "mktime", "strftime", "difftime", "sleep", "usleep", "nanosleep",
      "getpid", "getppid", "getuid", "geteuid", "isatty", "rand", "srand",
      "random", "srandom", "rand_r", "drand48", "mmap", "munmap", "mprotect",
      "dlsym", "dlerror", "system", "pipe", "dup", "dup2", "fcntl", "ioctl",
      "select", "poll", "waitpid", "wait", "execv", "execvp", "execve",
      "pthread_mutex_lock", "pthread_mutex_unlock", "pthread_mutex_trylock",
      "pthread_mutex_init", "pthread_mutex_destroy", "pthread_join",
      "pthread_self", "pthread_equal", "pthread_cond_wait",
      "pthread_cond_signal", "pthread_cond_broadcast", "pthread_cond_init",
      "pthread_cond_destroy", "pthread_key_create", "pthread_getspecific",
      "pthread_setspecific", "sched_yield",
      // math
      "sqrt", "sqrtf", "pow", "powf", "exp", "expf", "exp2", "log", "logf",
      "log2", "log10", "log1p", "expm1", "sin", "cos", "tan", "asin", "acos",
      "atan", "atan2", "sinh", "cosh", "tanh", "floor", "ceil", "round",
      "trunc", "fmod", "fmodf", "frexp", "ldexp", "modf", "fabs", "fabsf",
      "hypot", "cbrt", "fmin", "fmax", "lround", "llround", "lrint", "rint",
      "nearbyint", "copysign", "nan", "erf", "erfc", "lgamma", "tgamma",
      // C++ runtime pieces that never call user code
      "__cxa_allocate_exception", "__cxa_free_exception", "__cxa_begin_catch",
      "__cxa_end_catch", "__cxa_guard_acquire", "__cxa_guard_release",
      "__cxa_guard_abort", "__cxa_pure_virtual", "__gxx_personality_v0",
      "_Znwm", "_Znam", "_ZdlPv", "_ZdaPv", "_ZdlPvm", "_ZdaPvm",
      "_ZnwmRKSt9nothrow_t", "_ZnamRKSt9nothrow_t", "_ZnwmSt11align_val_t",
      "_ZdlPvSt11align_val_t", "_ZdlPvmSt11align_val_t"};
  return Known.contains(Name);
}

bool WeightlessInfo::isWeightlessDeclaration(const Function &F,
                                             const SamplerOptions &Opts) {
  StringRef Name = F.getName();
  if (F.isIntrinsic() || Name.starts_with(abi::Prefix))
    return true;
  // What the user says wins, both ways round for callbacks: a user who names
  // qsort weightless has checked that its comparator has no sites.
  if (Opts.Weightless.count(Name.str()) || F.hasFnAttribute("sampler-weightless"))
    return true;
  if (Opts.FrontEnd && Opts.FrontEnd->Weightless.contains(Name))
    return true;
  if (takesCallbacks(Name) || F.hasFnAttribute(Attribute::ReturnsTwice))
    return false;
  if (Opts.FrontEnd && Opts.FrontEnd->SystemHeaderFunctions.contains(Name))
    return true;
  return isKnownLibcFunction(Name);
}

WeightlessInfo::WeightlessInfo(Module &M, const SamplerOptions &Opts,
                               const DenseSet<const Function *> &HasSites)
    : Opts(Opts) {
  // Seeds: functions with sites, interposable definitions (another unit's
  // version may be the one that runs), and declarations not known weightless.
  for (Function &F : M) {
    if (HasSites.contains(&F))
      Weighty.insert(&F);
    else if (F.isDeclaration() ? !isWeightlessDeclaration(F, Opts)
                               : F.isInterposable())
      Weighty.insert(&F);
  }
  // Least fixpoint: a function becomes weighty once it has a weighty call.
  bool Changed = true;
  while (Changed) {
    Changed = false;
    for (Function &F : M) {
      if (F.isDeclaration() || Weighty.contains(&F))
        continue;
      for (Instruction &I : instructions(F))
        if (auto *CB = dyn_cast<CallBase>(&I); CB && isWeightyCall(*CB)) {
          Weighty.insert(&F);
          Changed = true;
          break;
        }
    }
  }
}

bool WeightlessInfo::isWeightyCall(const CallBase &CB) const {
  if (CB.isInlineAsm())
    return false;
  if (CB.hasFnAttr(Attribute::ReturnsTwice))
    return true;
  const Function *Callee =
      dyn_cast<Function>(CB.getCalledOperand()->stripPointerCasts());
  if (!Callee)
    return true; // an indirect call may reach anything
  if (Callee->getName() == abi::SiteMarker)
    return false;
  return Weighty.contains(Callee);
}

// The program's own signal handlers keep working. The runtime installs its handler
// only for fatal signals whose disposition is still the default when it starts:
//  - a handler installed before (here by a library's constructor) is kept: it runs
//    on the crash (and _exits with 42: no report);
//  - a handler the program installs after the runtime started replaces the runtime's:
//    it runs on the crash (and _exits with 43: no report; docs/runtime.md);
//  - with neither, the runtime reports the crash and the process dies by SIGSEGV.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %clang -O1 -fPIC -shared %S/Inputs/early_handler.c -o %t/libearly.so
// RUN: %sampler-cc -O1 %s -L%t -learly -Wl,-rpath,%t -o %t/prog
// RUN: not env INSTALL_EARLY_HANDLER=1 SAMPLER_FILE=%t/early.report %t/prog > %t/early.out
// RUN: FileCheck %s --check-prefix=EARLY < %t/early.out
// RUN: not test -e %t/early.report
// RUN: not env SAMPLER_FILE=%t/later.report %t/prog later > %t/later.out
// RUN: FileCheck %s --check-prefix=LATER < %t/later.out
// RUN: not test -e %t/later.report
// RUN: not --crash env SAMPLER_FILE=%t/none.report %t/prog > %t/none.out
// RUN: FileCheck %s --check-prefix=NONE < %t/none.out
// RUN: grep -x 'end.signal.11' %t/none.report

// EARLY: SIGSEGV is the program's
// EARLY-NEXT: early handler
// LATER: SIGSEGV is the runtime's
// LATER-NEXT: later handler
// NONE: SIGSEGV is the runtime's
// NONE-NOT: handler

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int *volatile null_pointer;

static void later_handler(int sig) {
  (void)sig;
  static const char msg[] = "later handler\n";
  write(1, msg, sizeof msg - 1);
  _exit(43);
}

int main(int argc, char **argv) {
  struct sigaction now;
  sigaction(SIGSEGV, NULL, &now);
  // The runtime's handler runs on the alternate stack (SA_ONSTACK); the early one not.
  printf("SIGSEGV is the %s\n", now.sa_handler == SIG_DFL      ? "default"
                                : (now.sa_flags & SA_ONSTACK) ? "runtime's"
                                                              : "program's");
  fflush(stdout);
  if (argc > 1 && strcmp(argv[1], "later") == 0) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = later_handler;
    sigaction(SIGSEGV, &sa, NULL);
  }
  *null_pointer = 1;
  return 0;
}

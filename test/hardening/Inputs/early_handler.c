/* A plain (uninstrumented) library that installs a SIGSEGV handler from its
 * constructor: libraries' constructors run before the program's, so this handler is
 * in place before the runtime starts (as with a crash reporter loaded early). */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void on_segv(int sig) {
  (void)sig;
  static const char msg[] = "early handler\n";
  write(1, msg, sizeof msg - 1);
  _exit(42);
}

__attribute__((constructor)) static void install(void) {
  if (!getenv("INSTALL_EARLY_HANDLER"))
    return;
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_segv;
  sigaction(SIGSEGV, &sa, NULL);
}

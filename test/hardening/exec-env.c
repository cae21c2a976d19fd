// exec'd programs do not inherit the run's settings unless asked: once the runtime
// has read the SAMPLER_* variables, it removes them from the environment, so a
// program the run execs (often instrumented too) starts with the defaults instead of
// writing over this run's report or reusing its seed. SAMPLER_INHERIT=1 keeps them.
// The run itself still uses them (its report has sparsity 7).
// RUN: rm -rf %t && mkdir -p %t
// RUN: %sampler-cc -O1 %s -o %t/prog
// RUN: env SAMPLER_SPARSITY=7 SAMPLER_SEED=42 SAMPLER_VERBOSE=0 SAMPLER_FILE=%t/r.report %t/prog | FileCheck %s --check-prefix=SCRUB
// RUN: grep -x 'sparsity.7' %t/r.report
// RUN: env SAMPLER_INHERIT=1 SAMPLER_SPARSITY=7 SAMPLER_SEED=42 SAMPLER_FILE=%t/i.report %t/prog | FileCheck %s --check-prefix=INHERIT
// RUN: grep -x 'sparsity.7' %t/i.report
// An invalid SAMPLER_INHERIT is reported and taken as 0.
// RUN: env SAMPLER_INHERIT=yes SAMPLER_SPARSITY=7 SAMPLER_FILE=%t/b.report %t/prog 2> %t/b.err | FileCheck %s --check-prefix=SCRUB
// RUN: FileCheck %s --check-prefix=BAD < %t/b.err

// SCRUB: in the program: unset
// SCRUB-NEXT: exec'd: unset unset unset unset unset
// INHERIT: in the program: 7
// INHERIT-NEXT: exec'd: 7 42 {{.*}}i.report unset 1
// BAD: sampler: SAMPLER_INHERIT='yes' is not 0 or 1; using 0

#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

int main(void) {
  const char *d = getenv("SAMPLER_SPARSITY");
  printf("in the program: %s\n", d ? d : "unset");
  fflush(stdout);
  pid_t pid = fork();
  if (pid == 0) {
    execl("/bin/sh", "sh", "-c",
          "echo \"exec'd: ${SAMPLER_SPARSITY-unset} ${SAMPLER_SEED-unset} "
          "${SAMPLER_FILE-unset} ${SAMPLER_VERBOSE-unset} ${SAMPLER_INHERIT-unset}\"",
          (char *)NULL);
    _exit(127);
  }
  int status;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

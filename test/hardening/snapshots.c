// Report snapshots (__sampler_write_report) written by several threads at once, while
// the run ends: every snapshot is complete (each thread has its own temporary file),
// and none replaces the run's report, however the renames interleave. 20 fork
// children each start 4 threads writing snapshots in a loop and exit while they run;
// the parent checks each child's report: complete, and "end exit 0".
// RUN: rm -rf %t && mkdir -p %t
// RUN: %sampler-cc -O1 %s -o %t/prog -lpthread
// RUN: env SAMPLER_FILE=%t/r.%%p.report %t/prog %t 2> %t/err | FileCheck %s
// RUN: count 0 < %t/err
// No temporary file is left behind: the run's end waits for the snapshots in flight.
// RUN: ls %t | not grep tmp
// CHECK: 20 of 20 reports say end exit 0

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

void __sampler_write_report(void); /* runtime/sampler_abi.h */

static void *snapshots(void *arg) {
  (void)arg;
  for (;;)
    __sampler_write_report();
  return NULL;
}

static int check(const char *dir, pid_t pid) {
  char path[4096], buf[1 << 16];
  snprintf(path, sizeof path, "%s/r.%d.report", dir, (int)pid);
  FILE *f = fopen(path, "r");
  if (!f) {
    printf("no report %s\n", path);
    return 0;
  }
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  fclose(f);
  buf[n] = '\0';
  const char *end = "end-of-report\n";
  if (n < strlen(end) || strcmp(buf + n - strlen(end), end) != 0) {
    printf("%s: incomplete\n", path);
    return 0;
  }
  if (!strstr(buf, "\nend\texit\t0\n")) {
    printf("%s: not the run's report\n", path);
    return 0;
  }
  return 1;
}

int main(int argc, char **argv) {
  if (argc != 2)
    return 2;
  int good = 0;
  for (int i = 0; i < 20; i++) {
    fflush(stdout); // the child's exit must not print our lines again
    pid_t pid = fork();
    if (pid == 0) {
      pthread_t t;
      for (int k = 0; k < 4; k++)
        pthread_create(&t, NULL, snapshots, NULL);
      struct timespec ms = {0, (1 + i % 3) * 1000000};
      nanosleep(&ms, NULL);
      exit(0);
    }
    int status;
    waitpid(pid, &status, 0);
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
      good += check(argv[1], pid);
  }
  printf("%d of 20 reports say end exit 0\n", good);
  return 0;
}

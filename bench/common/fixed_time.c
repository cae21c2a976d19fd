/* A fixed clock, process id and host name for scripts/bench.sh: repeatable instruction counts.
 *
 * sqlite's speedtest1 prints the time of each test (gettimeofday, through the unix VFS), and
 * ccrypt hashes the host name, the time of day and the process id into the nonce of every
 * encrypted file: both change the program's output and, by a few instructions (digits printed,
 * hash rounds), its instruction count from run to run. The benchmark builds of those two
 * programs are compiled with
 *     -Dgettimeofday=bench_fixed_gettimeofday -Dgetpid=bench_fixed_getpid
 *     -Dgethostname=bench_fixed_gethostname
 * (object-like macros: <sys/time.h> and <unistd.h> then declare these names with the libc
 * prototypes) and link this file, compiled with the same compiler and flags as the program.
 * Every configuration gets the same, so the comparison stays fair. Do not name the libc
 * functions here: the macros rename them.
 */
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

int bench_fixed_gettimeofday(struct timeval *tv, void *tz) {
  (void)tz;
  tv->tv_sec = 1700000000;
  tv->tv_usec = 0;
  return 0;
}

pid_t bench_fixed_getpid(void) { return 4242; }

int bench_fixed_gethostname(char *name, size_t len) {
  static const char host[] = "bench";
  if (len < sizeof host)
    return -1;
  memcpy(name, host, sizeof host);
  return 0;
}

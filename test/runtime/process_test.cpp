// Whole-process behaviour: the report at exit, in a fork child, and on fatal signals.
// Each case runs in a child process (fork) so that exits and crashes are real; the
// parent checks the wait status and the report the child left behind.
#include <csignal>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "test_support.h"

using namespace sampler_test;

namespace {

// Run body in a child process; return its wait status. The child must end by itself
// (exit or signal); if body returns, the child _exits with 100 (no report).
int run_child(const std::function<void()> &body) {
  fflush(nullptr);
  pid_t pid = fork();
  if (pid == 0) {
    body();
    _exit(100);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  return status;
}

pid_t last_child_pid(const TempDir &dir) {
  // The only report in dir is the child's: r.<pid>.report.
  for (const auto &name : dir.entries())
    if (name.rfind("r.", 0) == 0 && name.size() > 9 && name.substr(name.size() - 7) == ".report")
      return static_cast<pid_t>(std::stol(name.substr(2)));
  return -1;
}

std::string line_starting(const std::vector<std::string> &lines, const std::string &prefix) {
  for (const auto &l : lines)
    if (l.rfind(prefix, 0) == 0)
      return l;
  return "<no line " + prefix + ">";
}

class Process : public ::testing::Test {
protected:
  void SetUp() override { __sampler_rt_registry_reset_for_test(); }
  void TearDown() override { __sampler_rt_registry_reset_for_test(); }
};

// Crash in a child with the given action, and check what the report says.
void expect_signal_report(const std::function<void()> &crash, int sig) {
  TempDir dir;
  const std::string pattern = dir.file("r.%p.report");
  Env env({{"SAMPLER_FILE", pattern.c_str()}});
  FakeUnit u(0xa0, 4, 1, "crash.c");
  int status = run_child([&] {
    __sampler_register_unit(&u.unit);
    __atomic_fetch_add(&u.cells[2], 9, __ATOMIC_RELAXED);
    crash();
  });
  ASSERT_TRUE(WIFSIGNALED(status)) << "status " << status;
  EXPECT_EQ(WTERMSIG(status), sig);
  pid_t child = last_child_pid(dir);
  ASSERT_GT(child, 0) << ::testing::PrintToString(dir.entries());
  auto lines = read_lines(dir.file("r." + std::to_string(child) + ".report"));
  ASSERT_FALSE(lines.empty());
  EXPECT_EQ(lines[0], "sampler-report\t1");
  EXPECT_EQ(line_starting(lines, "pid\t"), "pid\t" + std::to_string(child));
  EXPECT_EQ(line_starting(lines, "end\t"), "end\tsignal\t" + std::to_string(sig));
  EXPECT_EQ(line_starting(lines, "unit\t"), "unit\t" + u.sig_hex() + "\t4\t1\tcrash.c");
  EXPECT_EQ(line_starting(lines, "counts"), "counts\t2:9");
  EXPECT_EQ(lines.back(), "end-of-report");
  // Only the report: no temporary file left behind.
  EXPECT_EQ(dir.entries().size(), 1u) << ::testing::PrintToString(dir.entries());
}

int *volatile null_pointer = nullptr;

// Unbounded as far as the compiler can tell (the limit is never reached).
volatile int recursion_limit = 1 << 30;
__attribute__((noinline)) int recurse(int depth) {
  volatile char frame[512];
  frame[0] = static_cast<char>(depth);
  if (depth >= recursion_limit)
    return 0;
  return recurse(depth + 1) + frame[0];
}

} // namespace

TEST_F(Process, ExitStatusIsReported) {
  TempDir dir;
  const std::string pattern = dir.file("r.%p.report");
  Env env({{"SAMPLER_FILE", pattern.c_str()}, {"SAMPLER_SEED", "77"}});
  FakeUnit u(0xb0, 2, 1, "exit.c");
  int status = run_child([&] {
    __sampler_register_unit(&u.unit);
    u.cells[1] = 5;
    exit(3);
  });
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 3);
  pid_t child = last_child_pid(dir);
  auto lines = read_lines(dir.file("r." + std::to_string(child) + ".report"));
  EXPECT_EQ(line_starting(lines, "end\t"), "end\texit\t3");
  EXPECT_EQ(line_starting(lines, "counts"), "counts\t1:5");
  EXPECT_EQ(lines.back(), "end-of-report");
}

TEST_F(Process, ExitStatusIsTheLowEightBits) {
  TempDir dir;
  const std::string pattern = dir.file("r.%p.report");
  Env env({{"SAMPLER_FILE", pattern.c_str()}});
  int status = run_child([&] { exit(256 + 5); });
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 5);
  auto lines = read_lines(dir.file("r." + std::to_string(last_child_pid(dir)) + ".report"));
  EXPECT_EQ(line_starting(lines, "end\t"), "end\texit\t5");
}

TEST_F(Process, ForkChildWritesItsOwnReportWithItsOwnSeed) {
  TempDir dir;
  const std::string pattern = dir.file("r.%p.report");
  Env env({{"SAMPLER_FILE", pattern.c_str()}, {"SAMPLER_SEED", "0x1111"}});
  FakeUnit u(0xc0, 3, 1, "fork.c");
  __sampler_register_unit(&u.unit);
  u.cells[0] = 5; // before the fork: part of both runs
  std::vector<std::string> child_seeds;
  // The parent part-way through a gap of the process's countdown
  // (-fsampler-single-threaded): the child starts afresh on it too.
  __sampler_countdown_process = 12345;
  for (int k = 0; k < 2; ++k) {
    int status = run_child([&] {
      // A fresh gap: the child re-seeds at its first site instead of finishing the
      // parent's countdown (which would sample in lock-step with the parent).
      bool fresh = __sampler_countdown == -1 && __sampler_countdown_process == -1;
      u.cells[1] += 7;
      exit(fresh ? 7 : 1);
    });
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 7);
    pid_t child = last_child_pid(dir);
    ASSERT_GT(child, 0);
    ASSERT_NE(child, getpid());
    const std::string file = dir.file("r." + std::to_string(child) + ".report");
    auto lines = read_lines(file);
    EXPECT_EQ(line_starting(lines, "pid\t"), "pid\t" + std::to_string(child));
    EXPECT_EQ(line_starting(lines, "end\t"), "end\texit\t7");
    EXPECT_EQ(line_starting(lines, "counts"), "counts\t0:5 1:7");
    child_seeds.push_back(line_starting(lines, "seed\t"));
    EXPECT_NE(child_seeds.back(), "seed\t0x0000000000001111");
    unlink(file.c_str());
  }
  EXPECT_NE(child_seeds[0], child_seeds[1]); // each child has its own stream
  EXPECT_EQ(__sampler_countdown_process, 12345); // the parent's, untouched
  __sampler_countdown_process = -1;
  // The parent is unaffected: its seed, its pid, its counts.
  EXPECT_EQ(__sampler_rt_opts.seed, 0x1111u);
  __sampler_write_report();
  auto lines = read_lines(dir.file("r." + std::to_string(getpid()) + ".report"));
  EXPECT_EQ(line_starting(lines, "pid\t"), "pid\t" + std::to_string(getpid()));
  EXPECT_EQ(line_starting(lines, "seed\t"), "seed\t0x0000000000001111");
  EXPECT_EQ(line_starting(lines, "counts"), "counts\t0:5");
  __sampler_unregister_unit(&u.unit);
}

TEST_F(Process, ForkChildSeedIsRandomWithoutSamplerSeed) {
  TempDir dir;
  const std::string pattern = dir.file("r.%p.report");
  Env env({{"SAMPLER_FILE", pattern.c_str()}, {"SAMPLER_SEED", nullptr}});
  const uint64_t parent_seed = __sampler_rt_opts.seed;
  int status = run_child([] { exit(0); });
  ASSERT_TRUE(WIFEXITED(status));
  auto lines = read_lines(dir.file("r." + std::to_string(last_child_pid(dir)) + ".report"));
  char parent_line[64];
  snprintf(parent_line, sizeof parent_line, "seed\t0x%016llx",
           static_cast<unsigned long long>(parent_seed));
  EXPECT_NE(line_starting(lines, "seed\t"), parent_line);
  EXPECT_EQ(line_starting(lines, "seed\t").size(), std::string(parent_line).size());
}

TEST_F(Process, SegfaultByRaise) { expect_signal_report([] { raise(SIGSEGV); }, SIGSEGV); }

TEST_F(Process, SegfaultByNullPointer) {
  expect_signal_report([] { *null_pointer = 1; }, SIGSEGV);
}

TEST_F(Process, StackOverflowIsReportedFromTheAlternateStack) {
  expect_signal_report([] { recurse(0); }, SIGSEGV);
}

TEST_F(Process, Abort) { expect_signal_report([] { abort(); }, SIGABRT); }

TEST_F(Process, FloatingPointException) {
  expect_signal_report([] { raise(SIGFPE); }, SIGFPE);
}

TEST_F(Process, Terminate) {
  expect_signal_report([] { kill(getpid(), SIGTERM); pause(); }, SIGTERM);
}

TEST_F(Process, Interrupt) { expect_signal_report([] { raise(SIGINT); }, SIGINT); }

TEST_F(Process, TrapAndBusAndIllegal) {
  expect_signal_report(
      [] {
#if defined(__x86_64__) || defined(__i386__)
        asm volatile("int3"); // a real trap: returning from the handler would go on
#else
        raise(SIGTRAP);
#endif
      },
      SIGTRAP);
  expect_signal_report([] { raise(SIGBUS); }, SIGBUS);
  expect_signal_report([] { raise(SIGILL); }, SIGILL);
}

TEST_F(Process, HandlersAreInstalledOnlyWhereTheDispositionIsDefault) {
  int status = run_child([] {
    // The program already handles SIGINT and ignores SIGTERM; SIGSEGV is default.
    struct sigaction mine = {};
    mine.sa_handler = [](int) {};
    sigaction(SIGINT, &mine, nullptr);
    signal(SIGTERM, SIG_IGN);
    signal(SIGSEGV, SIG_DFL);
    __sampler_rt_signals_install();
    struct sigaction now;
    sigaction(SIGINT, nullptr, &now);
    bool ok = now.sa_handler == mine.sa_handler;
    sigaction(SIGTERM, nullptr, &now);
    ok = ok && now.sa_handler == SIG_IGN;
    sigaction(SIGSEGV, nullptr, &now);
    ok = ok && now.sa_handler == __sampler_rt_fatal_signal_handler &&
         (now.sa_flags & SA_ONSTACK);
    _exit(ok ? 0 : 1);
  });
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0);
}

TEST_F(Process, ProgramHandlerInstalledLaterWins) {
  TempDir dir;
  const std::string pattern = dir.file("r.%p.report");
  Env env({{"SAMPLER_FILE", pattern.c_str()}});
  int status = run_child([] {
    signal(SIGTERM, [](int) { _exit(42); });
    raise(SIGTERM);
  });
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 42);
  EXPECT_TRUE(dir.entries().empty()); // _exit: no report, and our handler never ran
}

TEST_F(Process, FatalSignalFromAnExitHandlerEndsTheRun) {
  TempDir dir;
  const std::string pattern = dir.file("r.%p.report");
  Env env({{"SAMPLER_FILE", pattern.c_str()}});
  int status = run_child([] {
    // An exit handler that runs before ours (registered later) crashes the run: the
    // report says so, and the exit hook does not write a second one over it.
    atexit([] { raise(SIGTERM); }); // runs before our on_exit hook (registered earlier)
    exit(0);
  });
  ASSERT_TRUE(WIFSIGNALED(status));
  auto lines = read_lines(dir.file("r." + std::to_string(last_child_pid(dir)) + ".report"));
  EXPECT_EQ(line_starting(lines, "end\t"), "end\tsignal\t15");
}

// A SIGTERM arriving while the exit report is being written must not cut it short.
// The report goes into a FIFO and is larger than the pipe buffer, so the writer is
// certainly blocked in write(2), mid-report, when the signal arrives.
TEST_F(Process, SignalDuringTheExitReportWaitsForIt) {
  TempDir dir;
  const std::string fifo = dir.file("fifo");
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  Env env({{"SAMPLER_FILE", fifo.c_str()}});
  int rfd = open(fifo.c_str(), O_RDONLY | O_NONBLOCK);
  ASSERT_GE(rfd, 0);
  FakeUnit big(0xd0, 50000, 1, "big.c");
  for (auto &c : big.cells)
    c = 123456789;
  fflush(nullptr);
  pid_t pid = fork();
  if (pid == 0) {
    __sampler_register_unit(&big.unit);
    exit(0);
  }
  usleep(300 * 1000); // the child fills the pipe and blocks in write(2)
  kill(pid, SIGTERM);
  usleep(100 * 1000);
  fcntl(rfd, F_SETFL, fcntl(rfd, F_GETFL) & ~O_NONBLOCK);
  std::string data;
  char buf[65536];
  ssize_t n;
  while ((n = read(rfd, buf, sizeof buf)) > 0)
    data.append(buf, static_cast<size_t>(n));
  close(rfd);
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_GT(data.size(), 100000u);
  EXPECT_EQ(data.substr(data.size() - 14), "end-of-report\n");
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM) << status;
}

// Threads and copies: every thread gets an alternate signal stack on its first draw
// (and gives it back when it exits); concurrent report snapshots never collide and
// never replace the run's report; this copy of the runtime is its own primary and
// serves other copies through its anchor.
#include <atomic>
#include <cmath>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "test_support.h"

using namespace sampler_test;

namespace {

size_t mapping_count() {
  std::ifstream maps("/proc/self/maps");
  std::string line;
  size_t n = 0;
  while (std::getline(maps, line))
    ++n;
  return n;
}

stack_t altstack_of_this_thread() {
  stack_t st;
  sigaltstack(nullptr, &st);
  return st;
}

} // namespace

TEST(ThreadStart, EveryThreadGetsAnAlternateSignalStackOnItsFirstDraw) {
  Env env({{"SAMPLER_SPARSITY", "10"}});
  stack_t before{}, after{};
  std::thread t([&] {
    before = altstack_of_this_thread();
    (void)__sampler_next_countdown(1);
    after = altstack_of_this_thread();
  });
  t.join();
  EXPECT_TRUE(before.ss_flags & SS_DISABLE);
  EXPECT_FALSE(after.ss_flags & SS_DISABLE);
  EXPECT_GE(after.ss_size, 64u * 1024);
}

TEST(ThreadStart, AThreadsOwnAlternateStackIsKept) {
  Env env({{"SAMPLER_SPARSITY", "10"}});
  static char mine[128 * 1024];
  stack_t after{};
  std::thread t([&] {
    stack_t st{};
    st.ss_sp = mine;
    st.ss_size = sizeof mine;
    ASSERT_EQ(sigaltstack(&st, nullptr), 0);
    (void)__sampler_next_countdown(1);
    after = altstack_of_this_thread();
  });
  t.join();
  EXPECT_EQ(after.ss_sp, static_cast<void *>(mine));
}

TEST(ThreadStart, StacksAreFreedWhenThreadsExit) {
  Env env({{"SAMPLER_SPARSITY", "10"}});
  // Warm up (thread stacks cached by the C library, allocator arenas).
  for (int i = 0; i < 4; ++i)
    std::thread([] { (void)__sampler_next_countdown(1); }).join();
  const size_t before = mapping_count();
  for (int i = 0; i < 200; ++i)
    std::thread([] { (void)__sampler_next_countdown(1); }).join();
  // 200 leaked stacks would be 200 (or 400, with their guard pages) more mappings.
  EXPECT_LT(mapping_count(), before + 20);
}

TEST(Copies, ThisCopyIsItsOwnPrimary) {
  EXPECT_EQ(__sampler_rt_primary(), nullptr);
  EXPECT_EQ(__sampler_rt_anchor.leader, &__sampler_rt_anchor); // found through its note
  EXPECT_EQ(__sampler_rt_anchor.version, SAMPLER_RT_ANCHOR_VERSION);
  EXPECT_EQ(__sampler_rt_anchor.size, sizeof(sampler_rt_anchor));
  EXPECT_EQ(__sampler_rt_copies_elect(), nullptr); // a second election changes nothing
}

TEST(Copies, FreshGapsForOtherCopies) {
  {
    Env env({{"SAMPLER_SPARSITY", "1"}});
    for (int i = 0; i < 10; ++i)
      EXPECT_EQ(__sampler_rt_anchor.fresh_gap(), 1);
  }
  {
    Env env({{"SAMPLER_SPARSITY", "off"}});
    EXPECT_EQ(__sampler_rt_anchor.fresh_gap(), 0);
  }
  Env env({{"SAMPLER_SPARSITY", "4"}});
  const int n = 20000;
  double sum = 0;
  for (int i = 0; i < n; ++i) {
    int64_t g = __sampler_rt_anchor.fresh_gap();
    ASSERT_GE(g, 1);
    sum += static_cast<double>(g);
  }
  // Geometric with mean 4: variance (1 - p) / p^2 = 12.
  EXPECT_NEAR(sum / n, 4.0, 6 * std::sqrt(12.0 / n));
}

class Snapshots : public ::testing::Test {
protected:
  void SetUp() override { __sampler_rt_registry_reset_for_test(); }
  void TearDown() override { __sampler_rt_registry_reset_for_test(); }
};

TEST_F(Snapshots, ThreadsWritingAtOnceEachWriteACompleteReport) {
  TempDir dir;
  const std::string file = dir.file("r.report");
  Env env({{"SAMPLER_FILE", file.c_str()}});
  FakeUnit u(0x5a, 2000, 1, "many.c");
  for (auto &c : u.cells)
    c = 1234567;
  __sampler_register_unit(&u.unit);
  StderrCapture cap;
  std::vector<std::thread> threads;
  for (int i = 0; i < 8; ++i)
    threads.emplace_back([] {
      for (int k = 0; k < 20; ++k)
        __sampler_write_report();
    });
  for (auto &t : threads)
    t.join();
  EXPECT_EQ(cap.finish(), ""); // before: "cannot write report ... No such file"
  EXPECT_EQ(read_lines(file).back(), "end-of-report");
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"r.report"}); // no temporary file left
  __sampler_unregister_unit(&u.unit);
}

TEST_F(Snapshots, ASnapshotAfterTheRunsEndDoesNotReplaceItsReport) {
  TempDir dir;
  const std::string file = dir.file("r.report");
  Env env({{"SAMPLER_FILE", file.c_str()}});
  fflush(nullptr);
  pid_t pid = fork();
  if (pid == 0) {
    __sampler_rt_report_final(SAMPLER_END_EXIT, 5, 0);
    __sampler_write_report(); // e.g. from a destructor that runs after the exit hook
    _exit(0);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status));
  bool found = false;
  for (const auto &l : read_lines(file))
    found = found || l == "end\texit\t5";
  EXPECT_TRUE(found);
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"r.report"});
}

// The report: written exactly as docs/report-format.md says, atomically, with one-line
// errors that never crash, and with the snapshots of unregistered units.
#include <algorithm>
#include <cerrno>
#include <ctime>
#include <memory>
#include <fstream>
#include <string>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "test_support.h"

using namespace sampler_test;

namespace {

class Report : public ::testing::Test {
protected:
  void SetUp() override { __sampler_rt_registry_reset_for_test(); }
  void TearDown() override { __sampler_rt_registry_reset_for_test(); }

  // The fixed header of a report written now by __sampler_write_report, up to and
  // including the seed line; the time line is checked against [before, after].
  void expect_header(const std::vector<std::string> &lines, long before, long after,
                     const std::string &sparsity, const std::string &seed) {
    ASSERT_GE(lines.size(), 9u);
    EXPECT_EQ(lines[0], "sampler-report\t1");
    EXPECT_EQ(lines[1], "program\t" + self_exe());
    EXPECT_EQ(lines[2], "pid\t" + std::to_string(getpid()));
    EXPECT_EQ(lines[3], "host\t" + host_name());
    ASSERT_EQ(lines[4].substr(0, 5), "time\t");
    long t = std::stol(lines[4].substr(5));
    EXPECT_GE(t, before);
    EXPECT_LE(t, after);
    EXPECT_EQ(lines[5], "end\tunknown");
    EXPECT_EQ(lines[6], "sparsity\t" + sparsity);
    EXPECT_EQ(lines[7], "seed\t" + seed);
  }
};

std::string pid_path(const TempDir &dir, const std::string &prefix) {
  return dir.file(prefix + std::to_string(getpid()) + ".report");
}

} // namespace

TEST_F(Report, TwoUnitsExactly) {
  TempDir dir;
  const std::string pattern = dir.file("r.%p.report");
  Env env({{"SAMPLER_FILE", pattern.c_str()},
           {"SAMPLER_SEED", "0x0123456789abcdef"},
           {"SAMPLER_SPARSITY", "100"}});
  FakeUnit a(0x00, 5, 1, "src/a.c");
  FakeUnit b(0xf0, 3, 0, "dir\\b\tc.c"); // escaped in the report
  a.cells = {0, 12, 0, 0, 99};
  __sampler_register_unit(&a.unit);
  __sampler_register_unit(&b.unit);
  long before = realtime_seconds();
  __sampler_write_report();
  long after = realtime_seconds();

  const std::string path = pid_path(dir, "r.");
  auto lines = read_lines(path);
  expect_header(lines, before, after, "100", "0x0123456789abcdef");
  std::vector<std::string> rest(lines.begin() + 8, lines.end());
  EXPECT_EQ(rest, (std::vector<std::string>{
                      "unit\t000102030405060708090a0b0c0d0e0f\t5\t1\tsrc/a.c",
                      "counts\t1:12 4:99",
                      "unit\tf0f1f2f3f4f5f6f7f8f9fafbfcfdfeff\t3\t0\tdir\\\\b\\tc.c",
                      "counts",
                      "end-of-report",
                  }));
  EXPECT_EQ(read_file(path).back(), '\n');
  struct stat st;
  ASSERT_EQ(stat(path.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  // Written under a temporary name and renamed: nothing else is left behind.
  EXPECT_EQ(dir.entries(), std::vector<std::string>{"r." + std::to_string(getpid()) + ".report"});
  __sampler_unregister_unit(&a.unit);
  __sampler_unregister_unit(&b.unit);
}

TEST_F(Report, CountsFollowUpdatesAndLargeValues) {
  TempDir dir;
  const std::string file = dir.file("r.report");
  Env env({{"SAMPLER_FILE", file.c_str()}, {"SAMPLER_SPARSITY", "off"}, {"SAMPLER_SEED", "1"}});
  FakeUnit a(0x10, 3, 0, "a.c");
  __sampler_register_unit(&a.unit);
  __atomic_fetch_add(&a.cells[2], UINT64_MAX, __ATOMIC_RELAXED);
  __sampler_write_report();
  auto lines = read_lines(file);
  ASSERT_EQ(lines.size(), 11u);
  EXPECT_EQ(lines[6], "sparsity\toff");
  EXPECT_EQ(lines[7], "seed\t0x0000000000000001");
  EXPECT_EQ(lines[9], "counts\t2:18446744073709551615");
  // Written again: the new report replaces the old one.
  a.cells[2] = 0;
  a.cells[0] = 3;
  __sampler_write_report();
  lines = read_lines(file);
  ASSERT_EQ(lines.size(), 11u);
  EXPECT_EQ(lines[9], "counts\t0:3");
}

TEST_F(Report, NoUnits) {
  TempDir dir;
  const std::string file = dir.file("r.report");
  Env env({{"SAMPLER_FILE", file.c_str()}});
  __sampler_write_report();
  auto lines = read_lines(file);
  ASSERT_EQ(lines.size(), 9u);
  EXPECT_EQ(lines[8], "end-of-report");
}

TEST_F(Report, UnregisteredUnitKeepsASnapshot) {
  TempDir dir;
  const std::string file = dir.file("r.report");
  Env env({{"SAMPLER_FILE", file.c_str()}});
  FakeUnit live(0x20, 2, 1, "live.c");
  live.cells = {1, 0};
  auto gone = std::make_unique<FakeUnit>(0x40, 4, 1, "plugin.c");
  gone->cells = {0, 5, 0, 6};
  __sampler_register_unit(&gone->unit);
  __sampler_register_unit(&live.unit);
  __sampler_unregister_unit(&gone->unit);
  // As after dlclose: the unit's memory (counters and name) is gone or garbage.
  std::fill(gone->cells.begin(), gone->cells.end(), 0xdeadbeef);
  gone->name.assign(gone->name.size(), '#');
  gone.reset();
  __sampler_write_report();
  auto lines = read_lines(file);
  std::vector<std::string> rest(lines.begin() + 8, lines.end());
  EXPECT_EQ(rest, (std::vector<std::string>{
                      "unit\t202122232425262728292a2b2c2d2e2f\t2\t1\tlive.c",
                      "counts\t0:1",
                      "unit\t404142434445464748494a4b4c4d4e4f\t4\t1\tplugin.c",
                      "counts\t1:5 3:6",
                      "end-of-report",
                  }));
  __sampler_unregister_unit(&live.unit);
}

// An unconditional unit whose functions have plain and atomic copies
// (ThreadCopies.h) holds two halves of cells: the report gives each cell's sum,
// under the flags without SAMPLER_UNIT_HALVES; so does the snapshot kept when
// such a unit is unregistered, which a copy of the unit then adds to.
TEST_F(Report, HalvesAreSummedAndNotReported) {
  TempDir dir;
  const std::string file = dir.file("r.report");
  Env env({{"SAMPLER_FILE", file.c_str()}});
  FakeUnit live(0x20, 3, SAMPLER_UNIT_HALVES, "live.c");
  live.cells = {1, 0, 7, 2, 0, 0};
  live.unit.counters = live.cells.data();
  auto gone = std::make_unique<FakeUnit>(0x40, 2, SAMPLER_UNIT_HALVES, "plugin.c");
  gone->cells = {5, 0, 1, 3};
  gone->unit.counters = gone->cells.data();
  __sampler_register_unit(&live.unit);
  __sampler_register_unit(&gone->unit);
  __sampler_unregister_unit(&gone->unit);
  std::fill(gone->cells.begin(), gone->cells.end(), 0xdeadbeef);
  gone.reset();
  // The same unit loaded again, its counts added to the snapshot's.
  auto again = std::make_unique<FakeUnit>(0x40, 2, SAMPLER_UNIT_HALVES, "plugin.c");
  again->cells = {0, 10, 0, 20};
  again->unit.counters = again->cells.data();
  __sampler_register_unit(&again->unit);
  __sampler_unregister_unit(&again->unit);
  again.reset();
  __sampler_write_report();
  auto lines = read_lines(file);
  std::vector<std::string> rest(lines.begin() + 8, lines.end());
  EXPECT_EQ(rest, (std::vector<std::string>{
                      "unit\t202122232425262728292a2b2c2d2e2f\t3\t0\tlive.c",
                      "counts\t0:3 2:7",
                      "unit\t404142434445464748494a4b4c4d4e4f\t2\t0\tplugin.c",
                      "counts\t0:6 1:33",
                      "end-of-report",
                  }));
  __sampler_unregister_unit(&live.unit);
}

// A unit built -fsampler-single-threaded (SAMPLER_UNIT_PROCESS_COUNTDOWN) is a
// sampled unit to its readers: the flag is the runtime's, as is the warning
// that its threads shared the countdown, which a run with one thread does not
// get.
TEST_F(Report, ProcessCountdownFlagIsNotReported) {
  TempDir dir;
  const std::string file = dir.file("r.report");
  Env env({{"SAMPLER_FILE", file.c_str()}});
  FakeUnit u(0x70, 2, SAMPLER_UNIT_SAMPLED | SAMPLER_UNIT_PROCESS_COUNTDOWN, "st.c");
  u.cells = {4, 0};
  __sampler_register_unit(&u.unit);
  EXPECT_TRUE(__sampler_rt_registry_any_live(SAMPLER_UNIT_PROCESS_COUNTDOWN));
  __sampler_write_report();
  auto lines = read_lines(file);
  std::vector<std::string> rest(lines.begin() + 8, lines.end());
  EXPECT_EQ(rest, (std::vector<std::string>{
                      "unit\t707172737475767778797a7b7c7d7e7f\t2\t1\tst.c",
                      "counts\t0:4",
                      "end-of-report",
                  }));
  __sampler_unregister_unit(&u.unit);
  EXPECT_FALSE(__sampler_rt_registry_any_live(SAMPLER_UNIT_PROCESS_COUNTDOWN));
}

TEST_F(Report, CopiesOfOneUnitAreReportedOnceWithSummedCounts) {
  TempDir dir;
  const std::string file = dir.file("r.report");
  Env env({{"SAMPLER_FILE", file.c_str()}});
  // Loaded, unloaded, loaded again, unloaded again, loaded a third time; and a second
  // live copy (the same source in two shared objects).
  FakeUnit first(0x50, 3, 1, "u.c"), second(0x50, 3, 1, "u.c"), third(0x50, 3, 1, "u.c"),
      twin(0x50, 3, 1, "u.c"), other(0x60, 1, 1, "o.c");
  first.cells = {1, 0, 0};
  second.cells = {10, 0, 2};
  third.cells = {100, 0, 0};
  twin.cells = {1000, 0, 0};
  __sampler_register_unit(&first.unit);
  __sampler_unregister_unit(&first.unit);
  __sampler_register_unit(&second.unit);
  __sampler_unregister_unit(&second.unit);
  __sampler_register_unit(&other.unit);
  __sampler_register_unit(&third.unit);
  __sampler_register_unit(&twin.unit);
  __sampler_write_report();
  auto lines = read_lines(file);
  std::vector<std::string> rest(lines.begin() + 8, lines.end());
  EXPECT_EQ(rest, (std::vector<std::string>{
                      "unit\t606162636465666768696a6b6c6d6e6f\t1\t1\to.c",
                      "counts",
                      "unit\t505152535455565758595a5b5c5d5e5f\t3\t1\tu.c",
                      "counts\t0:1111 2:2",
                      "end-of-report",
                  }));
  // Only snapshots left: still one line, summed.
  __sampler_unregister_unit(&third.unit);
  __sampler_unregister_unit(&twin.unit);
  __sampler_unregister_unit(&other.unit);
  __sampler_write_report();
  lines = read_lines(file);
  rest.assign(lines.begin() + 8, lines.end());
  EXPECT_EQ(rest, (std::vector<std::string>{
                      "unit\t505152535455565758595a5b5c5d5e5f\t3\t1\tu.c",
                      "counts\t0:1111 2:2",
                      "unit\t606162636465666768696a6b6c6d6e6f\t1\t1\to.c",
                      "counts",
                      "end-of-report",
                  }));
}

TEST_F(Report, RegisteringTwiceAndUnknownUnitsAreHarmless) {
  TempDir dir;
  const std::string file = dir.file("r.report");
  Env env({{"SAMPLER_FILE", file.c_str()}});
  FakeUnit a(0x70, 1, 1, "a.c"), never(0x80, 1, 1, "never.c");
  a.cells[0] = 4;
  __sampler_register_unit(&a.unit);
  __sampler_register_unit(&a.unit);
  __sampler_unregister_unit(&never.unit); // never registered: ignored
  __sampler_register_unit(nullptr);
  __sampler_unregister_unit(nullptr);
  __sampler_write_report();
  auto lines = read_lines(file);
  ASSERT_EQ(lines.size(), 11u);
  EXPECT_EQ(lines[8], "unit\t707172737475767778797a7b7c7d7e7f\t1\t1\ta.c");
  __sampler_unregister_unit(&a.unit);
}

TEST_F(Report, OtherAbiVersionIsRejectedWithOneLine) {
  TempDir dir;
  const std::string file = dir.file("r.report");
  Env env({{"SAMPLER_FILE", file.c_str()}});
  FakeUnit a(0x90, 1, 1, "future.c");
  a.unit.abi_version = SAMPLER_ABI_VERSION + 1;
  StderrCapture cap;
  __sampler_register_unit(&a.unit);
  EXPECT_EQ(cap.finish(), "sampler: unit 'future.c' has runtime ABI version " +
                              std::to_string(SAMPLER_ABI_VERSION + 1) +
                              ", this runtime implements " +
                              std::to_string(SAMPLER_ABI_VERSION) +
                              "; its counts will not be reported\n");
  __sampler_write_report();
  EXPECT_EQ(read_lines(file).size(), 9u);
}

TEST_F(Report, UnwritablePathGivesOneLineAndNoCrash) {
  TempDir dir;
  const std::string file = dir.file("missing/r.report");
  Env env({{"SAMPLER_FILE", file.c_str()}});
  const std::string message =
      "sampler: cannot write report '" + file + "': No such file or directory\n";
  StderrCapture cap;
  __sampler_write_report();
  EXPECT_EQ(cap.finish(), message);
  StderrCapture cap2;
  EXPECT_EQ(__sampler_rt_report_write(SAMPLER_END_UNKNOWN, 0, 0), ENOENT);
  EXPECT_EQ(cap2.finish(), message);
  EXPECT_TRUE(dir.entries().empty());
}

TEST_F(Report, PathThatIsADirectory) {
  TempDir dir;
  Env env({{"SAMPLER_FILE", dir.path().c_str()}});
  StderrCapture cap;
  __sampler_write_report();
  EXPECT_EQ(cap.finish(), "sampler: cannot write report '" + dir.path() + "': Is a directory\n");
  // The temporary file was removed.
  EXPECT_FALSE(file_exists(dir.path() + ".tmp." + std::to_string(getpid()) + "." +
                           std::to_string(gettid())));
}

TEST_F(Report, FullDiskGivesOneLine) {
  if (!file_exists("/dev/full"))
    GTEST_SKIP() << "no /dev/full";
  Env env({{"SAMPLER_FILE", "/dev/full"}});
  StderrCapture cap;
  __sampler_write_report();
  EXPECT_EQ(cap.finish(), "sampler: cannot write report '/dev/full': No space left on device\n");
}

TEST_F(Report, SpecialFilesAreWrittenIntoNotReplaced) {
  TempDir dir;
  const std::string fifo = dir.file("fifo");
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  Env env({{"SAMPLER_FILE", fifo.c_str()}});
  // No reader: an error, not a hang.
  StderrCapture cap;
  __sampler_write_report();
  EXPECT_EQ(cap.finish(), "sampler: cannot write report '" + fifo + "': No such device or address\n");
  // With a reader: the report goes through the pipe.
  int rfd = open(fifo.c_str(), O_RDONLY | O_NONBLOCK);
  ASSERT_GE(rfd, 0);
  __sampler_write_report();
  char buf[4096];
  ssize_t n = read(rfd, buf, sizeof buf);
  close(rfd);
  ASSERT_GT(n, 0);
  EXPECT_EQ(std::string(buf, 15), "sampler-report\t");
  EXPECT_EQ(std::string(buf + n - 14, 14), "end-of-report\n");
  struct stat st;
  ASSERT_EQ(stat(fifo.c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode));
}

TEST_F(Report, SymlinkIsWrittenThroughNotReplaced) {
  TempDir dir;
  const std::string target = dir.file("target.txt"), link = dir.file("link");
  std::ofstream(target) << std::string(100000, 'x'); // longer than the report: truncated
  ASSERT_EQ(symlink(target.c_str(), link.c_str()), 0);
  Env env({{"SAMPLER_FILE", link.c_str()}});
  StderrCapture cap;
  __sampler_write_report();
  EXPECT_EQ(cap.finish(), "");
  struct stat st;
  ASSERT_EQ(lstat(link.c_str(), &st), 0);
  EXPECT_TRUE(S_ISLNK(st.st_mode));
  auto lines = read_lines(target);
  ASSERT_EQ(lines.size(), 9u);
  EXPECT_EQ(lines[0], "sampler-report\t1");
  EXPECT_EQ(lines.back(), "end-of-report");
}

TEST_F(Report, SetuidProgramReplacesASymlinkInsteadOfFollowingIt) {
  TempDir dir;
  const std::string victim = dir.file("victim");
  std::ofstream(victim) << "precious\n";
  char cwd[4096];
  ASSERT_TRUE(getcwd(cwd, sizeof cwd));
  ASSERT_EQ(chdir(dir.path().c_str()), 0);
  const std::string planted = pid_path(dir, "sampler.");
  ASSERT_EQ(symlink(victim.c_str(), planted.c_str()), 0);
  __sampler_rt_options_load(1); // AT_SECURE: defaults, sampler.%p.report in the start dir
  __sampler_write_report();
  ASSERT_EQ(chdir(cwd), 0);
  Env::baseline();
  EXPECT_EQ(read_file(victim), "precious\n");
  struct stat st;
  ASSERT_EQ(lstat(planted.c_str(), &st), 0);
  EXPECT_TRUE(S_ISREG(st.st_mode));
  EXPECT_EQ(read_lines(planted).back(), "end-of-report");
}

TEST_F(Report, StaleTemporaryFileIsReplaced) {
  TempDir dir;
  const std::string file = dir.file("r.report");
  // <path>.tmp.<pid>.<tid>, left by an earlier process with our pid (and tid: the
  // main thread's tid is the pid).
  const std::string tmp = file + ".tmp." + std::to_string(getpid()) + "." + std::to_string(gettid());
  std::ofstream(tmp) << "garbage";
  ASSERT_EQ(symlink("/nonexistent/target", (file + ".tmp.1").c_str()), 0);
  Env env({{"SAMPLER_FILE", file.c_str()}});
  StderrCapture cap;
  __sampler_write_report();
  EXPECT_EQ(cap.finish(), "");
  EXPECT_EQ(read_lines(file).back(), "end-of-report");
  EXPECT_FALSE(file_exists(tmp));
}

TEST_F(Report, RelativePathIsRelativeToTheStartDirectory) {
  TempDir start, later;
  char cwd[4096];
  ASSERT_TRUE(getcwd(cwd, sizeof cwd));
  ASSERT_EQ(chdir(start.path().c_str()), 0);
  {
    Env env({{"SAMPLER_FILE", "rel.%p.report"}});
    ASSERT_EQ(chdir(later.path().c_str()), 0);
    __sampler_write_report();
  }
  ASSERT_EQ(chdir(cwd), 0);
  EXPECT_TRUE(file_exists(pid_path(start, "rel.")));
  EXPECT_TRUE(later.entries().empty());
}

TEST_F(Report, HostTimeAndPercentInThePath) {
  TempDir dir;
  const std::string pattern = dir.file("r.%h.%t.%%.report");
  Env env({{"SAMPLER_FILE", pattern.c_str()}});
  long before = realtime_seconds();
  __sampler_write_report();
  long after = realtime_seconds();
  bool found = false;
  for (long t = before; t <= after; ++t)
    found = found || file_exists(dir.file("r." + host_name() + "." + std::to_string(t) + ".%.report"));
  EXPECT_TRUE(found) << ::testing::PrintToString(dir.entries());
}

TEST_F(Report, VerboseNamesTheReport) {
  TempDir dir;
  const std::string file = dir.file("r.report");
  StderrCapture cap;
  Env env({{"SAMPLER_FILE", file.c_str()}, {"SAMPLER_VERBOSE", "1"}});
  __sampler_write_report();
  EXPECT_EQ(cap.finish(), "sampler: sparsity 100, seed 0x5eed5eed5eed5eed, report '" + file +
                              "'\nsampler: wrote report '" + file + "'\n");
}

TEST_F(Report, ManyUnitsAndCellsGoThroughTheBuffer) {
  TempDir dir;
  const std::string file = dir.file("r.report");
  Env env({{"SAMPLER_FILE", file.c_str()}});
  std::vector<std::unique_ptr<FakeUnit>> units;
  for (int i = 0; i < 50; ++i) {
    units.push_back(std::make_unique<FakeUnit>(static_cast<uint8_t>(i), 1000, 1, "u.c"));
    for (size_t c = 0; c < 1000; c += 3)
      units.back()->cells[c] = c + 1;
    __sampler_register_unit(&units.back()->unit);
  }
  __sampler_write_report();
  auto lines = read_lines(file);
  ASSERT_EQ(lines.size(), 9u + 100u);
  std::string expected = "counts";
  for (size_t c = 0; c < 1000; c += 3)
    expected += (c == 0 ? "\t" : " ") + std::to_string(c) + ":" + std::to_string(c + 1);
  for (int i = 0; i < 50; ++i)
    EXPECT_EQ(lines[9 + 2 * i], expected);
  for (auto &u : units)
    __sampler_unregister_unit(&u->unit);
}

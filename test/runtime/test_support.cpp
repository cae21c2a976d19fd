#include "test_support.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fcntl.h>
#include <time.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <gtest/gtest.h>

namespace sampler_test {

static const char *const kAllVars[] = {"SAMPLER_FILE",       "SAMPLER_SPARSITY",
                                       "SAMPLER_SEED",       "SAMPLER_COUNTDOWNS",
                                       "SAMPLER_VERBOSE",    "SAMPLER_INHERIT"};

void Env::baseline() {
  for (const char *v : kAllVars)
    unsetenv(v);
  setenv("SAMPLER_FILE", "/dev/null", 1);
  setenv("SAMPLER_SEED", kBaseSeed, 1);
  __sampler_rt_options_load(0);
}

Env::Env(Vars vars) {
  for (const auto &kv : vars) {
    if (kv.second)
      setenv(kv.first.c_str(), kv.second, 1);
    else
      unsetenv(kv.first.c_str());
  }
  __sampler_rt_options_load(0);
}

Env::~Env() { baseline(); }

TempDir::TempDir() {
  const char *base = getenv("TMPDIR");
  std::string tmpl = std::string(base && *base ? base : "/tmp") + "/sampler-rt-test.XXXXXX";
  std::vector<char> buf(tmpl.begin(), tmpl.end());
  buf.push_back('\0');
  if (!mkdtemp(buf.data()))
    throw std::runtime_error("mkdtemp failed");
  path_ = buf.data();
}

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

std::vector<std::string> TempDir::entries() const {
  std::vector<std::string> names;
  for (const auto &e : std::filesystem::directory_iterator(path_))
    names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

StderrCapture::StderrCapture() {
  fflush(stderr);
  char tmpl[] = "/tmp/sampler-rt-stderr.XXXXXX";
  fd_ = mkstemp(tmpl);
  path_ = tmpl;
  saved_ = dup(2);
  dup2(fd_, 2);
}

std::string StderrCapture::finish() {
  if (saved_ < 0)
    return "";
  fflush(stderr);
  dup2(saved_, 2);
  close(saved_);
  saved_ = -1;
  close(fd_);
  std::string s = read_file(path_);
  unlink(path_.c_str());
  return s;
}

StderrCapture::~StderrCapture() { finish(); }

FakeUnit::FakeUnit(uint8_t sigbyte, uint64_t n, uint32_t flags, std::string nm)
    : cells(n, 0), name(std::move(nm)) {
  std::memset(&unit, 0, sizeof unit);
  unit.abi_version = SAMPLER_ABI_VERSION;
  unit.flags = flags;
  unit.num_counters = n;
  for (int i = 0; i < 16; ++i)
    unit.signature[i] = static_cast<uint8_t>(sigbyte + i);
  unit.counters = cells.data();
  unit.name = name.c_str();
}

std::string FakeUnit::sig_hex() const {
  char buf[33];
  for (int i = 0; i < 16; ++i)
    snprintf(buf + 2 * i, 3, "%02x", unit.signature[i]);
  return buf;
}

std::string read_file(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<std::string> read_lines(const std::string &path) {
  std::vector<std::string> lines;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line))
    lines.push_back(line);
  return lines;
}

bool file_exists(const std::string &path) { return access(path.c_str(), F_OK) == 0; }

std::string self_exe() {
  char buf[4096];
  ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  return n > 0 ? std::string(buf, static_cast<size_t>(n)) : "";
}

std::string host_name() {
  struct utsname un;
  uname(&un);
  return un.nodename;
}

long realtime_seconds() {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return ts.tv_sec;
}

bool within_6_sigma_binomial(double observed, double n, double p) {
  double sigma = std::sqrt(n * p * (1 - p));
  return std::fabs(observed - n * p) <= 6 * sigma;
}

namespace {
// Every test starts from the baseline environment, and the runtime is started the
// way a program starts it (signal handlers, exit hook, fork hooks).
class RuntimeEnvironment : public ::testing::Environment {
public:
  void SetUp() override {
    Env::baseline();
    __sampler_rt_init();
    Env::baseline(); // in case init read an inherited environment first
  }
};
[[maybe_unused]] ::testing::Environment *const kEnv =
    ::testing::AddGlobalTestEnvironment(new RuntimeEnvironment);
} // namespace

} // namespace sampler_test

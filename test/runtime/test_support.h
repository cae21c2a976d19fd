// Shared helpers for the runtime's unit tests: environment control, temporary
// directories, capturing stderr, fake units and reading reports back.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <utility>
#include <string>
#include <vector>

#include "sampler_internal.h"

namespace sampler_test {

// The fixed seed every test starts from, so that failures reproduce.
constexpr const char *kBaseSeed = "0x5eed5eed5eed5eed";

// Sets SAMPLER_* variables (nullptr = unset) and reloads the runtime's options. On
// destruction, returns to the baseline every test starts from: all SAMPLER_* unset
// except SAMPLER_FILE=/dev/null (so stray reports, including the one this test binary
// writes at exit, go nowhere) and SAMPLER_SEED=kBaseSeed.
using Vars = std::initializer_list<std::pair<std::string, const char *>>;
class Env {
public:
  explicit Env(Vars vars);
  ~Env();
  Env(const Env &) = delete;
  Env &operator=(const Env &) = delete;
  static void baseline();
};

// A fresh directory under $TMPDIR (or /tmp), removed with its contents at the end.
class TempDir {
public:
  TempDir();
  ~TempDir();
  const std::string &path() const { return path_; }
  std::string file(const std::string &name) const { return path_ + "/" + name; }
  std::vector<std::string> entries() const; // sorted names
private:
  std::string path_;
};

// Redirects fd 2 to a temporary file until finish(), which returns what was written.
class StderrCapture {
public:
  StderrCapture();
  ~StderrCapture();
  std::string finish();
private:
  int saved_ = -1;
  int fd_ = -1;
  std::string path_;
};

// A unit as the pass would emit it, with its own counter cells.
struct FakeUnit {
  FakeUnit(uint8_t sigbyte, uint64_t n, uint32_t flags, std::string name);
  std::vector<uint64_t> cells;
  std::string name;
  __sampler_unit unit;
  std::string sig_hex() const;
};

std::string read_file(const std::string &path);
std::vector<std::string> read_lines(const std::string &path);
bool file_exists(const std::string &path);
std::string self_exe();
std::string host_name();
// Seconds now on the clock the runtime stamps reports with (CLOCK_REALTIME).
// Not time(): glibc's reads a coarse clock that may still show the second
// before, so a report written between two time() calls could seem later than
// the second.
long realtime_seconds();

// |observed - expected| <= 6 sigma for a binomial(n, p) count.
bool within_6_sigma_binomial(double observed, double n, double p);

} // namespace sampler_test

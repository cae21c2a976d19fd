// Parsing and validating the environment: each parser on its own, then the whole
// environment with the exact one-line messages and the fallbacks.
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <string>

#include <unistd.h>

#include <gtest/gtest.h>

#include "test_support.h"

using namespace sampler_test;

TEST(ParseSparsity, Valid) {
  uint64_t d = 77;
  int off = 7;
  ASSERT_TRUE(__sampler_rt_parse_sparsity("100", &d, &off));
  EXPECT_EQ(d, 100u);
  EXPECT_EQ(off, 0);
  ASSERT_TRUE(__sampler_rt_parse_sparsity("1", &d, &off));
  EXPECT_EQ(d, 1u);
  ASSERT_TRUE(__sampler_rt_parse_sparsity("0100", &d, &off));
  EXPECT_EQ(d, 100u);
  ASSERT_TRUE(__sampler_rt_parse_sparsity("4611686018427387904", &d, &off)); // 2^62
  EXPECT_EQ(d, uint64_t{1} << 62);
  for (const char *o : {"off", "0", "00"}) {
    off = 0;
    ASSERT_TRUE(__sampler_rt_parse_sparsity(o, &d, &off)) << o;
    EXPECT_EQ(off, 1) << o;
  }
}

TEST(ParseSparsity, Invalid) {
  for (const char *s : {"", "abc", "-5", "+5", "1.5", " 10", "10 ", "10x", "0x10", "OFF", "of",
                        "4611686018427387905", "99999999999999999999999"}) {
    uint64_t d = 77;
    int off = 7;
    EXPECT_FALSE(__sampler_rt_parse_sparsity(s, &d, &off)) << "'" << s << "'";
    EXPECT_EQ(d, 77u);
    EXPECT_EQ(off, 7);
  }
}

TEST(ParseSeed, DecimalAndHex) {
  uint64_t s = 0;
  ASSERT_TRUE(__sampler_rt_parse_seed("0", &s));
  EXPECT_EQ(s, 0u);
  ASSERT_TRUE(__sampler_rt_parse_seed("12345", &s));
  EXPECT_EQ(s, 12345u);
  ASSERT_TRUE(__sampler_rt_parse_seed("18446744073709551615", &s));
  EXPECT_EQ(s, UINT64_MAX);
  ASSERT_TRUE(__sampler_rt_parse_seed("0x9e3779b97f4a7c15", &s));
  EXPECT_EQ(s, 0x9e3779b97f4a7c15u);
  ASSERT_TRUE(__sampler_rt_parse_seed("0XABCdef", &s));
  EXPECT_EQ(s, 0xabcdefu);
  ASSERT_TRUE(__sampler_rt_parse_seed("0x0000000000000000001", &s)); // leading zeros
  EXPECT_EQ(s, 1u);
}

TEST(ParseSeed, Invalid) {
  for (const char *v : {"", "-1", "+1", "0x", "0xg", "12a", " 1", "18446744073709551616",
                        "0x10000000000000000", "1e5", "x10"}) {
    uint64_t s = 77;
    EXPECT_FALSE(__sampler_rt_parse_seed(v, &s)) << "'" << v << "'";
    EXPECT_EQ(s, 77u);
  }
}

TEST(ParseBool, OnlyZeroOrOne) {
  int v = 7;
  ASSERT_TRUE(__sampler_rt_parse_bool("1", &v));
  EXPECT_EQ(v, 1);
  ASSERT_TRUE(__sampler_rt_parse_bool("0", &v));
  EXPECT_EQ(v, 0);
  for (const char *s : {"", "2", "yes", "true", "01", " 1"})
    EXPECT_FALSE(__sampler_rt_parse_bool(s, &v)) << s;
}

TEST(FilePattern, Validation) {
  for (const char *p : {"sampler.%p.report", "/tmp/r.%h.%t.%%.txt", "plain", "%%", "%p%p"})
    EXPECT_TRUE(__sampler_rt_check_pattern(p)) << p;
  for (const char *p : {"", "a%x", "%", "abc%", "%P", "%%%", "r.%d"})
    EXPECT_FALSE(__sampler_rt_check_pattern(p)) << p;
  EXPECT_FALSE(__sampler_rt_check_pattern(std::string(5000, 'a').c_str()));
}

TEST(FilePattern, Expansion) {
  char out[256];
  ASSERT_GT(__sampler_rt_expand_pattern("/r.%p.%h.%t.%%", "", out, sizeof out, 42, "hh",
                                        1700000000),
            0);
  EXPECT_STREQ(out, "/r.42.hh.1700000000.%");
  // Relative patterns are relative to the start directory.
  ASSERT_GT(__sampler_rt_expand_pattern("r.%p", "/work/dir", out, sizeof out, 7, "h", 0), 0);
  EXPECT_STREQ(out, "/work/dir/r.7");
  ASSERT_GT(__sampler_rt_expand_pattern("r.%p", "/", out, sizeof out, 7, "h", 0), 0);
  EXPECT_STREQ(out, "/r.7");
  ASSERT_GT(__sampler_rt_expand_pattern("/abs/%p", "/work", out, sizeof out, 7, "h", 0), 0);
  EXPECT_STREQ(out, "/abs/7");
  ASSERT_GT(__sampler_rt_expand_pattern("r", "", out, sizeof out, 7, "h", 0), 0);
  EXPECT_STREQ(out, "r");
  // A '%' in the directory is not a pattern character.
  ASSERT_GT(__sampler_rt_expand_pattern("r", "/d%x", out, sizeof out, 7, "h", 0), 0);
  EXPECT_STREQ(out, "/d%x/r");
  EXPECT_EQ(__sampler_rt_expand_pattern("a%x", "", out, sizeof out, 7, "h", 0), -1);
  char tiny[8];
  EXPECT_EQ(__sampler_rt_expand_pattern("/r.%p", "", tiny, sizeof tiny, 123456789, "h", 0), -1);
  EXPECT_EQ(__sampler_rt_expand_pattern("/1234567", "", tiny, sizeof tiny, 1, "h", 0), -1);
  EXPECT_EQ(__sampler_rt_expand_pattern("/123456", "", tiny, sizeof tiny, 1, "h", 0), 7);
}

namespace {
struct BankResult {
  bool ok;
  std::vector<uint64_t> values;
  std::string why;
};
BankResult load_bank_text(const std::string &text) {
  TempDir dir;
  const std::string path = dir.file("bank");
  std::ofstream(path) << text;
  uint64_t *v = nullptr;
  size_t n = 0;
  char why[256] = "unset";
  BankResult r;
  r.ok = __sampler_rt_load_bank(path.c_str(), &v, &n, why, sizeof why);
  if (r.ok)
    r.values.assign(v, v + n);
  free(v);
  r.why = why;
  return r;
}
} // namespace

TEST(BankFile, Valid) {
  auto r = load_bank_text("5 1\n 7\t\t2\r\n\n100\n");
  ASSERT_TRUE(r.ok) << r.why;
  EXPECT_EQ(r.values, (std::vector<uint64_t>{5, 1, 7, 2, 100}));
  r = load_bank_text("4611686018427387904"); // 2^62, no final newline
  ASSERT_TRUE(r.ok) << r.why;
  EXPECT_EQ(r.values, std::vector<uint64_t>{uint64_t{1} << 62});
}

TEST(BankFile, Invalid) {
  EXPECT_EQ(load_bank_text("").why, "it holds no countdowns");
  EXPECT_EQ(load_bank_text(" \n\t\n").why, "it holds no countdowns");
  EXPECT_EQ(load_bank_text("1 2 0 3").why, "countdown #3 '0' is not a positive integer");
  EXPECT_EQ(load_bank_text("1 -3").why, "countdown #2 '-3' is not a positive integer");
  EXPECT_EQ(load_bank_text("1.5").why, "countdown #1 '1.5' is not a positive integer");
  EXPECT_EQ(load_bank_text("7 abc").why, "countdown #2 'abc' is not a positive integer");
  EXPECT_EQ(load_bank_text("1,2").why, "countdown #1 '1,2' is not a positive integer");
  EXPECT_EQ(load_bank_text("4611686018427387905").why,
            "countdown #1 '4611686018427387905' is larger than 2^62");
  uint64_t *v = nullptr;
  size_t n = 0;
  char why[256];
  EXPECT_FALSE(__sampler_rt_load_bank("/nonexistent/bank", &v, &n, why, sizeof why));
  EXPECT_STREQ(why, "cannot open it: No such file or directory");
}

TEST(BankFile, AtMostTwoToTheTwenty) {
  std::string text;
  text.reserve(3 << 20);
  for (size_t i = 0; i < SAMPLER_BANK_MAX; ++i)
    text += "17\n";
  auto r = load_bank_text(text);
  ASSERT_TRUE(r.ok) << r.why;
  EXPECT_EQ(r.values.size(), SAMPLER_BANK_MAX);
  text += "17\n";
  EXPECT_EQ(load_bank_text(text).why, "more than 1048576 countdowns");
}

// ---- the whole environment: messages and fallbacks ----

namespace {
std::string load_and_capture(Vars vars,
                             std::unique_ptr<Env> &env) {
  StderrCapture cap;
  env = std::make_unique<Env>(vars);
  return cap.finish();
}
} // namespace

TEST(Environment, ValidValuesAreTakenSilently) {
  TempDir dir;
  const std::string bank = dir.file("bank");
  std::ofstream(bank) << "1 2 3\n";
  std::unique_ptr<Env> env;
  std::string err = load_and_capture({{"SAMPLER_SPARSITY", "250"},
                                      {"SAMPLER_SEED", "0x2a"},
                                      {"SAMPLER_FILE", "/tmp/x.%p.%%"},
                                      {"SAMPLER_VERBOSE", "0"},
                                      {"SAMPLER_COUNTDOWNS", bank.c_str()}},
                                     env);
  EXPECT_EQ(err, "");
  EXPECT_EQ(__sampler_rt_opts.sparsity, 250u);
  EXPECT_EQ(__sampler_rt_opts.sampling_off, 0);
  EXPECT_DOUBLE_EQ(__sampler_rt_opts.log1m_density, std::log1p(-1.0 / 250));
  EXPECT_EQ(__sampler_rt_opts.seed, 42u);
  EXPECT_EQ(__sampler_rt_opts.seed_explicit, 1);
  EXPECT_STREQ(__sampler_rt_opts.file_pattern, "/tmp/x.%p.%%");
  EXPECT_EQ(__sampler_rt_opts.mode, SAMPLER_MODE_BANK);
  EXPECT_EQ(__sampler_rt_opts.bank_len, 3u);
}

TEST(Environment, DefaultsWhenUnsetOrEmpty) {
  std::unique_ptr<Env> env;
  std::string err = load_and_capture({{"SAMPLER_SPARSITY", ""},
                                      {"SAMPLER_SEED", nullptr},
                                      {"SAMPLER_FILE", ""},
                                      {"SAMPLER_VERBOSE", ""},
                                      {"SAMPLER_COUNTDOWNS", ""}},
                                     env);
  EXPECT_EQ(err, "");
  EXPECT_EQ(__sampler_rt_opts.sparsity, 100u);
  EXPECT_EQ(__sampler_rt_opts.mode, SAMPLER_MODE_DRAW);
  EXPECT_EQ(__sampler_rt_opts.seed_explicit, 0);
  EXPECT_STREQ(__sampler_rt_opts.file_pattern, "sampler.%p.report");
  char cwd[4096];
  ASSERT_TRUE(getcwd(cwd, sizeof cwd));
  EXPECT_STREQ(__sampler_rt_opts.base_dir, cwd);
  EXPECT_EQ(__sampler_rt_opts.verbose, 0);
}

struct BadValue {
  const char *var;
  const char *value;
  const char *message;
};

class InvalidEnvironment : public ::testing::TestWithParam<BadValue> {};

TEST_P(InvalidEnvironment, OneLineNamingVariableAndValueThenDefault) {
  const BadValue &b = GetParam();
  std::unique_ptr<Env> env;
  std::string err = load_and_capture({{b.var, b.value}}, env);
  EXPECT_EQ(err, std::string(b.message) + "\n");
  EXPECT_EQ(__sampler_rt_opts.sparsity, 100u);
  EXPECT_EQ(__sampler_rt_opts.sampling_off, 0);
  EXPECT_EQ(__sampler_rt_opts.mode, SAMPLER_MODE_DRAW);
  EXPECT_EQ(__sampler_rt_opts.verbose, 0);
  if (std::string(b.var) == "SAMPLER_SEED") {
    EXPECT_EQ(__sampler_rt_opts.seed_explicit, 0);
  }
  if (std::string(b.var) == "SAMPLER_FILE") {
    EXPECT_STREQ(__sampler_rt_opts.file_pattern, "sampler.%p.report");
  }
}

INSTANTIATE_TEST_SUITE_P(
    Messages, InvalidEnvironment,
    ::testing::Values(
        BadValue{"SAMPLER_SPARSITY", "abc",
                 "sampler: SAMPLER_SPARSITY='abc' is not an integer >= 1 or 'off'; using 100"},
        BadValue{"SAMPLER_SPARSITY", "-3",
                 "sampler: SAMPLER_SPARSITY='-3' is not an integer >= 1 or 'off'; using 100"},
        BadValue{"SAMPLER_SPARSITY", "99999999999999999999",
                 "sampler: SAMPLER_SPARSITY='99999999999999999999' is larger than "
                 "4611686018427387904 (2^62); using 100"},
        BadValue{"SAMPLER_SPARSITY", "1\n2",
                 "sampler: SAMPLER_SPARSITY='1\\x0a2' is not an integer >= 1 or 'off'; "
                 "using 100"},
        BadValue{"SAMPLER_SEED", "0xZZ",
                 "sampler: SAMPLER_SEED='0xZZ' is not a decimal or 0x-hexadecimal 64-bit "
                 "integer; using a random seed"},
        BadValue{"SAMPLER_FILE", "r.%x",
                 "sampler: SAMPLER_FILE='r.%x' is not a valid path pattern (a % must be "
                 "followed by p, h, t or %); using 'sampler.%p.report'"},
        BadValue{"SAMPLER_VERBOSE", "yes",
                 "sampler: SAMPLER_VERBOSE='yes' is not 0 or 1; using 0"},
        BadValue{"SAMPLER_INHERIT", "true",
                 "sampler: SAMPLER_INHERIT='true' is not 0 or 1; using 0"},
        BadValue{"SAMPLER_COUNTDOWNS", "/nonexistent/bank",
                 "sampler: SAMPLER_COUNTDOWNS='/nonexistent/bank' cannot be used: cannot open "
                 "it: No such file or directory; drawing countdowns instead"}));

TEST(Environment, LongValuesAreCutInTheMessage) {
  std::string v(1000, 'x');
  std::unique_ptr<Env> env;
  std::string err = load_and_capture({{"SAMPLER_SPARSITY", v.c_str()}}, env);
  EXPECT_EQ(err, "sampler: SAMPLER_SPARSITY='" + std::string(256, 'x') +
                     "...' is not an integer >= 1 or 'off'; using 100\n");
}

TEST(Environment, SecureModeIgnoresTheEnvironment) {
  setenv("SAMPLER_SPARSITY", "abc", 1);
  setenv("SAMPLER_SEED", "7", 1);
  setenv("SAMPLER_FILE", "/etc/owned.%p", 1);
  setenv("SAMPLER_VERBOSE", "1", 1);
  StderrCapture cap;
  __sampler_rt_options_load(1); // as under AT_SECURE
  std::string err = cap.finish();
  EXPECT_EQ(err, "");
  EXPECT_EQ(__sampler_rt_opts.sparsity, 100u);
  EXPECT_EQ(__sampler_rt_opts.seed_explicit, 0);
  EXPECT_STREQ(__sampler_rt_opts.file_pattern, "sampler.%p.report");
  EXPECT_EQ(__sampler_rt_opts.verbose, 0);
  Env::baseline();
}

TEST(Environment, VerboseSaysWhatItUses) {
  std::unique_ptr<Env> env;
  std::string err = load_and_capture(
      {{"SAMPLER_VERBOSE", "1"}, {"SAMPLER_SEED", "255"}, {"SAMPLER_FILE", "/tmp/v.%p"}}, env);
  EXPECT_EQ(err, "sampler: sparsity 100, seed 0x00000000000000ff, report '/tmp/v.%p'\n");
}

// exec'd programs do not inherit the run's settings: the runtime removes every variable
// it reads once it has read them, unless SAMPLER_INHERIT=1 (ignored under AT_SECURE).
namespace {
const char *const kScrubbed[] = {"SAMPLER_FILE",       "SAMPLER_SPARSITY", "SAMPLER_SEED",
                                 "SAMPLER_COUNTDOWNS", "SAMPLER_VERBOSE",  "SAMPLER_INHERIT"};
void set_all(const char *inherit) {
  setenv("SAMPLER_FILE", "/dev/null", 1);
  setenv("SAMPLER_SPARSITY", "3", 1);
  setenv("SAMPLER_SEED", "9", 1);
  setenv("SAMPLER_COUNTDOWNS", "", 1);
  setenv("SAMPLER_VERBOSE", "0", 1);
  setenv("SAMPLER_INHERIT", inherit, 1);
  setenv("SAMPLER_OTHER", "kept", 1); // not the runtime's: left alone
}
} // namespace

TEST(Environment, ScrubbedAfterReadingUnlessInherit) {
  set_all("0");
  __sampler_rt_options_load(0);
  __sampler_rt_options_scrub_environment(0);
  EXPECT_EQ(__sampler_rt_opts.sparsity, 3u); // read first
  for (const char *v : kScrubbed)
    EXPECT_EQ(getenv(v), nullptr) << v;
  EXPECT_STREQ(getenv("SAMPLER_OTHER"), "kept");

  set_all("1");
  __sampler_rt_options_load(0);
  EXPECT_EQ(__sampler_rt_opts.inherit, 1);
  __sampler_rt_options_scrub_environment(0);
  EXPECT_STREQ(getenv("SAMPLER_SPARSITY"), "3");
  EXPECT_STREQ(getenv("SAMPLER_INHERIT"), "1");

  // setuid/setgid: ignored, and removed even with SAMPLER_INHERIT=1.
  set_all("1");
  __sampler_rt_options_load(1);
  EXPECT_EQ(__sampler_rt_opts.inherit, 0);
  __sampler_rt_options_scrub_environment(1);
  for (const char *v : kScrubbed)
    EXPECT_EQ(getenv(v), nullptr) << v;
  unsetenv("SAMPLER_OTHER");
  Env::baseline();
}

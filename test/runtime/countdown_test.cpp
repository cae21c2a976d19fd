// The countdowns: the geometric law, the first-event semantics of
// __sampler_next_countdown on fresh threads, and Bernoulli fairness as instrumented code
// experiences it. Fixed seeds; statistical bounds at 6 sigma (or a 1e-6 false-alarm
// rate), so a failure means a real defect, not bad luck.
#include <atomic>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <algorithm>
#include <fstream>
#include <numeric>
#include <set>
#include <string>
#include <functional>
#include <thread>
#include <vector>

#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "draw_layout.h"
#include "test_support.h"

using namespace sampler_test;

namespace {

// ---- chi-square machinery (Numerical Recipes style regularized gamma) ----

// Q(a, x) = Gamma(a, x) / Gamma(a), the upper tail.
double gamma_q(double a, double x) {
  if (x <= 0)
    return 1.0;
  double gln = std::lgamma(a);
  if (x < a + 1) { // series for P, then Q = 1 - P
    double ap = a, sum = 1.0 / a, del = sum;
    for (int n = 0; n < 100000; ++n) {
      ap += 1;
      del *= x / ap;
      sum += del;
      if (std::fabs(del) < std::fabs(sum) * 1e-16)
        break;
    }
    return 1.0 - sum * std::exp(-x + a * std::log(x) - gln);
  }
  // continued fraction for Q (modified Lentz)
  double b = x + 1 - a, c = 1.0 / 1e-300, d = 1.0 / b, h = d;
  for (int i = 1; i < 100000; ++i) {
    double an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (std::fabs(d) < 1e-300)
      d = 1e-300;
    c = b + an / c;
    if (std::fabs(c) < 1e-300)
      c = 1e-300;
    d = 1.0 / d;
    double del = d * c;
    h *= del;
    if (std::fabs(del - 1) < 1e-16)
      break;
  }
  return std::exp(-x + a * std::log(x) - gln) * h;
}

// The x with P(chi2_k > x) = alpha.
double chi2_critical(int k, double alpha) {
  double lo = 0, hi = k + 100 * std::sqrt(2.0 * k) + 100;
  for (int i = 0; i < 200; ++i) {
    double mid = (lo + hi) / 2;
    if (gamma_q(k / 2.0, mid / 2.0) > alpha)
      lo = mid;
    else
      hi = mid;
  }
  return (lo + hi) / 2;
}

struct ChiSquare {
  double statistic = 0;
  int dof = 0;
};

// Goodness of fit of draws to the geometric law with mean d. Bins are runs of
// consecutive k with P(k) accumulated until the expected count reaches a minimum
// (single k for small d), plus the tail bin P(g > K).
ChiSquare geometric_chi_square(const std::vector<int64_t> &draws, double d) {
  const double n = static_cast<double>(draws.size());
  const double p = 1.0 / d;
  const double min_expected = std::max(50.0, n / 500);
  std::vector<int64_t> upper; // bin i covers k in (upper[i-1], upper[i]]
  std::vector<double> prob;
  double acc = 0, survival = 1; // survival = P(g > k)
  for (int64_t k = 1;; ++k) {
    double pk = p * std::pow(1 - p, static_cast<double>(k - 1));
    acc += pk;
    survival -= pk;
    if (acc * n >= min_expected) {
      upper.push_back(k);
      prob.push_back(acc);
      acc = 0;
      if (survival * n < 2 * min_expected)
        break;
    }
  }
  std::vector<double> observed(prob.size() + 1, 0);
  for (int64_t g : draws) {
    auto it = std::lower_bound(upper.begin(), upper.end(), g);
    observed[static_cast<size_t>(it - upper.begin())] += 1;
  }
  prob.push_back(1 - std::accumulate(prob.begin(), prob.end(), 0.0)); // the tail
  ChiSquare cs;
  for (size_t i = 0; i < prob.size(); ++i) {
    double e = prob[i] * n;
    cs.statistic += (observed[i] - e) * (observed[i] - e) / e;
  }
  cs.dof = static_cast<int>(prob.size()) - 1;
  return cs;
}

// The generator's multiplier (runtime/draw_layout.h, read by the C step and the assembly).
constexpr uint64_t kMultiplier = SAMPLER_MCG_MULTIPLIER;

// Its inverse mod 2^128 (Newton's iteration: each step doubles the bits that are right,
// from the 3 of a * a = 1 mod 8).
unsigned __int128 mcg_inverse() {
  const unsigned __int128 a = kMultiplier;
  unsigned __int128 x = a;
  for (int i = 0; i < 6; ++i)
    x *= 2 - a * x;
  return x;
}

std::vector<int64_t> draw_n(uint64_t seed, uint64_t d, size_t n) {
  sampler_rng rng;
  __sampler_rt_rng_seed(&rng, seed);
  const double log1m = d == 1 ? -INFINITY : std::log1p(-1.0 / static_cast<double>(d));
  std::vector<int64_t> v(n);
  for (auto &g : v)
    g = __sampler_rt_geometric(&rng, log1m);
  return v;
}

} // namespace

TEST(ChiSquareMachinery, KnownQuantiles) {
  // Reference values of the chi-square upper quantiles (R: qchisq(alpha, k, lower=F);
  // for even k, also from the closed form Q = exp(-x/2) sum_{j<k/2} (x/2)^j / j!).
  EXPECT_NEAR(chi2_critical(1, 0.05), 3.841459, 1e-4);
  EXPECT_NEAR(chi2_critical(10, 0.01), 23.20925, 1e-3);
  EXPECT_NEAR(chi2_critical(1, 1e-6), 23.92813, 1e-3);
  EXPECT_NEAR(chi2_critical(100, 1e-6), 182.126777, 1e-3);
}

TEST(Uniform, OpenAtZeroClosedAtOne) {
  EXPECT_EQ(__sampler_rt_u01(0), 0x1.0p-53);
  EXPECT_EQ(__sampler_rt_u01(UINT64_MAX), 1.0);
  EXPECT_EQ(__sampler_rt_u01(uint64_t{1} << 11), 2 * 0x1.0p-53); // 53 bits used
  EXPECT_EQ(__sampler_rt_u01((uint64_t{1} << 11) - 1), 0x1.0p-53);  // low 11 ignored
}

TEST(Geometric, InversionEdges) {
  const double half = std::log1p(-0.5); // d = 2
  EXPECT_EQ(__sampler_rt_geometric_from_u(1.0, half), 1);
  EXPECT_EQ(__sampler_rt_geometric_from_u(0.75, half), 1);
  EXPECT_EQ(__sampler_rt_geometric_from_u(0.5, half), 2);
  EXPECT_EQ(__sampler_rt_geometric_from_u(0.25, half), 3);
  // d = 1: always 1, whatever u.
  for (double u : {0x1.0p-53, 0.1, 0.5, 1.0})
    EXPECT_EQ(__sampler_rt_geometric_from_u(u, -INFINITY), 1);
  // Huge d and the smallest u: clamped, never overflowing.
  EXPECT_EQ(__sampler_rt_geometric_from_u(0x1.0p-53, std::log1p(-0x1.0p-62)),
            SAMPLER_MAX_COUNTDOWN);
}

// The table built for log1m, grown to its last size if asked: how many chunks it grew by.
static int buildTable(double log1m, bool grown) {
  __sampler_rt_geometric_table_build(log1m);
  int chunks = 0;
  while (grown && __sampler_rt_geometric_table_grow())
    ++chunks;
  return chunks;
}

// The table (draws of at most 512 without log(), then up to 32768 as it grows) gives
// exactly the formula's value for the same random number on random streams, at its first
// size and grown to its last.
TEST(Geometric, TableEqualsFormula) {
  for (bool grown : {false, true}) {
    for (uint64_t d : {2ull, 3ull, 7ull, 10ull, 100ull, 1000ull, 12345ull, 1ull << 19}) {
      const double log1m = std::log1p(-1.0 / static_cast<double>(d));
      const int chunks = buildTable(log1m, grown);
      if (grown && d == 1000) {
        // 512 entries a chunk, until m (53 bits) no longer tells k from k + 1: about
        // k = 29,816 at d = 1000 (bound[k] p < 1), in the 58th chunk.
        EXPECT_EQ(chunks, 58) << "512 entries a chunk, up to 29,816 entries";
      }
      if (grown && d == 2) {
        EXPECT_EQ(chunks, 0) << "at d = 2 the first table ends where m reaches 0";
      }
      sampler_rng a, b;
      __sampler_rt_rng_seed(&a, d);
      __sampler_rt_rng_seed(&b, d);
      for (int i = 0; i < 200000; ++i) {
        int64_t fast = __sampler_rt_geometric(&a, log1m);
        int64_t formula =
            __sampler_rt_geometric_from_u(__sampler_rt_u01(__sampler_rt_rng_next(&b)), log1m);
        ASSERT_EQ(fast, formula) << "d=" << d << " draw " << i << " grown " << grown;
      }
    }
  }
}

// Around the bounds: random numbers whose top 53 bits are m - 1, m, m + 1 for the m
// where the formula's value changes, found by bisection on the formula; at d = 100 in
// the first table and beyond it, at d = 1000 in every chunk of the grown table and
// beyond it (it ends at about 29,800 entries there).
TEST(Geometric, TableEqualsFormulaAroundItsBounds) {
  for (const double d : {100.0, 1000.0}) {
    const double log1m = std::log1p(-1.0 / d);
    buildTable(log1m, d == 1000.0);
    auto formula = [&](uint64_t m) {
      return __sampler_rt_geometric_from_u((double)(m + 1) * 0x1.0p-53, log1m);
    };
    const int64_t last = d == 100.0 ? 600 : 33000, step = d == 100.0 ? 7 : 97;
    const unsigned __int128 inverse = mcg_inverse();
    for (int64_t k = 1; k <= last; k += step) {
      uint64_t lo = 0, hi = (uint64_t{1} << 53) - 1; // least m with formula(m) <= k
      while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (formula(mid) <= k)
          hi = mid;
        else
          lo = mid + 1;
      }
      for (uint64_t m : {lo - 1, lo, lo + 1}) {
        // A generator whose next output is m << 11: the state after the step is
        // (m << 11):1, so the state before it is that times the multiplier's inverse.
        const unsigned __int128 after = (unsigned __int128)(m << 11) << 64 | 1;
        const unsigned __int128 before = after * inverse;
        sampler_rng r;
        r.lo = static_cast<uint64_t>(before);
        r.hi = static_cast<uint64_t>(before >> 64);
        ASSERT_EQ(__sampler_rt_geometric(&r, log1m), formula(m))
            << "d=" << d << " k=" << k << " m=" << m;
      }
    }
  }
}

// How many chunks `draws` draws through the fast path at SAMPLER_SPARSITY=d grow the
// run's table by: the chunks a table just built for the run has left to grow (counted by
// growing them, into *all_out), less those it has left after the draws.
static int chunksGrownBy(const char *d, int draws, int *all_out = nullptr) {
  int all = 0, left = 0;
  for (bool draw : {false, true}) {
    Env env({{"SAMPLER_SPARSITY", d}, {"SAMPLER_SEED", "5"}});
    std::thread t([&] {
      for (int i = 0; draw && i < draws; ++i)
        __sampler_next_countdown(0);
    });
    t.join();
    int n = 0;
    while (__sampler_rt_geometric_table_grow())
      ++n;
    (draw ? left : all) = n;
  }
  if (all_out)
    *all_out = all;
  return all - left;
}

// The run's table grows from the draws themselves, a chunk each time a thread has made
// 512 draws by the formula that the table at its cap would hold: at d = 1000, 60% of
// the draws are above the first table's 512. Each chunk takes more draws than the one
// before, as fewer of them get beyond it (about 15,000 draws for five chunks, 44,000
// for seven): after 100,000 draws the table has grown by at least seven chunks (five
// when the rule counted 2048 draws), of the 58 that a table just built for the run has
// to grow (Geometric.TableEqualsFormula says why 58).
TEST(Geometric, RunTableGrowsFromDrawsBeyondIt) {
  int all = 0;
  const int grown = chunksGrownBy("1000", 100000, &all);
  EXPECT_EQ(all, 58);
  EXPECT_GE(grown, 7);
}

// Draws that even the table at its cap would not hold (a countdown above 32768) do not
// make it grow, as no chunk would save them: at d = 1,000,000 they are 97% of the draws,
// and 10,000 draws grow no chunk, where counting them would have grown 19.
TEST(Geometric, DrawsNoTableHoldsDoNotGrowIt) {
  int all = 0;
  const int grown = chunksGrownBy("1000000", 10000, &all);
  EXPECT_GT(all, 0); // the table can grow at that density
  EXPECT_EQ(grown, 0);
}

TEST(Geometric, DensityOneAlwaysOne) {
  for (int64_t g : draw_n(1, 1, 100000))
    ASSERT_EQ(g, 1);
}

class GeometricLaw : public ::testing::TestWithParam<uint64_t> {};

TEST_P(GeometricLaw, MeanAndChiSquare) {
  const uint64_t d = GetParam();
  const size_t n = 1000000;
  const auto draws = draw_n(0x1234 + d, d, n);
  const double p = 1.0 / static_cast<double>(d);
  double sum = 0;
  for (int64_t g : draws) {
    ASSERT_GE(g, 1);
    sum += static_cast<double>(g);
  }
  const double mean = sum / n;
  const double sigma_mean = std::sqrt((1 - p) / (p * p) / n);
  EXPECT_NEAR(mean, static_cast<double>(d), 6 * sigma_mean) << "d=" << d;

  const ChiSquare cs = geometric_chi_square(draws, static_cast<double>(d));
  const double critical = chi2_critical(cs.dof, 1e-6);
  EXPECT_LT(cs.statistic, critical) << "d=" << d << " dof=" << cs.dof;
  EXPECT_GE(cs.dof, 5) << "too few bins for the test to mean anything";
}

INSTANTIATE_TEST_SUITE_P(Densities, GeometricLaw, ::testing::Values(2, 10, 100, 1000));

// The goodness-of-fit test has teeth: a 5% error in the density, or the classic
// off-by-one (ceil instead of floor + 1, i.e. g - 1 with 0 mapped to 1), is rejected.
TEST(GeometricLaw, ChiSquareRejectsWrongLaws) {
  const size_t n = 1000000;
  auto draws = draw_n(99, 100, n);
  const ChiSquare wrong_d = geometric_chi_square(draws, 105);
  EXPECT_GT(wrong_d.statistic, chi2_critical(wrong_d.dof, 1e-6));

  auto small = draw_n(98, 10, n);
  for (auto &g : small)
    g = std::max<int64_t>(1, g - 1);
  const ChiSquare off_by_one = geometric_chi_square(small, 10);
  EXPECT_GT(off_by_one.statistic, chi2_critical(off_by_one.dof, 1e-6));
}

// Independence of successive draws: pairs (g[2i], g[2i+1]) binned at the geometric law's
// octiles, against the product of the law's bin probabilities (63 degrees of freedom).
// What a generator whose consecutive outputs were related would fail; the law of each
// draw alone is MeanAndChiSquare's.
namespace {
ChiSquare pair_chi_square(const std::vector<int64_t> &draws, double d) {
  // Bin edges: the least k with P(g > k) <= j/8, j = 7..1; the last bin takes the rest.
  const double q = 1 - 1 / d;
  std::vector<int64_t> upper;
  std::vector<double> prob;
  double below = 0; // P(g <= previous edge)
  for (int j = 7; j >= 1; --j) {
    int64_t k = static_cast<int64_t>(std::ceil(std::log(j / 8.0) / std::log(q)));
    if (k < 1 || (!upper.empty() && k <= upper.back()))
      continue;
    upper.push_back(k);
    const double cdf = 1 - std::pow(q, static_cast<double>(k));
    prob.push_back(cdf - below);
    below = cdf;
  }
  prob.push_back(1 - below);
  const size_t bins = prob.size();
  auto bin = [&](int64_t g) {
    return static_cast<size_t>(std::lower_bound(upper.begin(), upper.end(), g) - upper.begin());
  };
  std::vector<double> observed(bins * bins, 0);
  const size_t pairs = draws.size() / 2;
  for (size_t i = 0; i < pairs; ++i)
    observed[bin(draws[2 * i]) * bins + bin(draws[2 * i + 1])] += 1;
  ChiSquare cs;
  for (size_t a = 0; a < bins; ++a)
    for (size_t b = 0; b < bins; ++b) {
      const double e = prob[a] * prob[b] * static_cast<double>(pairs);
      const double o = observed[a * bins + b];
      cs.statistic += (o - e) * (o - e) / e;
    }
  cs.dof = static_cast<int>(bins * bins) - 1;
  return cs;
}
} // namespace

TEST(GeometricLaw, SuccessiveDrawsIndependent) {
  for (uint64_t d : {10ull, 100ull, 1000ull}) {
    const auto draws = draw_n(0x9a1 + d, d, 2000000);
    const ChiSquare cs = pair_chi_square(draws, static_cast<double>(d));
    EXPECT_GE(cs.dof, 48) << "d=" << d;
    EXPECT_LT(cs.statistic, chi2_critical(cs.dof, 1e-6)) << "d=" << d << " dof=" << cs.dof;
  }
}

// The test has teeth: draws in pairs whose second uniform is the first one's mirror,
// 1 - u (each draw alone is still exactly geometric), are rejected.
TEST(GeometricLaw, SuccessiveDrawsTestRejectsRelatedPairs) {
  const double log1m = std::log1p(-1.0 / 100);
  sampler_rng rng;
  __sampler_rt_rng_seed(&rng, 7);
  std::vector<int64_t> draws;
  for (int i = 0; i < 1000000; ++i) {
    // ~x's top 53 bits are 2^53 - 1 minus x's: u and 1 - u + 2^-53.
    const uint64_t x = __sampler_rt_rng_next(&rng);
    draws.push_back(__sampler_rt_geometric_from_u(__sampler_rt_u01(x), log1m));
    draws.push_back(__sampler_rt_geometric_from_u(__sampler_rt_u01(~x), log1m));
  }
  const ChiSquare cs = pair_chi_square(draws, 100);
  EXPECT_GT(cs.statistic, chi2_critical(cs.dof, 1e-6));
}

// The generator is s <- s * a mod 2^128 with output the high word: from s = 1 its outputs
// are the high words of a, a^2, a^3, ... (the second step is the first that carries the
// low word's product into the high word, the third the first that multiplies a high word).
TEST(Generator, PowersOfTheMultiplier) {
  const unsigned __int128 a = kMultiplier;
  EXPECT_EQ(static_cast<uint64_t>(a * mcg_inverse()), 1u);
  EXPECT_EQ(static_cast<uint64_t>((a * mcg_inverse()) >> 64), 0u);
  sampler_rng r;
  r.lo = 1;
  r.hi = 0;
  unsigned __int128 power = 1;
  for (int i = 1; i <= 8; ++i) {
    power *= a;
    ASSERT_EQ(__sampler_rt_rng_next(&r), static_cast<uint64_t>(power >> 64)) << "a^" << i;
    ASSERT_EQ(r.lo, static_cast<uint64_t>(power)) << "a^" << i;
  }
}

// Seeding leaves the state odd, as the period of 2^126 needs (an even state stays even,
// and its stream is a shorter one's), whatever the seed.
TEST(Generator, SeededStateIsOdd) {
  for (uint64_t seed = 0; seed < 4096; ++seed) {
    sampler_rng r;
    __sampler_rt_rng_seed(&r, seed * 0x9e3779b97f4a7c15ull);
    ASSERT_EQ(r.lo & 1, 1u) << "seed " << seed;
  }
}

TEST(Seeding, ThreadStreamsDiffer) {
  const uint64_t s = 0x5eed;
  EXPECT_NE(__sampler_rt_thread_seed(s, 0), __sampler_rt_thread_seed(s, 1));
  EXPECT_NE(__sampler_rt_thread_seed(s, 0), __sampler_rt_thread_seed(s + 1, 0));
  EXPECT_EQ(__sampler_rt_thread_seed(s, 7), __sampler_rt_thread_seed(s, 7));
}

namespace {

struct FirstCall {
  int64_t countdown_at_start;
  int64_t first;
  int64_t second;
};

// Each call on a fresh std::thread, one after the other (so the thread serials, and
// with them the streams, are reproducible).
std::vector<FirstCall> first_calls_on_fresh_threads(int threads) {
  std::vector<FirstCall> out(static_cast<size_t>(threads));
  for (auto &fc : out) {
    std::thread t([&fc] {
      fc.countdown_at_start = __sampler_countdown;
      // What a site does with the initial countdown: -1 - 1 < -1, "unknown".
      fc.first = __sampler_next_countdown(1);
      fc.second = __sampler_next_countdown(0);
    });
    t.join();
  }
  return out;
}

// Restart the thread serial numbers (what a fork child does), so that the next fresh
// threads get serials 0, 1, 2, ... again.
void restart_thread_serials() { __sampler_rt_countdown_after_fork_child(); }

} // namespace

TEST(NextCountdown, FirstEventOnFreshThreadsIsSampledWithProbabilityOneOverD) {
  Env env({{"SAMPLER_SPARSITY", "4"}, {"SAMPLER_SEED", "0xabcdef"}});
  const int n = 20000;
  const auto calls = first_calls_on_fresh_threads(n);
  int sampled = 0;
  double not_sampled = 0, gap_sum = 0;
  for (const auto &fc : calls) {
    ASSERT_EQ(fc.countdown_at_start, -1); // initial value in every thread
    ASSERT_NE(fc.first, 0);
    ASSERT_GT(fc.second, 0); // after the first event, every call is a sample
    if (fc.first > 0) {
      ++sampled;
    } else {
      not_sampled += 1;
      gap_sum += static_cast<double>(-fc.first);
    }
  }
  EXPECT_TRUE(within_6_sigma_binomial(sampled, n, 0.25)) << sampled << " of " << n;
  // Memorylessness: given g >= 2, g - 1 is again geometric with mean d.
  const double p = 0.25, sigma = std::sqrt((1 - p) / (p * p) / not_sampled);
  EXPECT_NEAR(gap_sum / not_sampled, 4.0, 6 * sigma);
}

TEST(NextCountdown, ReproducibleWithSeedAndThreadOrder) {
  Env env({{"SAMPLER_SPARSITY", "10"}, {"SAMPLER_SEED", "12345"}});
  restart_thread_serials();
  const auto a = first_calls_on_fresh_threads(200);
  restart_thread_serials();
  const auto b = first_calls_on_fresh_threads(200);
  Env env2({{"SAMPLER_SEED", "12346"}});
  restart_thread_serials();
  const auto c = first_calls_on_fresh_threads(200);
  int same_ab = 0, same_ac = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    same_ab += a[i].first == b[i].first && a[i].second == b[i].second;
    same_ac += a[i].first == c[i].first && a[i].second == c[i].second;
  }
  EXPECT_EQ(same_ab, 200);
  EXPECT_LT(same_ac, 100); // a different seed gives different streams
  // Different threads of one run get different streams.
  int distinct_pairs = 0;
  for (size_t i = 1; i < a.size(); ++i)
    distinct_pairs += a[i].first != a[i - 1].first || a[i].second != a[i - 1].second;
  EXPECT_GT(distinct_pairs, 150);
}

TEST(NextCountdown, DensityOneSamplesEverything) {
  Env env({{"SAMPLER_SPARSITY", "1"}});
  for (const auto &fc : first_calls_on_fresh_threads(50)) {
    EXPECT_EQ(fc.first, 1);
    EXPECT_EQ(fc.second, 1);
  }
}

TEST(NextCountdown, OffNeverComesBack) {
  for (const char *off : {"off", "0"}) {
    Env env({{"SAMPLER_SPARSITY", off}});
    for (const auto &fc : first_calls_on_fresh_threads(5)) {
      EXPECT_EQ(fc.first, -SAMPLER_MAX_COUNTDOWN);
      EXPECT_EQ(fc.second, -SAMPLER_MAX_COUNTDOWN);
    }
    // Also on a thread that was seeded while sampling was on.
    EXPECT_EQ(__sampler_next_countdown(0), -SAMPLER_MAX_COUNTDOWN);
    EXPECT_EQ(__sampler_next_countdown(1), -SAMPLER_MAX_COUNTDOWN);
  }
}

// A check that finds the countdown unknown asks for a fresh one: the number of failures
// before the next success, geometric from 0 with mean d - 1; huge when sampling is off;
// at d = 1, "every trial succeeds" (SAMPLER_EVERY_COUNTDOWN).
TEST(NextCountdown, FreshCountdownForChecks) {
  {
    Env env({{"SAMPLER_SPARSITY", "10"}, {"SAMPLER_SEED", "5"}});
    const int n = 200000;
    double sum = 0;
    int64_t lo = INT64_MAX, zeros = 0, negative = 0;
    std::thread t([&] { // a fresh thread: its own state, whatever earlier tests did
      for (int i = 0; i < n; ++i) {
        int64_t c = __sampler_next_countdown(SAMPLER_FRESH_COUNTDOWN);
        negative += c < 0;
        sum += static_cast<double>(c);
        lo = std::min(lo, c);
        zeros += c == 0;
      }
    });
    t.join();
    EXPECT_EQ(negative, 0);
    EXPECT_EQ(lo, 0);
    // Mean 9, standard deviation sqrt(90): 6 sigma of the mean of n draws.
    EXPECT_NEAR(sum / n, 9.0, 6 * std::sqrt(90.0 / n));
    // P(c = 0) = 1/10.
    EXPECT_NEAR(static_cast<double>(zeros) / n, 0.1, 6 * std::sqrt(0.09 / n));
  }
  for (const auto &[d, want] : {std::pair<const char *, int64_t>{"1", SAMPLER_EVERY_COUNTDOWN},
                                 std::pair<const char *, int64_t>{"off", SAMPLER_MAX_COUNTDOWN}}) {
    Env env({{"SAMPLER_SPARSITY", d}});
    int64_t got = -1;
    std::thread t([&] { got = __sampler_next_countdown(SAMPLER_FRESH_COUNTDOWN); });
    t.join();
    EXPECT_EQ(got, want) << "SAMPLER_SPARSITY=" << d;
  }
}

// The fast path of __sampler_next_countdown (a leaf for a started thread drawing from
// the run's table) answers exactly what the general code does for the same random
// numbers: replayed on a copy of the thread's generator, for every kind of call, at
// densities whose draws come from the table, from the formula (countdowns beyond the
// table), from no table at all (d > 2^20), and d = 1 (no draw).
static void expectNextCountdownAnswersAsTheGeneralCode(
    const std::function<int64_t(int64_t)> &next) {
  for (const char *d : {"1", "2", "7", "100", "1000", "100000", "3000000"}) {
    Env env({{"SAMPLER_SPARSITY", d}, {"SAMPLER_SEED", "77"}});
    const double log1m = std::log1p(-1.0 / std::strtod(d, nullptr));
    long mismatches = 0, second_draws = 0;
    std::thread t([&] {
      __sampler_next_countdown(0); // starts the thread
      sampler_rng replay = *__sampler_rt_thread_rng();
      const int64_t kinds[] = {0, SAMPLER_FRESH_COUNTDOWN, 1, 3};
      for (int i = 0; i < 100000; ++i) {
        const int64_t unknown = kinds[i % 4];
        const int64_t got = next(unknown);
        const int64_t g = __sampler_rt_geometric(&replay, log1m);
        int64_t want;
        if (unknown == SAMPLER_FRESH_COUNTDOWN)
          want = std::strcmp(d, "1") == 0 ? SAMPLER_EVERY_COUNTDOWN : g - 1;
        else if (unknown == 0)
          want = g;
        else if (g == 1) {
          want = __sampler_rt_geometric(&replay, log1m);
          ++second_draws;
        } else
          want = -(g - 1);
        mismatches += got != want;
      }
    });
    t.join();
    EXPECT_EQ(mismatches, 0) << "SAMPLER_SPARSITY=" << d;
    if (std::strcmp(d, "2") == 0) {
      EXPECT_GT(second_draws, 1000); // the fresh trial sampled: a second gap
    }
  }
}

TEST(NextCountdown, FastPathAnswersAsTheGeneralCode) {
  expectNextCountdownAnswersAsTheGeneralCode(__sampler_next_countdown);
}

// __sampler_fire is a site's draw answered in one word: 2 |r| + (r > 0), r being what
// __sampler_next_countdown answers for the same call and the same random numbers
// (replayed on a copy of the thread's generator), whatever the density, for both kinds
// of site call (unknown 0: this execution owns the success; > 0: a fresh trial).
static void expectFireAnswersAsNextCountdown(
    const std::function<int64_t(int64_t)> &fire) {
  for (const char *d : {"1", "2", "7", "1000", "3000000", "off"}) {
    Env env({{"SAMPLER_SPARSITY", d}, {"SAMPLER_SEED", "91"}});
    const bool off = std::strcmp(d, "off") == 0;
    const double log1m = off ? 0 : std::log1p(-1.0 / std::strtod(d, nullptr));
    long mismatches = 0, sampled = 0, fresh = 0;
    std::thread t([&] {
      __sampler_next_countdown(0); // starts the thread
      sampler_rng replay = *__sampler_rt_thread_rng();
      for (int i = 0; i < 20000; ++i) {
        const int64_t unknown = (i / 3) % 3 ? 0 : 1 + i % 5;
        const int64_t got = fire(unknown);
        int64_t r;
        if (off)
          r = -SAMPLER_MAX_COUNTDOWN; // never again
        else if (std::strcmp(d, "1") == 0)
          r = 1;
        else {
          const int64_t g = __sampler_rt_geometric(&replay, log1m);
          if (unknown == 0)
            r = g;
          else if (g == 1)
            r = __sampler_rt_geometric(&replay, log1m);
          else
            r = -(g - 1);
        }
        const uint64_t want = uint64_t(r > 0 ? r : -r) * 2 + (r > 0 ? 1 : 0);
        mismatches += uint64_t(got) != want;
        sampled += got & 1;
        fresh += unknown != 0;
      }
    });
    t.join();
    EXPECT_EQ(mismatches, 0) << "SAMPLER_SPARSITY=" << d;
    EXPECT_GT(fresh, 1000) << d;
    if (off)
      EXPECT_EQ(sampled, 0);
    else
      EXPECT_GT(sampled, 0) << d;
  }
}

TEST(Fire, AnswersAsNextCountdownInOneWord) {
  expectFireAnswersAsNextCountdown(__sampler_fire);
}

#if defined(__x86_64__) && defined(__linux__)
// A preserve_most entry point of the runtime as instrumented code calls it: its argument
// in rdi, the answer in rax; every other general-purpose register but r11 kept (checked:
// each holds a known value across the call; the vector registers the caller saves);
// below the red zone.
static int64_t callPreserveMostEntry(int64_t (*entry)(int64_t), int64_t unknown) {
  int64_t answer, rdi = unknown, rsi = 0x8888;
  uint64_t kept[7] = {0x1111, 0x2222, 0x3333, 0x4444, 0x5555, 0x6666, 0x7777};
  uint64_t after[7];
  asm volatile("movq 0(%[k]), %%rcx\n\t"
               "movq 8(%[k]), %%r8\n\t"
               "movq 16(%[k]), %%r9\n\t"
               "movq 24(%[k]), %%r10\n\t"
               "movq 32(%[k]), %%rbx\n\t"
               "movq 40(%[k]), %%r12\n\t"
               "movq 48(%[k]), %%rdx\n\t"
               "pushq %[a]\n\t"
               "sub $120, %%rsp\n\t"
               "call *%[e]\n\t"
               "add $120, %%rsp\n\t"
               "popq %[a]\n\t"
               "movq %%rcx, 0(%[a])\n\t"
               "movq %%r8, 8(%[a])\n\t"
               "movq %%r9, 16(%[a])\n\t"
               "movq %%r10, 24(%[a])\n\t"
               "movq %%rbx, 32(%[a])\n\t"
               "movq %%r12, 40(%[a])\n\t"
               "movq %%rdx, 48(%[a])"
               : "=&a"(answer), "+D"(rdi), "+S"(rsi)
               : [k] "r"(kept), [a] "r"(after), [e] "r"(entry)
               : "rcx", "rdx", "r8", "r9", "r10", "r11", "rbx", "r12", "memory", "cc", "xmm0",
                 "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9",
                 "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15");
  EXPECT_EQ(rdi, unknown);
  EXPECT_EQ(rsi, 0x8888);
  for (int i = 0; i < 7; ++i)
    EXPECT_EQ(after[i], kept[i]) << "register " << i;
  return answer;
}

static int64_t callPreserveMost(int64_t unknown) {
  return callPreserveMostEntry(__sampler_next_countdown_preserve_most, unknown);
}
static int64_t callFirePreserveMost(int64_t unknown) {
  return callPreserveMostEntry(__sampler_fire_preserve_most, unknown);
}

// At d = 1 the entry point answers itself once the thread has been started by the C
// code (its alternate signal stack in place: a thread's very first call must reach it);
// when the settings are applied again for another d it draws again.
TEST(NextCountdown, PreserveMostEntryAnswersDEqualsOneItself) {
  {
    Env env({{"SAMPLER_SPARSITY", "1"}});
    EXPECT_EQ(__sampler_rt_every_direct, 0);
    std::thread t([] {
      EXPECT_EQ(__sampler_rt_every_thread, 0);
      EXPECT_EQ(callPreserveMost(0), 1); // the C code: starts the thread
      EXPECT_EQ(__sampler_rt_every_thread, 0);
      EXPECT_EQ(callPreserveMost(0), 1); // the C code, now on its fast path
      EXPECT_EQ(__sampler_rt_every_thread, 1);
      EXPECT_EQ(__sampler_rt_every_direct, 1);
      long wrong = 0;
      const int64_t kinds[] = {0, SAMPLER_FRESH_COUNTDOWN, 1, 3};
      for (int i = 0; i < 1000; ++i) {
        const int64_t unknown = kinds[i % 4];
        wrong += callPreserveMost(unknown) !=
                 (unknown == SAMPLER_FRESH_COUNTDOWN ? SAMPLER_EVERY_COUNTDOWN : 1);
      }
      EXPECT_EQ(wrong, 0);
    });
    t.join();
    // Another thread is not answered before its own first call has reached the C code.
    std::thread u([] { EXPECT_EQ(__sampler_rt_every_thread, 0); });
    u.join();
  }
  Env env({{"SAMPLER_SPARSITY", "100"}, {"SAMPLER_SEED", "5"}});
  EXPECT_EQ(__sampler_rt_every_direct, 0);
  std::thread t([] {
    std::set<int64_t> seen;
    for (int i = 0; i < 1000; ++i)
      seen.insert(callPreserveMost(0));
    EXPECT_GT(seen.size(), 20u); // gaps drawn again, not the d = 1 answer
  });
  t.join();
}
#endif

#if defined(__x86_64__) && defined(__linux__)
// The entry point draws itself on the fast path (next_countdown_x86_64.S): the same
// answers from the same random numbers, its registers kept, whether the table holds the
// countdown or not, for a fresh trial sampled, and at d = 1.
TEST(NextCountdown, PreserveMostEntryAnswersAsTheGeneralCode) {
  expectNextCountdownAnswersAsTheGeneralCode(callPreserveMost);
}

TEST(Fire, PreserveMostEntryAnswersAsTheCEntry) {
  expectFireAnswersAsNextCountdown(callFirePreserveMost);
}

// The entry points of ABI 5 take no argument register: the fresh countdown implies
// SAMPLER_FRESH_COUNTDOWN, a site's draw reads its argument from the calling thread's
// __sampler_fire_unknown. Each answers as its entry point with the argument in rdi, from
// the same random numbers, and keeps rdi (whatever the caller has there) with the
// other registers: callPreserveMostEntry passes a mark in rdi and checks it after.
static constexpr int64_t RdiMark = 0x5a5a;
using ArgEntry = int64_t (*)(int64_t);
static int64_t callFreshPreserveMost() {
  return callPreserveMostEntry(
      reinterpret_cast<ArgEntry>(__sampler_fresh_countdown_preserve_most), RdiMark);
}
static int64_t callFireTLSPreserveMost(int64_t unknown) {
  __sampler_fire_unknown = unknown;
  return callPreserveMostEntry(reinterpret_cast<ArgEntry>(__sampler_fire_tls_preserve_most),
                               RdiMark);
}

TEST(NextCountdown, FreshEntryAnswersAsTheGeneralCode) {
  expectNextCountdownAnswersAsTheGeneralCode([](int64_t unknown) {
    return unknown == SAMPLER_FRESH_COUNTDOWN ? callFreshPreserveMost()
                                              : callPreserveMost(unknown);
  });
}

TEST(Fire, TLSEntryAnswersAsTheCEntry) {
  expectFireAnswersAsNextCountdown(callFireTLSPreserveMost);
}

// The site's draw of ABI 7, __sampler_fire_rax_all, as the pass's inline assembly calls
// it (SamplingTransform.cpp's fireAsm): -unknown in rax; the answer |r| in rax and r > 0
// in the carry flag; every general-purpose register but rax and r11 kept, and (since
// ABI 7, whose assembly names no vector register among its clobbers) the vector
// registers too: xmm0-15, and where the machine has AVX the upper halves of ymm0-15.
// The caller's stack need not be aligned (inline assembly calls it wherever the
// function's stack pointer is): MISALIGN calls it with the return address on a 16-byte
// boundary, where a normal call has it 8 bytes off, and the answers and registers must
// be the same either way, the rare ways into the C code included (a thread's first
// draw, sampling off, d above the table, a fresh trial sampled: the C code computes
// with vector registers). Returned in __sampler_fire's one word, 2 |r| + (r > 0), to
// compare the answers.
static bool hasAVX() {
  static const bool avx = __builtin_cpu_supports("avx");
  return avx;
}
// The registers' values before and after, in one block that the assembly reaches from
// one register (it has few to spare), the vector registers at constant offsets.
struct FireRaxFrame {
  uint64_t kept[9];
  unsigned char vec[16][32];      // 16 vector registers of 32 bytes (vmovdqu)
  unsigned char vecAfter[16][32]; // (16 without AVX)
};
// FRESH: call __sampler_fresh_rax_all (a check's fresh countdown, ABI 8) instead, which
// takes no argument and answers in rax alone, keeping the same registers.
static int64_t callFireRax(int64_t unknown, bool misalign, bool sseOnly = false,
                           bool fresh = false) {
  FireRaxFrame f = {{0x1111, 0x2222, 0x3333, 0x4444, 0x5555, 0x6666, 0x7777, 0x8888, 0x9999},
                    {},
                    {}};
  for (int r = 0; r < 16; ++r)
    for (int b = 0; b < 32; ++b)
      f.vec[r][b] = static_cast<unsigned char>(r * 32 + b + 1);
  uint64_t after[9];
  const bool avx = hasAVX() && !sseOnly;
  uint64_t *to = after;
  int64_t distance = -unknown;
  uint64_t carry;
  // The stack pointer 8 bytes off a 16-byte boundary before the call, or on one.
  uint64_t below = misalign ? 128 : 136;
#define SAMPLER_VEC_ALL(OP)                                                                \
  OP(0) OP(1) OP(2) OP(3) OP(4) OP(5) OP(6) OP(7) OP(8) OP(9) OP(10) OP(11) OP(12) OP(13) \
      OP(14) OP(15)
#define SAMPLER_LOAD_Y(n) "vmovdqu %c[v]+" #n "*32(%[k]), %%ymm" #n "\n\t"
#define SAMPLER_LOAD_X(n) "movdqu %c[v]+" #n "*32(%[k]), %%xmm" #n "\n\t"
#define SAMPLER_STORE_Y(n) "vmovdqu %%ymm" #n ", %c[va]+" #n "*32(%[k])\n\t"
#define SAMPLER_STORE_X(n) "movdqu %%xmm" #n ", %c[va]+" #n "*32(%[k])\n\t"
  // One statement from the vector registers' loads to their stores, so that the compiler
  // uses none of them between.
#define SAMPLER_CALL_FIRE_RAX(LOAD, STORE, END, ENTRY)                                       \
  asm volatile(SAMPLER_VEC_ALL(LOAD) "pushq %[a]\n\t"                                       \
                                     "movq %%rsp, %[a]\n\t"                                 \
                                     "andq $-16, %%rsp\n\t"                                 \
                                     "subq %[b], %%rsp\n\t"                                 \
                                     "pushq %[a]\n\t"                                       \
                                     "movq 0(%[k]), %%rcx\n\t"                              \
                                     "movq 8(%[k]), %%rdx\n\t"                              \
                                     "movq 16(%[k]), %%rsi\n\t"                             \
                                     "movq 24(%[k]), %%rdi\n\t"                             \
                                     "movq 32(%[k]), %%r8\n\t"                              \
                                     "movq 40(%[k]), %%r9\n\t"                              \
                                     "movq 48(%[k]), %%r10\n\t"                             \
                                     "movq 56(%[k]), %%rbx\n\t"                             \
                                     "movq 64(%[k]), %%r12\n\t"                             \
                                     "call " ENTRY "\n\t"                                   \
                                     "popq %[a]\n\t"                                        \
                                     "movq %[a], %%rsp\n\t"                                 \
                                     "popq %[a]\n\t"                                        \
                                     "movl $0, %k[c]\n\t"                                   \
                                     "adcl $0, %k[c]\n\t"                                   \
                                     "movq %%rcx, 0(%[a])\n\t"                              \
                                     "movq %%rdx, 8(%[a])\n\t"                              \
                                     "movq %%rsi, 16(%[a])\n\t"                             \
                                     "movq %%rdi, 24(%[a])\n\t"                             \
                                     "movq %%r8, 32(%[a])\n\t"                              \
                                     "movq %%r9, 40(%[a])\n\t"                              \
                                     "movq %%r10, 48(%[a])\n\t"                             \
                                     "movq %%rbx, 56(%[a])\n\t"                             \
                                     "movq %%r12, 64(%[a])\n\t" SAMPLER_VEC_ALL(STORE) END  \
               : "+a"(distance), [c] "=&r"(carry), [a] "+r"(to)                               \
               : [k] "r"(&f), [b] "r"(below), [v] "i"(offsetof(FireRaxFrame, vec)),          \
                 [va] "i"(offsetof(FireRaxFrame, vecAfter))                                   \
               : "rcx", "rdx", "rsi", "rdi", "r8", "r9", "r10", "r11", "rbx", "r12", "memory", \
                 "cc", "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8",  \
                 "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15")
  if (avx && !fresh)
    SAMPLER_CALL_FIRE_RAX(SAMPLER_LOAD_Y, SAMPLER_STORE_Y, "vzeroupper", "__sampler_fire_rax_all");
  else if (!fresh)
    SAMPLER_CALL_FIRE_RAX(SAMPLER_LOAD_X, SAMPLER_STORE_X, "", "__sampler_fire_rax_all");
  else if (avx)
    SAMPLER_CALL_FIRE_RAX(SAMPLER_LOAD_Y, SAMPLER_STORE_Y, "vzeroupper", "__sampler_fresh_rax_all");
  else
    SAMPLER_CALL_FIRE_RAX(SAMPLER_LOAD_X, SAMPLER_STORE_X, "", "__sampler_fresh_rax_all");
#undef SAMPLER_CALL_FIRE_RAX
#undef SAMPLER_VEC_ALL
#undef SAMPLER_LOAD_Y
#undef SAMPLER_LOAD_X
#undef SAMPLER_STORE_Y
#undef SAMPLER_STORE_X
  for (int i = 0; i < 9; ++i)
    EXPECT_EQ(after[i], f.kept[i]) << "register " << i;
  const int width = avx ? 32 : 16;
  for (int r = 0; r < 16; ++r)
    EXPECT_EQ(std::memcmp(f.vec[r], f.vecAfter[r], width), 0)
        << (avx ? "ymm" : "xmm") << r << (misalign ? " (misaligned)" : "");
  if (fresh)
    return distance; // the countdown itself; the flags say nothing
  return int64_t(uint64_t(distance) * 2 + carry);
}
static int64_t callFreshRax(bool misalign, bool sseOnly = false) {
  return callFireRax(0x7777, misalign, sseOnly, /*fresh=*/true);
}

TEST(Fire, RaxEntryAnswersAsTheCEntry) {
  long calls = 0;
  expectFireAnswersAsNextCountdown(
      [&](int64_t unknown) { return callFireRax(unknown, ++calls % 2 == 0); });
  EXPECT_GE(__sampler_rt_vector_area, 512u);
  EXPECT_EQ(__sampler_rt_vector_area % 64, 0u);
}

// Where the system enables no XSAVE state (no AVX either), the entry saves the x87 and
// SSE state with FXSAVE: the same answers, xmm0-15 kept.
TEST(Fire, RaxEntryKeepsSSERegistersWithFXSAVE) {
  callFireRax(0, false); // the area computed, so that the values below stay
  const unsigned area = __sampler_rt_vector_area;
  const unsigned char xsave = __sampler_rt_vector_xsave;
  __sampler_rt_vector_area = 512;
  __sampler_rt_vector_xsave = 0;
  long calls = 0;
  expectFireAnswersAsNextCountdown(
      [&](int64_t unknown) { return callFireRax(unknown, ++calls % 2 == 0, true); });
  __sampler_rt_vector_area = area;
  __sampler_rt_vector_xsave = xsave;
}

// A check's fresh countdown of ABI 8, __sampler_fresh_rax_all, called as the pass's inline
// assembly calls it (SamplingTransform.cpp's freshAsm): the answers of the entry point
// with the argument in rdi, from the same random numbers, at every density and on every
// way (the C code's included), with every register but rax and r11 kept, the vector
// registers too, the stack aligned or not.
TEST(NextCountdown, FreshRaxEntryAnswersAsTheGeneralCode) {
  long calls = 0;
  expectNextCountdownAnswersAsTheGeneralCode([&](int64_t unknown) {
    return unknown == SAMPLER_FRESH_COUNTDOWN ? callFreshRax(++calls % 2 == 0)
                                              : callPreserveMost(unknown);
  });
  EXPECT_GT(calls, 0);
}

TEST(NextCountdown, FreshRaxEntryKeepsSSERegistersWithFXSAVE) {
  callFreshRax(false); // the area computed, so that the values below stay
  const unsigned area = __sampler_rt_vector_area;
  const unsigned char xsave = __sampler_rt_vector_xsave;
  __sampler_rt_vector_area = 512;
  __sampler_rt_vector_xsave = 0;
  long calls = 0;
  expectNextCountdownAnswersAsTheGeneralCode([&](int64_t unknown) {
    return unknown == SAMPLER_FRESH_COUNTDOWN ? callFreshRax(++calls % 2 == 0, true)
                                              : callPreserveMost(unknown);
  });
  __sampler_rt_vector_area = area;
  __sampler_rt_vector_xsave = xsave;
  EXPECT_GT(calls, 0);
}

// A thread's first call reaches the C code through them too (the thread seeded there).
TEST(Fire, ArgumentFreeEntriesStartAThread) {
  Env env({{"SAMPLER_SPARSITY", "10"}, {"SAMPLER_SEED", "12"}});
  std::thread t([] { EXPECT_GE(callFreshPreserveMost(), 0); });
  t.join();
  std::thread v([] { EXPECT_GE(callFreshRax(true), 0); });
  v.join();
  std::thread u([] { EXPECT_NE(callFireTLSPreserveMost(0), 0); });
  u.join();
}

// The table grows while other threads draw from it: at d = 1000, 60% of the first
// table's draws are beyond its 512 entries, and a thread grows it by 512 every 512 of
// those, up to 32768 (in this test's draws, by several thousand entries). The entry
// points' search does not read the table's size: it stops at the first bound not above
// the drawn number, and a 0 there (past the table's end, or not written yet) sends it to
// the C code. Each thread's countdowns are still its own stream's, replayed by the C
// code, while the table grows under them: four threads, in rounds that each build the
// table again, so that it grows under them again. (A first version of
// the search stopped at a bound it read as 0, not yet written, and took it for a
// countdown when it read it again written, one too small: caught in some runs of this
// test, not every one.)
TEST(NextCountdown, EntriesAnswerAsTheGeneralCodeWhileTheTableGrows) {
  const double log1m = std::log1p(-1.0 / 1000);
  constexpr int kThreads = 4, kRounds = 10;
  const int chunks = buildTable(log1m, true); // what a table built for d = 1000 can grow
  long mismatches = 0, growths_made = 0;
  for (int round = 0; round < kRounds; ++round) {
    const std::string seed = std::to_string(31 + round);
    Env env({{"SAMPLER_SPARSITY", "1000"}, {"SAMPLER_SEED", seed.c_str()}});
    std::atomic<long> bad_draws{0};
    std::atomic<int> started{0};
    std::vector<std::thread> threads;
    for (int k = 0; k < kThreads; ++k)
      threads.emplace_back([&, k] {
        __sampler_next_countdown(0); // starts the thread
        sampler_rng replay = *__sampler_rt_thread_rng();
        ++started;
        while (started < kThreads) // all of them drawing at once
          std::this_thread::yield();
        long bad = 0;
        for (int i = 0; i < 30000; ++i) {
          const int64_t got = k % 2 ? callFreshRax(i % 3 == 0) : callFreshPreserveMost();
          bad += got != __sampler_rt_geometric(&replay, log1m) - 1;
        }
        bad_draws += bad;
      });
    for (auto &t : threads)
      t.join();
    mismatches += bad_draws;
    // The growths the draws made (a thread that finds another growing the table goes
    // on without): those left to make, counted by making them, taken from all.
    int left = 0;
    while (__sampler_rt_geometric_table_grow())
      ++left;
    growths_made += chunks - left;
  }
  EXPECT_EQ(mismatches, 0);
  EXPECT_GE(growths_made, 4 * kRounds); // to 2560 entries or more, while the threads drew
}

// The entry points enter their own draw on one test of the thread's flag (countdown.c's
// from_table), set once they find the thread started and drawing with the run's table.
// The thread that loads the options again clears it: a run without a table (d = 1,
// sampling off) is then answered as such from its first call, not from the old table.
TEST(Fire, EntriesForgetTheTableWhenTheOptionsAreLoadedAgain) {
  std::thread t([] {
    {
      Env env({{"SAMPLER_SPARSITY", "100"}});
      for (int i = 0; i < 3; ++i) { // the thread started, then its flag set
        callPreserveMost(0);
        callFireRax(0, false);
        callFireRax(5, false);
        callFreshRax(false);
      }
    }
    {
      Env env({{"SAMPLER_SPARSITY", "1"}});
      for (int i = 0; i < 3; ++i) {
        EXPECT_EQ(callPreserveMost(0), 1);
        EXPECT_EQ(callFireRax(0, false), 2 * 1 + 1);
        EXPECT_EQ(callFireRax(5, false), 2 * 1 + 1);
        EXPECT_EQ(callFreshRax(false), SAMPLER_EVERY_COUNTDOWN);
      }
    }
    Env env({{"SAMPLER_SPARSITY", "off"}});
    for (int i = 0; i < 3; ++i) {
      EXPECT_EQ(callPreserveMost(0), -SAMPLER_MAX_COUNTDOWN);
      // fired(-SAMPLER_MAX_COUNTDOWN): 2 |r| as an unsigned word
      EXPECT_EQ(callFireRax(0, false), (int64_t)((uint64_t)SAMPLER_MAX_COUNTDOWN * 2));
      EXPECT_EQ(callFreshRax(false), SAMPLER_MAX_COUNTDOWN);
    }
  });
  t.join();
}

// A forked child draws a stream of its own, not the rest of its parent's: the fork hook
// (countdown.c's __sampler_rt_countdown_after_fork_child) clears the thread's flag with
// its seed, so that the entry points do not draw from the parent's generator before the
// child's thread is seeded again.
TEST(Fire, EntriesOfAForkedChildDrawItsOwnStream) {
  Env env({{"SAMPLER_SPARSITY", "100"}, {"SAMPLER_SEED", "3"}});
  std::thread t([] {
    for (int i = 0; i < 3; ++i) // the thread started, then its flag set
      callFreshRax(false);
    int fds[2];
    ASSERT_EQ(pipe(fds), 0);
    constexpr int N = 64;
    int64_t parent[N], child[N];
    fflush(nullptr);
    pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      for (int i = 0; i < N; ++i)
        child[i] = callFreshRax(false);
      _exit(write(fds[1], child, sizeof child) == (ssize_t)sizeof child ? 0 : 1);
    }
    for (int i = 0; i < N; ++i)
      parent[i] = callFreshRax(false);
    size_t got = 0;
    while (got < sizeof child) {
      ssize_t n = read(fds[0], reinterpret_cast<char *>(child) + got, sizeof child - got);
      if (n <= 0)
        break;
      got += (size_t)n;
    }
    int status = 0;
    waitpid(pid, &status, 0);
    close(fds[0]);
    close(fds[1]);
    ASSERT_EQ(got, sizeof child);
    ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    EXPECT_NE(std::memcmp(parent, child, sizeof child), 0);
  });
  t.join();
}

// At d = 1, once a thread has reached the C code, the entry points answer themselves:
// a site sampled, and the next execution too; a check every trial a success.
TEST(Fire, PreserveMostEntryAnswersDEqualsOneItself) {
  Env env({{"SAMPLER_SPARSITY", "1"}});
  std::thread t([] {
    __sampler_next_countdown(0);
    __sampler_next_countdown(0); // the fast path: the thread is answered directly now
    ASSERT_EQ(__sampler_rt_every_thread, 1);
    for (int64_t (*fire)(int64_t) : {callFirePreserveMost, callFireTLSPreserveMost}) {
      EXPECT_EQ(fire(4), 2 * 1 + 1); // sampled, the next one too
      EXPECT_EQ(fire(0), 2 * 1 + 1);
    }
    EXPECT_EQ(callFreshPreserveMost(), SAMPLER_EVERY_COUNTDOWN);
    EXPECT_EQ(callFreshRax(false), SAMPLER_EVERY_COUNTDOWN);
  });
  t.join();
}
#endif

// ---- Bernoulli fairness, the way instrumented code uses the ABI ----

namespace {

struct SiteCounts {
  long a = 0, b = 0, both = 0;
};

// Two sites executed alternately, A then B, `iterations` times; each site does what
// a marker lowered in place does: decrement the countdown (failures before the
// next success); at -1 (this one) or below (unknown) ask for the next one and
// observe only if it is positive; the countdown becomes its magnitude - 1.
template <typename Next>
SiteCounts run_two_sites(int64_t &countdown, Next next, long iterations) {
  SiteCounts c;
  auto site = [&]() -> bool {
    int64_t e = --countdown;
    if (e >= 0)
      return false;
    int64_t r = next(-1 - e);
    countdown = (r > 0 ? r : -r) - 1;
    return r > 0;
  };
  for (long i = 0; i < iterations; ++i) {
    bool sa = site();
    bool sb = site();
    c.a += sa;
    c.b += sb;
    c.both += sa && sb;
  }
  return c;
}

} // namespace

TEST(BernoulliFairness, TwoAlternatingSitesAtDensity100) {
  Env env({{"SAMPLER_SPARSITY", "100"}, {"SAMPLER_SEED", "0xfa11"}});
  const long n = 1000000;
  SiteCounts c;
  std::thread t([&] { c = run_two_sites(__sampler_countdown, __sampler_next_countdown, n); });
  t.join();
  EXPECT_TRUE(within_6_sigma_binomial(c.a, n, 0.01)) << "site A sampled " << c.a;
  EXPECT_TRUE(within_6_sigma_binomial(c.b, n, 0.01)) << "site B sampled " << c.b;
  // Independence: both executions of one iteration sampled with probability p^2.
  EXPECT_TRUE(within_6_sigma_binomial(c.both, n, 0.0001)) << "both sampled " << c.both;
}

// The same checks on a periodic counter (sample every 100th execution), which a naive
// implementation would use: with two alternating sites every sample lands on the same
// site. The fairness test must reject it, or it would not be testing anything.
TEST(BernoulliFairness, PeriodicCounterFailsTheSameCheck) {
  const long n = 1000000;
  int64_t countdown = 1;
  SiteCounts c = run_two_sites(countdown, [](int64_t) { return int64_t{100}; }, n);
  EXPECT_FALSE(within_6_sigma_binomial(c.a, n, 0.01) && within_6_sigma_binomial(c.b, n, 0.01))
      << "A " << c.a << " B " << c.b;
}

// ---- the bank of precomputed countdowns ----

TEST(Bank, CountdownsComeFromTheBankCyclicallyFromARandomStart) {
  TempDir dir;
  const std::string bank_path = dir.file("bank.txt");
  std::ofstream(bank_path) << "3 1\n\t2\n";
  Env env({{"SAMPLER_COUNTDOWNS", bank_path.c_str()}});
  ASSERT_EQ(__sampler_rt_opts.mode, SAMPLER_MODE_BANK);
  const std::vector<int64_t> bank{3, 1, 2};
  std::set<size_t> starts;
  for (int t = 0; t < 100; ++t) {
    std::vector<int64_t> got(7);
    std::thread th([&] {
      bool first = true;
      for (auto &r : got) {
        r = __sampler_next_countdown(first ? 1 : 0);
        first = false;
      }
    });
    th.join();
    int start = -1;
    for (size_t o = 0; o < bank.size(); ++o) {
      size_t pos = o;
      auto take = [&] {
        int64_t g = bank[pos];
        pos = (pos + 1) % bank.size();
        return g;
      };
      std::vector<int64_t> expected;
      int64_t g = take(); // first event: sampled iff g == 1
      expected.push_back(g == 1 ? take() : -(g - 1));
      while (expected.size() < got.size())
        expected.push_back(take());
      if (expected == got)
        start = static_cast<int>(o);
    }
    ASSERT_GE(start, 0) << "not the bank's cycle: " << ::testing::PrintToString(got);
    starts.insert(static_cast<size_t>(start));
  }
  EXPECT_EQ(starts.size(), bank.size()) << "threads should start at random offsets";
}

TEST(Bank, IgnoredWhenSamplingIsOff) {
  TempDir dir;
  const std::string bank_path = dir.file("bank.txt");
  std::ofstream(bank_path) << "5\n";
  Env env({{"SAMPLER_COUNTDOWNS", bank_path.c_str()}, {"SAMPLER_SPARSITY", "off"}});
  EXPECT_EQ(__sampler_rt_opts.mode, SAMPLER_MODE_OFF);
  EXPECT_EQ(__sampler_next_countdown(0), -SAMPLER_MAX_COUNTDOWN);
}

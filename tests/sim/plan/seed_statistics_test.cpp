// A configuration's SLO metrics over its seeds: mean, interval and verdict.
#include <catch2/catch.hpp>

#include "sim/plan/seed_statistics.h"

using namespace chaintwin::sim::plan;

TEST_CASE("the 95 percent interval of the mean uses Student's t for the number of seeds", "[plan]") {
  struct Case {
    int64_t df;
    double t;
  };
  for (const auto& c : std::vector<Case>{{1, 12.706}, {4, 2.776}, {9, 2.262}, {29, 2.045}, {1000, 1.9624}})
    CHECK(student_t95(c.df) == Approx(c.t).epsilon(1e-3));
  Slo wait;
  wait.metric = Slo::Metric::kWait;
  wait.bound = 60;
  // 10, 20, 30: mean 20, sd 10, half-width 4.303 × 10 / √3.
  const auto m = summarize(wait, SearchOptions::Judge::kMean, {{10, false, 5}, {20, false, 5}, {30, false, 5}});
  CHECK(m.mean == Approx(20));
  CHECK(m.sd == Approx(10));
  CHECK(*m.ci_high - m.mean == Approx(4.303 * 10 / std::sqrt(3.0)));
  CHECK(m.met);
  CHECK(m.margin == Approx(40));
}

TEST_CASE("a verdict reads the mean, or the interval's pessimistic end, and a censored percentile fails", "[plan]") {
  Slo wait;
  wait.metric = Slo::Metric::kWait;
  wait.bound = 25;
  Slo fraction;
  fraction.metric = Slo::Metric::kAdmittedFraction;
  fraction.bound = 0.9;
  struct Case {
    const char* what;
    const Slo* slo;
    SearchOptions::Judge judge;
    std::vector<MetricValue> seeds;
    bool met;
  };
  const std::vector<Case> cases{
      {"mean under the bound", &wait, SearchOptions::Judge::kMean, {{10, false, 1}, {30, false, 1}}, true},
      {"interval's top over the bound", &wait, SearchOptions::Judge::kConfidence, {{10, false, 1}, {30, false, 1}}, false},
      {"one seed censored", &wait, SearchOptions::Judge::kMean, {{10, false, 1}, {12, true, 1}}, false},
      {"fraction at least the bound", &fraction, SearchOptions::Judge::kMean, {{0.95, false, 1}, {0.9, false, 1}}, true},
      {"fraction's low end under it", &fraction, SearchOptions::Judge::kConfidence, {{0.95, false, 1}, {0.9, false, 1}}, false},
      {"one seed exactly on the bound", &wait, SearchOptions::Judge::kMean, {{25, false, 1}}, true},
  };
  for (const auto& c : cases) {
    INFO(c.what);
    CHECK(summarize(*c.slo, c.judge, c.seeds).met == c.met);
  }
}

// The plan report's words for SLOs and their figures (sim/plan/plan_report.h): a bound in its
// author's spelling, waits through the one duration formatter (sim/results/duration_text.h).
#include <catch2/catch.hpp>

#include "sim/plan/plan_report.h"

using chaintwin::sim::DurationPrecision;
using chaintwin::sim::plan::format_metric;
using chaintwin::sim::plan::Slo;
using chaintwin::sim::plan::slo_bound_text;

namespace {

Slo wait_slo(double bound_s, int32_t percentile = 95) {
  Slo s;
  s.name = "chat";
  s.metric = Slo::Metric::kWait;
  s.percentile = percentile;
  s.bound = bound_s;
  return s;
}

}  // namespace

TEST_CASE("an SLO reads in its author's words: a wait bound as a plan file spells a duration", "[plan]") {
  struct Row {
    double bound_s;
    const char* bound;
    const char* described;
  };
  const Row rows[] = {{600, "10m", "class chat wait p95 <= 10m"},
                      {90, "90s", "class chat wait p95 <= 90s"},
                      {7200, "2h", "class chat wait p95 <= 2h"},
                      {1.5, "1500ms", "class chat wait p95 <= 1500ms"}};
  for (const auto& r : rows) {
    INFO(r.bound);
    CHECK(slo_bound_text(wait_slo(r.bound_s)) == r.bound);
    CHECK(wait_slo(r.bound_s).describe() == r.described);
  }
  CHECK(wait_slo(600, 100).describe() == "class chat wait max <= 10m");
}

TEST_CASE("a plan's wait figures print like the run report's, at the precision their column or line takes",
          "[plan]") {
  struct Row {
    double seconds;
    DurationPrecision precision;
    const char* printed;
  };
  const Row rows[] = {{0, DurationPrecision::kSeconds, "0s"},
                      {0.94, DurationPrecision::kHundredths, "0.94s"},
                      {110.6, DurationPrecision::kSeconds, "1m50s"},
                      {11690.4, DurationPrecision::kSeconds, "3h14m50s"},
                      {-30, DurationPrecision::kSeconds, "-30s"}};
  for (const auto& r : rows) {
    INFO(r.seconds);
    CHECK(format_metric(wait_slo(600), r.seconds, r.precision) == r.printed);
  }
  Slo fraction = wait_slo(0.9);
  fraction.metric = Slo::Metric::kAdmittedFraction;
  CHECK(format_metric(fraction, 0.973) == "0.973");
  CHECK(slo_bound_text(fraction) == "0.900");
}

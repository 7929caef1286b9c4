#include <catch2/catch.hpp>

#include "viz/value_scale.h"

using namespace chaintwin::viz;

namespace {
const std::string kCredits = "credits.gpustack.ai/nvidia";
constexpr float kCard = 1'600'000.0f;
}  // namespace

TEST_CASE("a chart's value axis runs to the nominal quota, to the reserved quota, in decades or in percent",
          "[viz][scale]") {
  // 32 of 4,392 cards reserved: on the nominal scale a sliver, fitted it fills most of the chart.
  const std::vector<float> nominal(10, 4392 * kCard), used = {0, 0, 16 * kCard, 32 * kCard, 32 * kCard, 0, 0, 0, 0, 0};
  struct Row {
    ValueScale scale;
    double fraction_of_32_cards_lo, fraction_of_32_cards_hi;
  };
  for (const Row& r : std::vector<Row>{{ValueScale::kNominal, 0.007, 0.008},
                                       {ValueScale::kFitted, 0.86, 0.88},  // 1 / 1.15
                                       {ValueScale::kLog, 0.41, 0.43}}) {  // log10(33) / log10(4393)
    INFO(value_scale_name(r.scale));
    const ValueAxis axis = value_axis(r.scale, nominal, used, kCredits);
    const double f = axis.fraction(32 * kCard);
    CHECK(f >= r.fraction_of_32_cards_lo);
    CHECK(f <= r.fraction_of_32_cards_hi);
    CHECK(axis.fraction(0) == 0.0);
    CHECK(axis.fraction(1e18) == 1.0);  // held at the top
  }
  const ValueAxis fitted = value_axis(ValueScale::kFitted, nominal, used, kCredits);
  CHECK(fitted.fraction(4392 * kCard) == 1.0);  // the quota line leaves a fitted chart at the top
  const ValueAxis log = value_axis(ValueScale::kLog, nominal, used, kCredits);
  REQUIRE(log.ticks.size() == 4);
  CHECK(log.ticks[0] == ValueTick{kCard, "1 card"});
  CHECK(log.ticks[3] == ValueTick{1000 * kCard, "1000 cards"});
  const ValueAxis cores = value_axis(ValueScale::kLog, {16000}, {3000}, "cpu");
  CHECK(cores.ticks == std::vector<ValueTick>{{1000, "1 core"}, {10000, "10 cores"}});
}

TEST_CASE("percent of nominal divides at each instant, a pool without quota reading 0", "[viz][scale]") {
  CHECK(percent_of_nominal({0, 50, 100, 30}, {100, 100, 200, 0}) == std::vector<float>{0, 50, 50, 0});
  const ValueAxis axis = value_axis(ValueScale::kPercentOfNominal, {}, {0, 50, 50, 0}, kCredits);
  CHECK(axis.top == 100);
  CHECK(axis.fraction(50) == 0.5);
  CHECK(axis.ticks == std::vector<ValueTick>{{50, "50 %"}, {100, "100 %"}});
  // Over-committed (reserved above a nominal quota that shrank): the axis grows past 100 %.
  CHECK(value_axis(ValueScale::kPercentOfNominal, {}, {120}, kCredits).top == Approx(120));
}

TEST_CASE("an empty or all-zero chart still has an axis", "[viz][scale]") {
  for (ValueScale s : {ValueScale::kNominal, ValueScale::kFitted, ValueScale::kLog, ValueScale::kPercentOfNominal}) {
    INFO(value_scale_name(s));
    const ValueAxis axis = value_axis(s, {0, 0}, {0, 0}, kCredits);
    CHECK(axis.top > 0);
    CHECK(axis.fraction(0) == 0.0);
  }
}

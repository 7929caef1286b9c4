#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "sim/plot/ticks.h"

using namespace chaintwin::sim::plot;

TEST_CASE("ticks are the multiples of a 1-2-5 step inside the range", "[plot]") {
  struct Row {
    double lo, hi;
    int target;
    std::vector<double> ticks;
  };
  const Row rows[] = {
      {0, 10, 5, {0, 2, 4, 6, 8, 10}},
      {0, 1, 5, {0, 0.2, 0.4, 0.6, 0.8, 1}},
      {0, 97, 5, {0, 20, 40, 60, 80}},
      {-3.2, 7.9, 5, {-2, 0, 2, 4, 6}},
      {0.1, 0.35, 5, {0.1, 0.15, 0.2, 0.25, 0.3, 0.35}},
      {1000, 1500, 5, {1000, 1100, 1200, 1300, 1400, 1500}},
      {0, 2.3e6, 5, {0, 5e5, 1e6, 1.5e6, 2e6}},
      {1.6, 16.4, 7, {2, 4, 6, 8, 10, 12, 14, 16}},
      {-1e-4, 1e-4, 4, {-1e-4, -5e-5, 0, 5e-5, 1e-4}},
      {5, 5, 5, {5}},
  };
  for (const Row& row : rows) {
    INFO(row.lo << " .. " << row.hi << " about " << row.target);
    const std::vector<double> got = nice_ticks(row.lo, row.hi, row.target);
    REQUIRE(got.size() == row.ticks.size());
    for (size_t i = 0; i < got.size(); ++i) CHECK(got[i] == Approx(row.ticks[i]).margin(1e-15));
  }
  CHECK(nice_ticks(0.1 * 3, 0.1 * 3 + 1, 5).front() == 0.4);  // rounded: not 0.30000000000000004 + 0.1
  CHECK(std::signbit(nice_ticks(-0.5, 0.5, 4)[2]) == false);    // 0, never -0
}

TEST_CASE("the step is 1, 2 or 5 times a power of ten", "[plot]") {
  struct Row {
    double span;
    int target;
    double step;
  };
  const Row rows[] = {{10, 5, 2},    {1, 10, 0.1},  {7, 1, 5},     {100, 4, 20},  {3e9, 6, 5e8},
                      {0.003, 3, 1e-3}, {0, 5, 1}, {-4, 5, 1}, {std::numeric_limits<double>::infinity(), 5, 1}};
  for (const Row& row : rows) {
    INFO(row.span << " / " << row.target);
    CHECK(nice_step(row.span, row.target) == Approx(row.step));
  }
}

TEST_CASE("nice_ticks refuses what is not a range", "[plot]") {
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  CHECK(nice_ticks(nan, 1, 5).empty());
  CHECK(nice_ticks(0, inf, 5).empty());
  CHECK(nice_ticks(2, 1, 5).empty());
  CHECK(nice_ticks(1e20, std::nextafter(1e20, 2e20), 5).size() <= 200);
}

TEST_CASE("a linear axis pads the data and handles one value and huge ranges", "[plot]") {
  const Axis a = linear_axis(0, 100, 5);
  CHECK(a.lo == Approx(-4));
  CHECK(a.hi == Approx(104));
  CHECK(a.ticks == std::vector<double>{0, 20, 40, 60, 80, 100});
  const Axis one = linear_axis(5, 5, 5);  // one value: 10 % around it
  CHECK(one.lo < 5);
  CHECK(one.hi > 5);
  CHECK(one.ticks.size() >= 2);
  const Axis zero = linear_axis(0, 0, 5);  // around 0: +-1
  CHECK(zero.lo < -1);
  CHECK(zero.hi > 1);
  const Axis huge = linear_axis(-1e308, 1e308, 5);
  CHECK(std::isfinite(huge.hi - huge.lo));
  CHECK(!huge.ticks.empty());
  const Axis bad = linear_axis(std::nan(""), 3, 5);
  CHECK(bad.ticks.size() >= 2);
}

TEST_CASE("a log axis has decades, with 2 and 5 between them when it spans few", "[plot]") {
  const Axis wide = log_axis(1, 1e4);
  CHECK(wide.log);
  CHECK(wide.ticks == std::vector<double>{1, 10, 100, 1000, 10000});
  const Axis narrow = log_axis(1, 60);
  CHECK(narrow.ticks == std::vector<double>{1, 2, 5, 10, 20, 50});
  const Axis many = log_axis(1e-10, 1e20);  // 30 decades: every 5th
  CHECK(many.ticks == std::vector<double>{1e-10, 1e-5, 1, 1e5, 1e10, 1e15, 1e20});
  const Axis one = log_axis(7, 7);
  CHECK(one.lo < 7);
  CHECK(one.hi > 7);
  CHECK(!one.ticks.empty());
}

TEST_CASE("tick labels are compact", "[plot]") {
  struct Row {
    double value, step;
    const char* text;
  };
  const Row rows[] = {
      {0, 1, "0"},          {1e-17, 0.1, "0"},      {0.25, 0.05, "0.25"},  {0.3, 0.1, "0.3"},     {15, 5, "15"},
      {-3, 1, "-3"},        {1500, 500, "1.5k"},    {1000, 500, "1k"},     {250000, 50000, "250k"}, {2e6, 5e5, "2e6"},
      {2.5e6, 5e5, "2.5e6"}, {2.5e-5, 5e-6, "2.5e-5"}, {1e-4, 1e-4, "1e-4"}, {999.5, 0.5, "999.5"}, {12.5, 2.5, "12.5"},
      {-1500, 500, "-1.5k"}, {100, 0, "100"},         {0.02, 0.02, "0.02"},
  };
  for (const Row& row : rows) {
    INFO(row.value << " step " << row.step);
    CHECK(tick_label(row.value, row.step) == row.text);
  }
}

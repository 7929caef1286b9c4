#include <catch2/catch.hpp>

#include "viz/series_steps.h"

using namespace chaintwin::viz;

namespace {
SeriesPoint point(int64_t at, int64_t used, StopPolicy p = StopPolicy::kNone) {
  SeriesPoint s;
  s.at_us = at;
  s.nominal = 10;
  s.used = used;
  s.stop_policy = p;
  return s;
}
}  // namespace

TEST_CASE("a pool's step samples hold until the next one when drawn over a window", "[viz][series]") {
  const std::vector<SeriesPoint> points = {point(10, 1), point(20, 5), point(40, 2)};
  struct Row {
    int64_t t0, t1;
    int n;
    std::vector<float> want;
  };
  const Row rows[] = {
      {0, 40, 5, {0, 1, 5, 5, 2}},      // 0 before the first sample; each instant takes the one in force
      {10, 50, 5, {1, 5, 5, 2, 2}},     // the last sample holds after it
      {0, 40, 1, {2}},                  // one value: the end of the window
      {0, 40, 0, {}},
  };
  for (const auto& row : rows) {
    INFO(row.t0 << ".." << row.t1 << " in " << row.n);
    CHECK(sample_steps(points, SeriesField::kUsed, row.t0, row.t1, row.n) == row.want);
  }
}

TEST_CASE("held stretches are shaded in their stop policy, merged when adjacent and clipped to the window",
          "[viz][series]") {
  const std::vector<SeriesPoint> points = {point(0, 0), point(25, 0, StopPolicy::kHold), point(50, 0, StopPolicy::kHold),
                                           point(75, 0), point(90, 0, StopPolicy::kHoldAndDrain)};
  const auto shades = held_shades(points, 0, 100);
  REQUIRE(shades.size() == 2);
  CHECK(shades[0] == Shade{0.25, 0.75, StopPolicy::kHold});
  CHECK(shades[1] == Shade{0.9, 1.0, StopPolicy::kHoldAndDrain});  // still held at the end
  CHECK(held_shades(points, 30, 60) == std::vector<Shade>{{0.0, 1.0, StopPolicy::kHold}});
  CHECK(held_shades(points, 60, 60).empty());
}

TEST_CASE("a hold is shaded on the chart's whole-run axis and stops at now, as the lines do", "[viz][series]") {
  // A Hold from 5 min, still held at 15 min, on a chart of a 60-minute run: shaded over 5..15 of 60,
  // not stretched over 5..15 of 15 (the shading once used 0..now while the lines used 0..horizon).
  const std::vector<SeriesPoint> points = {point(0, 0), point(5, 0, StopPolicy::kHold)};
  CHECK(held_shades(points, 0, 60, 15) == std::vector<Shade>{{5.0 / 60.0, 15.0 / 60.0, StopPolicy::kHold}});
  CHECK(held_shades(points, 0, 60, 4).empty());  // not held yet at now
  CHECK(held_shades(points, 0, 60) == std::vector<Shade>{{5.0 / 60.0, 1.0, StopPolicy::kHold}});
}

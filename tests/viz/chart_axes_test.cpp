#include <catch2/catch.hpp>

#include "viz/chart_axes.h"

using namespace chaintwin::viz;

namespace {
constexpr int64_t kMin = 60'000'000;
constexpr int64_t kHour = 60 * kMin;
constexpr int64_t kDay = 24 * kHour;
}  // namespace

TEST_CASE("time ticks fall on round steps, as many as fit, labelled in the largest exact units", "[viz][axes]") {
  struct Row {
    int64_t t0, t1;
    int max;
    std::vector<std::string> want;
  };
  const std::vector<Row> rows = {
      {0, kHour, 8, {"0", "10m", "20m", "30m", "40m", "50m", "1h"}},
      {0, 15 * kMin, 8, {"0", "5m", "10m", "15m"}},
      {0, kDay, 8, {"0", "6h", "12h", "18h", "1d"}},
      {0, 151 * kDay, 8, {"0", "30d", "60d", "90d", "120d", "150d"}},
      {90 * kMin, 4 * kHour, 4, {"2h", "3h", "4h"}},  // from a window's start, on multiples
      {0, 90 * kMin, 2, {"0", "1h"}},                // two ticks: the step grows to 1h
      {5, 5, 8, {}},
  };
  for (const auto& row : rows) {
    INFO(row.t0 << ".." << row.t1 << " max " << row.max);
    std::vector<std::string> got;
    for (const auto& t : time_ticks(row.t0, row.t1, row.max)) got.push_back(t.label);
    CHECK(got == row.want);
  }
  CHECK(tick_label(90 * kMin) == "1h30m");
  CHECK(tick_label(130 * kDay + 137'000'000) == "130d2m17s");
}

TEST_CASE("a chart shows the run up to now, or the whole run when asked", "[viz][axes]") {
  CHECK(chart_window_end(15 * kMin, kHour, false) == 15 * kMin);
  CHECK(chart_window_end(15 * kMin, kHour, true) == kHour);
  CHECK(chart_window_end(0, kHour, false) == 1);
  CHECK(chart_window_end(2 * kHour, kHour, false) == kHour);
}

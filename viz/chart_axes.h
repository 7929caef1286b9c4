// The axes of the time charts (Credits over time): where the time ticks go and how they read, and
// the window a chart shows (the whole run, or from the start to now, where the data ends). Pure,
// table-tested in tests/viz/chart_axes_test.cpp.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace chaintwin::viz {

struct TimeTick {
  int64_t at_us = 0;
  std::string label;  // "0", "30m", "2h", "1d12h", "130d"
  bool operator==(const TimeTick&) const = default;
};

// Ticks at a round step (1 s, 5 s, 15 s, 30 s, 1 m, 5 m, 10 m, 15 m, 30 m, 1 h, 2 h, 6 h, 12 h,
// 1 d, 2 d, 7 d, 14 d, 30 d, 60 d, 90 d, 180 d, 365 d) chosen so that [t0, t1] holds at most
// `max_ticks` of them, each at a multiple of the step; none when the window is empty.
std::vector<TimeTick> time_ticks(int64_t t0_us, int64_t t1_us, int max_ticks);

// A tick's label: the largest units that keep it exact ("90m" reads "1h30m", "1d00:00:00" reads "1d").
std::string tick_label(int64_t us);

// The chart window's end: the horizon for the whole run; otherwise now (never 0: at least 1 µs,
// so a chart at the start still has an axis).
int64_t chart_window_end(int64_t now_us, int64_t end_us, bool whole_run);

}  // namespace chaintwin::viz

#include <catch2/catch.hpp>

#include <sstream>

#include "sim/results/progress.h"

using chaintwin::sim::ProgressBar;
using chaintwin::sim::ProgressOptions;
using chaintwin::sim::SimTime;

namespace {

// A bar drawing into `out` with a wall clock the test moves by hand.
ProgressOptions manual(std::ostringstream& out, int64_t& clock_ms, bool enabled = true) {
  ProgressOptions o;
  o.enabled = enabled;
  o.out = &out;
  o.wall_ms = [&clock_ms] { return clock_ms; };
  o.width = 10;
  return o;
}

}  // namespace

TEST_CASE("the progress line shows the bar, the share of the horizon, the times and the event rate", "[progress]") {
  struct Row {
    int64_t now_h, horizon_h, events, elapsed_ms;
    const char* line;
  };
  const Row rows[] = {
      {6, 24, 1234, 2000, "[##........]  25.0 %  6h00m00s / 1d00h00m00s  1234 events  617 events/s"},
      {0, 24, 0, 0, "[..........]  0.0 %  0s / 1d00h00m00s  0 events"},
      {24, 24, 10, 1000, "[##########]  100.0 %  1d00h00m00s / 1d00h00m00s  10 events  10 events/s"},
      {1, 3, 5, 0, "[###.......]  33.3 %  1h00m00s / 3h00m00s  5 events"},
      {0, 0, 0, 0, "[##########]  100.0 %  0s / 0s  0 events"},
  };
  for (const auto& r : rows)
    CHECK(ProgressBar::render(SimTime::hours(r.now_h), SimTime::hours(r.horizon_h), r.events, r.elapsed_ms, 10) ==
          r.line);
}

TEST_CASE("the bar redraws at most every 100 ms and short runs print nothing", "[progress]") {
  std::ostringstream out;
  int64_t clock = 1000;
  {
    ProgressBar bar(SimTime::hours(1), manual(out, clock));
    bar.update(SimTime::minutes(1), 1);
    clock += 99;
    bar.update(SimTime::minutes(2), 2);
    CHECK(bar.draws() == 0);
    clock += 1;  // 100 ms after the start
    bar.update(SimTime::minutes(3), 3);
    CHECK(bar.draws() == 1);
    clock += 50;
    bar.update(SimTime::minutes(4), 4);
    CHECK(bar.draws() == 1);
    clock += 50;
    bar.update(SimTime::minutes(30), 5);
    CHECK(bar.draws() == 2);
    bar.finish(SimTime::hours(1), 6);
    CHECK(bar.draws() == 3);
  }
  const std::string text = out.str();
  CHECK(text.rfind("\r[..........]  5.0 %  3m00s / 1h00m00s  3 events  30 events/s\x1b[K", 0) == 0);
  CHECK(text.back() == '\n');
  CHECK(text.find("50.0 %") != std::string::npos);

  std::ostringstream quick;
  int64_t quick_clock = 0;
  ProgressBar short_run(SimTime::hours(1), manual(quick, quick_clock));
  short_run.update(SimTime::hours(1), 10);
  short_run.finish(SimTime::hours(1), 10);
  CHECK(quick.str().empty());
}

TEST_CASE("a bar not on a terminal stays silent", "[progress]") {
  std::ostringstream out;
  int64_t clock = 0;
  ProgressBar bar(SimTime::hours(1), manual(out, clock, false));
  for (int i = 0; i < 10; ++i) {
    clock += 1000;
    bar.update(SimTime::minutes(i), i);
  }
  bar.finish(SimTime::hours(1), 10);
  CHECK(out.str().empty());
  CHECK(bar.draws() == 0);
}

// ProgressBar: how far a long run has got, drawn on one terminal line of stderr. The runner calls
// update() after every event; the bar redraws at most every 100 ms of wall-clock time (the first
// time only after 100 ms, so short runs print nothing) and stays silent unless stderr is a
// terminal, so logs and pipes never see it. The only unit of the project that reads a clock.
#pragma once

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <string>

#include "sim/sim_time.h"

namespace chaintwin::sim {

struct ProgressOptions {
  bool enabled = false;                  // default constructor of ProgressBar: isatty(stderr)
  std::ostream* out = nullptr;           // default: std::cerr
  std::function<int64_t()> wall_ms;      // default: a steady clock in milliseconds
  int64_t min_interval_ms = 100;         // at most ~10 redraws a second
  int32_t width = 30;                    // characters of the bar itself
};

class ProgressBar {
 public:
  // Draws on stderr when it is a terminal; otherwise every call does nothing.
  explicit ProgressBar(SimTime horizon);
  ProgressBar(SimTime horizon, ProgressOptions options);
  ~ProgressBar();
  ProgressBar(const ProgressBar&) = delete;
  ProgressBar& operator=(const ProgressBar&) = delete;

  // The run has reached simulated time `now` after `events` events.
  void update(SimTime now, int64_t events);
  // Draws the last state and ends the line, when anything was drawn; later calls do nothing.
  void finish(SimTime now, int64_t events);

  bool enabled() const { return options_.enabled; }
  int64_t draws() const { return draws_; }

  // One line of the bar (no '\r'): "[#######.......]  25.0 %  06:00:00 / 1d00:00:00  1234 events  617 events/s".
  static std::string render(SimTime now, SimTime horizon, int64_t events, int64_t elapsed_ms, int32_t width);

 private:
  void draw(SimTime now, int64_t events, int64_t wall);

  SimTime horizon_;
  ProgressOptions options_;
  int64_t started_ms_ = 0;
  int64_t last_draw_ms_ = 0;
  int64_t draws_ = 0;
  bool finished_ = false;
};

}  // namespace chaintwin::sim

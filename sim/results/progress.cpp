#include "sim/results/progress.h"

#include <algorithm>
#include <chrono>
#include <iostream>
#include <unistd.h>

#include "model/api/int128.h"
#include "sim/results/duration_text.h"

namespace chaintwin::sim {
namespace {

int64_t steady_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

ProgressOptions terminal_defaults() {
  ProgressOptions o;
  o.enabled = ::isatty(STDERR_FILENO) == 1;
  return o;
}

}  // namespace

ProgressBar::ProgressBar(SimTime horizon) : ProgressBar(horizon, terminal_defaults()) {}

ProgressBar::ProgressBar(SimTime horizon, ProgressOptions options) : horizon_(horizon), options_(std::move(options)) {
  if (options_.out == nullptr) options_.out = &std::cerr;
  if (!options_.wall_ms) options_.wall_ms = steady_ms;
  if (options_.enabled) started_ms_ = last_draw_ms_ = options_.wall_ms();
}

ProgressBar::~ProgressBar() {
  if (draws_ > 0 && !finished_) *options_.out << '\n' << std::flush;
}

std::string ProgressBar::render(SimTime now, SimTime horizon, int64_t events, int64_t elapsed_ms, int32_t width) {
  // Tenths of a percent, in integers; a zero horizon counts as done.
  const int64_t h = std::max<int64_t>(horizon.us(), 0);
  const int64_t n = std::clamp<int64_t>(now.us(), 0, h);
  const int64_t permille = h == 0 ? 1000 : static_cast<int64_t>(static_cast<model::i128>(n) * 1000 / h);
  const int64_t filled = permille * width / 1000;
  std::string line = "[" + std::string(static_cast<size_t>(filled), '#') +
                     std::string(static_cast<size_t>(width - filled), '.') + "]  ";
  line += std::to_string(permille / 10) + "." + std::to_string(permille % 10) + " %  ";
  line += duration_text(now.us(), DurationPrecision::kSeconds) + " / " +
          duration_text(horizon.us(), DurationPrecision::kSeconds) + "  ";
  line += std::to_string(events) + " events";
  if (elapsed_ms > 0) line += "  " + std::to_string(events * 1000 / elapsed_ms) + " events/s";
  return line;
}

void ProgressBar::draw(SimTime now, int64_t events, int64_t wall) {
  // "\x1b[K" clears what a longer previous line left behind.
  *options_.out << '\r' << render(now, horizon_, events, wall - started_ms_, options_.width) << "\x1b[K"
                << std::flush;
  last_draw_ms_ = wall;
  ++draws_;
}

void ProgressBar::update(SimTime now, int64_t events) {
  if (!options_.enabled || finished_) return;
  const int64_t wall = options_.wall_ms();
  if (wall - last_draw_ms_ < options_.min_interval_ms) return;
  draw(now, events, wall);
}

void ProgressBar::finish(SimTime now, int64_t events) {
  if (!options_.enabled || finished_) return;
  finished_ = true;
  if (draws_ == 0) return;
  draw(now, events, options_.wall_ms());
  *options_.out << '\n' << std::flush;
}

}  // namespace chaintwin::sim

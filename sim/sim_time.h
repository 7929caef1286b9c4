// SimTime: simulated time and durations as integer microseconds, with the duration syntax of
// scenario files (`250ms`, `30s`, `15m`, `2h`, `3d`; integers with a unit).
#pragma once

#include <compare>
#include <cstdint>
#include <string>
#include <string_view>

#include "model/result.h"

namespace chaintwin::sim {

class SimTime {
 public:
  constexpr SimTime() = default;
  static constexpr SimTime micros(int64_t us) { return SimTime(us); }
  static constexpr SimTime millis(int64_t ms) { return SimTime(ms * 1000); }
  static constexpr SimTime seconds(int64_t s) { return SimTime(s * 1'000'000); }
  static constexpr SimTime minutes(int64_t m) { return seconds(m * 60); }
  static constexpr SimTime hours(int64_t h) { return minutes(h * 60); }
  static constexpr SimTime days(int64_t d) { return hours(d * 24); }

  // "250ms", "30s", "15m", "2h", "3d", "1500us"; refuses anything else, saying what was expected.
  static model::Result<SimTime> parse(std::string_view text);
  // The largest unit that states the value exactly: 90s -> "90s", 3600s -> "1h", 1500us -> "1500us".
  std::string to_string() const;

  constexpr int64_t us() const { return us_; }
  constexpr SimTime operator+(SimTime o) const { return SimTime(us_ + o.us_); }
  constexpr SimTime operator-(SimTime o) const { return SimTime(us_ - o.us_); }
  constexpr auto operator<=>(const SimTime&) const = default;

 private:
  constexpr explicit SimTime(int64_t us) : us_(us) {}
  int64_t us_ = 0;
};

}  // namespace chaintwin::sim

#include "viz/chart_axes.h"

#include <algorithm>
#include <array>

namespace chaintwin::viz {
namespace {

constexpr int64_t kSecond = 1'000'000;
constexpr int64_t kMinute = 60 * kSecond;
constexpr int64_t kHour = 60 * kMinute;
constexpr int64_t kDay = 24 * kHour;

}  // namespace

std::string tick_label(int64_t us) {
  if (us == 0) return "0";
  std::string out;
  int64_t left = us;
  for (const auto& [unit, name] : std::array<std::pair<int64_t, const char*>, 4>{
           {{kDay, "d"}, {kHour, "h"}, {kMinute, "m"}, {kSecond, "s"}}}) {
    if (left >= unit) {
      out += std::to_string(left / unit) + name;
      left %= unit;
    }
  }
  if (left > 0) out += std::to_string(left) + "us";
  return out;
}

std::vector<TimeTick> time_ticks(int64_t t0_us, int64_t t1_us, int max_ticks) {
  std::vector<TimeTick> out;
  if (t1_us <= t0_us || max_ticks < 2) return out;
  static constexpr std::array<int64_t, 22> kSteps{
      kSecond,    5 * kSecond, 15 * kSecond, 30 * kSecond, kMinute,     5 * kMinute, 10 * kMinute, 15 * kMinute,
      30 * kMinute, kHour,     2 * kHour,    6 * kHour,    12 * kHour,  kDay,        2 * kDay,     7 * kDay,
      14 * kDay,  30 * kDay,   60 * kDay,    90 * kDay,    180 * kDay,  365 * kDay};
  int64_t step = kSteps.back();
  for (const int64_t s : kSteps)
    if ((t1_us - t0_us) / s + 1 <= max_ticks) {
      step = s;
      break;
    }
  for (int64_t t = (t0_us + step - 1) / step * step; t <= t1_us; t += step) out.push_back({t, tick_label(t)});
  return out;
}

int64_t chart_window_end(int64_t now_us, int64_t end_us, bool whole_run) {
  return std::max<int64_t>(1, whole_run ? end_us : std::min(now_us, end_us));
}

}  // namespace chaintwin::viz

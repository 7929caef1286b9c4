#include "sim/results/duration_text.h"

namespace chaintwin::sim {
namespace {

constexpr uint64_t kMicrosPerSecond = 1'000'000;
constexpr int64_t kMinuteUs = 60 * 1'000'000;

// µs per shown step at a precision, and the digits after the seconds' point.
uint64_t quantum(DurationPrecision p) {
  switch (p) {
    case DurationPrecision::kSeconds: return kMicrosPerSecond;
    case DurationPrecision::kHundredths: return 10'000;
    case DurationPrecision::kExact: return 1;
  }
  return 1;
}

std::string two_digits(uint64_t v) { return (v < 10 ? "0" : "") + std::to_string(v); }

// `steps` quanta of `p`, as "[<d>d][<h>h][<m>m]<s>[.<fraction>]s" with the units below the first
// in two digits.
std::string compose(uint64_t steps, DurationPrecision p) {
  if (steps == 0) return "0s";
  const uint64_t per_second = kMicrosPerSecond / quantum(p);
  const uint64_t secs = steps / per_second;
  std::string fraction;
  if (p == DurationPrecision::kHundredths) {
    fraction = "." + two_digits(steps % per_second);
  } else if (p == DurationPrecision::kExact && steps % per_second != 0) {
    fraction = std::to_string(steps % per_second);
    fraction.insert(0, 6 - fraction.size(), '0');
    fraction.erase(fraction.find_last_not_of('0') + 1);
    fraction.insert(0, ".");
  }
  const uint64_t d = secs / 86400, h = secs / 3600 % 24, m = secs / 60 % 60, s = secs % 60;
  if (d > 0) return std::to_string(d) + "d" + two_digits(h) + "h" + two_digits(m) + "m" + two_digits(s) + fraction + "s";
  if (h > 0) return std::to_string(h) + "h" + two_digits(m) + "m" + two_digits(s) + fraction + "s";
  if (m > 0) return std::to_string(m) + "m" + two_digits(s) + fraction + "s";
  return std::to_string(s) + fraction + "s";
}

// |us| as unsigned, so that INT64_MIN has a magnitude too.
uint64_t magnitude(int64_t us) { return us < 0 ? uint64_t{0} - static_cast<uint64_t>(us) : static_cast<uint64_t>(us); }

}  // namespace

DurationPrecision column_precision(const std::vector<int64_t>& us) {
  for (const int64_t v : us)
    if (v >= kMinuteUs || v <= -kMinuteUs) return DurationPrecision::kSeconds;
  return DurationPrecision::kHundredths;
}

std::string duration_text(int64_t us, DurationPrecision precision) {
  const std::string sign = us < 0 ? "-" : "";
  const uint64_t steps = magnitude(us) / quantum(precision);
  if (steps == 0 && us != 0) return sign + (precision == DurationPrecision::kSeconds ? "<1s" : "<0.01s");
  return sign + compose(steps, precision);
}

std::string duration_bound_text(int64_t us, DurationPrecision precision, bool round_up) {
  const uint64_t q = quantum(precision);
  const uint64_t mag = magnitude(us);
  // A magnitude rounds away from zero when the direction points away from zero.
  const bool away = us < 0 ? !round_up : round_up;
  const uint64_t steps = mag / q + (away && mag % q != 0 ? 1 : 0);
  return (us < 0 && steps != 0 ? "-" : "") + compose(steps, precision);
}

}  // namespace chaintwin::sim

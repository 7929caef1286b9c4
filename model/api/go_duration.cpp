// time.ParseDuration and Duration.String at microsecond resolution.
#include "model/api/go_duration.h"

#include <limits>

#include "model/api/int128.h"

namespace chaintwin::model {
namespace {

constexpr int64_t kMaxUs = std::numeric_limits<int64_t>::max();

Error invalid(std::string_view text) { return err("time: invalid duration \"" + std::string(text) + "\""); }

// Nanoseconds per unit, or 0 for an unknown unit.
int64_t unit_ns(std::string_view unit) {
  if (unit == "ns") return 1;
  if (unit == "us" || unit == "\xC2\xB5s" || unit == "\xCE\xBCs") return 1'000;  // us, µs (U+00B5), μs (U+03BC)
  if (unit == "ms") return 1'000'000;
  if (unit == "s") return 1'000'000'000;
  if (unit == "m") return 60LL * 1'000'000'000;
  if (unit == "h") return 3600LL * 1'000'000'000;
  return 0;
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// value × ns_per_unit / 1000 (µs) without overflow; false when it does not fit.
bool scaled_us(uint64_t whole, uint64_t frac, uint64_t frac_scale, int64_t ns_per_unit, int64_t& out) {
  const auto unit = static_cast<uint64_t>(ns_per_unit);
  // Fits: whole < 2^64 and unit <= 3.6e12 nanoseconds, so the product stays below 2^127.
  const i128 ns = static_cast<i128>(whole) * unit +
                      (frac_scale == 0 ? 0 : static_cast<i128>(frac) * unit / frac_scale);
  const i128 us = ns / 1000;
  if (us > kMaxUs) return false;
  out = static_cast<int64_t>(us);
  return true;
}

void append_fraction(std::string& out, int64_t value, int digits) {
  // value has `digits` decimal places; trailing zeros are dropped, and so is the point with none left.
  std::string frac(static_cast<size_t>(digits), '0');
  for (int i = digits - 1; i >= 0; --i, value /= 10) frac[static_cast<size_t>(i)] = static_cast<char>('0' + value % 10);
  while (!frac.empty() && frac.back() == '0') frac.pop_back();
  if (!frac.empty()) out += "." + frac;
}

}  // namespace

Result<int64_t> parse_go_duration(std::string_view text) {
  std::string_view s = text;
  bool negative = false;
  if (!s.empty() && (s.front() == '-' || s.front() == '+')) {
    negative = s.front() == '-';
    s.remove_prefix(1);
  }
  if (s == "0") return int64_t{0};
  if (s.empty()) return invalid(text);
  int64_t total = 0;
  while (!s.empty()) {
    uint64_t whole = 0, frac = 0, frac_scale = 0;
    bool digits = false;
    while (!s.empty() && is_digit(s.front())) {
      if (whole > (std::numeric_limits<uint64_t>::max() - 9) / 10) return invalid(text);
      whole = whole * 10 + static_cast<uint64_t>(s.front() - '0');
      digits = true;
      s.remove_prefix(1);
    }
    if (!s.empty() && s.front() == '.') {
      s.remove_prefix(1);
      frac_scale = 1;
      while (!s.empty() && is_digit(s.front())) {
        if (frac_scale < 1'000'000'000'000'000ULL) {  // further digits cannot change a nanosecond
          frac = frac * 10 + static_cast<uint64_t>(s.front() - '0');
          frac_scale *= 10;
        }
        digits = true;
        s.remove_prefix(1);
      }
    }
    if (!digits) return invalid(text);
    size_t n = 0;
    while (n < s.size() && s[n] != '.' && !is_digit(s[n])) ++n;
    if (n == 0) return err("time: missing unit in duration \"" + std::string(text) + "\"");
    const std::string_view unit = s.substr(0, n);
    const int64_t ns = unit_ns(unit);
    if (ns == 0) return err("time: unknown unit \"" + std::string(unit) + "\" in duration \"" + std::string(text) + "\"");
    s.remove_prefix(n);
    int64_t us = 0;
    if (!scaled_us(whole, frac, frac_scale, ns, us) || us > kMaxUs - total) return invalid(text);
    total += us;
  }
  return negative ? -total : total;
}

std::string format_go_duration(int64_t us) {
  if (us == 0) return "0s";
  std::string out;
  uint64_t u = us < 0 ? static_cast<uint64_t>(-(us + 1)) + 1 : static_cast<uint64_t>(us);
  if (us < 0) out = "-";
  if (u < 1'000'000) {
    if (u < 1'000) return out + std::to_string(u) + "\xC2\xB5s";
    out += std::to_string(u / 1'000);
    append_fraction(out, static_cast<int64_t>(u % 1'000), 3);
    return out + "ms";
  }
  const uint64_t secs = u / 1'000'000;
  const auto frac = static_cast<int64_t>(u % 1'000'000);
  const uint64_t hours = secs / 3600, minutes = secs / 60 % 60, seconds = secs % 60;
  if (hours > 0) out += std::to_string(hours) + "h";
  if (hours > 0 || minutes > 0) out += std::to_string(minutes) + "m";
  out += std::to_string(seconds);
  append_fraction(out, frac, 6);
  return out + "s";
}

}  // namespace chaintwin::model

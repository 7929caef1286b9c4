#include "sim/plot/ticks.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace chaintwin::sim::plot {
namespace {

// The fewest decimals (0..6) that write `step / unit` exactly enough for tick labels.
int decimals_for(double step, double unit) {
  const double s = std::fabs(step / unit);
  if (!(s > 0) || !std::isfinite(s)) return 0;
  for (int d = 0; d < 6; ++d) {
    const double scaled = s * std::pow(10.0, d);
    if (std::fabs(scaled - std::round(scaled)) < 1e-6 * std::max(1.0, scaled)) return d;
  }
  return 6;
}

// `v` with `decimals` decimals, trailing zeros (and a bare point) dropped, never "-0".
std::string fixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  std::string s = buf;
  if (s.find('.') != std::string::npos) {
    while (!s.empty() && s.back() == '0') s.pop_back();
    if (!s.empty() && s.back() == '.') s.pop_back();
  }
  if (s == "-0") s = "0";
  return s;
}

// Rounds a multiple of `step` to the decimals the step has, so 3 * 0.1 is 0.3, never -0.
double snap(double v, double step) {
  const int d = std::clamp(static_cast<int>(-std::floor(std::log10(step))) + 1, 0, 15);
  const double p = std::pow(10.0, d);
  const double r = std::round(v * p) / p;
  return std::isfinite(r) ? r + 0.0 : v;
}

}  // namespace

double nice_step(double span, int target) {
  if (target < 1) target = 1;
  const double raw = span / target;
  if (!(raw > 0) || !std::isfinite(raw)) return 1;
  const double mag = std::pow(10.0, std::floor(std::log10(raw)));
  const double n = raw / mag;
  // The nearest of 1, 2, 5, 10 on a log scale: the thresholds are their geometric means.
  const double m = n < 1.4142 ? 1 : n < 3.1623 ? 2 : n < 7.0711 ? 5 : 10;
  return m * mag;
}

std::vector<double> nice_ticks(double lo, double hi, int target) {
  std::vector<double> out;
  if (!std::isfinite(lo) || !std::isfinite(hi) || hi < lo) return out;
  if (hi == lo) return {lo};
  const double step = nice_step(hi - lo, target);
  const double k0 = std::ceil(lo / step - 1e-9), k1 = std::floor(hi / step + 1e-9);
  if (!std::isfinite(k0) || !std::isfinite(k1) || k1 - k0 > 199) return out;
  const int count = static_cast<int>(k1 - k0);  // counted in integers: k0 + 1 may equal k0 far out
  for (int i = 0; i <= count; ++i) {
    const double v = snap((k0 + i) * step, step);
    if (out.empty() || v > out.back()) out.push_back(v);
  }
  return out;
}

Axis linear_axis(double min, double max, int target) {
  Axis a;
  if (!std::isfinite(min) || !std::isfinite(max) || max < min) {
    min = 0;
    max = 1;
  }
  // Keep the span finite however far apart the values are.
  min = std::clamp(min, -1e300, 1e300);
  max = std::clamp(max, -1e300, 1e300);
  const double scale = std::max(std::fabs(min), std::fabs(max));
  if (max - min <= scale * 1e-12) {  // one value (or values equal to twelve digits)
    const double mid = (min + max) / 2;
    const double pad = mid != 0 ? std::fabs(mid) * 0.1 : 1.0;
    min = mid - pad;
    max = mid + pad;
  }
  const double pad = (max - min) * 0.04;
  a.lo = min - pad;
  a.hi = max + pad;
  // At least two ticks, so the axis has a scale (a narrow range may hold one multiple of its step).
  for (int t = std::max(target, 1); t <= std::max(target, 1) + 8; ++t) {
    a.step = nice_step(a.hi - a.lo, t);
    a.ticks = nice_ticks(a.lo, a.hi, t);
    if (a.ticks.size() >= 2) break;
  }
  return a;
}

Axis log_axis(double min, double max) {
  Axis a;
  a.log = true;
  if (!(min > 0) || !(max >= min) || !std::isfinite(max)) {
    min = 1;
    max = 10;
  }
  // Within 10^+-300 and padded at most 5 decades, so 10^lo and 10^hi stay normal doubles.
  double l0 = std::max(std::log10(min), -300.0), l1 = std::min(std::log10(max), 300.0);
  if (l1 - l0 < 1e-9) {
    l0 -= 0.5;
    l1 += 0.5;
  } else {
    const double pad = std::min((l1 - l0) * 0.04, 5.0);
    l0 -= pad;
    l1 += pad;
  }
  a.lo = std::pow(10.0, l0);
  a.hi = std::pow(10.0, l1);
  const double span = l1 - l0;
  const int d0 = static_cast<int>(std::floor(l0)), d1 = static_cast<int>(std::ceil(l1));
  auto inside = [&](double v) { return v >= a.lo * (1 - 1e-12) && v <= a.hi * (1 + 1e-12); };
  if (span <= 2) {
    const bool fine = span <= 0.7;  // less than a factor of five: every digit
    for (int d = d0; d <= d1; ++d)
      for (int m = 1; m <= 9; ++m) {
        if (!fine && m != 1 && m != 2 && m != 5) continue;
        const double v = m * std::pow(10.0, d);
        if (inside(v)) a.ticks.push_back(v);
      }
  } else {
    const int every = span > 12 ? static_cast<int>(nice_step(span, 6)) : 1;
    for (int d = d0; d <= d1; ++d)
      if (d % std::max(every, 1) == 0 && inside(std::pow(10.0, d))) a.ticks.push_back(std::pow(10.0, d));
  }
  a.step = 0;  // each tick's own magnitude sets its label (tick_label(v, v))
  return a;
}

std::string tick_label(double value, double step) {
  if (!std::isfinite(value)) return "?";
  if (step <= 0 || !std::isfinite(step)) step = std::fabs(value);
  const double a = std::fabs(value);
  if (a < std::fabs(step) * 1e-9 || a == 0) return "0";
  if (a >= 1e6 || a < 1e-3) {
    int e = static_cast<int>(std::floor(std::log10(a)));
    const int d = std::clamp(decimals_for(step, std::pow(10.0, e)), 0, 3);
    std::string m = fixed(value / std::pow(10.0, e), d);
    if (m == "10" || m == "-10") {  // rounding carried into the next power
      ++e;
      m = value < 0 ? "-1" : "1";
    }
    return m + "e" + std::to_string(e);
  }
  if (a >= 1e3) return fixed(value / 1e3, decimals_for(step, 1e3)) + "k";
  return fixed(value, decimals_for(step, 1));
}

}  // namespace chaintwin::sim::plot

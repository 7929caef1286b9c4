#include "viz/series_steps.h"

#include <algorithm>

namespace chaintwin::viz {
namespace {

float value_of(const SeriesPoint& p, SeriesField field) {
  switch (field) {
    case SeriesField::kNominal: return static_cast<float>(p.nominal);
    case SeriesField::kUsed: return static_cast<float>(p.used);
    case SeriesField::kAdmitted: return static_cast<float>(p.admitted);
    case SeriesField::kPendingWorkloads: return static_cast<float>(p.pending_workloads);
  }
  return 0;
}

}  // namespace

std::vector<float> sample_steps(const std::vector<SeriesPoint>& points, SeriesField field, int64_t t0, int64_t t1,
                                int n) {
  std::vector<float> out;
  if (n <= 0) return out;
  out.reserve(static_cast<size_t>(n));
  size_t next = 0;  // the first point after the instant
  const SeriesPoint* current = nullptr;
  for (int i = 0; i < n; ++i) {
    const int64_t at = n == 1 ? t1 : t0 + static_cast<int64_t>((static_cast<double>(t1 - t0) * i) / (n - 1));
    while (next < points.size() && points[next].at_us <= at) current = &points[next++];
    out.push_back(current == nullptr ? 0.0f : value_of(*current, field));
  }
  return out;
}

std::vector<Shade> held_shades(const std::vector<SeriesPoint>& points, int64_t t0, int64_t t1, int64_t until) {
  std::vector<Shade> out;
  if (t1 <= t0) return out;
  const double span = static_cast<double>(t1 - t0);
  auto frac = [&](int64_t t) { return std::clamp(static_cast<double>(t - t0) / span, 0.0, 1.0); };
  for (size_t i = 0; i < points.size(); ++i) {
    if (points[i].stop_policy == StopPolicy::kNone) continue;
    const int64_t from = points[i].at_us;
    const int64_t to = std::min(i + 1 < points.size() ? points[i + 1].at_us : t1, until);
    if (to <= from) continue;
    if (to <= t0 || from >= t1) continue;
    Shade s{frac(from), frac(to), points[i].stop_policy};
    if (!out.empty() && out.back().stop_policy == s.stop_policy && out.back().x1 >= s.x0) out.back().x1 = s.x1;
    else out.push_back(s);
  }
  return out;
}

}  // namespace chaintwin::viz

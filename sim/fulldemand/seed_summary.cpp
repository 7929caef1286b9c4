#include "sim/fulldemand/seed_summary.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace chaintwin::sim {

double percentile(std::vector<double> values, double q) {
  std::sort(values.begin(), values.end());
  const double position = static_cast<double>(values.size() - 1) * q / 100.0;
  const auto low = static_cast<size_t>(std::floor(position));
  const size_t high = std::min(low + 1, values.size() - 1);
  return values[low] + (values[high] - values[low]) * (position - static_cast<double>(low));
}

Spread spread_of(const std::vector<double>& values) {
  Spread s;
  if (values.empty()) return s;
  s.median = percentile(values, 50);
  s.p25 = percentile(values, 25);
  s.p75 = percentile(values, 75);
  double sum = 0;
  for (const double v : values) sum += v;
  s.mean = sum / static_cast<double>(values.size());
  s.min = *std::min_element(values.begin(), values.end());
  s.max = *std::max_element(values.begin(), values.end());
  return s;
}

PolicySummary summarise(const std::vector<FullDemandRun>& runs) {
  PolicySummary out;
  if (!runs.empty()) out.policy = runs.front().settings.policy;
  struct Values {
    std::vector<double> allocated, fragment, ratio;
  };
  std::map<int32_t, Values> by_bucket;
  std::vector<double> final_allocated, final_fragment, placed, failed, submitted;
  for (const FullDemandRun& r : runs) {
    for (const CurvePoint& p : r.curve) {
      Values& v = by_bucket[p.bucket];
      v.allocated.push_back(p.allocated_percent);
      v.fragment.push_back(p.fragment_percent);
      v.ratio.push_back(p.fragment_ratio);
    }
    final_allocated.push_back(r.capacity_milli > 0 ? 100.0 * static_cast<double>(r.allocated_milli) /
                                                         static_cast<double>(r.capacity_milli)
                                                   : 0.0);
    final_fragment.push_back(r.fragment_percent);
    placed.push_back(static_cast<double>(r.placed));
    failed.push_back(static_cast<double>(r.failed));
    submitted.push_back(static_cast<double>(r.submitted));
  }
  for (const auto& [bucket, v] : by_bucket)
    out.buckets.push_back({bucket, static_cast<int32_t>(v.allocated.size()), spread_of(v.allocated),
                           spread_of(v.fragment), spread_of(v.ratio)});
  out.final_allocated = spread_of(final_allocated);
  out.final_fragment = spread_of(final_fragment);
  out.placed = spread_of(placed);
  out.failed = spread_of(failed);
  out.submitted = spread_of(submitted);
  return out;
}

}  // namespace chaintwin::sim

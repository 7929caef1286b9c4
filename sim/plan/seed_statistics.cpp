#include "sim/plan/seed_statistics.h"

#include <algorithm>
#include <cmath>

namespace chaintwin::sim::plan {

double student_t95(int64_t df) {
  // t(0.975, df) for df 1..30, then the normal limit approached as 1.96 + 2.4 / df.
  static constexpr double kTable[] = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
                                      2.201,  2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
                                      2.080,  2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042};
  if (df < 1) return 0;
  if (df <= 30) return kTable[df - 1];
  return 1.96 + 2.4 / static_cast<double>(df);
}

MetricSummary summarize(const Slo& slo, SearchOptions::Judge judge, const std::vector<MetricValue>& per_seed) {
  MetricSummary s;
  s.seeds = static_cast<int64_t>(per_seed.size());
  if (per_seed.empty()) return s;
  double sum = 0;
  for (const auto& v : per_seed) {
    sum += v.value;
    if (v.censored) ++s.censored_seeds;
  }
  const double n = static_cast<double>(per_seed.size());
  s.mean = sum / n;
  if (per_seed.size() >= 2) {
    double ss = 0;
    for (const auto& v : per_seed) ss += (v.value - s.mean) * (v.value - s.mean);
    s.sd = std::sqrt(ss / (n - 1));
    const double half = student_t95(s.seeds - 1) * s.sd / std::sqrt(n);
    // Clipped to the metric's range: a wait or a count is never negative, a fraction at most 1.
    s.ci_low = std::max(0.0, s.mean - half);
    s.ci_high = s.mean + half;
    if (slo.metric == Slo::Metric::kAdmittedFraction || slo.metric == Slo::Metric::kUtilization)
      s.ci_high = std::min(1.0, *s.ci_high);
  }
  s.judged = s.mean;
  if (judge == SearchOptions::Judge::kConfidence && s.ci_low)
    s.judged = slo.at_most() ? *s.ci_high : *s.ci_low;
  s.margin = slo.at_most() ? slo.bound - s.judged : s.judged - slo.bound;
  s.met = s.margin >= 0 && s.censored_seeds == 0;
  return s;
}

}  // namespace chaintwin::sim::plan

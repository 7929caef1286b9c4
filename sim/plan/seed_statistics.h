// A configuration's SLO metrics over its seeds: the mean, the sample standard deviation and a 95 %
// confidence interval of the mean (Student's t with n − 1 degrees of freedom; no interval from a
// single seed), and the verdict on each SLO — judged on the mean, or with `judge: confidence` on
// the pessimistic end of the interval. A wait percentile that fell on a never-admitted Workload in
// any seed is not known to meet its bound, so it fails.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "sim/plan/plan.h"
#include "sim/plan/run_metrics.h"

namespace chaintwin::sim::plan {

struct MetricSummary {
  int64_t seeds = 0;
  double mean = 0;
  double sd = 0;
  std::optional<double> ci_low, ci_high;  // 95 % interval of the mean (two seeds or more), clipped
                                          // to the metric's range (>= 0; fractions <= 1)
  int64_t censored_seeds = 0;             // seeds whose percentile fell on a censored Workload
  double judged = 0;                      // the value the verdict reads
  bool met = false;
  double margin = 0;  // how far inside the bound (negative: outside), in the metric's unit
};

// The two-sided 95 % Student t quantile for `df` degrees of freedom (df >= 1).
double student_t95(int64_t df);

MetricSummary summarize(const Slo& slo, SearchOptions::Judge judge, const std::vector<MetricValue>& per_seed);

}  // namespace chaintwin::sim::plan

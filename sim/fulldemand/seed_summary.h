// A policy's full-demand runs over several seeds, summarised per bucket of arrived demand as the
// paper's figures are: the median over seeds with the 25th–75th percentile band (numpy's linear
// interpolation), and the mean, minimum and maximum, for the allocated and the fragmented GPU.
// Each statistic says how many runs it counts (a top bucket some seeds did not reach has fewer).
#pragma once

#include <cstdint>
#include <vector>

#include "sim/fulldemand/full_demand_run.h"

namespace chaintwin::sim {

struct Spread {
  double median = 0, p25 = 0, p75 = 0, mean = 0, min = 0, max = 0;
};

// numpy.percentile's default (linear between the closest ranks); `values` non-empty, q in [0, 100].
double percentile(std::vector<double> values, double q);
Spread spread_of(const std::vector<double>& values);

struct BucketSummary {
  int32_t bucket = 0;
  int32_t runs = 0;  // runs with a value in this bucket
  Spread allocated, fragment, fragment_ratio;
};

struct PolicySummary {
  FullDemandPolicy policy{};
  std::vector<BucketSummary> buckets;  // ascending
  Spread final_allocated, final_fragment, placed, failed, submitted;
};

PolicySummary summarise(const std::vector<FullDemandRun>& runs);

}  // namespace chaintwin::sim

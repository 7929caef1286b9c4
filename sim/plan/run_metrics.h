// What one run of one configuration contributes to a plan: the value of every SLO metric, a
// summary per workload class, pool and GPU model (for reports and plots), and the pools' series
// over time thinned to a fixed number of samples (for the SQLite file). Computed from the run's
// RunRecord with the report's own arithmetic (report.h): waits count the Workloads never admitted
// as right-censored at the end of the run.
#pragma once

#include <optional>
#include <vector>

#include <nlohmann/json.hpp>

#include "sim/plan/plan.h"
#include "sim/results/run_record.h"

namespace chaintwin::sim::plan {

// One SLO metric in one run. Waits are in seconds; `censored`: the percentile's rank fell on a
// Workload never admitted, so the true value is at least `value`. `workloads`: how many the
// metric was computed over (0: vacuous — no Workload of the subject arrived).
struct MetricValue {
  double value = 0;
  bool censored = false;
  int64_t workloads = 0;
  bool operator==(const MetricValue&) const = default;
};

struct RunMetrics {
  std::vector<MetricValue> slos;  // one per plan SLO, in plan order
  nlohmann::ordered_json summary;  // {"classes": {...}, "pools": {...}, "gpuModels": {...}}
  nlohmann::ordered_json series;   // {"<ClusterQueue> <resource>": {"t_s": [...], "reserved": [...], ...}}
};

RunMetrics run_metrics(const Plan& plan, const RunRecord& record);

nlohmann::ordered_json metrics_json(const std::vector<MetricValue>& values);
std::vector<MetricValue> metrics_from_json(const nlohmann::json& j);

}  // namespace chaintwin::sim::plan

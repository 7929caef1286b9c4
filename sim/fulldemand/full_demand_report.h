// What `chaintwin full-demand` prints and draws: the trace and set-up, per policy the figures at
// 100 % arrived demand and at the end with their spread over seeds, and the allocation and
// fragmentation curves per bucket of arrived demand — as text, as JSON (every run's curve too),
// and as a PNG chart (median lines with their 25–75 % bands).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/placement/typical_pods.h"
#include "sim/fulldemand/full_demand_run.h"
#include "sim/fulldemand/seed_summary.h"
#include "sim/fulldemand/share_trace.h"
#include "sim/plot/chart.h"

namespace chaintwin::sim {

struct FullDemandStudy {
  std::string nodes_file, pods_file;
  int64_t tune_permille = 0;
  std::vector<uint64_t> seeds;
  model::placement::TargetWorkload target;
  std::vector<std::vector<FullDemandRun>> runs;  // per policy, per seed
  std::vector<PolicySummary> summaries;          // per policy
};

std::string full_demand_text(const ShareTrace& trace, const FullDemandStudy& study);
nlohmann::json full_demand_json(const ShareTrace& trace, const FullDemandStudy& study);
plot::Chart full_demand_chart(const FullDemandStudy& study);

}  // namespace chaintwin::sim

// One run of the openb paper's full-demand experiment (docs/traces.md, "Full demand"): the
// trace's pods tuned to `tune` × the GPU capacity (tuned_pods.h), submitted one after another with
// no departures, each placed by the policy over the whole cluster (model/placement/share_scheduler.h)
// or dropped when no Node fits, and the demand curve recorded after every pod (demand_curve.h).
// Node ties go to a seeded random order of the Nodes, as in the paper. Deterministic: the same
// trace, policy, tune and seed give the same run. Called by `chaintwin full-demand` once per policy
// and seed.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/placement/node_scores.h"
#include "model/placement/typical_pods.h"
#include "sim/fulldemand/demand_curve.h"
#include "sim/fulldemand/share_trace.h"

namespace chaintwin::sim {

inline constexpr int32_t kTypicalPodCoverage = 95;  // the paper's podPopularityThreshold

// Who places the pods: one of the paper's scores over the whole cluster, or the operator's chain
// (chain_full_demand.h).
enum class FullDemandPolicy { kBestFit, kFgd, kChain };

struct FullDemandSettings {
  FullDemandPolicy policy = FullDemandPolicy::kFgd;
  int64_t tune_permille = 1300;
  uint64_t seed = 42;
};

struct FullDemandRun {
  FullDemandSettings settings;
  int64_t capacity_milli = 0;
  int64_t target_milli = 0;     // tune × capacity
  int64_t demand_milli = 0;     // what the submitted pods ask for
  int64_t submitted = 0, placed = 0, failed = 0;
  int64_t drawn = 0, removed = 0;  // by tuning
  int64_t allocated_milli = 0;     // at the end
  double fragment_percent = 0;     // at the end, of the capacity
  std::vector<CurvePoint> curve;
};

// A run with one of the paper's scores (policy kBestFit or kFgd).
FullDemandRun run_full_demand(const ShareTrace& trace, const model::placement::TargetWorkload& target,
                              const FullDemandSettings& settings);

// "best-fit", "fgd", "chain", and back (nullopt for another text).
std::string policy_name(FullDemandPolicy policy);
std::optional<FullDemandPolicy> policy_named(const std::string& name);

}  // namespace chaintwin::sim

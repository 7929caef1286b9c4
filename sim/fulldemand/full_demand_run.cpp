#include "sim/fulldemand/full_demand_run.h"

#include <numeric>
#include <utility>

#include "model/placement/share_scheduler.h"
#include "sim/fulldemand/tuned_pods.h"
#include "sim/random_stream.h"

namespace chaintwin::sim {

using model::placement::PlacementPolicy;

std::string policy_name(FullDemandPolicy policy) {
  switch (policy) {
    case FullDemandPolicy::kBestFit: return "best-fit";
    case FullDemandPolicy::kFgd: return "fgd";
    case FullDemandPolicy::kChain: return "chain";
  }
  return "?";
}

std::optional<FullDemandPolicy> policy_named(const std::string& name) {
  for (const FullDemandPolicy p : {FullDemandPolicy::kBestFit, FullDemandPolicy::kFgd, FullDemandPolicy::kChain})
    if (policy_name(p) == name) return p;
  return std::nullopt;
}

FullDemandRun run_full_demand(const ShareTrace& trace, const model::placement::TargetWorkload& target,
                              const FullDemandSettings& settings) {
  FullDemandRun out;
  out.settings = settings;
  out.capacity_milli = trace.capacity_milli();
  RandomStream pods_random(settings.seed, 0, "full-demand/pods");
  const TunedPods tuned = tune_pods(trace.pods, out.capacity_milli, settings.tune_permille, pods_random);
  out.target_milli = tuned.target_milli;
  out.demand_milli = tuned.demand_milli;
  out.drawn = tuned.drawn;
  out.removed = tuned.removed;

  // The Nodes' tie order: a seeded permutation (the paper's random name prefixes).
  RandomStream nodes_random(settings.seed, 0, "full-demand/nodes");
  std::vector<int32_t> rank(trace.nodes.size());
  std::iota(rank.begin(), rank.end(), 0);
  for (size_t i = rank.size(); i > 1; --i) std::swap(rank[i - 1], rank[nodes_random.uniform(i)]);

  const PlacementPolicy placement =
      settings.policy == FullDemandPolicy::kBestFit ? PlacementPolicy::kBestFit : PlacementPolicy::kFgd;
  model::placement::ShareScheduler scheduler(trace.nodes, target, std::move(rank), placement);
  DemandCurve curve(out.capacity_milli > 0 ? out.capacity_milli : 1);
  int64_t arrived = 0;
  for (const int32_t index : tuned.order) {
    const model::placement::SharePod& pod = trace.pods[static_cast<size_t>(index)];
    arrived += pod.gpu_milli();
    ++out.submitted;
    if (scheduler.place(pod)) ++out.placed;
    else ++out.failed;
    if (out.capacity_milli > 0)
      curve.add(arrived, out.capacity_milli - scheduler.idle_milli(), scheduler.idle_milli(), scheduler.fragment(),
                target.total > 0 ? target.total : 1);
  }
  out.allocated_milli = out.capacity_milli - scheduler.idle_milli();
  if (out.capacity_milli > 0 && target.total > 0)
    out.fragment_percent = 100.0 * static_cast<double>(scheduler.fragment()) / static_cast<double>(target.total) /
                           static_cast<double>(out.capacity_milli);
  out.curve = curve.points();
  return out;
}

}  // namespace chaintwin::sim

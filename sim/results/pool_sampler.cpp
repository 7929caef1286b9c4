#include "sim/results/pool_sampler.h"

#include "model/kueue/scheduler/kueue_config.h"

namespace chaintwin::sim {

bool PoolSampler::same_inputs(const Inputs& kept, const model::ClusterQueue& cq) {
  const auto& s = cq.status;
  return kept.pending == s.pending_workloads && kept.reserving == s.reserving_workloads &&
         kept.admitted == s.admitted_workloads && kept.stop_policy == cq.stop_policy() &&
         kept.reservation == s.flavors_reservation && kept.usage == s.flavors_usage &&
         kept.groups == cq.spec.resource_groups;
}

void PoolSampler::sample(const model::ClusterState& cluster, SimTime now, bool at_end, std::deque<PoolSample>& series) {
  for (const auto& [name, cq] : cluster.cluster_queues) {
    auto kept = inputs_.find(name);
    if (!at_end && kept != inputs_.end() && same_inputs(kept->second, cq)) continue;  // every sample already written
    if (kept == inputs_.end()) kept = inputs_.emplace(name, Inputs{}).first;
    // Assigned member by member, into the storage the last sample's inputs left (mostly the usage
    // moved; the quota rarely does).
    Inputs& in = kept->second;
    if (!(in.groups == cq.spec.resource_groups)) in.groups = cq.spec.resource_groups;
    in.reservation = cq.status.flavors_reservation;
    in.usage = cq.status.flavors_usage;
    in.pending = cq.status.pending_workloads;
    in.reserving = cq.status.reserving_workloads;
    in.admitted = cq.status.admitted_workloads;
    in.stop_policy = cq.stop_policy();
    std::map<std::string, int64_t> nominal, reserved, admitted;
    for (const auto& rg : cq.spec.resource_groups)
      for (const auto& f : rg.flavors)
        for (const auto& r : f.resources) nominal[r.name] += model::resource_value(r.name, r.nominal_quota);
    for (const auto& f : cq.status.flavors_reservation)
      for (const auto& r : f.resources) reserved[r.name] += model::resource_value(r.name, r.total);
    for (const auto& f : cq.status.flavors_usage)
      for (const auto& r : f.resources) admitted[r.name] += model::resource_value(r.name, r.total);
    for (const auto& [resource, value] : nominal) {
      if (resource != "cpu" && resource.rfind("credits.gpustack.ai/", 0) != 0) continue;
      PoolSample s;
      s.at = now;
      s.cluster_queue = name;
      s.resource = resource;
      s.nominal = value;
      s.reserved = reserved[resource];
      s.admitted = admitted[resource];
      s.pending_workloads = cq.status.pending_workloads;
      s.reserving_workloads = cq.status.reserving_workloads;
      s.admitted_workloads = cq.status.admitted_workloads;
      s.stop_policy = cq.stop_policy();
      s.draining = cq.stop_policy() == model::StopPolicy::kHoldAndDrain;
      const std::string k = name + "|" + resource;
      auto last = last_sample_.find(k);
      if (last != last_sample_.end() && !at_end) {
        const PoolSample& a = last->second;
        if (a.nominal == s.nominal && a.reserved == s.reserved && a.admitted == s.admitted &&
            a.pending_workloads == s.pending_workloads && a.reserving_workloads == s.reserving_workloads &&
            a.admitted_workloads == s.admitted_workloads && a.stop_policy == s.stop_policy && a.draining == s.draining)
          continue;
      }
      last_sample_[k] = s;
      series.push_back(std::move(s));
    }
  }
}

}  // namespace chaintwin::sim

#include "sim/results/pool_sampler.h"

#include <algorithm>

#include "model/kueue/scheduler/kueue_config.h"

namespace chaintwin::sim {

bool PoolSampler::same_inputs(const Inputs& kept, const model::ClusterQueue& cq) {
  const auto& s = cq.status;
  return kept.pending == s.pending_workloads && kept.reserving == s.reserving_workloads &&
         kept.admitted == s.admitted_workloads && kept.stop_policy == cq.stop_policy() &&
         kept.reservation == s.flavors_reservation && kept.usage == s.flavors_usage &&
         kept.groups == cq.spec.resource_groups;
}

void PoolSampler::sum(const model::ClusterQueue& cq) {
  sums_.clear();
  // A ClusterQueue names a few resources: found by a walk over the ones seen so far.
  const auto at = [&](const std::string& resource) -> Sums* {
    for (Sums& s : sums_)
      if (*s.resource == resource) return &s;
    return nullptr;
  };
  for (const auto& rg : cq.spec.resource_groups)
    for (const auto& f : rg.flavors)
      for (const auto& r : f.resources) {
        Sums* s = at(r.name);
        if (s == nullptr) s = &sums_.emplace_back(Sums{&r.name});
        s->nominal += model::resource_value(r.name, r.nominal_quota);
      }
  // Only resources with a quota are sampled: a reported one without is not summed.
  for (const auto& f : cq.status.flavors_reservation)
    for (const auto& r : f.resources)
      if (Sums* s = at(r.name)) s->reserved += model::resource_value(r.name, r.total);
  for (const auto& f : cq.status.flavors_usage)
    for (const auto& r : f.resources)
      if (Sums* s = at(r.name)) s->admitted += model::resource_value(r.name, r.total);
  std::sort(sums_.begin(), sums_.end(), [](const Sums& a, const Sums& b) { return *a.resource < *b.resource; });
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
    sum(cq);
    // A pool whose quota left the queue (a drain to an empty plan empties the resource groups) is
    // still a pool: it samples at zero nominal with the queue's stop policy, so its series says the
    // queue is drained instead of keeping the last quota through the drain.
    for (const auto& [resource, last] : in.last_sample) {
      bool named = false;
      for (const Sums& s : sums_) named = named || *s.resource == resource;
      if (!named) sums_.push_back(Sums{&resource});
    }
    std::sort(sums_.begin(), sums_.end(), [](const Sums& a, const Sums& b) { return *a.resource < *b.resource; });
    for (const Sums& sums : sums_) {
      const std::string& resource = *sums.resource;
      if (resource != "cpu" && resource.rfind("credits.gpustack.ai/", 0) != 0) continue;
      auto last = in.last_sample.find(resource);
      PoolSample s;
      s.at = now;
      if (last != in.last_sample.end()) {  // the names as interned for it before
        s.cluster_queue = last->second.cluster_queue;
        s.resource = last->second.resource;
      } else {
        s.cluster_queue = name;
        s.resource = resource;
      }
      s.nominal = sums.nominal;
      s.reserved = sums.reserved;
      s.admitted = sums.admitted;
      s.pending_workloads = cq.status.pending_workloads;
      s.reserving_workloads = cq.status.reserving_workloads;
      s.admitted_workloads = cq.status.admitted_workloads;
      s.stop_policy = cq.stop_policy();
      s.draining = cq.stop_policy() == model::StopPolicy::kHoldAndDrain;
      if (last != in.last_sample.end() && !at_end) {
        const PoolSample& a = last->second;
        if (a.nominal == s.nominal && a.reserved == s.reserved && a.admitted == s.admitted &&
            a.pending_workloads == s.pending_workloads && a.reserving_workloads == s.reserving_workloads &&
            a.admitted_workloads == s.admitted_workloads && a.stop_policy == s.stop_policy && a.draining == s.draining)
          continue;
      }
      if (last == in.last_sample.end()) last = in.last_sample.emplace(resource, s).first;
      else last->second = s;
      series.push_back(std::move(s));
    }
  }
}

}  // namespace chaintwin::sim

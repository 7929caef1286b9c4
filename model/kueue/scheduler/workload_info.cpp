#include "model/kueue/scheduler/workload_info.h"

#include "model/admission/accelerator_claim.h"
#include "model/fnv.h"
#include "model/kueue/scheduler/tas_assigner.h"

namespace chaintwin::model {

WorkloadInfo workload_info(const Workload& wl, EffectiveRequestsFn transform) {
  WorkloadInfo info;
  info.transformed_by = transform;
  info.pod_sets.reserve(wl.pod_sets.size());
  for (const auto& ps : wl.pod_sets) {
    PodSetInfo p;
    p.requests = pod_effective_requests(ps.template_);
    p.amounts = resource_amounts(p.requests);
    p.kueue_amounts = resource_amounts(transform(p.requests));
    p.tas_per_pod = tas_per_pod(p.amounts);
    p.tas_shape = tas_shape_key(ps, p.tas_per_pod);
    info.pod_sets.push_back(std::move(p));
  }
  return info;
}

namespace {

bool same_written_requests(const std::vector<Container>& a, const std::vector<Container>& b) {
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i].requests.shares_with(b[i].requests)) continue;
    auto x = a[i].requests.begin();
    for (auto y = b[i].requests.begin(); y != b[i].requests.end(); ++x, ++y)
      if (x->second.format() != y->second.format() || x->second.mantissa() != y->second.mantissa() ||
          x->second.exponent() != y->second.exponent())
        return false;
  }
  return true;
}

uint64_t mix(uint64_t h, uint64_t v) { return (h ^ v) * kFnv64Prime; }

// What most tells Workloads' PodSets apart: names, counts and the containers' requests.
uint64_t pod_sets_hash(const std::vector<PodSet>& pod_sets) {
  uint64_t h = kFnv64OffsetBasis;
  for (const PodSet& ps : pod_sets) {
    h = mix(fnv1a64_update(h, ps.name), static_cast<uint64_t>(ps.count));
    for (const auto* list : {&ps.template_.init_containers, &ps.template_.containers}) {
      h = mix(h, list->size());
      for (const Container& c : *list)
        for (const auto& [resource, q] : c.requests)
          h = mix(mix(fnv1a64_update(h, resource), static_cast<uint64_t>(q.mantissa())),
                  static_cast<uint64_t>(q.exponent()));
    }
  }
  return h;
}

// Whether workload_info() derives the same info from both for certain.
bool identical_pod_sets(const std::vector<PodSet>& a, const std::vector<PodSet>& b) {
  if (!(a == b)) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (!same_written_requests(a[i].template_.init_containers, b[i].template_.init_containers) ||
        !same_written_requests(a[i].template_.containers, b[i].template_.containers))
      return false;
  return true;
}

}  // namespace

std::shared_ptr<const WorkloadInfo> SharedWorkloadInfos::of(const Workload& wl, EffectiveRequestsFn transform) {
  const uint64_t hash = pod_sets_hash(wl.pod_sets);
  for (const Entry& e : entries_)
    if (e.hash == hash && e.transform == transform && identical_pod_sets(e.pod_sets, wl.pod_sets)) return e.info;
  Entry fresh{hash, transform, wl.pod_sets, std::make_shared<const WorkloadInfo>(workload_info(wl, transform))};
  std::shared_ptr<const WorkloadInfo> info = fresh.info;
  if (entries_.size() < kEntries) {
    entries_.push_back(std::move(fresh));
  } else {
    entries_[next_] = std::move(fresh);
    next_ = (next_ + 1) % kEntries;
  }
  return info;
}

}  // namespace chaintwin::model

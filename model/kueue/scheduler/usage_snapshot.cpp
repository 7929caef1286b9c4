#include "model/kueue/scheduler/usage_snapshot.h"

#include "model/kueue/scheduler/non_tas_usage.h"
#include "model/kueue/scheduler/workload_info.h"

namespace chaintwin::model {

std::string domain_node(const TopologyAssignment& ta, const TopologyDomainAssignment& d) {
  if (ta.levels.empty() || ta.levels.back() != kHostnameLabel || d.values.size() != ta.levels.size()) return "";
  return d.values.back();
}

void add_workload_usage(UsageSnapshot& snapshot, const Workload& wl, int sign) {
  add_workload_usage(snapshot, workload_usage(wl), sign);
}

WorkloadUsage workload_usage(const Workload& wl, const WorkloadInfo* info) {
  WorkloadUsage out;
  if (!wl.status.admission) return out;
  const Admission& a = *wl.status.admission;
  out.reserved = true;
  out.cluster_queue = a.cluster_queue;
  for (const auto& psa : a.pod_set_assignments) {
    for (const auto& [resource, q] : psa.resource_usage) {
      const auto f = psa.flavors.find(resource);
      if (f == psa.flavors.end()) continue;
      out.quota.push_back({{f->second, resource}, resource_value(resource, q)});
    }
    if (!psa.topology_assignment) continue;
    const PodSet* ps = nullptr;
    std::size_t index = 0;
    for (std::size_t i = 0; i < wl.pod_sets.size(); ++i)
      if (wl.pod_sets[i].name == psa.name) {
        ps = &wl.pod_sets[i];
        index = i;
      }
    if (ps == nullptr) continue;
    ResourceAmounts derived;  // without a kept info
    const ResourceAmounts& per_pod = info != nullptr && info->pod_sets.size() == wl.pod_sets.size()
                                         ? info->pod_sets[index].amounts
                                         : (derived = resource_amounts(pod_effective_requests(ps->template_)));
    for (const auto& d : psa.topology_assignment->domains) {
      std::string node = domain_node(*psa.topology_assignment, d);
      if (node.empty()) continue;
      std::vector<std::pair<std::string, int64_t>> amounts;
      amounts.reserve(per_pod.size() + 1);
      for (const auto& [resource, v] : per_pod) amounts.emplace_back(resource, v * d.count);
      amounts.emplace_back("pods", d.count);
      out.nodes.emplace_back(std::move(node), std::move(amounts));
    }
  }
  return out;
}

namespace {

// Each cell of `snapshot` that `usage` adds to (made at 0 when absent), with the amount.
template <typename F>
void each_usage_cell(UsageSnapshot& snapshot, const WorkloadUsage& usage, F f) {
  auto& quota = snapshot.quota[usage.cluster_queue];
  for (const auto& [fr, v] : usage.quota) f(quota[fr], v);
  for (const auto& [node, amounts] : usage.nodes) {
    auto& used = snapshot.nodes[node];
    for (const auto& [resource, v] : amounts) f(used[resource], v);
  }
}

}  // namespace

void add_workload_usage(UsageSnapshot& snapshot, const WorkloadUsage& usage, int sign) {
  if (!usage.reserved) return;
  each_usage_cell(snapshot, usage, [sign](int64_t& cell, int64_t v) { cell += sign * v; });
}

CellCharges charge_workload_usage(UsageSnapshot& snapshot, const WorkloadUsage& usage) {
  CellCharges out;
  if (!usage.reserved) return out;
  std::size_t n = usage.quota.size();
  for (const auto& [node, amounts] : usage.nodes) n += amounts.size();
  out.cells.reserve(n);
  each_usage_cell(snapshot, usage, [&](int64_t& cell, int64_t v) {
    cell += v;
    out.cells.emplace_back(&cell, v);
  });
  return out;
}

namespace {

template <typename Table>
bool same_nonzero(const Table& a, const Table& b) {
  using Inner = typename Table::mapped_type;
  const auto nonzero = [](const Table& m) {
    std::map<std::string, Inner> out;
    for (const auto& [k, inner] : m) {
      Inner kept;
      for (const auto& [ik, v] : inner)
        if (v != 0) kept[ik] = v;
      if (!kept.empty()) out[k] = std::move(kept);
    }
    return out;
  };
  return nonzero(a) == nonzero(b);
}

}  // namespace

bool same_usage(const UsageSnapshot& a, const UsageSnapshot& b) {
  return same_nonzero(a.quota, b.quota) && same_nonzero(a.nodes, b.nodes);
}

UsageSnapshot build_usage_snapshot(const WorkloadState& workloads) {
  UsageSnapshot s;
  // Sums: any order gives them.
  workloads.workloads.each_unordered([&](const std::string&, const Workload& wl) {
    if (!wl.finished()) add_workload_usage(s, wl);
  });
  for (const auto& [key, pod] : workloads.pods) add_non_tas_pod_usage(s, pod);
  return s;
}

}  // namespace chaintwin::model

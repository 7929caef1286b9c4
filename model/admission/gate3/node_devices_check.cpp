// Gate 3: per-node budgets, inflight fitting, then the Workload's own demands.
#include "model/admission/gate3/node_devices_check.h"

#include <algorithm>
#include <map>
#include <optional>
#include <string_view>
#include <tuple>

#include "model/admission/accelerator_claim.h"
#include "model/admission/device_allocator.h"
#include "model/catalog/label_keys.h"

namespace chaintwin::model {
namespace {

constexpr std::string_view kCheckName = "gpustack-node-devices";

Gate3Verdict retry(std::string message) {
  return {Gate3State::kRetry, std::move(message) + "; will retry as capacity frees", kGate3RetryAfterSeconds};
}

const PodSet* find_pod_set(const Workload& wl, const std::string& name) {
  for (const auto& ps : wl.pod_sets)
    if (ps.name == name) return &ps;
  return nullptr;
}

// The accelerator flavor of an assignment: the one serving a credits resource, else any.
const ResourceFlavor* assigned_flavor(const ClusterState& cluster, const PodSetAssignment& a) {
  std::string name;
  for (const auto& [resource, flavor] : a.flavors) {
    if (resource.rfind(keys::kCreditsPrefix, 0) == 0) {
      name = flavor;
      break;
    }
    if (name.empty()) name = flavor;
  }
  const auto it = cluster.resource_flavors.find(name);
  return it == cluster.resource_flavors.end() ? nullptr : &it->second;
}

std::string scope_key(const ClusterState& cluster, const PodSetAssignment& a) {
  const ResourceFlavor* flavor = assigned_flavor(cluster, a);
  if (!flavor) return "";
  const auto keys_ = flavor_accelerator_keys(*flavor);
  return keys_.empty() ? "" : keys_.front();
}

bool hostname_level(const PodSetAssignment& a) {
  return a.topology_assignment && !a.topology_assignment->levels.empty() &&
         a.topology_assignment->levels.back() == kHostnameLabel;
}

// The Pods a hostname-level assignment places on `node` (as pods_per_node counts them), without
// building the whole map: an inflight Workload is asked about the one or two Nodes being checked.
int32_t pods_assigned_to(const PodSetAssignment& a, const std::string& node) {
  int32_t pods = 0;
  for (const auto& d : a.topology_assignment->domains)
    if (!d.values.empty() && d.values.back() == node) pods += d.count;
  return pods;
}

// node → Pods on it, from a hostname-level assignment; nullopt when there is none.
std::optional<std::map<std::string, int32_t>> pods_per_node(const PodSetAssignment& a) {
  if (!hostname_level(a)) return std::nullopt;
  std::map<std::string, int32_t> out;
  for (const auto& d : a.topology_assignment->domains)
    if (!d.values.empty()) out[d.values.back()] += d.count;
  return out;
}

bool holds_ready_check(const Workload& wl) {
  return std::any_of(wl.status.admission_checks.begin(), wl.status.admission_checks.end(),
                     [](const AdmissionCheckState& c) { return c.name == kCheckName && c.state == CheckState::kReady; });
}

// Budgets keyed by node ("" = a flavor pool, keyed "pool:<flavor>").
class Budgets {
 public:
  explicit Budgets(const ClusterState& cluster) : cluster_(cluster) {}
  CardBudget& node(const std::string& name) {
    auto it = budgets_.find(name);
    if (it != budgets_.end()) return it->second;
    CardBudget budget(std::vector<CardLedger>{}, name);
    if (cluster_.nodes.count(name))
      if (const Devices* d = cluster_.devices_of(name)) budget.add(*d);
    return budgets_.emplace(name, std::move(budget)).first->second;
  }
  CardBudget& pool(const ResourceFlavor* flavor) {
    const std::string key = "pool:" + (flavor ? flavor->metadata.name : std::string());
    auto it = budgets_.find(key);
    if (it != budgets_.end()) return it->second;
    CardBudget budget(std::vector<CardLedger>{}, "");
    for (const auto& [name, n] : cluster_.nodes) {
      if (flavor && !std::all_of(flavor->spec.node_labels.begin(), flavor->spec.node_labels.end(), [&labels = n.metadata.labels](const auto& kv) {
            const auto l = labels.find(kv.first);
            return l != labels.end() && l->second == kv.second;
          }))
        continue;
      if (const Devices* d = cluster_.devices_of(name)) budget.add(*d);
    }
    return budgets_.emplace(key, std::move(budget)).first->second;
  }
  bool has_node(const std::string& name) const { return budgets_.count(name) > 0; }

 private:
  const ClusterState& cluster_;
  std::map<std::string, CardBudget> budgets_;
};

// Pods of (workload, pod set) already charged on `node`.
// Where to look for Pods: the caller's index of Pod keys by Node, or every Pod.
struct PodLookup {
  const WorkloadState& ws;
  const PodSlotsByNode* by_node = nullptr;
  template <typename F>
  void on(const std::string& node, F f) const {
    if (by_node == nullptr) {
      for (const auto& [key, pod] : ws.pods) f(pod);
      return;
    }
    const auto* slots = by_node->find(node);
    if (slots == nullptr) return;
    for (const auto slot : *slots) f(ws.pods.in_slot(slot).second);
  }
};

// Whose Pods a Pod counts among as held: (namespace, Workload, PodSet) from its Workload annotation
// and PodSet label, when it has both and its allocation is complete; nullopt otherwise. The views
// point into the Pod.
using HeldKey = std::tuple<std::string_view, std::string_view, std::string_view>;
std::optional<HeldKey> held_key(const Pod& pod) {
  static const std::string kWorkload(kWorkloadAnnotation), kPodSet(kPodSetLabel);  // no key built per Pod
  const auto wa = pod.metadata.annotations.find(kWorkload);
  const auto pl = pod.metadata.labels.find(kPodSet);
  if (wa == pod.metadata.annotations.end() || pl == pod.metadata.labels.end()) return std::nullopt;
  if (!pod_allocation_complete(pod)) return std::nullopt;
  return HeldKey{pod.metadata.namespace_, wa->second, pl->second};
}

// Pods of (workload, pod set) already charged on a Node: the Pods bound there whose Workload
// annotation and PodSet label name them and whose allocation is complete. Each Node's Pods are
// walked once per evaluation and tallied by (namespace, Workload, PodSet), however many inflight
// Workloads ask about that Node. The views point into the Pods, which outlive the evaluation.
class HeldPods {
 public:
  explicit HeldPods(const PodLookup& pods) : pods_(pods) {}
  int32_t count(const Workload& wl, const std::string& pod_set, const std::string& node) {
    auto tally = tallies_.find(node);
    if (tally == tallies_.end()) tally = tallies_.emplace(node, tally_of(node)).first;
    const auto it = tally->second.find(HeldKey{wl.metadata.namespace_, wl.metadata.name, pod_set});
    return it == tally->second.end() ? 0 : it->second;
  }

 private:
  std::map<HeldKey, int32_t> tally_of(const std::string& node) const {
    std::map<HeldKey, int32_t> tally;
    pods_.on(node, [&](const Pod& pod) {
      if (pod.node_name != node) return;
      if (const auto key = held_key(pod)) ++tally[*key];
    });
    return tally;
  }

  const PodLookup& pods_;
  std::map<std::string, std::map<HeldKey, int32_t>> tallies_;  // by Node
};

void fit_inflight_one(const ClusterState& cluster, HeldPods& held, const std::string& self, Budgets& budgets,
                      const std::vector<std::string>& nodes, const std::string& key, const Workload& other) {
  if (key == self || !other.quota_reserved() || other.finished()) return;
  if (!other.admitted() && !holds_ready_check(other)) return;
  for (const auto& a : other.status.admission->pod_set_assignments) {
    if (!hostname_level(a)) continue;  // no hostname-level assignment: not inflight
    const PodSet* ps = find_pod_set(other, a.name);
    if (!ps) continue;
    std::optional<std::string> scope;  // built only for a PodSet with Pods still to allocate
    for (const auto& node : nodes) {
      const int32_t assigned = pods_assigned_to(a, node);
      if (assigned == 0) continue;
      const int32_t pending = assigned - held.count(other, a.name, node);
      if (pending <= 0) continue;
      if (!scope) scope = scope_key(cluster, a);
      auto demands = pod_set_demands(*ps, pending, *scope);
      sort_demands(demands);
      for (const auto& d : demands) budgets.node(node).fit(d);  // a shortfall spends nothing
    }
  }
}

// In Workload key order, as a walk over every Workload would take them.
void fit_inflight(const ClusterState& cluster, const WorkloadState& ws, const std::string& self, Budgets& budgets,
                  const std::vector<std::string>& nodes, const std::set<std::string>* inflight,
                  const PodSlotsByNode* pods_by_node) {
  const PodLookup pods{ws, pods_by_node};
  HeldPods held(pods);
  if (inflight == nullptr) {
    for (const auto* kv : ws.workloads.in_key_order()) fit_inflight_one(cluster, held, self, budgets, nodes, kv->first, kv->second);
    return;
  }
  for (const auto& key : *inflight)
    if (const auto it = ws.workloads.find(key); it != ws.workloads.end())
      fit_inflight_one(cluster, held, self, budgets, nodes, key, it->second);
}

struct Placed {
  std::string node;  // "" = pool
  const ResourceFlavor* flavor = nullptr;
  FamilyDemand demand;
};

}  // namespace

bool has_pods_to_allocate(const Workload& wl, const std::vector<const Pod*>& pods) {
  if (!wl.status.admission) return false;
  for (const auto& a : wl.status.admission->pod_set_assignments) {
    if (!hostname_level(a) || !find_pod_set(wl, a.name)) continue;  // as fit_inflight_one
    const HeldKey mine{wl.metadata.namespace_, wl.metadata.name, a.name};
    for (const auto& d : a.topology_assignment->domains) {
      if (d.values.empty()) continue;
      const std::string& node = d.values.back();
      const auto held = std::count_if(pods.begin(), pods.end(), [&](const Pod* pod) {
        return pod->node_name == node && held_key(*pod) == mine;  // as HeldPods counts them
      });
      if (pods_assigned_to(a, node) > held) return true;
    }
  }
  return false;
}

std::vector<std::string> flavor_accelerator_keys(const ResourceFlavor& flavor) {
  std::vector<std::string> out;
  for (const auto& [key, value] : flavor.spec.node_labels) {
    if (key.rfind(keys::kAcceleratablePrefix, 0) != 0 || value != "true") continue;
    const std::string a_key = key.substr(keys::kAcceleratablePrefix.size());
    if (!a_key.empty() && a_key.find('.') == std::string::npos) out.push_back(a_key);
  }
  return out;
}

std::vector<FamilyDemand> pod_set_demands(const PodSet& pod_set, int32_t pods, const std::string& accelerator_key) {
  std::vector<FamilyDemand> out;
  if (pods <= 0) return out;
  // The exclusive and shared demands sum over the containers; their names are filled in only
  // when they are handed out.
  FamilyDemand exclusive{ResourceFamily::kExclusive, 0, 0, "", {}, "", {}};
  FamilyDemand shared{ResourceFamily::kShared, 0, 0, "", {}, "", {}};
  for (const auto& claiming : claiming_containers(pod_set.template_)) {
    const auto& c = claiming.claim;
    const auto count = static_cast<int32_t>(std::clamp<int64_t>(c.count, 0, INT32_MAX / std::max(pods, 1)));
    switch (c.family) {
      case ResourceFamily::kExclusive: exclusive.accelerators += count * pods; break;
      case ResourceFamily::kShared:
        shared.shared_holders.push_back({count, pods});
        shared.accelerators = std::max(shared.accelerators, count);
        break;
      case ResourceFamily::kSliced:
        out.push_back({ResourceFamily::kSliced, pods, c.units, "", {}, accelerator_key, {pod_set.name}});
        break;
      case ResourceFamily::kPartitioned:
        out.push_back({ResourceFamily::kPartitioned, pods, 0, c.profile, {}, accelerator_key, {pod_set.name}});
        break;
      default: break;
    }
  }
  for (FamilyDemand* d : {&exclusive, &shared}) {
    if (d->family == ResourceFamily::kExclusive ? d->accelerators <= 0 : d->shared_holders.empty()) continue;
    d->accelerator_key = accelerator_key;
    d->pod_sets = {pod_set.name};
    out.push_back(std::move(*d));
  }
  return out;
}

Gate3Verdict evaluate_node_devices(const ClusterState& cluster, const WorkloadState& workloads,
                                   const std::string& workload_key, const std::set<std::string>* inflight,
                                   const PodSlotsByNode* pods_by_node) {
  const auto found = workloads.workloads.find(workload_key);
  if (found == workloads.workloads.end()) return retry("workload " + workload_key + " is gone");
  const Workload& wl = found->second;
  if (!wl.quota_reserved()) return retry("workload " + workload_key + " holds no quota reservation");

  // This Workload's demands, per node (or per flavor pool), and the nodes it touches.
  std::vector<Placed> placed;
  std::vector<std::string> nodes;
  for (const auto& a : wl.status.admission->pod_set_assignments) {
    const PodSet* ps = find_pod_set(wl, a.name);
    if (!ps) continue;
    const std::string scope = scope_key(cluster, a);
    const auto per_node = pods_per_node(a);
    if (!per_node) {
      for (auto& d : pod_set_demands(*ps, a.count > 0 ? a.count : ps->count, scope))
        placed.push_back({"", assigned_flavor(cluster, a), std::move(d)});
      continue;
    }
    for (const auto& [node, count] : *per_node) {
      auto demands = pod_set_demands(*ps, count, scope);
      if (demands.empty()) continue;
      if (!cluster.nodes.count(node))
        return retry("node " + node + " assigned to role \"" + a.name + "\" is gone and serves nothing");
      if (std::find(nodes.begin(), nodes.end(), node) == nodes.end()) nodes.push_back(node);
      for (auto& d : demands) placed.push_back({node, nullptr, std::move(d)});
    }
  }
  if (placed.empty()) return {Gate3State::kReady, "no accelerator demand to place", 0};

  Budgets budgets(cluster);
  for (const auto& node : nodes) budgets.node(node);
  fit_inflight(cluster, workloads, workload_key, budgets, nodes, inflight, pods_by_node);

  // sort_demands order (partitions first, then larger per-card units, then family), node last.
  std::vector<size_t> idx(placed.size());
  for (size_t i = 0; i < idx.size(); ++i) idx[i] = i;
  std::stable_sort(idx.begin(), idx.end(), [&](size_t x, size_t y) {
    const FamilyDemand& a = placed[x].demand;
    const FamilyDemand& b = placed[y].demand;
    const bool pa = a.family == ResourceFamily::kPartitioned;
    const bool pb = b.family == ResourceFamily::kPartitioned;
    if (pa != pb) return pa;
    if (a.units_per_card != b.units_per_card) return a.units_per_card > b.units_per_card;
    if (a.family != b.family) return static_cast<int>(a.family) < static_cast<int>(b.family);
    return placed[x].node < placed[y].node;
  });
  Gate3Verdict verdict{Gate3State::kReady, "", 0};
  for (const size_t i : idx) {
    const auto& p = placed[i];
    CardBudget& budget = p.node.empty() ? budgets.pool(p.flavor) : budgets.node(p.node);
    verdict = budget.fit(p.demand);
    if (!verdict.ready()) return verdict;
  }
  return verdict;
}

}  // namespace chaintwin::model

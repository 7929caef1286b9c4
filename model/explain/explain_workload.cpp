// explain_workload(): the place (where_waiting.cpp), then the quota of the Workload's ClusterQueue
// beside its need, the Workloads holding that quota, and the Nodes its flavors select with the
// Workloads on their cards. Reads the state only; every list comes out in a fixed order.
#include <algorithm>
#include <map>
#include <set>

#include "model/admission/gate3/gate3_feasibility.h"
#include "model/admission/gate3/node_devices_check.h"
#include "model/admission/node_fit.h"
#include "model/admission/pods_for_admission.h"
#include "model/explain/explanation.h"
#include "model/kueue/scheduler/kueue_config.h"
#include "model/kueue/scheduler/node_match.h"
#include "model/kueue/scheduler/workload_info.h"
#include "model/stage3/card_ledger.h"

namespace chaintwin::model {

namespace {

// What the Workload asks of each resource in all, as flavor assignment counts it (after the
// operator's credit transform).
ResourceAmounts workload_need(const Workload& wl) {
  ResourceAmounts need;
  const WorkloadInfo info = workload_info(wl);
  for (size_t i = 0; i < info.pod_sets.size() && i < wl.pod_sets.size(); ++i)
    for (const auto& [resource, amount] : info.pod_sets[i].kueue_amounts)
      need[resource] += amount * wl.pod_sets[i].count;
  return need;
}

std::vector<HeldAmount> held_by(const Admission& admission) {
  std::map<std::pair<std::string, std::string>, int64_t> sums;
  for (const auto& psa : admission.pod_set_assignments)
    for (const auto& [resource, flavor] : psa.flavors) {
      const auto q = psa.resource_usage.find(resource);
      if (q != psa.resource_usage.end()) sums[{flavor, resource}] += resource_value(resource, q->second);
    }
  std::vector<HeldAmount> out;
  for (const auto& [fr, amount] : sums) out.push_back({fr.first, fr.second, amount});
  return out;
}

int64_t quantity_of(const ResourceList& list, std::string_view name) {
  const auto it = list.find(std::string(name));
  return it == list.end() ? 0 : resource_value(name, it->second);
}

// The Workload a Pod belongs to ("<namespace>/<name>"), or the Pod itself when Kueue made none.
std::string owner_of(const Pod& pod) {
  const auto it = pod.metadata.annotations.find(std::string(kWorkloadAnnotation));
  if (it == pod.metadata.annotations.end()) return "Pod " + object_key(pod.metadata);
  return pod.metadata.namespace_ + "/" + it->second;
}

NodeStanding node_standing(const Node& node, const Devices* devices, const std::string& flavor,
                           const std::vector<const Pod*>& pods) {
  NodeStanding out;
  out.node = node.metadata.name;
  out.flavor = flavor;
  out.schedulable = !node.unschedulable && !node.metadata.deletion_timestamp;
  out.cpu_allocatable = quantity_of(node.status.allocatable, "cpu");
  out.memory_allocatable = quantity_of(node.status.allocatable, "memory");
  const NodeRequested requested = node_requested(pods);
  if (const auto c = requested.milli.find("cpu"); c != requested.milli.end()) out.cpu_requested = c->second;
  if (const auto m = requested.milli.find("memory"); m != requested.milli.end()) out.memory_requested = m->second / 1000;
  std::set<std::string> owners;
  for (const Pod* pod : pods)
    if (counts_as_requested(*pod)) owners.insert(owner_of(*pod));
  out.workloads.assign(owners.begin(), owners.end());
  if (devices == nullptr) return out;
  for (const CardLedger& card : cards_of(*devices)) {
    CardStanding cs;
    cs.index = card.ledger.index;
    cs.accelerator_key = card.accelerator_key();
    cs.mode = card.ledger.mode;
    cs.partitioned = card.serves_family(ResourceFamily::kPartitioned);
    cs.remaining = card.ledger.remaining;
    cs.free_slots = card.free_slots();
    cs.slots = card.capability.logical_sliced.count;
    for (const Pod* pod : pods)
      for (const auto& a : pod->allocations)
        if (a.accelerator == card.ledger.id)
          cs.charges.push_back({owner_of(*pod), object_key(pod->metadata), a.mode, a.units,
                                a.profile == "-" ? std::string() : a.profile});
    std::sort(cs.charges.begin(), cs.charges.end(),
              [](const CardCharge& a, const CardCharge& b) { return std::tie(a.workload, a.pod) < std::tie(b.workload, b.pod); });
    out.cards.push_back(std::move(cs));
  }
  return out;
}

// Gate 3's card-by-card verdict for the whole Workload on one Node, as its cards stand.
void judge_cards(NodeStanding& n, const Workload& wl, const ResourceFlavor& flavor, const Devices* devices) {
  const std::vector<std::string> keys = flavor_accelerator_keys(flavor);
  std::vector<FamilyDemand> demands;
  for (const auto& ps : wl.pod_sets)
    for (auto& d : pod_set_demands(ps, ps.count, keys.empty() ? "" : keys.front())) demands.push_back(std::move(d));
  if (demands.empty()) return;
  if (devices == nullptr) {
    n.cards_take_it = false;
    n.cards_verdict = "the Node has no Devices record";
    return;
  }
  const Gate3Verdict v = node_devices_feasibility(cards_of(*devices), std::move(demands), n.node);
  n.cards_take_it = v.ready();
  n.cards_verdict = v.message;
}

// Room a Node has for more work, to list the roomiest first when the list is cut.
int64_t room_of(const NodeStanding& n) {
  int64_t units = 0;
  for (const auto& c : n.cards) units += c.remaining;
  return units;
}

}  // namespace

Explanation explain_workload(const ClusterState& cluster, const WorkloadState& workloads, const QueueManager& queues,
                             const std::string& workload_key, size_t node_limit, bool pods_read) {
  Explanation out;
  out.workload = workload_key;
  out.pods_read = pods_read;
  out.place = where_waiting(cluster, workloads, queues, workload_key, pods_read);
  const auto it = workloads.workloads.find(workload_key);
  if (it == workloads.workloads.end()) return out;
  const Workload& wl = it->second;
  out.priority = wl.priority;
  out.created = wl.creation_time;
  out.local_queue = local_queue_key(wl.metadata.namespace_, wl.queue_name);
  if (wl.status.admission) out.cluster_queue = wl.status.admission->cluster_queue;
  else if (const auto l = cluster.local_queues.find(out.local_queue); l != cluster.local_queues.end())
    out.cluster_queue = l->second.cluster_queue;
  for (const auto& ps : wl.pod_sets) out.pods_wanted += ps.count;
  if (wl.admitted())
    for (const Pod& pod : pods_for_admission(wl))
      if (workloads.pods.contains(object_key(pod.metadata))) ++out.pods_running;
  if (!out.cluster_queue.empty()) {
    // Kueue's order of heads: higher priority first, then the older queue-order time, then the key.
    const std::vector<std::string> waiting = queues.waiting(out.cluster_queue);
    out.queue_waiting = static_cast<int32_t>(waiting.size());
    if (std::find(waiting.begin(), waiting.end(), workload_key) != waiting.end()) {
      out.queue_position = 1;
      const auto order = [](const Workload& w, const std::string& key) {
        return std::make_tuple(-static_cast<int64_t>(w.priority), w.status.queue_order_time, key);
      };
      const auto mine = order(wl, workload_key);
      for (const auto& key : waiting) {
        const auto o = workloads.workloads.find(key);
        if (key != workload_key && o != workloads.workloads.end() && order(o->second, key) < mine) ++out.queue_position;
      }
    }
  }
  const auto cq = cluster.cluster_queues.find(out.cluster_queue);
  if (cq == cluster.cluster_queues.end()) return out;

  // Quota: every flavor of every group that covers a resource the Workload asks.
  const ResourceAmounts need = workload_need(wl);
  std::vector<std::string> flavors;  // in the queue's order
  for (const auto& group : cq->second.spec.resource_groups)
    for (const auto& fq : group.flavors)
      for (const auto& rq : fq.resources) {
        const auto n = need.find(rq.name);
        if (n == need.end() || n->second == 0) continue;
        out.quota.push_back({fq.name, rq.name, resource_value(rq.name, rq.nominal_quota), 0, n->second});
        if (std::find(flavors.begin(), flavors.end(), fq.name) == flavors.end()) flavors.push_back(fq.name);
      }

  // Holders: the Workloads with a reservation in the queue (this one excluded).
  for (const auto* kv : workloads.workloads.in_key_order()) {
    const Workload& other = kv->second;
    if (kv->first == workload_key || !other.status.admission || other.finished()) continue;
    if (other.status.admission->cluster_queue != out.cluster_queue) continue;
    QuotaHolder h{kv->first, other.priority, other.admitted(), other.status.quota_reserved_time, held_by(*other.status.admission)};
    for (const auto& held : h.held)
      for (auto& line : out.quota)
        if (line.flavor == held.flavor && line.resource == held.resource) line.reserved += held.amount;
    out.holders.push_back(std::move(h));
  }
  // The Workload's own reservation counts in `reserved` too.
  if (wl.status.admission)
    for (const auto& held : held_by(*wl.status.admission))
      for (auto& line : out.quota)
        if (line.flavor == held.flavor && line.resource == held.resource) line.reserved += held.amount;
  // Holders of the lines the Workload is short of first (most held first), then the rest; by key.
  const auto weight = [&](const QuotaHolder& h) {
    int64_t w = 0;
    for (const auto& held : h.held)
      for (const auto& line : out.quota)
        if (line.flavor == held.flavor && line.resource == held.resource && line.short_of()) w += held.amount;
    return w;
  };
  std::stable_sort(out.holders.begin(), out.holders.end(),
                   [&](const QuotaHolder& a, const QuotaHolder& b) { return weight(a) > weight(b); });
  // A topology failure with quota to spare in more than one flavor: Kueue ran TAS on the first
  // flavor whose quota fits and did not try the next.
  size_t fitting = 0;
  for (const auto& line : out.quota) fitting += line.short_of() ? 0 : 1;
  if (out.place.standing == WorkloadStanding::kWaiting && out.place.gate == Gate::kGate2 && fitting > 1 &&
      out.place.reason.find("doesn't allow to fit") != std::string::npos)
    out.notes.push_back(
        "Kueue runs topology-aware scheduling only on the first flavor whose quota fits, and after a TAS failure "
        "on a busy queue it does not get to the next flavor (before the FlavorFungibilityPreserveScanProgress fix "
        "of v0.18.5 and v0.19.1; kubernetes-sigs/kueue#13658): " + std::to_string(fitting - 1) +
        " later flavor(s) with quota to spare are not tried.");

  // Nodes: those each flavor selects, in flavor order, each listed once.
  std::map<std::string, std::vector<const Pod*>> by_node;
  for (const auto& [key, pod] : workloads.pods)
    if (!pod.node_name.empty()) by_node[pod.node_name].push_back(&pod);
  std::set<std::string> listed;
  for (const auto& flavor : flavors) {
    const auto rf = cluster.resource_flavors.find(flavor);
    if (rf == cluster.resource_flavors.end()) continue;
    for (const auto& [name, node] : cluster.nodes) {
      if (listed.count(name) || !matches_node_selector(rf->second.spec.node_labels, node.metadata.labels)) continue;
      listed.insert(name);
      static const std::vector<const Pod*> kNone;
      const auto pods = by_node.find(name);
      out.nodes.push_back(node_standing(node, cluster.devices_of(name), flavor, pods == by_node.end() ? kNone : pods->second));
      judge_cards(out.nodes.back(), wl, rf->second, cluster.devices_of(name));
    }
  }
  if (node_limit > 0 && out.nodes.size() > node_limit) {
    // Cut to the roomiest Node of each flavor in the queue's order (Kueue tries them in that
    // order), then the roomiest of the rest; listed in flavor order, roomiest first within one.
    const auto rank = [&](const NodeStanding& n) {
      return static_cast<size_t>(std::find(flavors.begin(), flavors.end(), n.flavor) - flavors.begin());
    };
    std::stable_sort(out.nodes.begin(), out.nodes.end(), [&](const NodeStanding& a, const NodeStanding& b) {
      return std::make_pair(rank(a), -room_of(a)) < std::make_pair(rank(b), -room_of(b));
    });
    std::vector<bool> keep(out.nodes.size(), false);
    size_t kept = 0;
    for (size_t i = 0; i < out.nodes.size() && kept < node_limit; ++i)
      if (i == 0 || out.nodes[i].flavor != out.nodes[i - 1].flavor) keep[i] = true, ++kept;
    std::vector<size_t> rest;
    for (size_t i = 0; i < out.nodes.size(); ++i)
      if (!keep[i]) rest.push_back(i);
    std::stable_sort(rest.begin(), rest.end(), [&](size_t a, size_t b) { return room_of(out.nodes[a]) > room_of(out.nodes[b]); });
    for (size_t i = 0; i < rest.size() && kept < node_limit; ++i) keep[rest[i]] = true, ++kept;
    std::vector<NodeStanding> cut;
    for (size_t i = 0; i < out.nodes.size(); ++i)
      if (keep[i]) cut.push_back(std::move(out.nodes[i]));
    out.nodes = std::move(cut);
  }
  return out;
}

}  // namespace chaintwin::model

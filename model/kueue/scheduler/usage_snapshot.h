// The usage one scheduling cycle decides against (Kueue's cache snapshot): quota reserved per
// ClusterQueue, flavor and resource (from every Workload holding status.admission), and the TAS
// usage per node (per-pod PodSpec requests × pods of every topology assignment naming the node,
// plus `pods`), with the usage of the bound, running Pods TAS did not place (non_tas_usage.h) on the
// same nodes. schedule_cycle builds it once and adds each admission, so later heads see it.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "model/keyed_table.h"
#include "model/kueue/scheduler/kueue_config.h"
#include "model/workload/workload.h"

namespace chaintwin::model {

// (flavor, resource) pairs in the order std::less of the pair gives, comparable with a pair of
// views of the two names too, so that a lookup builds no strings.
struct FlavorResourceLess {
  using is_transparent = void;
  template <typename A, typename B>
  bool operator()(const A& a, const B& b) const {
    const std::string_view af(a.first), bf(b.first);
    if (af != bf) return af < bf;
    return std::string_view(a.second) < std::string_view(b.second);
  }
};
// A (flavor, resource) key as views, for lookups.
using FlavorResourceView = std::pair<std::string_view, std::string_view>;
// (flavor, resource) → amount.
using FlavorResourceAmounts = std::map<std::pair<std::string, std::string>, int64_t, FlavorResourceLess>;
// The amount of `fr` in `amounts` (0 when absent).
inline int64_t amount_of(const FlavorResourceAmounts& amounts, FlavorResourceView fr) {
  const auto it = amounts.find(fr);
  return it == amounts.end() ? 0 : it->second;
}
// The amount of `fr` in `amounts` as a cell, the entry made at 0 when absent.
inline int64_t& amount_cell(FlavorResourceAmounts& amounts, FlavorResourceView fr) {
  auto it = amounts.find(fr);
  if (it == amounts.end()) it = amounts.emplace(std::pair<std::string, std::string>(fr.first, fr.second), 0).first;
  return it->second;
}
// Adds `v` to the amount of `fr`, making the entry when absent.
inline void add_amount(FlavorResourceAmounts& amounts, FlavorResourceView fr, int64_t v) { amount_cell(amounts, fr) += v; }
// Node name → TAS usage: found by hash, walked in name order (model/keyed_table.h).
using NodeUsage = KeyedTable<ResourceAmounts>;

struct UsageSnapshot {
  std::map<std::string, FlavorResourceAmounts> quota;  // by ClusterQueue
  NodeUsage nodes;                                      // TAS usage by node name
  bool operator==(const UsageSnapshot&) const = default;
};

// One Workload's reservation as the amounts it adds to a snapshot: its ClusterQueue's quota per
// (flavor, resource) from status.admission, and per Node a topology domain on the hostname level
// names, the PodSet's per-Pod requests times the domain's Pods, plus `pods`. What a cache keeps of a
// Workload it counted, so that taking the Workload out again reads neither it nor its Pods' requests.
struct WorkloadUsage {
  bool reserved = false;  // the Workload held status.admission (else it adds nothing)
  std::string cluster_queue;
  std::vector<std::pair<std::pair<std::string, std::string>, int64_t>> quota;  // ((flavor, resource), amount)
  // Per topology domain on a hostname level: the Node, and per resource (then "pods") its amount.
  std::vector<std::pair<std::string, std::vector<std::pair<std::string, int64_t>>>> nodes;
  bool operator==(const WorkloadUsage&) const = default;
};
// `info`, when given, is the Workload's as the queues keep it (workload_info.h): the per-Pod
// amounts are read from it instead of the Pod templates.
struct WorkloadInfo;
WorkloadUsage workload_usage(const Workload& wl, const WorkloadInfo* info = nullptr);
// Adds (sign +1) or removes (sign -1) one Workload's reservation: of the Workload itself, or as kept.
void add_workload_usage(UsageSnapshot& snapshot, const WorkloadUsage& usage, int sign = 1);
void add_workload_usage(UsageSnapshot& snapshot, const Workload& wl, int sign = 1);

// Amounts added to kept sums, as the cells they went to: the values of std::map entries, which
// stay where they are while the map lives and nothing erases an entry (nothing does: an amount
// back at 0 keeps its entry). Taking the amounts out again walks the cells and reads no names,
// which is what a keeper of sums does when a reservation leaves. The cells belong to the one map
// they were found in: a keeper that replaces the map drops them with it.
struct CellCharges {
  std::vector<std::pair<int64_t*, int64_t>> cells;  // (cell, amount added)
  // Adds the amounts again (sign +1) or takes them out (-1).
  void apply(int sign) const {
    for (const auto& [cell, v] : cells) *cell += sign * v;
  }
  bool operator==(const CellCharges&) const = default;
};
// add_workload_usage(snapshot, usage, +1), returning the cells it added to.
CellCharges charge_workload_usage(UsageSnapshot& snapshot, const WorkloadUsage& usage);

// Every Workload that holds a reservation and has not finished, and every Pod of `workloads.pods`
// that counts as non-TAS usage (counts_as_non_tas_usage).
UsageSnapshot build_usage_snapshot(const WorkloadState& workloads);

// Equal once entries at 0 are ignored (a snapshot kept by adding and removing Workloads keeps
// entries a fresh build would not have).
bool same_usage(const UsageSnapshot& a, const UsageSnapshot& b);

// The node of a topology domain when its last level is kubernetes.io/hostname, else "".
std::string domain_node(const TopologyAssignment& ta, const TopologyDomainAssignment& d);

}  // namespace chaintwin::model

// Gate 3 over time — the `gpustack-node-devices` AdmissionCheck for one Workload with quota
// reserved (node_devices_admission.go). Per node its topology assignment names, the node's cards
// as the allocator's ledger stands (Devices.status; allocate_pod/release_pod are its only
// writers, so it equals the operator's rebuild from the Pods bound there), then INFLIGHT fitting
// of every other Workload that is admitted or holds this check Ready, for its Pods assigned to
// the node and not yet charged (a Pod is charged once its allocation record names every
// accelerator-requesting container; a finished Pod stays counted as held), then this Workload's
// demands in sort_demands order, node name last. Each PodSet is judged only on cards of the
// accelerator key(s) its assigned flavor covers; the per-card budget is global across the
// Workload; a node whose Node object is gone serves nothing; a PodSet without a hostname-level
// assignment is judged across its flavor's whole node pool. Ready or Retry, never Rejected.
// Called by the runner whenever a Workload reserves quota (and again after each Retry delay).
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "model/admission/gate3/gate3_feasibility.h"
#include "model/cluster_state.h"
#include "model/flat_string_index.h"
#include "model/slot_table.h"
#include "model/workload/workload.h"

namespace chaintwin::model {

// The slots (in WorkloadState::pods) of the Pods bound to each Node, by Node name: only looked up,
// so hashed; each Node's in no particular order (Gate 3 only tallies them).
using PodSlotsByNode = FlatStringMap<std::vector<SlotTable<Pod>::Slot>>;

// `inflight`: when given, the keys of every Workload whose hostname-level topology assignment may
// name one of this Workload's Nodes (a superset is fine); only those are looked at for the Pods
// admitted but not yet holding cards. Without it every Workload is. `pods_by_node`: when given, the
// slot of every Pod bound to each Node (complete); the Pods already holding cards are looked up there
// instead of among every Pod.
Gate3Verdict evaluate_node_devices(const ClusterState& cluster, const WorkloadState& workloads,
                                   const std::string& workload_key, const std::set<std::string>* inflight = nullptr,
                                   const PodSlotsByNode* pods_by_node = nullptr);

// Whether `wl` can hold inflight room in another Workload's check at all: one of its PodSets'
// hostname-level assignments places more Pods on some Node than `pods` holds there for it (bound to
// that Node, naming the Workload and PodSet, allocation complete: as the inflight step counts them).
// `pods` may be any subset of the Pods that exist (the Workload's own, say): leaving a Pod out can
// only turn a false into a true. False once every assigned Pod holds its cards; it stays false while
// the Workload's admission and Pods stay as they are, which lets a caller leave such a Workload out
// of `inflight`.
bool has_pods_to_allocate(const Workload& wl, const std::vector<const Pod*>& pods);

// The demands one Pod of `pod_set` puts on one node's cards, multiplied by `pods` Pods and scoped
// to `accelerator_key` ("" = any card): exclusive counts add up (distinct cards), each shared
// container is a holder, each slice and partition is its own demand. Exposed for tests and for
// the runner's diagnostics.
std::vector<FamilyDemand> pod_set_demands(const PodSet& pod_set, int32_t pods, const std::string& accelerator_key);

// The accelerator keys a ResourceFlavor covers: its nodeLabels `acceleratable.feature.gpustack.ai/
// <aKey>` = "true" (sub-keys such as `<aKey>.count` excluded).
std::vector<std::string> flavor_accelerator_keys(const ResourceFlavor& flavor);

}  // namespace chaintwin::model

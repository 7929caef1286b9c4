// Kueue's objects as the operator writes and reads them (kueue.x-k8s.io/v1beta2): ResourceFlavor,
// ClusterQueue (spec and the status Kueue reports), LocalQueue, AdmissionCheck, Topology, plus the
// core Namespace. Only the fields the chain reads or writes are modelled; names follow the API.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/api/object_meta.h"
#include "model/api/quantity.h"

namespace chaintwin::model {

inline constexpr std::string_view kClusterQueueActiveCondition = "Active";  // Kueue's condition type

enum class StopPolicy { kNone, kHold, kHoldAndDrain };
std::string_view to_string(StopPolicy p);  // "None", "Hold", "HoldAndDrain"
std::optional<StopPolicy> parse_stop_policy(std::string_view text);

// metav1.Condition.
struct Condition {
  std::string type;
  std::string status;  // "True", "False", "Unknown"
  std::string reason;
  std::string message;
  int64_t observed_generation = 0;
  bool operator==(const Condition&) const = default;
};
const Condition* find_condition(const std::vector<Condition>& conditions, std::string_view type);
// Sets (or replaces) the condition of that type; returns whether anything changed.
bool set_condition(std::vector<Condition>& conditions, Condition c);
// The same for the condition of these fields (observedGeneration 0), compared in place and
// written into the strings of the condition it replaces: nothing is built when it holds them.
bool set_condition(std::vector<Condition>& conditions, std::string_view type, bool status, std::string_view reason,
                   std::string_view message);

struct Toleration {
  std::string key;
  std::string operator_;  // "Exists" | "Equal"
  std::string value;
  std::string effect;
  bool operator==(const Toleration&) const = default;
};

// A node taint a ResourceFlavor declares (spec.nodeTaints); the operator never sets any.
struct Taint {
  std::string key;
  std::string value;
  std::string effect;  // "NoSchedule" | "PreferNoSchedule" | "NoExecute"
  bool operator==(const Taint&) const = default;
};

struct ResourceFlavorSpec {
  StringMap node_labels;
  std::vector<Toleration> tolerations;
  std::string topology_name;
  std::vector<Taint> node_taints;
  bool operator==(const ResourceFlavorSpec&) const = default;
};

struct ResourceFlavor {
  ObjectMeta metadata;
  ResourceFlavorSpec spec;
  bool operator==(const ResourceFlavor&) const = default;
};

struct ResourceQuota {
  std::string name;  // e.g. credits.gpustack.ai/nvidia, cpu
  Quantity nominal_quota;
  std::optional<Quantity> borrowing_limit;
  std::optional<Quantity> lending_limit;
  bool operator==(const ResourceQuota&) const = default;
};

struct FlavorQuotas {
  std::string name;  // ResourceFlavor name
  std::vector<ResourceQuota> resources;
  bool operator==(const FlavorQuotas&) const = default;
};

struct ResourceGroup {
  std::vector<std::string> covered_resources;
  std::vector<FlavorQuotas> flavors;
  bool operator==(const ResourceGroup&) const = default;
};

struct FlavorFungibility {
  std::string when_can_borrow;   // "Borrow" | "MayStopSearch" | "TryNextFlavor"; unset: stop (Kueue's default)
  std::string when_can_preempt;  // "Preempt" | "TryNextFlavor" | "MayStopSearch"
  std::string preference;        // v1beta2 (v0.15+): "BorrowingOverPreemption" | "PreemptionOverBorrowing" | ""
  bool operator==(const FlavorFungibility&) const = default;
};

struct ClusterQueuePreemption {
  std::string reclaim_within_cohort;        // "Never" | "LowerPriority" | "Any"
  std::string borrow_within_cohort_policy;  // "Never" | "LowerPriority"
  std::optional<int32_t> max_priority_threshold;  // borrowWithinCohort.maxPriorityThreshold
  std::string within_cluster_queue;         // "Never" | "LowerPriority" | "LowerOrNewerEqualPriority"
  bool operator==(const ClusterQueuePreemption&) const = default;
};

struct ClusterQueueSpec {
  std::string cohort_name;  // empty: isolated
  std::vector<ResourceGroup> resource_groups;
  std::optional<StopPolicy> stop_policy;     // nil reads as None
  std::vector<std::string> admission_checks;  // admissionChecksStrategy.admissionChecks[].name
  bool namespace_selector_all = true;         // namespaceSelector: {} (every namespace)
  FlavorFungibility flavor_fungibility;
  ClusterQueuePreemption preemption;
  std::string queueing_strategy = "BestEffortFIFO";
  std::optional<Quantity> fair_sharing_weight;  // spec.fairSharing.weight; absent: 1
  // spec.admissionScope.admissionMode (empty: no admissionScope); admission fair sharing orders the
  // queue's Workloads by their LocalQueues' usage only under "UsageBasedAdmissionFairSharing".
  std::string admission_mode;
  bool operator==(const ClusterQueueSpec&) const = default;
};

// A Cohort object (kueue.x-k8s.io, v1beta1 from Kueue v0.13): a node of the cohort tree that
// ClusterQueues join by spec.cohortName. A cohort named by a ClusterQueue but with no object is
// an implicit root with no quota of its own.
struct CohortSpec {
  std::string parent_name;                    // empty: a root
  std::vector<ResourceGroup> resource_groups;  // quota the cohort itself adds to its subtree
  std::optional<Quantity> fair_sharing_weight;  // spec.fairSharing.weight; absent: 1
  bool operator==(const CohortSpec&) const = default;
};

struct Cohort {
  ObjectMeta metadata;
  CohortSpec spec;
  bool operator==(const Cohort&) const = default;
};

struct ResourceUsage {
  std::string name;
  Quantity total;
  Quantity borrowed;
  bool operator==(const ResourceUsage&) const = default;
};

struct FlavorUsage {
  std::string name;
  std::vector<ResourceUsage> resources;
  bool operator==(const FlavorUsage&) const = default;
};

// What Kueue reports.
struct ClusterQueueStatus {
  std::vector<Condition> conditions;  // Active (reason Ready | Stopped | ...), and the operator's TopologyReady
  int32_t pending_workloads = 0;
  int32_t reserving_workloads = 0;
  int32_t admitted_workloads = 0;
  std::vector<FlavorUsage> flavors_reservation;
  std::vector<FlavorUsage> flavors_usage;
  // status.fairSharing.weightedShare: written while Kueue's fair sharing is on, absent otherwise.
  std::optional<int64_t> weighted_share;
  bool operator==(const ClusterQueueStatus&) const = default;
};

struct ClusterQueue {
  ObjectMeta metadata;
  ClusterQueueSpec spec;
  ClusterQueueStatus status;
  StopPolicy stop_policy() const { return spec.stop_policy.value_or(StopPolicy::kNone); }
  bool operator==(const ClusterQueue&) const = default;
};

struct LocalQueue {
  ObjectMeta metadata;  // namespaced
  std::string cluster_queue;
  std::optional<Quantity> fair_sharing_weight;  // spec.fairSharing.weight (admission fair sharing); absent: 1
  bool operator==(const LocalQueue&) const = default;
};

struct AdmissionCheck {
  ObjectMeta metadata;
  std::string controller_name;
  std::optional<int64_t> retry_delay_minutes;
  std::vector<Condition> conditions;  // Active
  bool active() const;
  bool operator==(const AdmissionCheck&) const = default;
};

struct Topology {
  ObjectMeta metadata;
  std::vector<std::string> levels;  // spec.levels[].nodeLabel, coarse to fine
  bool operator==(const Topology&) const = default;
};

struct Namespace {
  ObjectMeta metadata;
  bool operator==(const Namespace&) const = default;
};

}  // namespace chaintwin::model

// Workloads and Pods as the admission chain sees them: Kueue's Workload (one per replica group,
// with its PodSets, its admission and its admission-check states) and the Pods that admission
// creates, bound to a node and charged on its cards. These are the values gates 1–5 read and
// write; the simulator keeps them in a WorkloadState beside the ClusterState, and the live mode
// will mirror Workloads into the same shape. Field names follow kueue.x-k8s.io/v1beta2 and core/v1.
//
// Time is a plain int64 of microseconds supplied by the caller (the simulator's clock, or a
// timestamp read from the API); model/ never reads a clock.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/api/shared_value.h"
#include "model/api/devices.h"
#include "model/admission/fit_pin.h"
#include "model/kueue/kueue_objects.h"
#include "model/api/object_meta.h"
#include "model/keyed_slots.h"
#include "model/slot_table.h"

namespace chaintwin::model {

using TimeUs = int64_t;  // simulated or observed time, microseconds

// Kueue's label and annotations on Pods and PodSets.
inline constexpr std::string_view kQueueNameLabel = "kueue.x-k8s.io/queue-name";
inline constexpr std::string_view kPodSetLabel = "kueue.x-k8s.io/podset";
inline constexpr std::string_view kWorkloadAnnotation = "kueue.x-k8s.io/workload";
inline constexpr std::string_view kPodSetRequiredTopologyAnnotation = "kueue.x-k8s.io/podset-required-topology";
inline constexpr std::string_view kHostnameLabel = "kubernetes.io/hostname";

// One container's resource requests (limits equal requests for extended resources).
struct Container {
  std::string name;
  ResourceList requests;
  bool restartable = false;  // an initContainer with restartPolicy: Always (a native sidecar)
  bool operator==(const Container&) const = default;
};

// The parts of a PodSpec the chain reads.
struct PodTemplate {
  StringMap labels;
  StringMap annotations;
  std::vector<Container> init_containers;
  std::vector<Container> containers;
  StringMap node_selector;
  std::vector<NodeSelectorTerm> required_node_affinity;  // ORed terms, each ANDed
  std::vector<Toleration> tolerations;
  bool operator==(const PodTemplate&) const = default;
};

struct PodSet {
  std::string name;  // e.g. "main", or a ModelDeployment role
  int32_t count = 1;
  PodTemplate template_;
  // kueue.x-k8s.io/podset-required-topology (a node label key), empty when not requested.
  std::string required_topology_level;
  bool operator==(const PodSet&) const = default;
};

struct TopologyDomainAssignment {
  std::vector<std::string> values;  // one per level
  int32_t count = 0;
  bool operator==(const TopologyDomainAssignment&) const = default;
};

struct TopologyAssignment {
  std::vector<std::string> levels;  // node label keys; the last is kubernetes.io/hostname
  std::vector<TopologyDomainAssignment> domains;
  bool operator==(const TopologyAssignment&) const = default;
};

struct PodSetAssignment {
  std::string name;
  StringMap flavors;  // resource name → ResourceFlavor name (shared by the copies of an admission)
  ResourceList resource_usage;                 // the PodSet's total, after transformations
  int32_t count = 0;
  SharedValue<TopologyAssignment> topology_assignment;  // shared by the copies of an admission
  bool operator==(const PodSetAssignment&) const = default;
};

struct Admission {
  std::string cluster_queue;
  std::vector<PodSetAssignment> pod_set_assignments;
  bool operator==(const Admission&) const = default;
};

enum class CheckState { kPending, kReady, kRetry, kRejected };
std::string_view to_string(CheckState state);  // "Pending", "Ready", "Retry", "Rejected"

struct AdmissionCheckState {
  std::string name;
  CheckState state = CheckState::kPending;
  std::string message;
  TimeUs last_transition = 0;
  bool operator==(const AdmissionCheckState&) const = default;
};

// Workload condition types and the reasons the chain produces.
inline constexpr std::string_view kWorkloadQuotaReserved = "QuotaReserved";
inline constexpr std::string_view kWorkloadAdmitted = "Admitted";
inline constexpr std::string_view kWorkloadEvicted = "Evicted";
inline constexpr std::string_view kWorkloadPreempted = "Preempted";
inline constexpr std::string_view kWorkloadRequeued = "Requeued";
inline constexpr std::string_view kWorkloadFinished = "Finished";

struct WorkloadStatus {
  std::optional<Admission> admission;  // set while quota is reserved
  std::vector<Condition> conditions;
  std::vector<AdmissionCheckState> admission_checks;
  int32_t evictions = 0;      // times evicted so far (any reason)
  int32_t retries = 0;        // admission-check Retry verdicts so far
  TimeUs queue_order_time = 0;  // the timestamp Kueue orders by: creation, or the last check eviction
  TimeUs quota_reserved_time = 0;  // QuotaReserved's last transition to True (preemption order)
  bool operator==(const WorkloadStatus&) const = default;
};

// spec.priorityClassRef (v1beta2; v1beta1's priorityClassSource and priorityClassName): the class
// spec.priority came from. group kueue.x-k8s.io with kind WorkloadPriorityClass, or
// scheduling.k8s.io with kind PriorityClass.
struct PriorityClassRef {
  std::string group;
  std::string kind;
  std::string name;
  bool operator==(const PriorityClassRef&) const = default;
};

struct Workload {
  ObjectMeta metadata;  // namespaced; metadata.name unique in its namespace
  std::string queue_name;  // the LocalQueue (spec.queueName)
  int32_t priority = 0;
  std::optional<PriorityClassRef> priority_class_ref;
  bool active = true;      // spec.active
  std::vector<PodSet> pod_sets;
  TimeUs creation_time = 0;
  WorkloadStatus status;

  bool quota_reserved() const { return status.admission.has_value(); }
  bool admitted() const;  // QuotaReserved and every admission check Ready
  bool finished() const;  // the Finished condition is True
  bool operator==(const Workload&) const = default;
};

// A Pod created for an admitted Workload's PodSet, bound to one node.
enum class PodPhase { kPending, kRunning, kSucceeded, kFailed };
std::string_view to_string(PodPhase phase);

// What the device plugin granted one container: the card (ledger row) and what it took.
struct ContainerAllocation {
  std::string container;
  std::string group_id;     // the status group the card belongs to
  std::string accelerator;  // the card's id
  uint32_t index = 0;
  DeviceAllocationMode mode = DeviceAllocationMode::kNone;  // Exclusive, Shared, Sliced or Partitioned
  int64_t units = 0;        // credit units charged on the card
  std::string profile;      // partitions: vendor profile; "-" otherwise
  int32_t start = 0;        // partitions: first memory slice
  int32_t length = 0;       // partitions: memory slices
  bool operator==(const ContainerAllocation&) const = default;
};

struct Pod {
  ObjectMeta metadata;  // labels carry kQueueNameLabel and kPodSetLabel; annotations kWorkloadAnnotation
  std::string node_name;  // spec.nodeName once bound
  PodTemplate spec;
  PodPhase phase = PodPhase::kPending;
  std::vector<ContainerAllocation> allocations;  // device.gpustack.ai/accelerator.allocated
  bool operator==(const Pod&) const = default;
};

// Every Workload and Pod, keyed "<namespace>/<name>".
struct WorkloadState {
  // By "<namespace>/<name>", in slots found by hash (keyed_slots.h): a walk names its order,
  // key order (in_key_order) or none (each_unordered).
  KeyedSlots<Workload> workloads;
  // By "<namespace>/<name>", in slots (slot_table.h): every walk over the Pods sums, tallies or
  // filters, so none needs key order, and per-Node lists hold slot numbers.
  SlotTable<Pod> pods;
  bool operator==(const WorkloadState&) const = default;
};

inline std::string object_key(const ObjectMeta& m) { return m.namespace_ + "/" + m.name; }

}  // namespace chaintwin::model

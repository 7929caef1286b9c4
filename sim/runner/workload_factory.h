// Turns a scenario's workload description into what the cluster would receive: the InstanceType it
// queues on (by name, by accelerator, or the CPU pool), the Pod template of each PodSet with the
// resource names of the type's manufacturer, Gate 1 (the Pod webhook's seven request rules and the
// fold into credit units) on each template, and the Workload Kueue sees — queued on the LocalQueue
// that fronts the type, with the fit pin the Workload webhook adds. Called by the runner when a
// workload arrives.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "model/cluster_state.h"
#include "model/workload/workload.h"
#include "sim/scenario/scenario.h"

namespace chaintwin::sim {

// What every source of workloads (generator, explicit list, trace) describes.
struct WorkloadRequest {
  std::string name;  // the Workload's name
  std::string namespace_;
  std::string generator;  // the class it belongs to, for reports
  InstanceTypeSelector instance_type;
  std::vector<PodSetSpec> pod_sets;
  std::string required_topology_level;
  int32_t priority = 0;
  std::optional<model::PriorityClassRef> priority_class_ref;
  // An Instance's Pod (kind: Instance): the Instance webhook judges the Instance first; on an
  // accelerated type, a PodSet that gives no cpu/memory gets the host CPU/RAM the operator sizes from
  // the type's unit spec (instance_pod_shape).
  bool instance = false;
  // A template-built Workload (Job, JobSet, RayJob): Kueue builds it from the job's Pod template,
  // which carries no queue-name label and never passes the Pod webhook — no fold into `.units`, no
  // request rules; the Workload webhook's fit pin still runs on it (operator-domain §10.14).
  bool template_built = false;
  // An admin's LocalQueue in the Workload's namespace to queue on instead of an InstanceType's
  // (its ClusterQueue is whatever the LocalQueue names; no InstanceType is chosen).
  std::string local_queue;
};

struct BuiltWorkload {
  std::optional<model::Workload> workload;  // nullopt when refused
  std::string instance_type;               // the InstanceType chosen ("" when none matched)
  std::string cluster_queue;               // = the InstanceType's name, or the LocalQueue's ClusterQueue
  std::string family;                      // exclusive | shared | sliced | partitioned | cpu | mixed
  std::string rejection;                   // why refused: Gate 1's message, or no InstanceType
  std::string rejected_by;                 // "gate1" (Pod or Instance webhook) or "no-instance-type"
};

// The InstanceType a request queues on: the named one; else the first (by name) accelerated type
// whose accelerator group, product or product key matches the selector; else, for a CPU-only
// request, the first type without accelerators. With `alternatives` (a trace pod allowed on several
// models), among the types of all the listed accelerators: one whose status onceMaxRequest takes a
// Pod of the first accelerated PodSet now, then the most remaining in that view, then the listed
// order. Empty when nothing matches.
std::string choose_instance_type(const model::ClusterState& cluster, const InstanceTypeSelector& selector,
                                 bool wants_accelerator, const std::vector<PodSetSpec>& pod_sets = {});

// The accelerator key a generator's `accelerator:` names an accelerated InstanceType by:
// "<manufacturer>-<accelerator group>" ("nvidia-h100-80gb-hbm3"), the group alone when it already
// starts with its manufacturer.
std::string accelerator_selector_key(const model::InstanceType& it);

// The family a request shape belongs to, as reports name it.
std::string family_of(const RequestShape& shape);

// The containers of one Pod for `shape` under the manufacturer's resource names.
std::vector<model::Container> containers_for(const RequestShape& shape, const std::string& manufacturer);

// The request shape of an Instance's Pod on `it`: `shape` with cpu/memory set to the requests of
// model/admission/instance_general_resources.h when it gives neither and holds whole cards or a logical slice
// of an accelerated type (a memoryMib-only slice, a partition and a non-accelerated type keep
// `shape`: see docs/fidelity.md).
RequestShape instance_pod_shape(const RequestShape& shape, const model::InstanceType& it, bool overcommit);

// Builds (and passes through Gate 1 and the Workload webhook) the Workload for `request` at `now`.
BuiltWorkload build_workload(const model::ClusterState& cluster, const WorkloadRequest& request, SimTime now);

}  // namespace chaintwin::sim

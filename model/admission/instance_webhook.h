// Gate 1 for an Instance — the operator's Instance webhook (pkg/worker/webhooks/worker/instance.go,
// operator-domain.md §3.1, §3.9, §8). The API server runs the mutating half first (Default: an
// absent accelerator count becomes 1; the host CPU/RAM become the InstanceType's unit × the card
// count — or × the memory percentage for a slice — whenever `instance-general-resources-overcommit`
// is on, else only when not given; a CPU type's RAM is unit RAM × CPU count), then the validating
// half (ValidateCreate → validateResourceRequests), whose refusals the Instance never survives:
//   - a whole-card count above the type's status.accelerator.onceMaxRequest;
//   - a slice whose accelerator count is not exactly 1, a percentage outside [0, 100];
//   - an accelerator count on a CPU type; a CPU type's CPU above its status.cpu.onceMaxRequest;
//   - host CPU (accelerated types) or RAM above the unit × unit count cap (the preset cap, §8).
// Messages are the API server's `Instance.worker.gpustack.ai "<name>" is invalid: …`.
// Called by the simulator's runner when a `kind: Instance` workload arrives, before its Pod exists.
// Not modelled: local storage, volumes, the reserved-namespace and update checks.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "model/api/instance_type.h"
#include "model/api/quantity.h"

namespace chaintwin::model {

// Instance spec.resources, as far as the chain reads them. A zero quantity is "not given".
struct InstanceResources {
  std::optional<int64_t> accelerator;    // whole cards; 1 for a slice or a partition
  int32_t sliced_memory_percentage = 0;  // acceleratorSlicedMemoryPercentage
  int32_t sliced_cores_percentage = 0;   // acceleratorSlicedCoresPercentage
  std::string partitioned_profile;       // acceleratorPartitionedProfile, e.g. "3g.40gb"
  Quantity cpu;
  Quantity ram;
  bool operator==(const InstanceResources&) const = default;
};

struct InstanceAdmission {
  bool allowed = true;
  std::string message;           // the API server's refusal, when not allowed
  InstanceResources resources;   // after defaulting
};

// The mutating half (InstanceWebhook.Default) for a running (not stopped) Instance.
InstanceResources default_instance_resources(const InstanceType& type, InstanceResources resources,
                                             bool general_resources_overcommit);

// Default, then validate, an Instance named `name` of `type`.
InstanceAdmission admit_instance(const InstanceType& type, const InstanceResources& resources, std::string_view name,
                                 bool general_resources_overcommit);

}  // namespace chaintwin::model

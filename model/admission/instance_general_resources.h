// The host CPU and RAM of an Instance Pod: the Instance webhook sizes spec.resources.cpu/ram from
// the InstanceType's unit spec (whole cards: unit × card count, 0 cards counting as 1; a logical
// slice: unit × memory percentage ÷ 100), and the Instance controller's getResourceRequirements
// makes those the container's limits, with requests scaled down by kuberequest.ScaleToOvercommit
// when the `instance-general-resources-overcommit` setting is on (the default): CPU 100m × ⌈cores⌉
// on an accelerated type, RAM 128Mi × ⌊RAM ÷ Gi⌋. With the setting off, requests = limits.
// Called by the simulator's workload factory for the Pods of `kind: Instance` workloads.
#pragma once

#include <cstdint>

#include "model/api/instance_type.h"
#include "model/api/quantity.h"
#include "model/result.h"

namespace chaintwin::model {

// What the Instance holds of its accelerated type: whole cards, or one logical slice of a card.
struct InstanceAcceleratorHold {
  int64_t cards = 1;                        // exclusive / shared cards; 0 is sized as 1
  int32_t sliced_memory_percentage = 0;     // > 0: one slice of this share of one card
};

struct InstanceGeneralResources {
  Quantity cpu_limit, memory_limit;
  Quantity cpu_request, memory_request;
  bool operator==(const InstanceGeneralResources&) const = default;
};

inline constexpr int64_t kAcceleratedCpuOvercommitMilli = 100;  // per whole core of the limit
inline constexpr int64_t kGeneralCpuOvercommitMilli = 800;      // non-accelerated types
inline constexpr int64_t kRamOvercommitBytes = 128LL << 20;     // 128Mi per whole Gi of the limit

// ScaleToOvercommit for cpu and memory: the request for a limit.
Quantity overcommit_cpu_request(const Quantity& limit, bool acceleratable);
Quantity overcommit_memory_request(const Quantity& limit);

// The limits and requests of an Instance Pod on accelerated type `it`. Refuses a non-accelerated
// type and a unit spec that is not a quantity, saying which.
Result<InstanceGeneralResources> instance_general_resources(const InstanceType& it,
                                                            const InstanceAcceleratorHold& hold,
                                                            bool overcommit);

}  // namespace chaintwin::model

// Kueue's resources.transformations as the operator deploys them (Gate 2's input): the per-Pod
// requests Kueue accounts once the accelerator keys are turned into credits.gpustack.ai/<mfr>.
// Called by the Kueue scheduler model to build a Workload's PodSet usage, and by the tests that
// pin the mapping. The mapping (every accelerator key is Replace; M = 1,600,000):
//   <base>                   N cards    → N × M credits
//   <base>.shared            N shares   → N × M/10 credits (one ownership share; docs leave it open)
//   <base>.sliced.units      U          → U credits (factor 1: M = D)
//   <base>.partitioned.units U          → U credits (factor 1)
//   <base>.sliced, .sliced.cores-percentage, .sliced.memory-percentage, .sliced.memory-mib,
//   <base>.partitioned, <base>.partitioned.<kind>-<profile>  → nothing (replaced by no output)
// Everything else (cpu, memory, ephemeral-storage, pods, the visibility resource, RDMA keys) is
// retained unchanged; with quotaCheckStrategy IgnoreUndeclared Kueue then ignores whatever the
// ClusterQueue does not cover.
#pragma once

#include <string_view>

#include "model/api/object_meta.h"

namespace chaintwin::model {

// Whether Kueue's transformation replaces this key (true for every accelerator-family key).
bool credit_transform_replaces(std::string_view resource_name);

// The requests Kueue accounts for one Pod after the transformation.
ResourceList kueue_effective_requests(const ResourceList& pod_requests);

}  // namespace chaintwin::model

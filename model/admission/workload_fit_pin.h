// The Workload fit-pin webhook (mutating, workloads CREATE/UPDATE, failurePolicy Ignore, never
// denies): pins each PodSet of a Workload queued on an InstanceType queue to nodes whose per-card
// fit labels can hold one of its Pods (fit_pin.h builds the requirements), so Kueue TAS skips a
// fragmented node instead of reserving on it and looping through Gate 3 Retries. Called by the
// runner when a Workload is created (and may be re-applied on update).
#pragma once

#include "model/cluster_state.h"
#include "model/workload/workload.h"

namespace chaintwin::model {

inline constexpr std::string_view kGpustackLocalQueuePrefix = "gpustack-fnv64-";

// Applies the pins when settings.workload_fit_affinity is on, the queue name starts with
// "gpustack-fnv64-", the LocalQueue exists, its ClusterQueue carries resource.gpustack.ai/type=
// instancetypes, an InstanceType of the ClusterQueue's name has an accelerator group, and the
// Workload holds no quota reservation (the UPDATE guard). Per PodSet, containers combine by
// maximum: a folded slice of U units → `sliced-max-free-units… Gt U-1`, a shared request of
// N ≥ 2 → `shared-free-cards… Gt N-1`, ANDed into every required term. Idempotent. Returns
// whether anything changed.
bool apply_workload_fit_pin(Workload& wl, const ClusterState& cluster);

}  // namespace chaintwin::model

// Reading the status Kueue reports on a ClusterQueue, as the NodeQueue reconciler does
// (node_queue.go: hasReserved, clusterQueueObservedAtCurrentGeneration,
// clusterQueueStoppedAtCurrentGeneration, flavorsMayBeInUse). Kueue writes the Active condition's
// observedGeneration in the same status write as its reservation and usage counters, so the
// counters describe the current spec only when that generation caught up.
// Callers: the NodeQueue reconciler and its flavor-plan migration.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "model/kueue/kueue_objects.h"

namespace chaintwin::model {

inline constexpr std::string_view kClusterQueueActiveReasonStopped = "Stopped";

// hasReserved: reserving or admitted workloads, or any flavor reservation whose total or
// borrowed amount is not zero. Pending workloads hold nothing and do not count.
bool has_reserved(const ClusterQueueStatus& status);

// The Active condition exists and its observedGeneration is at least the queue's generation.
bool observed_at_current_generation(const ClusterQueue& cq);

// Observed at the current generation, and Active=False with reason Stopped.
bool stopped_at_current_generation(const ClusterQueue& cq);

// flavorsMayBeInUse: one of `flavors` is missing from flavorsReservation or flavorsUsage (usage
// unknown), or shows a non-zero total or borrowed amount in either.
bool flavors_may_be_in_use(const ClusterQueue& cq, const std::vector<std::string>& flavors);

}  // namespace chaintwin::model

// The stop policies the NodeQueue reconciler owns (node_queue.go): HoldAndDrain for the held
// flavor-plan migration and the no-flavor drain, and the empty-plan Hold with its marker. The
// migration saves the queue's stop policy in topology.gpustack.ai/migration-stop-policy ("unset"
// for none), marks topology.gpustack.ai/migration-phase draining, holds and drains, waits for
// Kueue to report the queue Stopped at the current generation with nothing reserved, switches
// the resource groups (phase switched) and, after the next observed stop, restores the saved
// policy and drops both annotations — unless the new plan is empty, which stays held.
// Callers: the NodeQueue reconciler.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/kueue/kueue_objects.h"
#include "model/result.h"
#include "model/stage4/node_queue_decision.h"

namespace chaintwin::model {

inline constexpr std::string_view kMigrationPhaseDraining = "draining";
inline constexpr std::string_view kMigrationPhaseSwitched = "switched";
inline constexpr std::string_view kStopPolicyUnset = "unset";

// The queue's topology.gpustack.ai/migration-phase annotation, "" when absent.
std::string migration_phase(const ClusterQueue& cq);

// encodeStopPolicy: the policy's name, "unset" for none.
std::string encode_stop_policy(std::optional<StopPolicy> policy);
// decodeStopPolicy: "unset" → none; None / Hold / HoldAndDrain → that policy; anything else is
// refused (the caller reports InvalidMigrationState).
Result<std::optional<StopPolicy>> decode_stop_policy(std::string_view value);

// holdEmptyClusterQueue: a queue with no resource groups, not in migration and with policy None
// (or none) becomes Hold with topology.gpustack.ai/empty-plan-hold=true; nullopt when it stays as is
// (groups present, migrating, or any other policy — an admin Hold is left alone).
std::optional<ClusterQueue> hold_empty_cluster_queue(const ClusterQueue& cq);

// One pass of migrateClusterQueueResourceGroups towards `desired`. `current` is the queue as
// stored; `working` carries the changes the fill already made (tas-queue mark, AdmissionCheck
// references), written with the next update.
NodeQueueDecision migrate_resource_groups(const ClusterQueue& current, ClusterQueue working,
                                          const std::vector<ResourceGroup>& desired);

}  // namespace chaintwin::model

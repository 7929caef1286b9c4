// The NodeQueue reconciler's decision for one ClusterQueue, as a value: which branch it took and
// why, the queue's metadata+spec to write (only when it differs from the current object), the
// TopologyReady condition to set (only when it changes), and when to look again. Also the
// refusal path every branch shares (node_queue.go: rejectClusterQueue,
// setTopologyReadyCondition). Callers: the NodeQueue reconciler and its flavor-plan migration.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "model/kueue/kueue_objects.h"
#include "model/stage4/plan.h"
#include "model/stage4/tas_validation.h"

namespace chaintwin::model {

inline constexpr std::string_view kNodeQueueController = "NodeQueue";
inline constexpr std::string_view kTopologyReadyCondition = "TopologyReady";

inline constexpr int64_t kMigrationRequeueSeconds = 5;   // _TASQueueMigrationRequeueAfter
inline constexpr int64_t kRefusalRequeueSeconds = 30;    // MissingTopology / NonConservedQuota / migrating
inline constexpr int64_t kNoDrainWaitRequeueSeconds = 60;  // drain setting off, reservations remain

struct NodeQueueDecision {
  std::string action;                        // e.g. "fill", "refuse", "migration-switch"
  std::string reason;                        // one line: why
  std::optional<ClusterQueue> update;        // metadata + spec to write (kUpdate)
  std::optional<Condition> topology_ready;   // TopologyReady to set (kUpdateStatus)
  int64_t requeue_after_seconds = 0;         // 0: no requeue
  std::optional<QueueRefusal> refusal;       // set when the plan was refused
};

// True when `a` and `b` differ in what a kUpdate writes (metadata labels, annotations, spec).
bool queue_update_differs(const ClusterQueue& a, const ClusterQueue& b);

// Records `working` as the update when it differs from `current`.
void set_update_if_changed(NodeQueueDecision& d, const ClusterQueue& current, const ClusterQueue& working);

// Sets the TopologyReady condition on the decision when it would change `current`'s status.
void set_topology_ready(NodeQueueDecision& d, const ClusterQueue& current, std::string_view status,
                        std::string_view reason, std::string message);

// rejectClusterQueue: a queue without resource groups is held (holdEmptyClusterQueue on
// `working`), TopologyReady=False/<reason>, requeue 30 s for MissingTopology, NonConservedQuota or
// a queue in migration.
NodeQueueDecision reject_cluster_queue(const ClusterQueue& current, const ClusterQueue& working, QueueRefusal refusal);

// The Plan for a decision: kUpdate, then kUpdateStatus, then the requeue.
Plan plan_of(const NodeQueueDecision& d, const ClusterQueue& current);

}  // namespace chaintwin::model

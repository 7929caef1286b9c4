// Kueue's scheduling cycle (pkg/scheduler/scheduler.go, v0.14) over the chain's isolated
// ClusterQueues: at most one head popped per active ClusterQueue, the heads nominated against
// the usage at the start of the cycle, then taken in Kueue's entry order (higher priority, older
// queue-order time, key) and admitted against the usage committed so far in the cycle. A head that
// fits gets status.admission (flavors, resourceUsage, count, topologyAssignment), QuotaReserved,
// its ClusterQueue's admission checks attached Pending (Admitted at once when there are none);
// one that does not gets QuotaReserved=False/Pending with Kueue's message and goes back to the
// heap (StrictFIFO) or to the inadmissible set (BestEffortFIFO). The simulator's runner calls this
// once per cycle period; the live mode will call the same code.
#pragma once

#include "model/kueue/scheduler/kueue_config.h"
#include "model/kueue/scheduler/nomination_memo.h"
#include "model/kueue/scheduler/queue_manager.h"
#include "model/kueue/scheduler/transitions.h"
#include "model/kueue/scheduler/tas_assigner.h"
#include "model/stage4/cluster_state.h"
#include "model/workload/workload.h"

namespace chaintwin::model {

// Whether Kueue pops heads of this queue: it exists and its Active condition is True
// (not stopped, not terminating, flavors, checks and Topologies present and Active).
bool cluster_queue_active(const ClusterState& cluster, const std::string& cluster_queue);

// `tas_nodes`: the caller's build_tas_node_index(cluster), kept while it holds (optional).
// `reserved`: the caller's build_usage_snapshot(workloads), kept while no Workload's reservation
// changed (optional); the cycle works on a copy once it admits something.
// `memo`: remembered not-fit verdicts, kept by the caller with its invalidations (optional;
// nomination_memo.h). A head whose verdict is remembered and still valid is not searched again.
CycleResult schedule_cycle(const ClusterState& cluster, WorkloadState& workloads, QueueManager& queues, TimeUs now,
                           const KueueConfig& config = {}, const TasNodeIndex* tas_nodes = nullptr,
                           const UsageSnapshot* reserved = nullptr, NominationMemo* memo = nullptr);

}  // namespace chaintwin::model

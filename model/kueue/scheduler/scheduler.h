// Kueue's scheduling cycle (pkg/scheduler/scheduler.go, v0.14) over the chain's isolated
// ClusterQueues: at most one head popped per active ClusterQueue, the heads nominated against
// the usage at the start of the cycle, then taken in Kueue's entry order (higher priority, older
// queue-order time, key) and admitted against the usage committed so far in the cycle. A head that
// fits gets status.admission (flavors, resourceUsage, count, topologyAssignment), QuotaReserved,
// its ClusterQueue's admission checks attached Pending (Admitted at once when there are none);
// one that does not gets QuotaReserved=False/Pending with Kueue's message and goes back to the
// heap (StrictFIFO) or to the inadmissible set (BestEffortFIFO). A head in Preempt mode with victims
// (spec.preemption.withinClusterQueue, preemption.h) evicts them (Evicted/Preempted, Preempted/
// InClusterQueue), is Pending "... Pending the preemption of N workload(s)" and goes back to the
// heap; it is admitted on a later cycle once the victims' quota is released. The simulator's runner calls this at
// the times Kueue's loop would run it (cycle_cadence.h); the live mode will call the same code.
#pragma once

#include <map>
#include <set>
#include <string>

#include "model/kueue/scheduler/kueue_config.h"
#include "model/kueue/scheduler/nomination_memo.h"
#include "model/kueue/scheduler/queue_manager.h"
#include "model/kueue/scheduler/quota_tree.h"
#include "model/kueue/scheduler/reserving_keys.h"
#include "model/kueue/scheduler/transitions.h"
#include "model/kueue/scheduler/tas_assigner.h"
#include "model/cluster_state.h"
#include "model/workload/workload.h"

namespace chaintwin::model {

// Whether Kueue pops heads of this queue: it exists and its Active condition is True
// (not stopped, not terminating, flavors, checks and Topologies present and Active).
bool cluster_queue_active(const ClusterState& cluster, const std::string& cluster_queue);

// What a caller may keep between cycles instead of each cycle deriving it again; every member is
// optional (null: the cycle derives it).
struct KeptCycleState {
  // build_tas_node_index(cluster), kept while it holds.
  const TasNodeIndex* tas_nodes = nullptr;
  // build_usage_snapshot(workloads), kept by the caller as reservations move; the cycle adds its own
  // admissions to it in place (the caller must not add them again).
  UsageSnapshot* reserved = nullptr;
  // Remembered not-fit verdicts, kept with the caller's invalidations (nomination_memo.h). A head
  // whose verdict is remembered and still valid is not searched again.
  NominationMemo* memo = nullptr;
  // The ClusterQueues for which cluster_queue_active() holds, kept while no ClusterQueue,
  // ResourceFlavor, Topology or AdmissionCheck changed.
  const std::set<std::string>* active_queues = nullptr;
  // Per-Node TAS verdicts per request shape, whose generations follow `reserved` (tas_leaf_cache.h);
  // used only with `reserved` and `tas_nodes`, and only until the cycle admits something (its
  // generations do not follow the cycle's own admissions).
  TasLeafCache* tas_leaves = nullptr;
  // The keys of the Workloads holding quota, by ClusterQueue (a superset is fine): preemption looks
  // for candidates only among them. Null: every Workload is looked at.
  const ReservingByQueue* reserving = nullptr;
  // QuotaTree::build(cluster), kept while no ClusterQueue or Cohort changed (null: the cycle builds
  // it when some ClusterQueue has a cohort).
  const QuotaTree* quota_tree = nullptr;
};

CycleResult schedule_cycle(const ClusterState& cluster, WorkloadState& workloads, QueueManager& queues, TimeUs now,
                           const KueueConfig& config = {}, const KeptCycleState& kept = {});

// Cycles in which nothing can happen but heads being parked or put back: every active ClusterQueue
// with a head has a head whose not-fit verdict kept.memo holds, so schedule_cycle would only write
// the Pending condition it already carries (see remembered_heads_mismatch) and move it to the
// inadmissible set (BestEffortFIFO) or back to where it was in its heap (StrictFIFO). Runs up to
// `max_cycles` such cycles (one head per queue per cycle, as schedule_cycle) and stops before the
// first cycle that could do anything else, or that would pop nothing; once only StrictFIFO heads
// are left, every further cycle is the same and all `max_cycles` count as run. Returns how many it
// ran. Needs kept.memo and kept.active_queues (0 without them). Reads the queues and the memo only
// (array reads per head, no Workload looked up). The simulator runs the cycles that fall before its
// next event this way instead of one event each.
int64_t run_idle_cycles(const ClusterState& cluster, QueueManager& queues, const KeptCycleState& kept,
                        int64_t max_cycles);

// The invariant run_idle_cycles relies on: a head in a heap whose not-fit verdict `memo` holds
// already carries the Pending condition that verdict makes schedule_cycle write (QuotaReserved
// False/Pending with the remembered message, Admitted False/NoReservation). It holds because
// schedule_cycle writes that condition in the cycle that remembers the verdict and in every cycle
// that reuses it, and nothing else writes a queued Workload's QuotaReserved condition without it
// leaving the queue (which ends its ref). Returns the first head for which it does not hold, as
// text ("" when it holds); the simulator's --verify asks before every cycle.
std::string remembered_heads_mismatch(const WorkloadState& workloads, const QueueManager& queues,
                                      const NominationMemo& memo);

// The ClusterQueues cluster_queue_active() holds for.
std::set<std::string> active_cluster_queues(const ClusterState& cluster);

}  // namespace chaintwin::model

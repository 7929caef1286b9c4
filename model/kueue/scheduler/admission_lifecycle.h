// The Workload lifecycle around Kueue's scheduling cycle: admission-check verdicts (Gate 3's
// controller and the joint check call set_admission_check_state), stop policies and queue
// activity (sync_queue_states, run by the runner after any ClusterQueue/LocalQueue change),
// finishing (finish_workload) and the ClusterQueue status Kueue reports (cluster_queue_usage).
// Follows pkg/controller/core/workload_controller.go and clusterqueue_controller.go (v0.14).
#pragma once

#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "model/kueue/scheduler/queue_manager.h"
#include "model/kueue/scheduler/quota_tree.h"
#include "model/kueue/scheduler/reserving_keys.h"
#include "model/kueue/scheduler/transitions.h"
#include "model/kueue/scheduler/usage_snapshot.h"
#include "model/cluster_state.h"
#include "model/workload/workload.h"

namespace chaintwin::model {

// Ready → Admitted once every check is Ready; Retry → evicted (AdmissionCheck), quota released,
// checks back to Pending, Requeued, queue-order time = now, retries and evictions counted, back in
// the heap; Rejected → spec.active=false, evicted (Deactivated), out of the queues. A verdict for a
// Workload without a reservation, or that changes nothing, is ignored.
std::vector<WorkloadTransition> set_admission_check_state(const ClusterState& cluster, WorkloadState& workloads,
                                                          QueueManager& queues, const std::string& workload_key,
                                                          const std::string& check, CheckState state,
                                                          const std::string& message, TimeUs now);

// Places Workloads whose queues appeared, releases the inadmissible set of every ClusterQueue whose
// spec or activity changed, applies stop policies (Hold / HoldAndDrain cancel reservations still
// waiting on checks; HoldAndDrain evicts admitted Workloads, ClusterQueueStopped, parked until
// restart; restart requeues them, ClusterQueueRestarted), cancels not-yet-admitted reservations of
// a deleted or terminating ClusterQueue (admitted ones are never evicted for it), and marks waiting
// Workloads of inactive queues and of missing queues Inadmissible.
// `reserving`: when given, the keys of every Workload holding a reservation, by its ClusterQueue (a
// superset is fine): only the Workloads of stopped, deleted or terminating queues are then looked
// at for their reservations, and only parked ones for a restart; without it every Workload is.
// `active`: when given, the ClusterQueues cluster_queue_active() holds for (a kept set, exact);
// without it each queue's Active condition is derived.
// `queues_unchanged`: the caller knows that no ClusterQueue (spec, deletion), no LocalQueue and
// nothing a queue's activity reads changed since the last call, so no queue can have been added or
// changed: the requeue events of QueueManager::observe are skipped (they would all answer "no
// change") and the queue manager's refresh resolves only the LocalQueues it must.
std::vector<WorkloadTransition> sync_queue_states(const ClusterState& cluster, WorkloadState& workloads,
                                                  QueueManager& queues, TimeUs now,
                                                  const ReservingByQueue* reserving = nullptr,
                                                  const std::set<std::string>* active = nullptr,
                                                  bool queues_unchanged = false);

// The job reconciler's side of a preemption (jobframework reconciler, v0.14): once an evicted
// (Evicted=True, reason Preempted) Workload's Pods are gone, its reservation is unset
// (QuotaReserved=False/Pending with the eviction message), Requeued=True with reason Preempted at
// once, and it is back in its queue (queue order keeps its creation time); the inadmissible
// Workloads are released as on any quota loss. Anything else is ignored.
std::vector<WorkloadTransition> release_preempted(const ClusterState& cluster, WorkloadState& workloads,
                                                  QueueManager& queues, const std::string& workload_key, TimeUs now);

// Finished=True, quota released (status.admission cleared), out of the queues; releases the
// inadmissible set of its ClusterQueue, or of every queue when it held a topology assignment.
std::vector<WorkloadTransition> finish_workload(WorkloadState& workloads, QueueManager& queues,
                                                const std::string& workload_key, TimeUs now);

// Kueue's status of every ClusterQueue of `cluster` (pending, reserving, admitted workloads;
// flavorsReservation / flavorsUsage listing every flavor and covered resource of the spec, 0 when
// unused), keeping the conditions it has; only the queues whose status changed are returned.
// `fair_sharing`: the cohort tree while Kueue's fair sharing is on (status.fairSharing.weightedShare
// is then written, from each queue's reserved quota), null otherwise.
std::map<std::string, ClusterQueueStatus> cluster_queue_usage(const ClusterState& cluster, const WorkloadState& workloads,
                                                              const QueueManager& queues,
                                                              const QuotaTree* fair_sharing = nullptr);

// What every reserving Workload adds to its ClusterQueue's status, by ClusterQueue name: a caller
// may keep these as reservations move (add_queue_totals) instead of walking every Workload.
struct QueueTotals {
  int32_t reserving = 0, admitted = 0;
  FlavorResourceAmounts reserved, used;  // (flavor, resource)
  bool operator==(const QueueTotals&) const = default;
};
using QueueTotalsMap = std::map<std::string, QueueTotals>;
// Adds (sign +1) or removes (-1) one reservation; `admitted` counts it into `used` too.
void add_queue_totals(QueueTotalsMap& totals, const Admission& admission, bool admitted, int sign);
// One reservation as counted into the totals (charge_queue_totals): its ClusterQueue's totals and
// the cells of `reserved` (and of `used` when admitted) it added to, so that taking it out reads no
// names. Valid for the map it was counted into (usage_snapshot.h, CellCharges).
struct QueueTotalsCharges {
  QueueTotals* totals = nullptr;  // null: counted nowhere
  bool admitted = false;
  CellCharges amounts;
  // Takes the reservation out of the totals it was counted into, and forgets them.
  void take_out();
};
// add_queue_totals(totals, admission, admitted, +1), returning what it added to.
QueueTotalsCharges charge_queue_totals(QueueTotalsMap& totals, const Admission& admission, bool admitted);
// Every Workload that holds a reservation and has not finished.
QueueTotalsMap build_queue_totals(const WorkloadState& workloads);
// cluster_queue_usage from kept totals. `amounts_moved`, when given, names every ClusterQueue whose
// totals or object may have changed since its status last listed them: a queue not named there is
// taken to list its totals already, so only its pending count is compared.
std::map<std::string, ClusterQueueStatus> cluster_queue_usage(const ClusterState& cluster, const QueueTotalsMap& totals,
                                                              const QueueManager& queues,
                                                              const std::set<std::string>* amounts_moved = nullptr,
                                                              const QuotaTree* fair_sharing = nullptr);

// cluster_queue_usage written into the ClusterQueues of `cluster` (the report applied), queue by
// queue in name order. A queue whose lists already hold the spec's flavors and covered resources
// in order, nothing borrowed, gets only its counts and quantities written, in place; any other
// changed queue gets its lists rebuilt. `before_write` sees each changed queue just before it is
// written. Returns the changed queues, each with whether the (flavor, resource) pairs its lists
// name moved (flavors without resources aside), which the operator reads.
struct QueueUsageWrite {
  std::string cluster_queue;
  bool shape_moved = false;
};
std::vector<QueueUsageWrite> apply_cluster_queue_usage(ClusterState& cluster, const QueueTotalsMap& totals,
                                                       const QueueManager& queues,
                                                       const std::set<std::string>* amounts_moved,
                                                       const std::function<void(const ClusterQueue&)>& before_write,
                                                       const QuotaTree* fair_sharing = nullptr);

}  // namespace chaintwin::model

// Kueue's admission fair sharing (v0.14.8, the same arithmetic through v0.19): within a ClusterQueue
// whose spec.admissionScope.admissionMode is UsageBasedAdmissionFairSharing, the Workload of the
// LocalQueue with the lower usage goes first (cache/queue/cluster_queue.go queueOrderingFunc), and
// among preemption candidates of one queue from different LocalQueues the higher usage goes first
// (preemption/common/ordering.go). It needs the configuration's admissionFairSharing block and the
// AdmissionFairSharing gate (off in v0.14, on from v0.15). Sources: util/admissionfairsharing
// (alpha, entry penalty, decay), workload.go CalcLocalQueueFSUsage, localqueue_controller.go
// (initializeAfsIfNeeded, reconcileConsumedUsage), workload_controller.go updateAfsConsumedUsage,
// scheduler.go updateEntryPenalty.
//
//   alpha(t)  = 1 − 0.5^(t / usageHalfLifeTime)           (0 when the half-life is 0)
//   sample    : consumed ← consumed·(1 − alpha(elapsed)) + admitted·alpha(elapsed), every
//               usageSamplingInterval after the last update (a half-life of 0 resets it to empty)
//   admission : the entry penalty requests·alpha(usageSamplingInterval) is pushed for the
//               LocalQueue; when the Workload turns Admitted in the same update as its quota is
//               reserved, consumed takes a sample at once and the penalty moves into it
//   usage     = Σ_resource weight · (consumed + pending penalty) / the LocalQueue's fairSharing.weight
//
// Amounts are kept as Kueue's quantities are, in milli of each resource's value, and every scaling
// truncates as Kueue's MulByFloat does. The state is the queue manager's (Kueue keeps it in its
// queue manager, AfsConsumedResources and AfsEntryPenalties). Pure.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "model/cluster_state.h"
#include "model/kueue/scheduler/kueue_config.h"
#include "model/workload/workload.h"

namespace chaintwin::model {

// Per resource, in milli of the quantity's value (cpu: millicores; memory: milli-bytes).
using MilliAmounts = std::map<std::string, int64_t>;

// The block is given and the gate is on (afs.Enabled).
bool admission_fair_sharing_enabled(const KueueConfig& config);
// Enabled, and the ClusterQueue's admissionScope asks for it (afs.ResourceWeights' first result).
bool uses_admission_fair_sharing(const KueueConfig& config, const ClusterQueue& cq);

double afs_alpha(double elapsed_seconds, double half_life_seconds);
// CalculateDecayedConsumed.
MilliAmounts afs_decayed(const MilliAmounts& old_consumed, const MilliAmounts& admitted, double elapsed_seconds,
                         double half_life_seconds);
// The Workload's total requests (each PodSet's per-Pod requests after Kueue's transformations,
// times its count), in milli: SumTotalRequests.
MilliAmounts afs_total_requests(const Workload& wl, const KueueConfig& config);
// The admitted usage of a LocalQueue ("<ns>/<name>"): the quota of its Workloads that are Admitted,
// summed over flavors (the cache LocalQueue's GetAdmittedUsage).
MilliAmounts afs_admitted_usage(const WorkloadState& workloads, const std::string& local_queue);

struct LocalQueueConsumption {
  MilliAmounts consumed;
  TimeUs last_update = 0;
  MilliAmounts penalty;  // pushed at admissions and not yet folded into consumed
  bool operator==(const LocalQueueConsumption&) const = default;
};

class AdmissionFairSharingState {
 public:
  // Every LocalQueue of a ClusterQueue that uses admission fair sharing is tracked from the first
  // call that sees it (consumed = its admitted usage then), and each takes the samples due by
  // `now`. The caller calls it before anything changes an admitted usage, so the usage each sample
  // reads is the current one.
  void catch_up(const ClusterState& cluster, const WorkloadState& workloads, const KueueConfig& config, TimeUs now);
  // A Workload of `local_queue` got its quota (updateEntryPenalty add).
  void push_penalty(const std::string& local_queue, const MilliAmounts& requests, const KueueConfig& config);
  // The Workload turned Admitted with its reservation (updateAfsConsumedUsage): a sample with the
  // admitted usage (the Workload's included), plus the penalty, which leaves the pending one.
  void fold(const std::string& local_queue, const WorkloadState& workloads, const MilliAmounts& requests,
            const KueueConfig& config, TimeUs now);
  // CalcLocalQueueFSUsage.
  double usage(const std::string& local_queue, const ClusterState& cluster, const KueueConfig& config) const;
  const std::map<std::string, LocalQueueConsumption>& local_queues() const { return queues_; }
  bool operator==(const AdmissionFairSharingState&) const = default;

 private:
  std::map<std::string, LocalQueueConsumption> queues_;
};

}  // namespace chaintwin::model

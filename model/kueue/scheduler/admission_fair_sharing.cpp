#include "model/kueue/scheduler/admission_fair_sharing.h"

#include <cmath>
#include <optional>
#include <string_view>

#include "model/kueue/fair_sharing_codec.h"
#include "model/kueue/scheduler/usage_snapshot.h"
#include "model/kueue/scheduler/workload_info.h"

namespace chaintwin::model {
namespace {

constexpr double kMicrosPerSecond = 1e6;

// Kueue's int64 amount (cpu milli, others the value) as milli of the quantity's value.
int64_t to_milli(const std::string& resource, int64_t amount) { return resource == "cpu" ? amount : amount * 1000; }

// MulByFloat: each milli value times f, truncated.
MilliAmounts scaled(const MilliAmounts& a, double f) {
  MilliAmounts out;
  for (const auto& [r, v] : a) out[r] = static_cast<int64_t>(static_cast<double>(v) * f);
  return out;
}

// MergeResourceListKeepSum.
MilliAmounts merged(MilliAmounts a, const MilliAmounts& b) {
  for (const auto& [r, v] : b) a[r] += v;
  return a;
}

bool admitted_condition(const Workload& wl) {
  const Condition* c = find_condition(wl.status.conditions, kWorkloadAdmitted);
  return c != nullptr && c->status == "True";
}

std::string local_queue_key(const Workload& wl) { return wl.metadata.namespace_ + "/" + wl.queue_name; }

double seconds(TimeUs t) { return static_cast<double>(t) / kMicrosPerSecond; }

}  // namespace

bool admission_fair_sharing_enabled(const KueueConfig& config) {
  return config.admission_fair_sharing.has_value() && config.gates.admission_fair_sharing;
}

bool uses_admission_fair_sharing(const KueueConfig& config, const ClusterQueue& cq) {
  return admission_fair_sharing_enabled(config) && cq.spec.admission_mode == "UsageBasedAdmissionFairSharing";
}

double afs_alpha(double elapsed_seconds, double half_life_seconds) {
  if (half_life_seconds == 0) return 0.0;
  return 1.0 - std::pow(0.5, elapsed_seconds / half_life_seconds);
}

MilliAmounts afs_decayed(const MilliAmounts& old_consumed, const MilliAmounts& admitted, double elapsed_seconds,
                         double half_life_seconds) {
  const double alpha = afs_alpha(elapsed_seconds, half_life_seconds);
  return merged(scaled(old_consumed, 1 - alpha), scaled(admitted, alpha));
}

MilliAmounts afs_total_requests(const Workload& wl, const KueueConfig& config) {
  const WorkloadInfo info = workload_info(wl, config.effective_requests);
  MilliAmounts out;
  for (std::size_t i = 0; i < info.pod_sets.size() && i < wl.pod_sets.size(); ++i)
    for (const auto& [r, v] : info.pod_sets[i].kueue_amounts) out[r] += to_milli(r, v) * wl.pod_sets[i].count;
  return out;
}

MilliAmounts afs_admitted_usage(const WorkloadState& workloads, const std::string& local_queue) {
  const auto slash = local_queue.find('/');
  const std::string_view ns = std::string_view(local_queue).substr(0, slash);
  const std::string_view name = slash == std::string::npos ? std::string_view() : std::string_view(local_queue).substr(slash + 1);
  MilliAmounts out;
  workloads.workloads.each_unordered([&](const std::string&, const Workload& wl) {  // a sum: any order
    // The cheap tests first: most Workloads hold no reservation or belong to another LocalQueue.
    if (!wl.status.admission || wl.queue_name != name || wl.metadata.namespace_ != ns) return;
    if (wl.finished() || !admitted_condition(wl)) return;
    for (const auto& [fr, v] : workload_usage(wl).quota) out[fr.second] += to_milli(fr.second, v);
  });
  return out;
}

namespace {

// afs_admitted_usage of every LocalQueue at once.
std::map<std::string, MilliAmounts> admitted_by_local_queue(const WorkloadState& workloads) {
  std::map<std::string, MilliAmounts> out;
  workloads.workloads.each_unordered([&](const std::string&, const Workload& wl) {
    if (!wl.status.admission || wl.finished() || !admitted_condition(wl)) return;
    MilliAmounts& lq = out[local_queue_key(wl)];
    for (const auto& [fr, v] : workload_usage(wl).quota) lq[fr.second] += to_milli(fr.second, v);
  });
  return out;
}

}  // namespace

void AdmissionFairSharingState::catch_up(const ClusterState& cluster, const WorkloadState& workloads,
                                         const KueueConfig& config, TimeUs now) {
  if (!admission_fair_sharing_enabled(config)) return;
  const AdmissionFairSharingConfig& afs = *config.admission_fair_sharing;
  // The admitted usages are summed once, and only when some LocalQueue needs them.
  std::optional<std::map<std::string, MilliAmounts>> admitted;
  const auto admitted_of = [&](const std::string& key) -> const MilliAmounts& {
    if (!admitted) admitted = admitted_by_local_queue(workloads);
    static const MilliAmounts kNone;
    const auto it = admitted->find(key);
    return it == admitted->end() ? kNone : it->second;
  };
  for (const auto& [key, lq] : cluster.local_queues) {
    const auto cq = cluster.cluster_queues.find(lq.cluster_queue);
    if (cq == cluster.cluster_queues.end() || !uses_admission_fair_sharing(config, cq->second)) continue;
    auto it = queues_.find(key);
    if (it == queues_.end()) {  // initializeAfsIfNeeded
      queues_[key] = LocalQueueConsumption{admitted_of(key), now, {}};
      continue;
    }
    LocalQueueConsumption& c = it->second;
    if (afs.usage_sampling_interval <= 0 || c.last_update + afs.usage_sampling_interval > now) continue;
    if (afs.usage_half_life_time == 0) {  // reconcileConsumedUsage resets it
      c.consumed.clear();
      c.last_update += (now - c.last_update) / afs.usage_sampling_interval * afs.usage_sampling_interval;
      continue;
    }
    const MilliAmounts& usage = admitted_of(key);
    while (c.last_update + afs.usage_sampling_interval <= now) {
      c.consumed = afs_decayed(c.consumed, usage, seconds(afs.usage_sampling_interval), seconds(afs.usage_half_life_time));
      c.last_update += afs.usage_sampling_interval;
    }
  }
}

void AdmissionFairSharingState::push_penalty(const std::string& local_queue, const MilliAmounts& requests,
                                             const KueueConfig& config) {
  if (!admission_fair_sharing_enabled(config)) return;
  const AdmissionFairSharingConfig& afs = *config.admission_fair_sharing;
  const double alpha = afs_alpha(seconds(afs.usage_sampling_interval), seconds(afs.usage_half_life_time));
  auto& penalty = queues_[local_queue].penalty;
  penalty = merged(penalty, scaled(requests, alpha));
}

void AdmissionFairSharingState::fold(const std::string& local_queue, const WorkloadState& workloads,
                                     const MilliAmounts& requests, const KueueConfig& config, TimeUs now) {
  if (!admission_fair_sharing_enabled(config)) return;
  const AdmissionFairSharingConfig& afs = *config.admission_fair_sharing;
  const double alpha = afs_alpha(seconds(afs.usage_sampling_interval), seconds(afs.usage_half_life_time));
  const MilliAmounts penalty = scaled(requests, alpha);
  const bool known = queues_.count(local_queue) != 0;
  LocalQueueConsumption& c = queues_[local_queue];
  if (!known) c.last_update = now;
  c.consumed = merged(afs_decayed(c.consumed, afs_admitted_usage(workloads, local_queue), seconds(now - c.last_update),
                                  seconds(afs.usage_half_life_time)),
                      penalty);
  c.last_update = now;
  for (const auto& [r, v] : penalty) c.penalty[r] -= v;  // AfsEntryPenalties.Sub
}

double AdmissionFairSharingState::usage(const std::string& local_queue, const ClusterState& cluster,
                                        const KueueConfig& config) const {
  double out = 0;
  if (const auto it = queues_.find(local_queue); it != queues_.end()) {
    const auto& weights = config.admission_fair_sharing ? config.admission_fair_sharing->resource_weights
                                                        : std::map<std::string, double>{};
    for (const auto& [r, v] : merged(it->second.consumed, it->second.penalty)) {
      const auto w = weights.find(r);
      out += (w == weights.end() ? 1.0 : w->second) * (static_cast<double>(v) / 1000.0);
    }
  }
  if (const auto lq = cluster.local_queues.find(local_queue);
      lq != cluster.local_queues.end() && lq->second.fair_sharing_weight)
    out /= fair_sharing_codec::weight_value(lq->second.fair_sharing_weight);
  return out;
}

}  // namespace chaintwin::model
